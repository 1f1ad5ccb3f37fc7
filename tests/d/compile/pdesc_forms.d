/*
 * Probe descriptions with one to four fields and empty fields.
 * @options: -e -Z
 */
BEGIN { }
syscall:::entry { }
::read:entry { }
syscall::read:entry { }
fbt:vmlinux:do_sys_open:entry { }
entry { }
/* SPDX-License-Identifier: MIT */
