/*
 * BEGIN has no typed arguments: args[0] is out of range, as in DTrace.
 * @options: -e
 */
BEGIN { trace(args[0]); }
/* SPDX-License-Identifier: MIT */
