# SPDX-License-Identifier: MIT
# @requires: root
# A kernel whose BPF hash maps take keys of at most 512 bytes (Linux
# 5.10; big_keys disabled here to be one) refuses an aggregation or an
# associative array keyed by three strings of the default strsize in one
# line naming the key's size and strsize; a shorter strsize runs.
export DTRACE_LINUX_NOFEATURE=big_keys
"$DTRACE" -x engine=bpf -q -n 'BEGIN { @e[probefunc, probename, execname] = count(); exit(0); }'
echo "status $?"
"$DTRACE" -x engine=bpf -q -n 'BEGIN { x[probefunc, probename, execname] = 1; exit(0); }'
echo "status $?"
"$DTRACE" -x engine=bpf -q -x strsize=128 -n 'BEGIN { @e[probefunc, probename, execname] = count(); exit(0); }' | grep -c 'BEGIN  *dtrace'
