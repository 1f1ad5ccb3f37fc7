/*
 * Trace() of an action call: a void expression.
 * @options: -e
 */
BEGIN { trace(printf("x")); }
/* SPDX-License-Identifier: MIT */
