/*
 * String keys of every kind in one program: execname and string constants
 * (which the bpf engine keys on in fewer bytes than strsize), an integer
 * between two strings, and an aggregation keyed both by a constant and by
 * a computed string, whose keys take all of strsize.  Every key prints
 * whole and sorts as in DTrace.
 * @options: -q
 */
BEGIN
{
	@a[execname, 3, "xy"] = count();
	@a[execname, 4, "a longer string"] = count();
	@a[execname, 4, "a longer string"] = count();
	@b[execname] = sum(5);
	@c["k", 7] = count();
	@c["a much longer key", 8] = count();
	@d["short"] = count();
}

BEGIN
{
	@d[strjoin("comp", "uted")] = count();
	@d[strjoin("comp", "uted")] = count();
	@d["short"] = count();
	@d["short"] = count();
	trace(execname);
	printf(" [%s]\n", execname);
	printa("%s %d %s: %@d\n", @a);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
