#!/bin/bash
# SPDX-License-Identifier: MIT
# pid-attach.sh [path/to/dtrace]: how long pid entry probes take to attach
# and detach on the BPF engine, for 100, 1,000, 10,000 and all the
# functions of a running python3 and its libraries; dtrace with the
# kernel's uprobe_multi links (one program, a link per file) against
# dtrace with a uprobe per site (DTRACE_LINUX_NOFEATURE=uprobe_multi, the
# path of kernels before 6.6) and, where it is installed, bpftrace with
# the same uprobes.  Each run is `BEGIN { exit(0); }` beside the probes,
# so its wall time is attach + detach; dtrace's attach alone is the time
# to BEGIN.  Root.  Environment: SETS (default "100 1000 10000 all"),
# SLOW_MAX (largest set tried a uprobe per site, default 1000),
# BPFTRACE.  A description per function also measures matching each
# description; the last rows give every function of libc and of the
# whole process as one description.
set -u

dtrace=${1:-$(dirname "$0")/../../build/cmd/dtrace}
bpftrace=${BPFTRACE:-$(command -v bpftrace)}
sets=${SETS:-100 1000 10000 all}
slow_max=${SLOW_MAX:-1000}
[ "$(id -u)" -eq 0 ] || { echo "pid-attach: needs root" >&2; exit 1; }

tmp=$(mktemp -d)
python3 -c 'import time; time.sleep(3600)' &
target=$!
trap 'kill $target 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 0.5

# Every entry probe of the target, as "module function" lines.
"$dtrace" -l -p $target -n 'pid$target:::entry' 2>/dev/null |
    awk 'NR > 1 && $4 !~ /@/ { print $3, $4 }' | sort -u >"$tmp/all"
total=$(wc -l <"$tmp/all")
echo "python3 (pid $target): $total functions with an entry probe"

now() { date +%s%N; }
# run_dtrace LIST [env]: prints attach and total seconds, for a
# description per function of LIST, or the one description LIST names
# when it begins "pid".
run_dtrace() {
	local list=$1 t0 t1 begin
	shift
	case $list in
	pid*) echo "$list" >"$tmp/descs" ;;
	*) awk '{ printf "pid$target:%s:%s:entry,\n", $1, $2 }' "$list" |
	    sed '$ s/,$//' >"$tmp/descs" ;;
	esac
	{ cat "$tmp/descs"; echo '{ @ = count(); }'
	  echo 'BEGIN { printf("%d\n", walltimestamp); exit(0); }'; } \
	    >"$tmp/s.d"
	t0=$(now)
	begin=$(env "$@" "$dtrace" -q -p $target -s "$tmp/s.d" 2>"$tmp/err" |
	    head -n 1)
	t1=$(now)
	awk -v a="$t0" -v b="$begin" -v c="$t1" 'BEGIN {
		if (b == "") { printf "   failed (see below)"; exit }
		printf "%8.2f s attach %8.2f s total", (b - a) / 1e9,
		    (c - a) / 1e9 }'
	[ -n "$begin" ] || grep -v '^dtrace: skipped' "$tmp/err" | head -n 2 >&2
}
run_bpftrace() {
	local list=$1 t0 t1 path
	: >"$tmp/bt"
	while read -r mod fn; do
		path=$(awk -v m="$mod" '$6 ~ "/" m "$" || ($6 ~ /\// &&
		    m == "a.out" && NR == 1) { print $6; exit }' \
		    /proc/$target/maps)
		[ -n "$path" ] && echo "uprobe:$path:$fn," >>"$tmp/bt"
	done <"$list"
	sed -i '$ s/,$//' "$tmp/bt"
	{ cat "$tmp/bt"; echo '/pid == '$target'/ { @ = count(); }'
	  echo 'BEGIN { exit(); }'; } >"$tmp/s.bt"
	t0=$(now)
	timeout 1200 "$bpftrace" "$tmp/s.bt" >/dev/null 2>&1 ||
	    { printf "   failed"; return; }
	t1=$(now)
	awk -v a="$t0" -v c="$t1" 'BEGIN { printf "%8.2f s total",
	    (c - a) / 1e9 }'
}

printf "%-7s %-44s %-44s %s\n" probes "dtrace (uprobe_multi)" \
    "dtrace (a uprobe per site)" bpftrace
for n in $sets; do
	if [ "$n" = all ] || [ "$n" -ge "$total" ]; then
		cp "$tmp/all" "$tmp/set"
		n=$total
	else
		shuf -n "$n" --random-source=<(yes) "$tmp/all" >"$tmp/set"
	fi
	printf "%-7s %-44s " "$n" "$(run_dtrace "$tmp/set")"
	if [ "$n" -le "$slow_max" ]; then
		printf "%-44s " "$(run_dtrace "$tmp/set" \
		    DTRACE_LINUX_NOFEATURE=uprobe_multi)"
	else
		printf "%-44s " "(not tried: over SLOW_MAX)"
	fi
	if [ -n "$bpftrace" ] && [ "$n" -le "$slow_max" ]; then
		run_bpftrace "$tmp/set"
	else
		printf "(not run)"
	fi
	echo
done
# The same probes as one description: what a user writes.
for d in 'pid$target:libc.so.6::entry' 'pid$target:::entry'; do
	printf "%-7s %-44s\n" "" "$(run_dtrace "$d")   $d"
done
