/*
 * -x oformat=folded: every key is a frame, in key order, an empty stack
 * adds none, ';' in a key becomes ':', equal lines fold into one with
 * their counts added, an aggregation without keys is its name; printa()
 * prints the same lines, and records of other actions stay text.
 * @options: -q -x oformat=folded
 */
BEGIN
{
	@c["x", 1] = count();
	@c["x", 1] = count();
	@c["y;z w", -2] = count();
	@c["y:z w", -2] = count();
	@s[stack(), "k"] = sum(7);
	@s[stack(), "k"] = sum(1);
	@m = max(4);
	@m = max(9);
	@a["p"] = avg(3);
	@a["p"] = avg(5);
	printf("before\n");
	printa(@m);
	printf("after\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
