/*
 * Macro variables.
 * @options: -e
 */
BEGIN { trace($pid); trace($ppid); trace($uid); trace($gid); trace($euid); trace($egid); trace($pgid); trace($sid); trace($projid); trace($taskid); trace($$pid); }
/* SPDX-License-Identifier: MIT */
