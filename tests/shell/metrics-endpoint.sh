#!/bin/bash
# SPDX-License-Identifier: MIT
# metrics-endpoint.sh: the text -x metrics serves, exactly, in both
# formats, for known aggregations of every kind: counters (count(), a
# sum() of unsigned values), gauges (a sum() of signed ones, min, avg,
# stddev) and histograms with _sum and _count, labels named by the
# metricslabels pragma and by -x (the settings add up), key1.. otherwise,
# label values escaped, trunc() and clear() seen as printa() sees them;
# the format each Accept header asks for, with its Content-Type
# (OpenMetrics for Prometheus's header, the 0.0.4 text without one);
# two scrapes give the same bytes (a scrape clears nothing); "PORT" alone
# binds the loopback address; other paths are 404 and other methods 405.
set -u

tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0

# method path port [accept]: the whole response, status line first.
http() {
	exec 3<>"/dev/tcp/127.0.0.1/$3" || return 1
	if [ $# -ge 4 ]; then
		printf '%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: %s\r\n\r\n' \
		    "$1" "$2" "$4" >&3
	else
		printf '%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$1" "$2" >&3
	fi
	tr -d '\r' <&3
	exec 3<&-
}
# What Prometheus 2.42 sends.
prom_accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
om_ctype='Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8'
pt_ctype='Content-Type: text/plain; version=0.0.4; charset=utf-8'

cat >"$tmp/m.d" <<'D'
#pragma D option metricslabels=calls:syscall,fd
#pragma D option quiet

BEGIN
{
	@calls["read", 3] = count();
	@calls["read", 3] = count();
	@calls["write", 1] = count();
	@bytes["a\"b\\c"] = sum(-5);
	@ubytes = sum((size_t)7);
	@ubytes = sum((unsigned int)5);
	@mixed = sum((size_t)1);
	@mixed = sum(1);
	@lat = avg(4);
	@lat = avg(6);
	@lo["x"] = min(3);
	@lo["x"] = min(-2);
	@dev = stddev(2);
	@dev = stddev(4);
	@[0] = count();
	@q = quantize(5);
	@q = quantize(0);
	@ll = llquantize(150, 10, 1, 3, 10);
	@gone["x"] = count();
	@gone["y"] = count();
	@gone["y"] = count();
	trunc(@gone, 1);
	@cl["k"] = count();
	clear(@cl);
	printf("ready\n");
}
D
"$DTRACE" -x engine=interp -x metrics=0 -x metricslabels=gone:name -x 'metricslabels=@:zero'  \
	-s "$tmp/m.d" >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for _ in $(seq 100); do
	grep -q ready "$tmp/out" 2>/dev/null && grep -q metrics "$tmp/err" && break
	sleep 0.1
done
port=$(sed -n 's|^dtrace: metrics at http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$tmp/err")
[ -n "$port" ] || { echo "FAIL: not on 127.0.0.1: $(cat "$tmp/err")"; exit 1; }
# The first drain after BEGIN publishes; wait for it.
for _ in $(seq 50); do
	http GET /metrics "$port" | grep -q dtrace_calls && break
	sleep 0.1
done

# The OpenMetrics body; the 0.0.4 text differs in the names of the
# counter families (with _total) and the # EOF.
cat >"$tmp/om.body" <<'M'
# HELP dtrace_calls D aggregation @calls, count()
# TYPE dtrace_calls counter
dtrace_calls_total{syscall="write",fd="1"} 1
dtrace_calls_total{syscall="read",fd="3"} 2
# HELP dtrace_bytes D aggregation @bytes, sum()
# TYPE dtrace_bytes gauge
dtrace_bytes{key1="a\"b\\c"} -5
# HELP dtrace_ubytes D aggregation @ubytes, sum()
# TYPE dtrace_ubytes counter
dtrace_ubytes_total 12
# HELP dtrace_mixed D aggregation @mixed, sum()
# TYPE dtrace_mixed gauge
dtrace_mixed 2
# HELP dtrace_lat D aggregation @lat, avg()
# TYPE dtrace_lat gauge
dtrace_lat 5
# HELP dtrace_lo D aggregation @lo, min()
# TYPE dtrace_lo gauge
dtrace_lo{key1="x"} -2
# HELP dtrace_dev D aggregation @dev, stddev()
# TYPE dtrace_dev gauge
dtrace_dev 1
# HELP dtrace__ D aggregation @_, count()
# TYPE dtrace__ counter
dtrace___total{zero="0"} 1
# HELP dtrace_q D aggregation @q, quantize()
# TYPE dtrace_q histogram
dtrace_q_bucket{le="0"} 1
dtrace_q_bucket{le="1"} 1
dtrace_q_bucket{le="3"} 1
dtrace_q_bucket{le="7"} 2
dtrace_q_bucket{le="+Inf"} 2
dtrace_q_sum 4
dtrace_q_count 2
# HELP dtrace_ll D aggregation @ll, llquantize()
# TYPE dtrace_ll histogram
dtrace_ll_bucket{le="199"} 1
dtrace_ll_bucket{le="+Inf"} 1
dtrace_ll_sum 100
dtrace_ll_count 1
# HELP dtrace_gone D aggregation @gone, count()
# TYPE dtrace_gone counter
dtrace_gone_total{name="y"} 2
# HELP dtrace_cl D aggregation @cl, count()
# TYPE dtrace_cl counter
dtrace_cl_total{key1="k"} 0
# EOF
M
sed -e '/^# EOF$/d' \
    -e 's/^\(# [A-Z]* dtrace_\(calls\|ubytes\|_\|gone\|cl\)\) /\1_total /' \
    "$tmp/om.body" >"$tmp/pt.body"
# ctype bodyfile: the whole 200 response.
want() {
	printf 'HTTP/1.1 200 OK\n%s\nContent-Length: %d\nVary: Accept\nConnection: close\n\n' \
	    "$1" "$(wc -c <"$2")"
	cat "$2"
}
want "$om_ctype" "$tmp/om.body" >"$tmp/want.om"
want "$pt_ctype" "$tmp/pt.body" >"$tmp/want.pt"

http GET /metrics "$port" "$prom_accept" >"$tmp/got1"
http GET /metrics "$port" "$prom_accept" >"$tmp/got2"
if ! diff -u "$tmp/want.om" "$tmp/got1"; then
	echo "FAIL: the OpenMetrics text differs"
	fail=1
fi
cmp -s "$tmp/got1" "$tmp/got2" || { echo "FAIL: a second scrape differs"; fail=1; }
http GET /metrics "$port" >"$tmp/got.pt"
if ! diff -u "$tmp/want.pt" "$tmp/got.pt"; then
	echo "FAIL: the 0.0.4 text (no Accept header) differs"
	fail=1
fi

# Accept header -> the format served: o (OpenMetrics) or t (text 0.0.4).
while IFS='|' read -r fmt accept; do
	got=$(http GET /metrics "$port" "$accept" | grep '^Content-Type:')
	case $fmt in
	o) want_ct=$om_ctype ;;
	*) want_ct=$pt_ctype ;;
	esac
	if [ "$got" != "$want_ct" ]; then
		echo "FAIL: Accept: $accept: got '$got', want '$want_ct'"
		fail=1
	fi
