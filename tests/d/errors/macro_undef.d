/*
 * A macro argument that was not given.
 * @options: -e
 */
BEGIN { trace($1); }
/* SPDX-License-Identifier: MIT */
