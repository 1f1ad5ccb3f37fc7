/*
 * Every aggregating function.
 * @options: -e
 */
BEGIN
{
	@s = sum(1);
	@a = avg(2);
	@mn = min(3);
	@mx = max(4);
	@sd = stddev(5);
	@q = quantize(6);
	@qw = quantize(6, 2);
	@l = lquantize(7, 0, 100);
	@ls = lquantize(7, 0, 100, 10);
	@lw = lquantize(7, 0, 100, 10, 3);
	@ll = llquantize(8, 10, 0, 6, 20);
}
/* SPDX-License-Identifier: MIT */
