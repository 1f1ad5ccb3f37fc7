/*
 * aggpack: each quantize() or lquantize() entry is one line, the same
 * buckets for every entry of the aggregation, a character per bucket
 * scaled to the entry's own total (' ', '_' to 'X'; 'v' and 'V' below
 * zero), then the highest bucket and the count.
 * @options: -q -x aggpack -x encoding=ascii
 */
BEGIN
{
	@[1] = quantize(3);
	@[1] = quantize(5);
	@[2] = quantize(100);
	@l["a"] = lquantize(3, 0, 10, 2);
	@l["b"] = lquantize(30, 0, 10, 2);
	@l["b"] = lquantize(-3, 0, 10, 2, -2);
	@z = quantize(0);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
