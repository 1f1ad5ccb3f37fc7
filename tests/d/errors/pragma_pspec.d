/*
 * #pragma D option pspec takes effect in the rest of the program: "int*x"
 * is then a probe description, not a declaration, and lacks its body.
 * @options: -e
 */
#pragma D option pspec

int*x
/* SPDX-License-Identifier: MIT */
