#!/usr/sbin/dtrace -s
/*
 * A #! interpreter line.
 * @options: -e
 */
BEGIN { }
/* SPDX-License-Identifier: MIT */
