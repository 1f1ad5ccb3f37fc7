/*
 * As in DTrace, copyinstr() takes a uintptr_t: a typed char * argument
 * needs a cast.
 * @options: -e
 * @requires: root os:linux
 */
syscall::read:entry { trace(copyinstr(args[1])); }
/* SPDX-License-Identifier: MIT */
