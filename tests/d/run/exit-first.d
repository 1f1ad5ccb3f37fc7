/*
 * The first exit() sets the status: one that runs after it (here a
 * profile probe that may still fire before tracing stops) is too late.
 * @options: -q
 * @status: 2
 */
BEGIN
{
	exit(2);
}

profile-1000
{
	exit(5);
}

END
{
	printf("end\n");
}
/* SPDX-License-Identifier: MIT */
