#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-real.sh: every instruction of real programs, traced by a user
# without privilege through the ptrace engine: sort, gzip and sha256sum
# on a known input, with every instruction of their executable's
# functions (pid$target:a.out::, as far as their symbols name any) and of
# libc's str* functions (pid$target:libc.so.6:str*:).  Each program's
# output and exit status must be those of an untraced run, and, as root,
# every probe both engines fire must fire as often under the BPF engine
# (which skips the few sites the kernel's uprobes refuse).
set -u

for p in sort gzip sha256sum; do
	command -v $p >/dev/null || { echo "needs $p"; exit 77; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
. "$top_srcdir/tests/shell/data/as-nobody.sh"
seq 1 200 | awk '{ print ($1 * 7919) % 3001, "line", $1 }' >"$tmp/in.txt"
chmod 644 "$tmp/in.txt"
mkdir "$tmp/o" && chmod 777 "$tmp/o"	# dtrace -o, as that user

S='pid$target:a.out::, pid$target:libc.so.6:str*:
{ @[probefunc, probename] = count(); }
END { printa("@ %s %s %@d\n", @); }'

for prog in "sort in.txt" "gzip -c -n in.txt" "sha256sum in.txt"; do
	name=${prog%% *}
	user $prog >"$tmp/$name.plain" 2>&1
	plain=$?
	# -Z: a stripped executable may name no function of its own.  -o
	# keeps the counts apart from the program's own output.
	user "${dt[@]}" -Z -q -x engine=ptrace -o "o/$name.counts" -c "$prog" \
	    -n "$S" >"$tmp/$name.out" 2>"$tmp/$name.err"
	check "$name: dtrace's exit status" 0 "$?"
	if cmp -s "$tmp/$name.plain" "$tmp/$name.out"; then
		echo "ok: $name: output as untraced"
	else
		echo "FAIL: $name: output differs from an untraced run"
		fail=1
	fi
	check "$name: exit status as untraced" 0 "$plain"
	n=$(grep -c '^@ ' "$tmp/o/$name.counts")
	[ "$n" -ge 20 ] || check "$name: probes fired" ">= 20" "$n"
	if $asroot && [ -r /sys/bus/event_source/devices/uprobe/type ]; then
		# The BPF engine, on what its maps can hold: every instruction
		# of a.out, the str* functions' entries and returns.  Each
		# probe it fires must have fired as often under ptrace.
		(cd "$tmp" && "$top_builddir/cmd/dtrace" -Z -q -x engine=bpf \
		    -o "$name.bpf" -c "$prog" -n "${S/str\*:/str*:entry,
		    pid\$target:libc.so.6:str*:return}" >/dev/null 2>&1)
		grep '^@ ' "$tmp/$name.bpf" | awk '{ print $2 ":" $3, $4 }' |
		    sort >"$tmp/$name.b"
		grep '^@ ' "$tmp/o/$name.counts" |
		    awk '{ print $2 ":" $3, $4 }' | sort >"$tmp/$name.p"
		m=$(wc -l <"$tmp/$name.b")
		[ "$m" -ge 3 ] || check "$name: probes the BPF engine fired" \
		    ">= 3" "$m"
		check "$name: the BPF engine's $m probes' counts" "" \
		    "$(join -a 1 "$tmp/$name.b" "$tmp/$name.p" |
		    awk '$2 != $3' | head -n 3)"
	fi
done
exit $fail
