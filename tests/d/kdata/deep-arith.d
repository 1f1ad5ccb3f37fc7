/*
 * Operands nested deeper than DIF has registers, on the right: the
 * deeper operand is computed first, so one register per level is not
 * needed; the clause-locals beside them keep their values.
 * @options: -q
 */
BEGIN
{
	this->x = 123456789;
	a = b = c = d = e = f = g = h = i = j = k = 87654321;
	printf("%d\n", a++ & (b++ & (c++ & (d++ & (e++ & (f++ & (g++ &
	    (h++ & (i++ & (j++ & k++))))))))));
	printf("%d\n", a++ & (b++ & (c++ & (d++ & (e++ & (f++ & (g++ &
	    (h++ & (i++ & (j++ & k++))))))))));
	printf("%d\n", 1 + (2 * (3 + (4 * (5 + (6 * (7 + (8 * (9 + (10 * (11 +
	    12)))))))))));
	printf("%d %d %d\n", a, k, this->x);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
