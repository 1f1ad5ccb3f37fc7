/*
 * Reading a variable nothing has assigned.
 * @options: -e
 */
BEGIN { trace(x); }
/* SPDX-License-Identifier: MIT */