done <<A
o|$prom_accept
o|application/openmetrics-text
o|application/openmetrics-text; version=1.0.0
o|Application/OpenMetrics-Text;Version=0.0.1
o|text/plain;q=0.2, application/openmetrics-text;q=0.4
o|application/*
t|text/plain;version=0.0.4
t|text/plain
t|*/*
t|application/json
t|application/openmetrics-text;q=0.3, text/plain;version=0.0.4;q=0.5
t|application/openmetrics-text;version=2.0.0, text/plain;q=0.1
t|application/openmetrics-text;q=0
t|application/openmetrics-text;q=0.25,text/plain;q=0.255
o|application/openmetrics-text;q=0.256,text/plain;q=0.255
t|application/openmetrics-text;q=high
A
# HEAD: the head of the answer GET gets, without the body.
http HEAD /metrics "$port" "$prom_accept" >"$tmp/head"
sed '/^$/q' "$tmp/want.om" | cmp -s - "$tmp/head" ||
	{ echo "FAIL: HEAD: $(cat "$tmp/head")"; fail=1; }

[ "$(http GET / "$port" | head -n 1)" = "HTTP/1.1 404 Not Found" ] ||
	{ echo "FAIL: / is not 404"; fail=1; }
[ "$(http POST /metrics "$port" | head -n 1)" = "HTTP/1.1 405 Method Not Allowed" ] ||
	{ echo "FAIL: POST is not 405"; fail=1; }
kill -INT "$dpid"
wait "$dpid" || { echo "FAIL: dtrace exited $?"; fail=1; }
dpid=
exit $fail
