/*
 * Keys computed from expressions.
 * @options: -e
 */
BEGIN { @a[probefunc, pid % 10, execname == "sh"] = max(timestamp); }
/* SPDX-License-Identifier: MIT */
