/*
 * An inline may take an index, as fds[] does: the body reads it as the
 * named parameter, and each reference binds it to its own key, which may
 * itself use the inline.
 * @options: -q
 */
inline int sq[int x] = x * x;
inline string nm[int i] = i == 0 ? "zero" : i == 1 ? "one" : "many";

BEGIN
{
	printf("%d %d %d %s %s %s\n", sq[3], sq[sq[2]], sq[-4], nm[0], nm[1],
	    nm[sq[3]]);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
