/*
 * Tracemem() with a constant size.
 * @options: -e
 */
BEGIN { tracemem(arg0, 16); tracemem(arg0, 32, arg1); }
/* SPDX-License-Identifier: MIT */
