/* SPDX-License-Identifier: MIT */
/*
 * sched.d: the current CPU's processor set, chip and locality group as
 * DTrace names them for D programs (pset, chip, lgrp), read from curcpu,
 * the cpuinfo_t the engines fill for each CPU (dt_os_cpuinfo()).
 *
 * On Linux a CPU's chip is its physical package and its locality group
 * its NUMA node; Linux has no processor sets, so pset is -1, as DTrace
 * gives for a CPU in none.  cpu itself is a built-in variable.
 */
inline psetid_t pset = curcpu->cpu_pset;
inline chipid_t chip = curcpu->cpu_chip;
inline lgrp_id_t lgrp = curcpu->cpu_lgrp;
