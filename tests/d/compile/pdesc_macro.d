/*
 * Macro arguments inside a probe description.
 * @options: -e
 * @args: read
 * @requires: os:linux
 */
syscall::$1:entry { }
/* SPDX-License-Identifier: MIT */
