/*
 * -x defaultargs gives missing arguments 0 and "".
 * @options: -e -x defaultargs
 * @requires: os:linux
 */
BEGIN { trace($1); trace($$2); }
syscall::$3:entry { }
/* SPDX-License-Identifier: MIT */
