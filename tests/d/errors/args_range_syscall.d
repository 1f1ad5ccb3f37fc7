/*
 * Openat has four arguments: args[4] is out of range.
 * @options: -e
 * @requires: root os:linux
 */
syscall::openat:entry { trace(args[4]); }
/* SPDX-License-Identifier: MIT */
