/*
 * Probe descriptions with globs.
 * @options: -e
 */
syscall::read*:entry { }
syscall::*read:return { }
syscall::re?d:entry { }
syscall::[rw]*:entry { }
*:::entry { }
