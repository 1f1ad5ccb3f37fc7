/*
 * Under bufpolicy=ring the records are printed at the end: the clause
 * whose exit() won is still printed then, and END's exit() still sets
 * the status.
 * @options: -q -x bufpolicy=ring
 * @status: 3
 */
profile-4999hz
{
	printf("fired\n");
	exit(0);
}

END
{
	printf("end\n");
	exit(3);
}
/* SPDX-License-Identifier: MIT */
