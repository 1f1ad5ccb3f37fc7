/*
 * Pid and usdt probe descriptions.
 * @options: -e -Z
 * @args: 1234
 */
pid$1:libc.so.6:malloc:entry { }
pid$1::*:return { }
myapp$1:::start { }
/* SPDX-License-Identifier: MIT */
