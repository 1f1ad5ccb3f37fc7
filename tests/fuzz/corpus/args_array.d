/*
 * Args[] in a clause.
 * @options: -e
 */
syscall::read:entry { trace(args[0]); x = args[2]; }
