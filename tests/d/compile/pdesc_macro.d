/*
 * Macro arguments inside a probe description.
 * @options: -e
 * @args: read
 */
syscall::$1:entry { }
