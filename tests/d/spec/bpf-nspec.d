/*
 * The BPF engine unrolls speculation() over every speculation, so it
 * takes at most 64; more is refused with one line saying so.
 * @options: -q -x nspec=65
 * @engines: bpf
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	s = speculation();
	exit(0);
}
/* SPDX-License-Identifier: MIT */
