#!/bin/bash
# SPDX-License-Identifier: MIT
# metrics-totals.sh: nothing -x metrics serves is lost on its way into a
# real Prometheus, for keys that print the same although the entries
# differ: kernel stacks (profile-997, printed without offsets), and
# usym(), umod() and ustack() of short-lived processes (one entry per
# process, printed alike).  Debian's prometheus, started here on
# 127.0.0.1, scrapes dtrace every second; once the aggregations stop
# changing, the sum over Prometheus's series (its query API) must equal
# the total of dtrace's own printa() of the same aggregation, exactly:
# count()s, a sum() (a gauge: the return values can be negative) and a
# quantize() (its +Inf buckets and _count against printa's counts, its
# _sum against printa's rows, each value at its row's value).  Every
# page served meanwhile must pass promtool check metrics (the 0.0.4
# text) and the OpenMetrics parser of python3-prometheus-client (the
# OpenMetrics text), and repeat no label set.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v prometheus >/dev/null ||
	{ echo "needs Prometheus (apt install prometheus)"; exit 77; }
command -v promtool >/dev/null ||
	{ echo "needs promtool (apt install prometheus)"; exit 77; }
command -v jq >/dev/null || { echo "needs jq to read the query API"; exit 77; }
# Debian's module, whichever python3 is first on PATH.
py=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || { echo "needs python3-prometheus-client's OpenMetrics parser"; exit 77; }
why=$("$DTRACE" -q -n 'profile-997 { exit(0); }' 2>&1 >/dev/null) ||
	{ echo "no BPF profile probes here: $why"; exit 77; }

tmp=$(mktemp -d)
dpid=
ppid_=
wpid=
trap '[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
      [ -n "$dpid" ] && kill "$dpid" 2>/dev/null
      [ -n "$ppid_" ] && kill "$ppid_" 2>/dev/null
      wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0

# GET path from 127.0.0.1:port [with an Accept header], the body on stdout.
http_get() {
	local port=$1 path=$2 accept=${3:-}
	exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
	printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n%s\r\n' "$path" \
	    "${accept:+Accept: $accept$'\r\n'}" >&3
	sed '1,/^\r$/d' <&3
	exec 3<&-
}

# The short-lived processes: sleep under a name of their own, so that
# only they are traced.
cp "$(type -P sleep)" "$tmp/mtsleep" || exit 1
cp "$(type -P true)" "$tmp/mtdone" || exit 1

# Until mtdone runs, the aggregations fill: kernel stacks on every CPU,
# and the system calls of the mtsleep processes.  A second after, they
# are printed, and stay as they are while dtrace runs on.  aggrate and
# switchrate are short, so that the processes' symbols are read while
# they run and their usym() and umod() keys print alike.  The sum()
# takes return values below 4096 as they are (-1 for a failed call) and
# larger ones (addresses) as 4096: Prometheus keeps float64 samples,
# exact only below 2^53.
"$DTRACE" -q -x aggrate=100ms -x switchrate=100ms -x metrics=127.0.0.1:0 -n '
    BEGIN { done = 0; ticks = 0; }
    profile-97 /!done/ { @kstack[stack()] = count(); }
    syscall:::entry /!done && execname == "mtsleep"/ {
        @usym[usym(uregs[R_PC])] = count();
        @umod[umod(uregs[R_PC])] = count();
        @ustack[ustack()] = count();
        self->ts = timestamp;
    }
    syscall:::return /!done && self->ts/ {
        @ret[umod(uregs[R_PC])] = sum(arg0 < 4096 ? arg0 : 4096);
        @lat[umod(uregs[R_PC])] = quantize(timestamp - self->ts);
        self->ts = 0;
    }
    syscall:::entry /execname == "mtdone"/ { done = 1; }
    tick-1s /done && ++ticks == 2/ {
        printa("kstack %@d\n", @kstack);
        printa("usym %@d\n", @usym);
        printa("umod %@d\n", @umod);
        printa("ustack %@d\n", @ustack);
        printa("ret %@d\n", @ret);
        printa(@lat);
        printf("printed\n");
    }' >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for _ in $(seq 100); do
	grep -q 'metrics at' "$tmp/err" 2>/dev/null && break
	kill -0 "$dpid" 2>/dev/null || break
	sleep 0.1
