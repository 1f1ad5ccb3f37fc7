/*
 * Freopen(".") is refused: "." is DTrace's token for restoring stdout.
 * @options: -e -w
 */
BEGIN { freopen("."); }
/* SPDX-License-Identifier: MIT */
