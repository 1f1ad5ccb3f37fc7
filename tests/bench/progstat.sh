# SPDX-License-Identifier: MIT
# progstat.sh: sourced by the benchmarks that read the kernel's own
# account of a tracer's BPF programs (bpf-vs-bpftrace.sh,
# pid-vs-bpftrace.sh).  The kernel keeps each program's run time and run
# count while kernel.bpf_stats_enabled is 1; the figures add a clock read
# on each side of every run, so runs measured this way are kept apart
# from the timed ones.

bpf_stats=/proc/sys/kernel/bpf_stats_enabled

# prog_stat PID: "RUN_TIME_NS RUN_CNT" of PID's most-run BPF program, from
# the /proc fdinfo of its program file descriptors.
prog_stat() {
	local f
	for f in /proc/"$1"/fdinfo/*; do
		awk '/^prog_type:/ { p = 1 } /^run_time_ns:/ { t = $2 }
		    /^run_cnt:/ { c = $2 }
		    END { if (p && c > 0) print t, c }' "$f" 2>/dev/null
	done | sort -k2,2n | tail -1
}
