/*
 * pset, chip and lgrp, DTrace's variables of the current CPU, read from
 * curcpu: Linux has no processor sets (-1); the chip and the locality
 * group are the CPU's cpuinfo_t's.
 * @options: -q
 */
BEGIN
{
	printf("%d %d %d\n", pset, chip == curcpu->cpu_chip,
	    lgrp == curcpu->cpu_lgrp);
	printf("%d %d %d\n", sizeof (pset), sizeof (chip), sizeof (lgrp));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
