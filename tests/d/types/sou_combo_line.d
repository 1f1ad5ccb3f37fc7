/*
 * A struct definition missing its ';' runs into the next one: the error
 * names the line where the second type begins its body.
 * @options: -e
 */
struct a {
	int x;
}

struct b {
	int y;
};
/* SPDX-License-Identifier: MIT */
