/*
 * Without -c or -p, $target is 0: scripts written for a process compile
 * and run (and test pid == $target against the idle tasks).
 * @options: -q
 */
BEGIN
/$target == 0/
{
	printf("%d %s\n", $target, $$target);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
