/*
 * Trace() of an aggregation.
 * @options: -e
 */
BEGIN { @a = count(); trace(@a); }
/* SPDX-License-Identifier: MIT */
