#!/bin/bash
# SPDX-License-Identifier: MIT
# curcpu.sh: curcpu points to the cpuinfo_t of the CPU the probe fires
# on, on the interpreter and BPF engines: dtrace pinned to each CPU in
# turn must see that CPU's ID, its package as cpu_chip, its NUMA node as
# cpu_lgrp, no processor set, online, the machine's type and its
# nominal clock (cpufreq's maximum, else /proc/cpuinfo's).
set -u

command -v taskset >/dev/null || { echo "needs taskset"; exit 77; }

fail=0
engines=interp
[ "$(id -u)" -eq 0 ] && engines="interp bpf"
S='BEGIN { printf("%d %d %d %d %d %s [%s] %d %d\n", curcpu->cpu_id,
    curcpu->cpu_pset, curcpu->cpu_chip, curcpu->cpu_lgrp,
    curcpu->cpu_info.pi_state, curcpu->cpu_info.pi_processor_type,
    curcpu->cpu_info.pi_fputypes, curcpu->cpu_info.pi_clock,
    curcpu->cpu_id == cpu); exit(0); }'
fpu=""
case $(uname -m) in x86_64|i?86) fpu="i387 compatible" ;; esac
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	c=${d##*cpu}
	[ "$(cat "$d/online" 2>/dev/null || echo 1)" = 1 ] || continue
	chip=$(cat "$d/topology/physical_package_id" 2>/dev/null || echo 0)
	node=0
	for n in "$d"/node[0-9]*; do [ -e "$n" ] && node=${n##*node}; done
	mhz=$(cat "$d/cpufreq/cpuinfo_max_freq" 2>/dev/null)
	if [ -n "$mhz" ]; then
		mhz=$((mhz / 1000))
	else
		mhz=$(awk -v c="$c" '/^processor/ { p = $3 }
		    /^cpu MHz/ && p == c { printf("%d", $4); exit }' \
		    /proc/cpuinfo)
	fi
	want="$c -1 $chip $node 2 $(uname -m | cut -c1-15) [$fpu] ${mhz:-0} 1"
	for e in $engines; do
		got=$(taskset -c "$c" "$DTRACE" -q -x engine=$e -n "$S" 2>&1)
		if [ "$got" != "$want" ]; then
			printf 'FAIL: cpu %s, %s: want "%s", got "%s"\n' \
			    "$c" "$e" "$want" "$got"
			fail=1
		fi
	done
done
[ $fail = 0 ] || exit 1
echo "curcpu as sysfs describes each CPU"
