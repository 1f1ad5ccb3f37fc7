/*
 * Static in D.
 * @options: -e
 */
static int x;
/* SPDX-License-Identifier: MIT */
