/*
 * With an aggrate longer than the switchrate, printa() while tracing
 * prints the consumer's copy of the aggregation, refreshed at most every
 * aggrate: here only the first, taken after BEGIN.  Once tracing stops
 * the copy is refreshed, so END prints every update.
 * @options: -q -x switchrate=10ms -x aggrate=3600s
 * @serial: timing
 */
BEGIN
{
	@ = count();
}

tick-20ms
/n++ < 3/
{
	@ = count();
	printa("tick %@d\n", @);
}

tick-20ms
/n > 3/
{
	exit(0);
}

END
{
	printa("end %@d\n", @);
}
/* SPDX-License-Identifier: MIT */
