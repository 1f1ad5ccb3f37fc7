/*
 * Args[] in a clause.
 * @options: -e
 * @requires: os:linux
 */
syscall::read:entry { trace(args[0]); x = args[2]; }
/* SPDX-License-Identifier: MIT */
