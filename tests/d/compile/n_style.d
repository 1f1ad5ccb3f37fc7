/*
 * What one-liners look like as a script.
 * @options: -e
 * @requires: os:linux
 */
syscall:::entry /execname == "top"/ { @[probefunc] = count(); }
/* SPDX-License-Identifier: MIT */
