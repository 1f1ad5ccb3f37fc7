#!/bin/bash
# SPDX-License-Identifier: MIT
# bpf-far-jumps.sh: programs whose jumps span more than the 32767
# instructions of a BPF jump's offset run on the BPF engine, through
# gotol (Linux 6.4): a generated predicate of 7,000 terms fires exactly
# when its last term holds (on BEGIN, and on a system call of a -c
# target, as often as a one-term predicate does), never when none holds,
# and 3,000-term || and && chains in a clause's body (as far past the
# limit, and the verifier takes a second for each) give the
# interpreter's values.
# Without gotol (hidden with DTRACE_LINUX_NOFEATURE=gotol) the same
# program is refused with one line saying why.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v python3 >/dev/null || { echo "needs python3"; exit 77; }
feats=$("$top_builddir/tests/unit/bpf_features_test" 2>/dev/null)
printf '%s\n' "$feats" | grep -q '^bpf  *yes' ||
	{ echo "the kernel cannot load BPF programs"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# chain OP LAST N: N-1 terms that never hold ("pid == -k"), then LAST.
chain() {
	python3 - "$@" <<'PY'
import sys
op, last, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
print((' %s ' % op).join(['pid == %d' % -k for k in range(1, n)] + [last]))
PY
}

cat >"$tmp/p.d" <<EOF
BEGIN /$(chain '||' 'pid == $pid' 7000)/ { trace("matched"); exit(0); }
BEGIN { trace("no match"); exit(0); }
EOF
# Chains of || and && in a clause's body.
cat >"$tmp/b.d" <<EOF
BEGIN
{
	x = $(chain '||' 'pid == $pid' 3000);
	y = $(chain '||' 'pid == -3000' 3000);
	z = !($(chain '&&' 'pid == -3000' 3000));
	printf("%d %d %d\n", x, y, z);
	exit(0);
}
EOF

# The one-line refusal stands on every kernel: check it first.
for d in p b; do
	out=$(DTRACE_LINUX_NOFEATURE=gotol "$DTRACE" -x engine=bpf -q \
	    -s "$tmp/$d.d" 2>&1)
	rc=$?
	if [ $rc -ne 1 ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] ||
	    [[ "$out" != "dtrace: "*"program too large for this kernel: a jump spans more than 32767 instructions and needs gotol ("*")" ]]; then
		echo "FAIL: $d.d without gotol: exit $rc: ${out:0:400}"
		fail=1
	fi
done

if ! printf '%s\n' "$feats" | grep -q '^gotol  *yes'; then
	[ $fail -eq 0 ] || exit 1
	echo "the kernel has no gotol (Linux 6.4): only the refusal was checked"
	exit 77
fi

# Under emulation (the kernel lab's guests, TEST_TIMEOUT_SCALE > 1) the
# kernel takes over ten minutes to verify each of these programs, which
# takes a second natively.
if [ "${TEST_TIMEOUT_SCALE:-1}" -gt 1 ]; then
	[ $fail -eq 0 ] || exit 1
	echo "verifying programs of 7,000 terms takes the kernel over ten" \
	    "minutes each under emulation (TEST_TIMEOUT_SCALE=$TEST_TIMEOUT_SCALE):" \
	    "only the refusal without gotol was checked"
	exit 77
fi

# run NAME WANT ARGS...: the BPF engine's output must be WANT.  A
# verifier that gives up on the number of branches it has pending
# (Linux 6.1's, at 8,192: three chains of 3,000 in one clause) refuses
# the program in one line, which is what a user then gets.
run() {
	local name=$1 want=$2 out
	shift 2
	out=$("$DTRACE" -x engine=bpf -q "$@" 2>&1)
	if [[ "$out" == "dtrace: could not enable tracing: program for "*" refused by the kernel: "*"jumps is too complex." ]] &&
	    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]; then
		echo "note: $name: this kernel's verifier refuses it: $out"
		return
	fi
	if [ "$out" != "$want" ]; then
		echo "FAIL: $name: want '$want', got: ${out:0:400}"
		fail=1
	fi
}

run "7,000-term predicate, last term holds" matched -s "$tmp/p.d"
cat >"$tmp/n.d" <<EOF
BEGIN /$(chain '||' 'pid == -7000' 7000)/ { trace("matched"); exit(0); }
BEGIN { trace("no match"); exit(0); }
EOF
run "7,000-term predicate, no term holds" "no match" -s "$tmp/n.d"
cat >"$tmp/f.d" <<EOF
BEGIN /pid == \$pid || $(chain '||' 'pid == -7000' 7000)/ { trace("matched"); exit(0); }
BEGIN { trace("no match"); exit(0); }
EOF
run "7,000-term predicate, first term holds" matched -s "$tmp/f.d"

# On a system call of a target: as many firings as pid == $target gives.
cat >"$tmp/t.py" <<'EOF'
import os
for _ in range(7):
    os.getppid()
EOF
printf 'syscall::getppid:entry /%s/ { @ = count(); }\n' \
    "$(chain '||' 'pid == $target' 7000)" >"$tmp/s.d"
printf 'syscall::getppid:entry /pid == $target/ { @ = count(); }\n' >"$tmp/s1.d"
want=$("$DTRACE" -x engine=bpf -q -s "$tmp/s1.d" -c "python3 $tmp/t.py" 2>&1)
if ! [[ "$(echo $want)" =~ ^[0-9]+$ ]] || [ "$(echo $want)" -lt 7 ]; then
	echo "FAIL: one-term predicate on getppid: ${want:0:200}"
	fail=1
fi
run "7,000-term predicate on getppid" "$want" -s "$tmp/s.d" \
    -c "python3 $tmp/t.py"

# The body's chains, as the interpreter has them.
want=$("$DTRACE" -x engine=interp -q -s "$tmp/b.d" 2>&1)
[ "$want" = "1 0 1" ] || { echo "FAIL: interpreter: $want"; fail=1; }
run "3,000-term chains in a body" "$want" -s "$tmp/b.d"

exit $fail
