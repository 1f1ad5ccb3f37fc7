/*
 * Tracemem() with a size that is not a constant.
 * @options: -e
 */
BEGIN { tracemem(arg0, arg1); }
/* SPDX-License-Identifier: MIT */
