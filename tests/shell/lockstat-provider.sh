#!/bin/bash
# SPDX-License-Identifier: MIT
# lockstat-provider.sh: the lockstat provider lists only what the
# kernel's lock:contention_begin tracepoint can tell (dtrace -lv), its
# probes load and run, a probe it cannot offer is DTrace's ordinary
# "does not match any probes", and args[1] (the time blocked, unknown
# when contention begins) is refused at compile time.
. "$top_srcdir/tests/shell/data/kprov-common.sh"

"$DTRACE" "${lib[@]}" -l -n 'lockstat:::' >"$tmp/l" 2>"$tmp/err"
grep -q ' lockstat  *vmlinux  *spin-spin$' "$tmp/l" || {
	echo "no lockstat:::spin-spin here (no lock:contention_begin)"
	exit 77
}

"$DTRACE" "${lib[@]}" -lv -n 'lockstat:::' 2>"$tmp/err" |
    sed -n 's/^ *[0-9][0-9]* *//p; /args\[/p' >"$tmp/lv"
cat >"$tmp/lv.want" <<'EOW'
lockstat           vmlinux                                   adaptive-block
		args[0]: struct mutex *
lockstat           vmlinux                                   adaptive-spin
		args[0]: struct mutex *
lockstat           vmlinux                                   spin-spin
		args[0]: void *
EOW
diff -u "$tmp/lv.want" "$tmp/lv" || fail "dtrace -lv lockstat::: differs"

"$DTRACE" "${lib[@]}" -q -n 'lockstat:::adaptive-block,
    lockstat:::adaptive-spin, lockstat:::spin-spin { @ = count(); }
    tick-200ms { exit(0); }' >"$tmp/out" 2>"$tmp/err" ||
    fail "lockstat probes did not run"

"$DTRACE" "${lib[@]}" -n 'lockstat:::adaptive-acquire { exit(0); }' \
    >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'does not match any probes' "$tmp/out" || {
	cat "$tmp/out"
	fail "lockstat:::adaptive-acquire: want no match"
}
"$DTRACE" "${lib[@]}" -e -n 'lockstat:::spin-spin { trace(args[1]); }' \
    >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'index 1 is out of range' "$tmp/out" || {
	cat "$tmp/out"
	fail "lockstat args[1]: want out of range"
}
exit 0
