/*
 * Associative arrays with tuple keys.
 * @options: -e
 */
BEGIN
{
	a[1] = 2;
	b["x", 2] = "y";
	c[pid, tid, execname] = timestamp;
	trace(a[1] + 1);
	trace(b["x", 2]);
}
/* SPDX-License-Identifier: MIT */
