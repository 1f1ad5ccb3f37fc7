/*
 * trunc() gives an aggregation's space back, so a monitor that truncates
 * keeps recording new keys for ever.  aggsize holds 24 keys of
 * @[int, int] = count() (24 bytes each) on either engine; each of six
 * ticks adds 6 new keys and the first five truncate.  Without the space
 * back, the fifth tick's keys would not fit, nor the last tick's; with
 * it, the last tick's 6 keys are printed at the end and nothing is
 * dropped (an empty stderr).  A trunc() the consumer processes up to
 * three ticks late (a loaded machine) still leaves room.
 * @options: -q -x aggsize=576 -x switchrate=10ms -x aggrate=10ms
 * @status: 0
 * @serial: timing
 */
int n;

tick-100ms
/n < 6/
{
	@[n, 0] = count(); @[n, 1] = count(); @[n, 2] = count();
	@[n, 3] = count(); @[n, 4] = count(); @[n, 5] = count();
}

tick-100ms
/n < 5/
{
	trunc(@);
}

tick-100ms
{
	n++;
}

tick-100ms
/n == 6/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
