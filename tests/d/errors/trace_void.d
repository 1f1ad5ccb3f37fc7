/*
 * Trace() of a void expression.
 * @options: -e
 */
BEGIN { trace(bcopy(0, 0, 0)); }
/* SPDX-License-Identifier: MIT */
