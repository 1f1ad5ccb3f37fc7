/*
 * A constant expression keeps all 64 bits while it is computed, whatever
 * the type of its operands, exactly as the same expression computed at run
 * time does: (1 << 63) - 1 is INT64_MAX as an increment or a sum, and only
 * a record of the int (printf's %d of an int) cuts it.  Folded and run
 * time results must agree.
 * @options: -q
 */
int one;

BEGIN
{
	one = 1;
	@folded["(1 << 63) - 1"] = sum((1 << 63) - 1);
	@runtime["(1 << 63) - 1"] = sum((one << 63) - 1);
	@folded["0x7fffffff + 1"] = sum(0x7fffffff + 1);
	@runtime["0x7fffffff + 1"] = sum(0x7fffffff + one);
	@folded["0x7fffffff * 4"] = sum(0x7fffffff * 4);
	@runtime["0x7fffffff * 4"] = sum(0x7fffffff * (one * 4));
	@folded["-8 >> 1"] = sum(-8 >> 1);
	@runtime["-8 >> 1"] = sum(-8 >> one);
	@folded["(1 << 40) / 3"] = sum((1 << 40) / 3);
	@runtime["(1 << 40) / 3"] = sum((one << 40) / 3);
	/* A bucket's count wraps as a 64-bit counter does. */
	@wrap = lquantize(1, 0, 2, 1, (1 << 63) - 1);
	@wrap = lquantize(1, 0, 2, 1, 1);
	printf("%d %d\n", 0x7fffffff + 1, 1 << 40);
	printf("%d\n", (1 << 63) - 1 > 0);
	exit(0);
}

END
{
	printa("folded  %-16s %@d\n", @folded);
	printa("runtime %-16s %@d\n", @runtime);
	printa(@wrap);
}
/* SPDX-License-Identifier: MIT */
