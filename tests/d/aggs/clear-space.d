/*
 * clear() keeps an aggregation's keys, with their values back to zero,
 * but the engine's space for them is given back (as in DTrace, whose
 * kernel holds only the keys that changed since the last snapshot), so a
 * monitor that clears keeps recording new keys for ever.  aggsize holds
 * 16 keys of @[int, int] = count() on either engine; each of six ticks
 * adds 6 new keys and the first five clear.  All 36 keys are printed at
 * the end: the 30 cleared with 0, the last tick's with 1; nothing is
 * dropped.  Without the space back, only 16 keys would ever be recorded.
 * @options: -q -x aggsize=384 -x switchrate=10ms -x aggrate=10ms
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
	clear(@);
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
