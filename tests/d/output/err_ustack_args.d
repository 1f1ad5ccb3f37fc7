/*
 * Ustack() takes the frames and the string space, no more; both are
 * checked before the count of arguments, as in DTrace.
 * @options: -e
 */
BEGIN { ustack(5, 0, 3); }
/* SPDX-License-Identifier: MIT */
