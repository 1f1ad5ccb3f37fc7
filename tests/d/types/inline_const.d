/*
 * An inline defined as an integer constant is that constant, at the
 * inline's type: it can size an array, and the R_* register names are
 * such inlines of type int.
 * @options: -q
 */
inline int N = 3;
inline char C = 300;
int a[N];

BEGIN
{
	a[N - 1] = N;
	printf("%d %d %d %d %d\n", a[2], sizeof (a), C, sizeof (C),
	    sizeof (R_SP));
	exit(0);
}
/*
 * The R_* names are a processor's: a build without an OS backend has
 * none.
 * @requires: os:linux
 * SPDX-License-Identifier: MIT
 */
