/*
 * Args[] in a clause whose description matches no probe: the error is
 * that it matches none.
 * @options: -e
 */
dtrace:::NOSUCH { trace(args[0]); }
/* SPDX-License-Identifier: MIT */
