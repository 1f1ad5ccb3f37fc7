/*
 * Without -q each firing is prefixed with the CPU, probe ID and
 * function:name, under a header line.
 * @cpu: 0
 */
BEGIN
{
	trace("hello, world");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
