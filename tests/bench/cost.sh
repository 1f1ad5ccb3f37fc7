# SPDX-License-Identifier: MIT
# cost.sh: sourced by the per-firing benchmarks (pid-vs-bpftrace.sh,
# ptrace-vs-ltrace.sh).  The caller sets N, RUNS and tmp (a scratch
# directory).  A tracer's cost per firing is (wall(N) - wall(0)) / N,
# median of RUNS runs, so start-up and attaching cancel out.

now() { date +%s%N; }

# median of the arguments
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

# wall time in ns of "$@" (output to $tmp/out)
wall() {
	local t0 t1
	t0=$(now)
	"$@" >"$tmp/out" 2>&1
	t1=$(now)
	echo $((t1 - t0))
}

# cost NAME COUNT-FILTER CMD... (with @N@ for the number of calls):
# prints the ns per firing and whether the count was N; sets cost_NAME.
cost() {
	local name=$1 filter=$2 i a b got x ok
	shift 2
	local full=() none=() d=()
	for x in "$@"; do
		full+=("${x//@N@/$N}")
		none+=("${x//@N@/0}")
	done
	for ((i = 0; i < RUNS; i++)); do
		a=$(wall "${none[@]}")
		b=$(wall "${full[@]}")
		d+=($(((b - a) / N)))
	done
	got=$($filter <"$tmp/out")
	[ "$got" = "$N" ] && ok=OK || ok="MISMATCH ($got)"
	printf '%-10s %10d ns/firing   count %s\n' "$name" "$(median "${d[@]}")" \
	    "$ok"
	eval "cost_$name=$(median "${d[@]}")"
}

# The count a dtrace -q run printed with printa("%@d") or the default.
dcount() { awk 'NF == 1 && $1 ~ /^[0-9]+$/ { n = $1 } END { print n }'; }
