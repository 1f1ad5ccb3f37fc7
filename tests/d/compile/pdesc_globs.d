/*
 * Probe descriptions with globs.
 * @options: -e
 * @requires: os:linux
 */
syscall::read*:entry { }
syscall::*read:return { }
syscall::re?d:entry { }
syscall::[rw]*:entry { }
*:::entry { }
/* SPDX-License-Identifier: MIT */
