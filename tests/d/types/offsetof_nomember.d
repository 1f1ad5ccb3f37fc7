/*
 * offsetof() of a member the struct does not have.
 * @options: -e
 */
struct s { int a; };

BEGIN
{
	trace(offsetof(struct s, b));
}
/* SPDX-License-Identifier: MIT */
