/*
 * The sort options over printings whose keys and values change between
 * them: with aggsortkey, aggsortrev and aggsortkeypos=1 the second key
 * orders first, in reverse, whatever order the last printing kept.
 * @options: -q -x switchrate=10ms -x aggrate=10ms -x aggsortkey -x aggsortrev -x aggsortkeypos=1
 * Ticks 500 ms apart: a printa() is printed when the consumer takes its
 * record, and a consumer slowed down (a sanitizer build under load) was
 * seen to print the next tick's values with ticks 100 ms apart.
 * @serial: timing
 */
int n;

tick-500ms
/n < 4/
{
	@[n, 10 - n] = sum(1);
	@[n % 2, n] = sum(n);
	@[7, 7] = sum(5 - 2 * n);
}

tick-500ms
/n == 2/
{
	trunc(@, 3);
}

tick-500ms
/n < 4/
{
	printf("== tick %d\n", n);
	printa(@);
	n++;
}

tick-500ms
/n == 4/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
