/*
 * An inline of a built-in expression.
 * @options: -e
 */
inline int64_t ARG = arg0 * 2;
BEGIN { trace(ARG); }
/* SPDX-License-Identifier: MIT */
