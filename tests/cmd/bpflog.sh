# SPDX-License-Identifier: MIT
# -x bpflog prints the BPF verifier's log of each program loaded, every
# line marked "BPF: " on stderr, also from a #pragma; the interpreter
# engine loads no BPF program and prints none.
# @requires: os:linux
n=$("$DTRACE" -x engine=bpf -x bpflog -q -n 'BEGIN { exit(0); }' 2>&1 |
    grep -c '^BPF: ')
[ "$n" -gt 0 ] && echo "command line: BPF log"
printf '#pragma D option bpflog\nBEGIN { exit(0); }\n' |
    "$DTRACE" -x engine=bpf -q -s /dev/stdin 2>&1 | grep -q '^BPF: processed' &&
    echo "pragma: BPF log"
"$DTRACE" -x engine=interp -x bpflog -q -n 'BEGIN { exit(0); }' 2>&1 |
    grep -c '^BPF: '
