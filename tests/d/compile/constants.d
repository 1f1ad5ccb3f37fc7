/*
 * Integer constants with suffixes and bases.
 * @options: -e
 */
BEGIN
{
	a = 0; b = 10; c = 010; d = 0x1f; e = 0XFF;
	f = 1u; g = 1l; h = 1ul; i = 1ll; j = 1ull; k = 1LU; l = 0xffffffffffffffff;
	m = 2147483648; n = 4294967296;
}
/* SPDX-License-Identifier: MIT */
