/*
 * The bpf engine keeps scratch, scratchsize included, where its
 * instructions can address it: a scratchsize past that is refused with
 * one line naming the option.
 * @options: -q -x scratchsize=40k
 * @engines: bpf
 */
BEGIN
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
