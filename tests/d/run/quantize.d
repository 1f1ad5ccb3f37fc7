/*
 * quantize() over known values: power-of-two buckets, with one empty row
 * shown on each side of the data.
 * @options: -q
 */
BEGIN
{
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(3);
	@q = quantize(4);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
