# SPDX-License-Identifier: MIT
# @requires: os:linux root
# A kernel whose BPF hash maps take keys of at most 512 bytes (Linux
# 5.10; big_keys disabled here to be one): an aggregation keyed by three
# strings of the default strsize has its string keys cut, all to one
# width, to fit, saying so once; an associative array so keyed is refused
# in one line naming the key's size and strsize; with a shorter strsize
# the aggregation's keys are whole.
export DTRACE_LINUX_NOFEATURE=big_keys
long=$(printf 'x%.0s' $(seq 300))
"$DTRACE" -x engine=bpf -q -n 'BEGIN { @e[probename, execname, "'"$long"'"] = count(); exit(0); }
    END { printa("%s %s %s %@d\n", @e); }' 2>&1 | awk '/^BEGIN/ { print $1, $2, length($3), $4; next } { print }' | grep .
"$DTRACE" -x engine=bpf -q -n 'BEGIN { x[probefunc, probename, execname] = 1; exit(0); }'
echo "status $?"
"$DTRACE" -x engine=bpf -q -x strsize=128 -n 'BEGIN { @e[probefunc, probename, execname] = count(); exit(0); }' 2>&1 | grep -c 'BEGIN  *dtrace'
