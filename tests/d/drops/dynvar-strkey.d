/*
 * A string key is charged strsize bytes against dynvarsize whatever its
 * length, as DTrace sizes its dynamic variables by their declared keys:
 * at strsize=256 a dynvarsize of 512 holds one element of an array
 * keyed by strings, however short the strings.  The store that does not
 * fit is dropped and, as in DTrace, ends its clause: one drop, and the
 * clause's later statements do not run.
 * @options: -q
 * @status: 0
 */
#pragma D option strsize=256
#pragma D option dynvarsize=512

BEGIN
{
	a["Harding"] = 1;
	a["Hoover"] = 2;
	a["Nixon"] = 3;
	a["Bush"] = 4;
	printf("not reached: the dropped store ends the clause\n");
}

BEGIN
{
	printf("%d %d %d %d\n", a["Harding"], a["Hoover"], a["Nixon"],
	    a["Bush"]);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
