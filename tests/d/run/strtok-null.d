/*
 * NULL, as DTrace's scripts use it: strtok(NULL, delim) goes on with the
 * string of the last call, and a token compared with NULL is NULL when
 * there are no more; the quiet pragma keeps the banner away.
 */
#pragma D option quiet

BEGIN { this->s = ",,one,,two,three,"; }
BEGIN /(this->t = strtok(this->s, ",")) == NULL/ { exit(1); }
BEGIN { printf("%s\n", this->t); }
BEGIN /(this->t = strtok(NULL, ",")) == NULL/ { exit(2); }
BEGIN { printf("%s\n", this->t); }
BEGIN /(this->t = strtok(NULL, ",")) == NULL/ { exit(3); }
BEGIN { printf("%s\n", this->t); }
BEGIN /(this->t = strtok(NULL, ",")) != NULL/ { exit(4); }
BEGIN { printf("end %d\n", NULL); exit(0); }
/* SPDX-License-Identifier: MIT */
