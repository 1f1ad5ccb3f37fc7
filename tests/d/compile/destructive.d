/*
 * Destructive actions compile.
 * @options: -e -w
 */
BEGIN { stop(); raise(9); system("echo %d", pid); breakpoint(); panic(); chill(100); copyout(curthread, arg0, 8); copyoutstr("x", arg0, 2); }
/* SPDX-License-Identifier: MIT */
