#!/bin/bash
# SPDX-License-Identifier: MIT
# metrics-prometheus.sh: -x metrics serves the aggregations to a real
# Prometheus (Debian's prometheus package), started here on 127.0.0.1
# and scraping dtrace every second: the values its query API returns
# equal what dtrace's own printa() prints of the same aggregations -- a
# count() and a sum() by key, and a quantize() bucket by bucket (the
# cumulative le buckets against printa's table) -- over several scrapes,
# so scrapes clear nothing.
set -u

command -v prometheus >/dev/null ||
	{ echo "needs Prometheus (apt install prometheus)"; exit 77; }
command -v jq >/dev/null || { echo "needs jq to read the query API"; exit 77; }

tmp=$(mktemp -d)
dpid=
ppid_=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
      [ -n "$ppid_" ] && kill "$ppid_" 2>/dev/null
      wait 2>/dev/null; rm -rf "$tmp"' EXIT

# GET path from 127.0.0.1:port, the body on stdout (no curl needed).
http_get() {
	local port=$1 path=$2
	exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
	printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$path" >&3
	sed '1,/^\r$/d' <&3
	exec 3<&-
}

# The aggregations fill for 30 ticks, then printa() prints them once and
# they do not change again; dtrace runs on until it is stopped.
"$DTRACE" -q -x engine=interp -x metrics=127.0.0.1:0 -n '
    tick-10ms /n < 30/ {
        n++;
        @c[n % 3] = count();
        @s[n % 2] = sum(n * 7);
        @q = quantize(n * n);
    }
    tick-10ms /n == 30/ {
        n++;
        printa("c %d %@d\n", @c);
        printa("s %d %@d\n", @s);
        printa(@q);
        printf("done\n");
    }' >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for _ in $(seq 100); do
	grep -q done "$tmp/out" 2>/dev/null && break
	sleep 0.1
done
grep -q done "$tmp/out" || { echo "FAIL: dtrace: $(cat "$tmp/err")"; exit 1; }
dport=$(sed -n 's|^dtrace: metrics at http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$tmp/err")
[ -n "$dport" ] || { echo "FAIL: no metrics address: $(cat "$tmp/err")"; exit 1; }

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

query() {
	http_get "$pport" "/api/v1/query?query=$1" 2>/dev/null
}

# printa's values, as "key value" lines, and the quantize table as
# cumulative counts at each bucket's upper bound ("le count").
sed -n 's/^c \(.*\)/\1/p' "$tmp/out" | sort >"$tmp/c.want"
sed -n 's/^s \(.*\)/\1/p' "$tmp/out" | sort >"$tmp/s.want"
awk '/^ *-?[0-9]+ \|/ { v[n] = $1; c[n] = $NF; n++ }
    END {
        cum = 0
        for (i = 0; i < n - 1; i++) {
            cum += c[i]
            print v[i + 1] - 1, cum
        }
        print "+Inf", cum + c[n - 1]
    }' "$tmp/out" | sort >"$tmp/q.want"
[ -s "$tmp/c.want" ] && [ -s "$tmp/s.want" ] && [ "$(wc -l <"$tmp/q.want")" -gt 2 ] ||
	{ echo "FAIL: printa output not understood:"; cat "$tmp/out"; exit 1; }

# Prometheus's values, once it has scraped a few times.
ok=0
scrapes=0
for _ in $(seq 60); do
	sleep 1
	scrapes=$(query 'count_over_time(up%5B5m%5D)' |
	    jq -r '.data.result[0].value[1] // 0' 2>/dev/null)
	query dtrace_c_total | jq -r '.data.result[] | "\(.metric.key1) \(.value[1])"' 2>/dev/null | sort >"$tmp/c.got"
	query dtrace_s | jq -r '.data.result[] | "\(.metric.key1) \(.value[1])"' 2>/dev/null | sort >"$tmp/s.got"
	query dtrace_q_bucket | jq -r '.data.result[] | "\(.metric.le) \(.value[1])"' 2>/dev/null | sort >"$tmp/q.got"
	# Prometheus's buckets are those used; printa shows one more below.
	grep -Fxf "$tmp/q.got" "$tmp/q.want" >"$tmp/q.want.used"
	if [ "${scrapes:-0}" -ge 3 ] && cmp -s "$tmp/c.got" "$tmp/c.want" &&
	    cmp -s "$tmp/s.got" "$tmp/s.want" && [ -s "$tmp/q.got" ] &&
	    cmp -s "$tmp/q.got" "$tmp/q.want.used" &&
	    [ "$(wc -l <"$tmp/q.got")" -ge "$(($(wc -l <"$tmp/q.want") - 1))" ]; then
		ok=1
		break
	fi
done
if [ $ok -ne 1 ]; then
	echo "FAIL: Prometheus (after ${scrapes:-0} scrapes) and printa differ"
	for f in c s q; do
		echo "== $f: printa"; cat "$tmp/$f.want"
		echo "== $f: Prometheus"; cat "$tmp/$f.got"
	done
	echo "== dtrace stderr"; cat "$tmp/err"
	echo "== prometheus log"; tail -n 20 "$tmp/prometheus.log"
	exit 1
fi

# Scrapes changed nothing: what dtrace prints at the end is still it.
kill -INT "$dpid"
wait "$dpid"
dpid=
exit 0
