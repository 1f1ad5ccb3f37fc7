/*
 * An llquantize() whose last magnitude reaches past INT64_MAX: every
 * value beyond the last representable bound falls in that magnitude's
 * buckets, on both engines alike (and the BPF program stays verifiable).
 * @options: -q
 */
BEGIN
{
	@ = llquantize(5, 10, 17, 18, 10);
	@ = llquantize(1000000000000000000, 10, 17, 18, 10);
	@ = llquantize(9223372036854775807, 10, 17, 18, 10);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
