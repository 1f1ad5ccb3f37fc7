/*
 * Under bufpolicy=ring the records are printed at the end: the clause
 * whose exit() won is still printed then, and END's exit() still sets
 * the status.  (END prints nothing: the rings are printed CPU by CPU,
 * so its line and the profile clause's, made on two CPUs, could come
 * in either order.)
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
	exit(3);
}
/* SPDX-License-Identifier: MIT */
