/*
 * -x defaultargs gives missing arguments 0 and "".
 * @options: -e -x defaultargs
 */
BEGIN { trace($1); trace($$2); }
syscall::$3:entry { }
