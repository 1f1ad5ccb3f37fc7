/*
 * A macro argument that is neither a number nor a name.
 * @options: -e
 * @args: /tmp/file
 */
BEGIN { trace($1); }
/* SPDX-License-Identifier: MIT */
