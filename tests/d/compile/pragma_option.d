/*
 * #pragma D option.
 * @options: -e
 */
#pragma D option quiet
#pragma D option bufsize=4m
#pragma D option switchrate=10hz
#pragma D option strsize=64
BEGIN { }
/* SPDX-License-Identifier: MIT */
