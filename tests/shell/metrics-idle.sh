#!/bin/bash
# SPDX-License-Identifier: MIT
# metrics-idle.sh: any local user may connect to -x metrics, and none may
# hold a scrape up (common/dt_metrics.c).  With 100 connections open that
# say nothing, or half a request, or ask and never read, more than the
# 64 the server holds, a scrape is still answered at once, ten scrapes
# at a time too; the silent connections are closed by the server within
# its two seconds for a request; and dtrace ends on ^C as usual.
set -u

command -v python3 >/dev/null || { echo "needs python3"; exit 77; }
tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0

"$DTRACE" -q -x engine=interp -x metrics=0 \
    -n 'BEGIN { @calls["x"] = count(); printf("ready\n"); }' \
    >"$tmp/out" 2>"$tmp/err" &
dpid=$!
for _ in $(seq 100); do
	grep -q ready "$tmp/out" 2>/dev/null && grep -q metrics "$tmp/err" && break
	sleep 0.1
done
port=$(sed -n 's|^dtrace: metrics at http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$tmp/err")
[ -n "$port" ] || { echo "FAIL: not on 127.0.0.1: $(cat "$tmp/err")"; exit 1; }

python3 - "$port" <<'PY' || fail=1
import socket, sys, threading, time

port = int(sys.argv[1])
fail = False

def scrape(timeout):
    """One GET /metrics: (seconds taken, the answer), or (None, why)."""
    t0 = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        # OpenMetrics, whose "# EOF" shows the answer is whole.
        s.sendall(b"GET /metrics HTTP/1.0\r\nHost: x\r\n"
                  b"Accept: application/openmetrics-text\r\n\r\n")
        data = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
        s.close()
    except OSError as e:
        return None, str(e)
    return time.monotonic() - t0, data.decode(errors="replace")

# The first drain after BEGIN publishes: wait for it.
for _ in range(50):
    took, text = scrape(5)
    if took is not None and "dtrace_calls_total" in text:
        break
    time.sleep(0.1)

idle = []
for i in range(100):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if i % 3 == 1:
        s.sendall(b"GET /metr")  # half a request, never ended
    elif i % 3 == 2:
        # Asks, and never reads the answer.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
    idle.append(s)
time.sleep(0.3)

took, text = scrape(1.5)
if took is None or not text.startswith("HTTP/1.1 200 OK") or \
        "dtrace_calls_total{key1=\"x\"} 1" not in text:
    print("FAIL: a scrape beside 100 idle connections: %s" % (text,))
    fail = True
else:
    print("ok: a scrape beside 100 idle connections answered in %.2f s"
          % took)

results = [None] * 10
def one(k):
    results[k] = scrape(1.5)
ts = [threading.Thread(target=one, args=(k,)) for k in range(10)]
for t in ts:
    t.start()
for t in ts:
    t.join()
bad = [r for r in results if r[0] is None or "# EOF" not in r[1]]
if bad:
    print("FAIL: %d of 10 scrapes at once not answered: %s"
          % (len(bad), bad[0][1]))
    fail = True
else:
    print("ok: 10 scrapes at once answered, the slowest in %.2f s"
          % max(r[0] for r in results))

# The silent ones are closed by the server: EOF (or a reset) within
# its 2 s for a request, with some room.
deadline = time.monotonic() + 6
open_still = 0
for i, s in enumerate(idle):
    if i % 3 == 2:
        continue
    s.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        if s.recv(1) != b"":
            open_still += 1
    except ConnectionResetError:
        pass
    except OSError:
        open_still += 1
if open_still:
    print("FAIL: %d silent connections still open after 6 s" % open_still)
    fail = True
else:
    print("ok: the silent connections were closed by the server")
for s in idle:
    s.close()
sys.exit(1 if fail else 0)
PY

kill -INT "$dpid"
if wait "$dpid"; then
	echo "ok: dtrace ends on ^C"
else
	echo "FAIL: dtrace exited $?"
	fail=1
fi
dpid=
exit $fail
