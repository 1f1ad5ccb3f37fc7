#!/bin/bash
# SPDX-License-Identifier: MIT
#
# startup.sh: where dtrace(1)'s start-up goes, phase by phase, for
#   dtrace -q -n 'BEGIN { exit(0); }'
# and the whole against bpftrace -e 'BEGIN { exit(); }'.  It measures; it
# passes or fails nothing (exit status 0 unless it could not run at all).
#
#   1. Start-up to the first firing and to exit, median of RUNS runs of
#      each tool: wall time (hyperfine-like loop, one run at a time) and
#      dtrace's CPU time (user + system, all threads), which other load
#      on the machine disturbs less.  The ratio dtrace/bpftrace of the
#      wall times.
#   2. The phases, from uprobes bpftrace places on libdtrace's functions
#      (the build tree's library is not stripped: its local functions are
#      there too) while it runs dtrace under -c: the time from exec to
#      the entry and return of each, median of RUNS runs, in ms:
#        exec -> dtrace_open        the process starting (dynamic linking)
#        dtrace_open                the handle: options, providers
#          dt_os_providers_init     the kernel's providers registered (their
#                                   lists from tracefs are made when a
#                                   description could match their probes)
#        dtrace_program_strcompile  the clause, and before it the first time
#          dt_lib_load              the D library files (lib/*.d), for a
#                                   program that may use them
#            dt_btf_load            the kernel's types (BTF), for them
#        dtrace_program_exec        matching probes
#        dtrace_go                  the engine chosen and started: BEGIN
#                                   fires in it (the first firing)
#        dtrace_stop, dtrace_close  END, then tearing down
#      A phase that never runs (the kernel's features, probed lazily,
#      when the interpreter engine serves BEGIN alone) is absent.  Uprobes
#      cost a few microseconds a hit; these functions are hit once or
#      twice a run.  Columns: the first entry and the last return, and
#      the time in its calls (outermost ones: a function called again
#      counts each time).  These are wall times: on a loaded machine they
#      stretch, and only part 1's CPU time says what the work costs.
#
# Run as root (the uprobes), from anywhere:
#
#   tests/bench/startup.sh [path/to/dtrace]
#
# The default dtrace is the build tree's (build/cmd/.libs/dtrace with
# LD_LIBRARY_PATH to its library, as an installed one runs: no libtool
# wrapper).  Environment: RUNS (default 11), BPFTRACE.

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
RUNS=${RUNS:-11}
BPFTRACE=${BPFTRACE:-bpftrace}

die() { echo "startup: $*" >&2; exit 2; }

