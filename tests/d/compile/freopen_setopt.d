/*
 * Freopen(), ftruncate() and setopt().
 * @options: -e -w
 */
BEGIN { freopen("/tmp/out.%d", pid); ftruncate(); setopt("quiet"); setopt("bufsize", "4m"); freopen(""); }
/* SPDX-License-Identifier: MIT */
