/*
 * Variable declarations of every scope.
 * @options: -e
 */
int x;
self int y;
this int z;
string s;
int64_t arr[int, string];
self string names[int];
uint64_t big;
char *p;
int i, j, *k;
BEGIN { x = 1; self->y = 2; this->z = 3; s = "a"; arr[1, "b"] = 4; self->names[1] = "n"; }
/* SPDX-License-Identifier: MIT */
