/*
 * Openat has four arguments: args[4] is out of range.
 * @options: -e
 * @requires: root
 */
syscall::openat:entry { trace(args[4]); }
