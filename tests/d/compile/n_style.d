/*
 * What one-liners look like as a script.
 * @options: -e
 */
syscall:::entry /execname == "top"/ { @[probefunc] = count(); }
