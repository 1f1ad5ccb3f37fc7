#!/bin/bash
# SPDX-License-Identifier: MIT
# destructive.sh: destructive actions need -w, and act in probe context,
# on the interpreter engine and (as root) the BPF engine:
#  - without -w every destructive action fails to enable with DTrace's
#    words; with -w dtrace says it allows them (not under -q);
#  - raise(SIGINT) in BEGIN signals dtrace itself, whose handler stops
#    tracing: END runs;
#  - chill(ns) spins at least ns; past 500 ms it is an illegal operation;
#  - breakpoint() and panic() are refused with one line saying why;
#  - copyout(): a fault in dtrace's own context (interp); unavailable
#    where the kernel removes bpf_probe_write_user (BPF, under lockdown).
set -u

fail=0
check() {
	if [ "$2" != "$3" ]; then
		printf 'FAIL: %s\n--- want\n%s\n--- got\n%s\n' "$1" "$2" "$3"
		fail=1
	else
		echo "ok: $1"
	fi
}

for act in 'stop()' 'raise(9)' 'chill(1)' 'system("true")' \
    'copyout(curthread, 0, 1)' 'copyoutstr("x", 0, 2)' 'freopen("x")'; do
	got=$("$DTRACE" -q -n "BEGIN { $act; }" 2>&1)
	check "$act without -w: exit status" 1 "$?"
	check "$act without -w" "dtrace: could not enable tracing: Destructive actions not allowed" "$got"
done
got=$("$DTRACE" -w -n 'BEGIN { exit(0); }' 2>&1 >/dev/null)
check "-w is announced" "dtrace: description 'BEGIN ' matched 1 probe
dtrace: allowing destructive actions" "$got"
for act in breakpoint panic; do
	got=$("$DTRACE" -qw -n "BEGIN { $act(); }" 2>&1)
	case $got in
	"dtrace: failed to enable 'BEGIN { $act(); }': $act() is not available on Linux: "?*)
		echo "ok: $act() refused" ;;
	*) check "$act() refused" "dtrace: failed to enable ...: $act() is not available on Linux: ..." "$got" ;;
	esac
done

engines=interp
if [ "$(id -u)" -eq 0 ]; then
	engines="interp bpf"
else
	echo "the BPF engine is checked as root only"
fi
ms() { echo $(($(date +%s%N) / 1000000)); }
for e in $engines; do
	got=$("$DTRACE" -x engine=$e -qw -n 'BEGIN { raise(2); printf("begin\n"); }
	    END { printf("end\n"); }' 2>&1 | grep .)
	check "$e: raise(SIGINT) in BEGIN ends tracing" "begin
end" "$got"
	# The BPF engine spins with bpf_loop(); without it (before Linux
	# 5.17) chill() is refused in one line.
	if [ $e = bpf ] && ! "$top_builddir/tests/unit/bpf_features_test" \
	    2>/dev/null | grep -q '^bpf_loop  *yes'; then
		got=$("$DTRACE" -x engine=$e -qw -n 'BEGIN { chill(1); }' 2>&1)
		check "$e: chill() without bpf_loop()" "dtrace: could not enable tracing: dtrace:::BEGIN: clause 1: chill() is unavailable: this kernel has no bpf_loop() helper to spin with" "$got"
	else
		t0=$(ms)
		"$DTRACE" -x engine=$e -qw -n 'BEGIN { chill(300000000); exit(0); }' \
		    >/dev/null 2>&1
		t1=$(ms)
		[ $((t1 - t0)) -ge 300 ] ||
			check "$e: chill(300 ms) spins" ">= 300 ms" "$((t1 - t0)) ms"
		got=$("$DTRACE" -x engine=$e -qw -n 'BEGIN { chill(500000001); }
		    BEGIN, ERROR { exit(0); }' 2>&1 | grep .)
		check "$e: chill() over 500 ms" "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): illegal operation in action #1" "$got"
	fi
	got=$("$DTRACE" -x engine=$e -qw -n 'BEGIN { raise(0); }
	    BEGIN, ERROR { exit(0); }' 2>&1 | grep .)
	check "$e: raise(0)" "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): illegal operation in action #1" "$got"
done
got=$("$DTRACE" -x engine=interp -qw -n 'BEGIN { copyout(curthread, 0, 1); }
    BEGIN, ERROR { exit(0); }' 2>&1 | grep .)
check "interp: copyout() in dtrace's own context" "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x0) in action #1 at DIF offset 24" "$got"
if [ "$(id -u)" -eq 0 ]; then
	got=$("$DTRACE" -x engine=bpf -qw -n 'BEGIN { copyout(curthread, 0, 1); }' 2>&1)
	case $got in
	*"copyout() is unavailable: this kernel does not let BPF programs write user memory")
		echo "ok: bpf: copyout() unavailable" ;;
	*) check "bpf: copyout()" "...copyout() is unavailable..." "$got" ;;
	esac
fi
exit $fail
