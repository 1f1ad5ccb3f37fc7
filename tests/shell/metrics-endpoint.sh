#!/bin/bash
# SPDX-License-Identifier: MIT
# metrics-endpoint.sh: the text -x metrics serves, exactly, for known
# aggregations of every kind: counters, gauges and histograms, labels
# named by the metricslabels pragma and by -x (the settings add up),
# key1.. otherwise, label values escaped, trunc() and clear() seen as
# printa() sees them; two scrapes give the same bytes (a scrape clears
# nothing); "PORT" alone binds the loopback address; other paths are
# 404 and other methods 405.
set -u

tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0

# method path port: the whole response, status line first.
http() {
	exec 3<>"/dev/tcp/127.0.0.1/$3" || return 1
	printf '%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$1" "$2" >&3
	tr -d '\r' <&3
	exec 3<&-
}

cat >"$tmp/m.d" <<'D'
#pragma D option metricslabels=calls:syscall,fd
#pragma D option quiet

BEGIN
{
	@calls["read", 3] = count();
	@calls["read", 3] = count();
	@calls["write", 1] = count();
	@bytes["a\"b\\c"] = sum(-5);
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

cat >"$tmp/want" <<'M'
HTTP/1.1 200 OK
Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8
Content-Length: 1209
Connection: close

# TYPE dtrace_calls counter
# HELP dtrace_calls D aggregation @calls, count()
dtrace_calls_total{syscall="write",fd="1"} 1
dtrace_calls_total{syscall="read",fd="3"} 2
# TYPE dtrace_bytes counter
# HELP dtrace_bytes D aggregation @bytes, sum()
dtrace_bytes_total{key1="a\"b\\c"} -5
# TYPE dtrace_lat gauge
# HELP dtrace_lat D aggregation @lat, avg()
dtrace_lat 5
# TYPE dtrace_lo gauge
# HELP dtrace_lo D aggregation @lo, min()
dtrace_lo{key1="x"} -2
# TYPE dtrace_dev gauge
# HELP dtrace_dev D aggregation @dev, stddev()
dtrace_dev 1
# TYPE dtrace__ counter
# HELP dtrace__ D aggregation @_, count()
dtrace___total{zero="0"} 1
# TYPE dtrace_q histogram
# HELP dtrace_q D aggregation @q, quantize()
dtrace_q_bucket{le="0"} 1
dtrace_q_bucket{le="1"} 1
dtrace_q_bucket{le="3"} 1
dtrace_q_bucket{le="7"} 2
dtrace_q_bucket{le="+Inf"} 2
dtrace_q_count 2
# TYPE dtrace_ll histogram
# HELP dtrace_ll D aggregation @ll, llquantize()
dtrace_ll_bucket{le="199"} 1
dtrace_ll_bucket{le="+Inf"} 1
dtrace_ll_count 1
# TYPE dtrace_gone counter
# HELP dtrace_gone D aggregation @gone, count()
dtrace_gone_total{name="y"} 2
# TYPE dtrace_cl counter
# HELP dtrace_cl D aggregation @cl, count()
dtrace_cl_total{key1="k"} 0
# EOF
M
http GET /metrics "$port" >"$tmp/got1"
http GET /metrics "$port" >"$tmp/got2"
if ! diff -u "$tmp/want" "$tmp/got1"; then
	echo "FAIL: the exposition text differs"
	fail=1
fi
cmp -s "$tmp/got1" "$tmp/got2" || { echo "FAIL: a second scrape differs"; fail=1; }
[ "$(http GET / "$port" | head -n 1)" = "HTTP/1.1 404 Not Found" ] ||
	{ echo "FAIL: / is not 404"; fail=1; }
[ "$(http POST /metrics "$port" | head -n 1)" = "HTTP/1.1 405 Method Not Allowed" ] ||
	{ echo "FAIL: POST is not 405"; fail=1; }
kill -INT "$dpid"
wait "$dpid" || { echo "FAIL: dtrace exited $?"; fail=1; }
dpid=
exit $fail
