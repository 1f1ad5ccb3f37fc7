/*
 * A pattern over the profile provider's Evolving names may match probes
 * with different arguments, so args[] is refused, as in DTrace.
 * @options: -e
 */
profile:::tick-1*
{
	trace(args[0]);
}
/* SPDX-License-Identifier: MIT */
