/*
 * An aggregation's integer key keeps the type of its first use: a later
 * use with another width or signedness is converted to it, so equal
 * values are one entry.
 * @options: -q
 */
BEGIN
{
	@[(int32_t)1, 2] = count();
	@[(int64_t)1, 2] = count();
	@[(uint8_t)300, 2] = count();
	@[(short)44, 2] = count();
	exit(0);
}
/* SPDX-License-Identifier: MIT */