if [ $# -gt 0 ]; then
	DTRACE=$1
	LIB=$(ldd "$DTRACE" 2>/dev/null | awk '/libdtrace/ { print $3 }')
else
	DTRACE=$repo/build/cmd/.libs/dtrace
	LIB=$repo/build/.libs/libdtrace.so.0
	export LD_LIBRARY_PATH=$repo/build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
[ -x "$DTRACE" ] || die "no dtrace at $DTRACE"
[ "$(id -u)" -eq 0 ] || die "needs root (uprobes, and bpftrace)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/startup.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
ms() { awk -v n="$1" 'BEGIN { printf("%.1f", n / 1e6) }'; }

# CPU time of a command (user + system of it and its children)
${CC:-cc} -O2 -o "$tmp/cpu" "$here/child_cpu.c" || die "cannot compile child_cpu.c"

echo "startup: $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "dtrace: $DTRACE ($LIB)"

# ---------------------------------------------------------------- 1.
declare -a dw dc bw
for ((i = 0; i < RUNS; i++)); do
	t0=$(now)
	"$tmp/cpu" "$tmp/cpu.time" "$DTRACE" -q -n 'BEGIN { exit(0); }' \
	    >/dev/null 2>"$tmp/cpu.out" ||
	    die "dtrace failed: $(head -2 "$tmp/cpu.out")"
	t1=$(now)
	dw+=($((t1 - t0)))
	dc+=($(awk '{ print $1 * 1000 }' "$tmp/cpu.time"))
	if command -v "$BPFTRACE" >/dev/null 2>&1; then
		t0=$(now)
		"$BPFTRACE" -e 'BEGIN { exit(); }' >/dev/null 2>&1
		t1=$(now)
		bw+=($((t1 - t0)))
	fi
done
echo
echo "== 1. start-up to exit, median of $RUNS runs"
printf '  %-40s %8s ms wall  %8s ms CPU\n' "dtrace -q -n 'BEGIN { exit(0); }'" \
    "$(ms "$(median "${dw[@]}")")" "$(ms "$(median "${dc[@]}")")"
if [ ${#bw[@]} -gt 0 ]; then
	printf '  %-40s %8s ms wall\n' "bpftrace -e 'BEGIN { exit(); }'" \
	    "$(ms "$(median "${bw[@]}")")"
	echo "  ratio start-up dtrace/bpftrace: $(awk -v a="$(median "${dw[@]}")" \
	    -v b="$(median "${bw[@]}")" 'BEGIN { printf("%.2f", a / b) }')"
fi

# ---------------------------------------------------------------- 2.
echo
echo "== 2. phases (ms from exec, median of $RUNS runs; uprobes by bpftrace)"
if ! command -v "$BPFTRACE" >/dev/null 2>&1; then
	echo "  no bpftrace: no phases (apt-get install bpftrace)"
	exit 0
fi
[ -n "$LIB" ] && [ -e "$LIB" ] || { echo "  no libdtrace found for $DTRACE"; exit 0; }
FUNCS="dtrace_open dt_os_providers_init dt_linux_features_probe
dtrace_program_strcompile dt_lib_load dt_btf_load dtrace_program_exec
dtrace_go dtrace_stop dtrace_close"
{
	echo 'tracepoint:sched:sched_process_exec /pid == cpid/ { printf("exec 0 %llu\n", nsecs); }'
	echo 'tracepoint:sched:sched_process_exit /pid == cpid && tid == cpid/ { printf("exit 0 %llu\n", nsecs); }'
	for f in $FUNCS; do
		nm "$LIB" 2>/dev/null | grep -qE " [tT] $f\$" || continue
		for k in 1 2; do
			[ $k = 1 ] && p=uprobe || p=uretprobe
			echo "$p:$LIB:$f /pid == cpid/ { printf(\"$f $k %llu\\n\", nsecs); }"
		done
	done
} >"$tmp/phases.bt"
: >"$tmp/all"
# bpftrace -c splits its command at spaces, quotes and all: a script
# that execs dtrace, whose exec is the last one seen
printf '#!/bin/sh\nexec "%s" -q -n "BEGIN { exit(0); }"\n' "$DTRACE" >"$tmp/run.sh"
for ((i = 0; i < RUNS; i++)); do
	"$BPFTRACE" -q -c "/bin/sh $tmp/run.sh" "$tmp/phases.bt" \
	    >"$tmp/ph.out" 2>"$tmp/ph.err" || continue
	# per run: each function's first entry and last return, from exec,
	# and the time in its outermost calls
	awk -v run="$i" '
	    $1 == "exec" { t0 = $3 }
	    $2 == 1 && !(($1) in in_) { in_[$1] = $3 }
	    $2 == 1 && depth[$1]++ == 0 { start[$1] = $3 }
	    $2 == 2 { out[$1] = $3 }
	    $2 == 2 && depth[$1] > 0 && --depth[$1] == 0 {
		took[$1] += $3 - start[$1]
	    }
	    $1 == "exit" { out["exit"] = $3 }
	    END {
		if (t0 == "") exit
		for (f in in_) printf("%s in %d %d\n", f, run, in_[f] - t0)
		for (f in out) printf("%s out %d %d\n", f, run, out[f] - t0)
		for (f in took) printf("%s took %d %d\n", f, run, took[f])
	    }' "$tmp/ph.out" >>"$tmp/all"
done
[ -s "$tmp/all" ] || { echo "  bpftrace placed no probes: $(head -2 "$tmp/ph.err")"; exit 0; }
phase() {	# NAME LABEL: median entry, return and their difference
	local f=$1 label=$2 ins outs
	ins=$(awk -v f="$f" '$1 == f && $2 == "in" { print $4 }' "$tmp/all")
	outs=$(awk -v f="$f" '$1 == f && $2 == "out" { print $4 }' "$tmp/all")
	[ -n "$outs" ] || return
	if [ -z "$ins" ]; then
		printf '  %-28s %-36s %8s\n' "$f" "$label" "$(ms "$(median $outs)")"
		return
	fi
	durs=$(awk -v f="$f" '$1 == f && $2 == "took" { print $4 }' "$tmp/all")
	printf '  %-28s %-36s %8s %8s %8s\n' "$f" "$label" \
	    "$(ms "$(median $ins)")" "$(ms "$(median $outs)")" \
	    "$(ms "$(median $durs)")"
}
printf '  %-28s %-36s %8s %8s %8s\n' phase what "1st in" "last out" took
phase dtrace_open "the handle (its entry: process start)"
phase dt_os_providers_init "  the kernel's providers"
phase dt_linux_features_probe "  the kernel's features"
phase dtrace_program_strcompile "the clause (with the library)"
phase dt_lib_load "  the D library files"
phase dt_btf_load "    the kernel's types (BTF)"
phase dtrace_program_exec "matching probes"
phase dtrace_go "the engine, BEGIN fires: first firing"
phase dtrace_stop "END"
phase dtrace_close "teardown"
phase exit "exit (return: the process's end)"
