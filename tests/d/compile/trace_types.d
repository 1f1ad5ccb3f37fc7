/*
 * Trace() of values of several types.
 * @options: -e
 */
BEGIN { trace(1); trace("s"); trace(curthread); trace(execname); trace(-1); trace(1 == 1); }
/* SPDX-License-Identifier: MIT */
