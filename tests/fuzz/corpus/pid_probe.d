/*
 * Pid and usdt probe descriptions.
 * @options: -e
 * @args: 1234
 */
pid$1:libc.so.6:malloc:entry { }
pid$1::*:return { }
myapp$1:::start { }
