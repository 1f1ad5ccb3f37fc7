/*
 * Under D 1.1, strstr is the built-in subroutine, not a name free for a
 * program's variable.
 */
#pragma D option version=1.1

int strstr;
/* SPDX-License-Identifier: MIT */
