/*
 * A bad option value.
 * @options: -e
 */
#pragma D option bufsize=lots
BEGIN { }
/* SPDX-License-Identifier: MIT */
