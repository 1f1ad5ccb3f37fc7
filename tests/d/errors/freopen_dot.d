/*
 * Freopen() of the current directory.
 * @options: -e
 */
BEGIN { freopen("."); }
/* SPDX-License-Identifier: MIT */
