#!/usr/sbin/dtrace -Cs
/*
 * A #! line in a preprocessed script.
 * @options: -e -C
 */
#define X 1
BEGIN { trace(X); }
/* SPDX-License-Identifier: MIT */
