/*
 * exit(N) ends tracing with status N.
 * @options: -q
 * @status: 3
 */
BEGIN
{
	exit(3);
}
/* SPDX-License-Identifier: MIT */