done
dport=$(sed -n 's|^dtrace: metrics at http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$tmp/err")
[ -n "$dport" ] || { echo "FAIL: no metrics address: $(cat "$tmp/err")"; exit 1; }

# 16 processes, 4 at a time, each living 0.5 s; then the marker.
(
	sleep 1
	for _ in 1 2 3 4; do
		for _ in 1 2 3 4; do "$tmp/mtsleep" 0.5 & done
		wait
	done
	"$tmp/mtdone"
) &
wpid=$!

# A free port for Prometheus.
pport=
for _ in $(seq 50); do
	p=$((20000 + RANDOM % 40000))
	(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { pport=$p; break; }
done
[ -n "$pport" ] || { echo "FAIL: no free port for Prometheus"; exit 1; }
cat >"$tmp/prometheus.yml" <<Y
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: dtrace
    static_configs:
      - targets: ['127.0.0.1:$dport']
Y
prometheus --config.file="$tmp/prometheus.yml" \
	--storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn \
	>"$tmp/prometheus.log" 2>&1 &
ppid_=$!

# A page in both formats: the OpenMetrics one through the parser, the
# 0.0.4 one through promtool; neither may repeat a label set.
check_pages() {
	local om=$tmp/page.om pt=$tmp/page.pt
	http_get "$dport" /metrics 'application/openmetrics-text' >"$om"
	http_get "$dport" /metrics >"$pt"
	pages=$((pages + 1))
	if ! "$py" - "$om" >"$tmp/parser.out" 2>&1 <<'PY'; then
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
n = sum(len(f.samples) for f in text_string_to_metric_families(open(sys.argv[1]).read()))
print(n)
PY
		echo "FAIL: the OpenMetrics parser rejects page $pages: $(tail -n 1 "$tmp/parser.out")"
		fail=1
	fi
	if ! promtool check metrics <"$pt" >"$tmp/promtool.out" 2>&1; then
		echo "FAIL: promtool check metrics, page $pages:"
		head -n 5 "$tmp/promtool.out"
		fail=1
	fi
	for f in "$om" "$pt"; do
		dup=$(grep -v '^#' "$f" | sed 's/ [^ ]*$//' | sort | uniq -d | head -n 3)
		[ -z "$dup" ] || { echo "FAIL: label sets repeated: $dup"; fail=1; }
	done
}

# The pages served while the aggregations fill.
pages=0
for _ in $(seq 30); do
	grep -q printed "$tmp/out" 2>/dev/null && break
	sleep 1
	check_pages
done
grep -q printed "$tmp/out" || { echo "FAIL: dtrace: $(cat "$tmp/err")"; exit 1; }
wait "$wpid"
wpid=

# dtrace's totals, from printa: entries and the sum of their values;
# for @q, the counts of its rows and the sum of value x count.
for a in kstack usym umod ustack ret; do
	awk -v a="$a" '$1 == a { n++; t += $2 }
	    END { printf "%d %.0f\n", n, t }' "$tmp/out" >"$tmp/$a.want"
done
awk '/^ *-?[0-9]+ \|/ { n += $NF; s += $1 * $NF }
    END { printf "%.0f %.0f\n", n, s }' "$tmp/out" >"$tmp/lat.want"

query() {
	http_get "$pport" "/api/v1/query?query=$1" 2>/dev/null |
	    jq -r '.data.result[0].value[1] // "none"' 2>/dev/null
}

# Prometheus's sums, once it has scraped the final aggregations.
for a in kstack usym umod ustack ret; do echo "none none" >"$tmp/$a.got"; done
echo "none none none" >"$tmp/lat.got"
ok=0
for _ in $(seq 30); do
	sleep 1
	same=1
	for a in kstack usym umod ustack; do
		echo "$(query "count(dtrace_${a}_total)") $(query "sum(dtrace_${a}_total)")" >"$tmp/$a.got"
		[ "$(cut -d' ' -f2 "$tmp/$a.got")" = "$(cut -d' ' -f2 "$tmp/$a.want")" ] || same=0
	done
	echo "$(query 'count(dtrace_ret)') $(query 'sum(dtrace_ret)')" >"$tmp/ret.got"
	[ "$(cut -d' ' -f2 "$tmp/ret.got")" = "$(cut -d' ' -f2 "$tmp/ret.want")" ] || same=0
	echo "$(query 'sum(dtrace_lat_bucket%7Ble%3D%22%2BInf%22%7D)') $(query 'sum(dtrace_lat_sum)') $(query 'sum(dtrace_lat_count)')" >"$tmp/lat.got"
	read -r qinf qsum qcount <"$tmp/lat.got"
	read -r qn qs <"$tmp/lat.want"
	[ "$qinf" = "$qn" ] && [ "$qcount" = "$qn" ] && [ "$qsum" = "$qs" ] || same=0
	if [ $same -eq 1 ]; then
		ok=1
		break
	fi
done
# And the final pages.
check_pages
echo "pages checked by the OpenMetrics parser and promtool: $pages"
for a in kstack usym umod ustack ret; do
	read -r n t <"$tmp/$a.want"
	read -r gn gt <"$tmp/$a.got"
	echo "@$a: printa $t in $n entries; Prometheus $gt in $gn series"
done
read -r qinf qsum qcount <"$tmp/lat.got"
read -r qn qs <"$tmp/lat.want"
echo "@lat: printa count $qn, rows' sum $qs; Prometheus +Inf $qinf, _count $qcount, _sum $qsum"
if [ $ok -ne 1 ]; then
	echo "FAIL: Prometheus's sums and printa's totals differ"
	echo "== prometheus log"; tail -n 20 "$tmp/prometheus.log"
	fail=1
fi
# The keys must have printed alike, or nothing was merged: kernel
# stacks always do, and libc is one umod() of all 16 processes.
for a in kstack umod; do
	read -r n _ <"$tmp/$a.want"
	read -r gn _ <"$tmp/$a.got"
	[ "$gn" != none ] && [ "$n" -gt "$gn" ] ||
		{ echo "FAIL: @$a: $n entries in $gn series: none merged"; fail=1; }
done

kill -INT "$dpid"
wait "$dpid" || { echo "FAIL: dtrace exited $?"; fail=1; }
dpid=
exit $fail
