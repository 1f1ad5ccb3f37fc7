#!/bin/bash
# SPDX-License-Identifier: MIT
# ptrace-engine.sh: pid probes for a user without privilege, through the
# ptrace engine (os/linux/ptrace/).
#
# As root the test drops to user nobody (setpriv), so the engine is chosen
# because BPF is not available, as it would be for any user; the probe
# counts are then compared with the BPF engine's, run as root.  Checked:
#  - the engine says once why it was chosen, and exact entry counts;
#  - every instruction of the program (pid$target:a.out::) and of the
#    string functions of libc it calls: the program's output and exit
#    status are those of an untraced run, and each probe fires as often as
#    under the BPF engine (where the BPF engine can place the probes);
#  - a multi-threaded program: every call of every thread is counted;
#  - a forked child runs on without the parent's breakpoints;
#  - -p, then SIGTERM to dtrace: the process runs on, without breakpoints.
set -u

command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
trap 'touch "$tmp/stop" "$tmp/stop2"; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cc -O1 -fno-inline -pthread -o "$tmp/t" \
    "$top_srcdir/tests/shell/data/ptrace-target.c" || exit 1

. "$top_srcdir/tests/shell/data/as-nobody.sh"
run() { user "${dt[@]}" "$@"; }
bpf() { (cd "$tmp" && "$top_builddir/cmd/dtrace" -x engine=bpf "$@"); }

# Where entry sites have no counting trampolines (arm64), every call is
# a ptrace stop: the exact counts are checked over fewer calls.
few=false
[ "$(uname -m)" = x86_64 ] || few=true

# Exact counts, and the one line saying which engine runs and why.
n=20000
! $few || n=2000
got=$(run -q -c "./t loop $n" -n 'pid$target::bench_fn:entry { @ = count(); }
    END { printa("%@d\n", @); }' 2>"$tmp/err")
check "entry counts $n calls" "$(printf '%d\n%d' $((n * n)) $n)" "$got"
if $asroot; then
	case $(cat "$tmp/err") in
	"dtrace: tracing with ptrace: "?*) echo "ok: notice" ;;
	*) check "notice" "dtrace: tracing with ptrace: ..." "$(cat "$tmp/err")" ;;
	esac
fi

# Arguments: arg0 at entry; at return arg0 the offset of the ret, arg1
# the value.  Built-in variables name the target.
run -q -x engine=ptrace -c "./t loop 3" \
    -n 'pid$target::bench_fn:entry { printf("e %d %s %d\n", arg0, execname,
	pid == $target); }
	pid$target::bench_fn:return { printf("r %d\n", arg1); }' \
    >"$tmp/args.out" 2>&1
check "entry and return arguments" "e 0 t 1
r 1
e 1 t 1
r 3
e 2 t 1
r 5" "$(grep '^[er] ' "$tmp/args.out")"
check "the program's output" 9 "$(grep -v -e '^[er] ' -e '^$' "$tmp/args.out")"

# Every instruction of the program, every instruction of the string
# functions it calls.  Counts are printed as "@ func name count", after
# the program's own output.
user ./t mix 10 >"$tmp/plain.out" 2>&1
plain=$?
counts='{ @[probefunc, probename] = count(); }
    END { printa("@ %s %s %@d\n", @); }'
traced() {	# name, descriptions: the program's output and status, checked
	# Not -q: dtrace says how the program ended.
	run -x engine=ptrace -c "./t mix 10" -n "$2 $counts" \
	    >"$tmp/$1.out" 2>"$tmp/$1.err"
	check "$1: exit status of dtrace" 0 "$?"
	check "$1: the program's output" "$(cat "$tmp/plain.out")" \
	    "$(grep -v -E '^@ |^$|^CPU |:END' "$tmp/$1.out")"
	check "$1: the program's exit status" \
	    "dtrace: pid N exited with status $plain" \
	    "$(sed -n 's/pid [0-9]* exited/pid N exited/p' "$tmp/$1.err")"
	grep '^@ ' "$tmp/$1.out" | sort >"$tmp/$1.counts"
}
traced aout 'pid$target:a.out::'
nprobes=$(grep -c . "$tmp/aout.counts")
[ "$nprobes" -gt 150 ] || check "probes fired in a.out" "> 150" "$nprobes"

# libc's string functions: the variants this CPU runs, found first.
fns=$(run -q -x engine=ptrace -c "./t mix 10" -n '
    pid$target:libc.so.6:__strlen_*:entry,
    pid$target:libc.so.6:__strchr_*:entry,
    pid$target:libc.so.6:__strcmp_*:entry { @[probefunc] = count(); }
    END { printa("%s\n", @); }' 2>/dev/null | grep '^__str' | sort)
if [ "$(echo "$fns" | wc -w)" -lt 3 ]; then
	# The variants have no symbols where libc's full symbol table is
	# missing (Debian's libc6-dbg not installed), and arm64's strchr,
	# strcmp and strcat have no variants: these, where they are plain
	# functions rather than ifuncs.
	fns=$(run -q -x engine=ptrace -c "./t mix 10" -n '
	    pid$target:libc.so.6:strchr:entry,
	    pid$target:libc.so.6:strcmp:entry,
	    pid$target:libc.so.6:strcat:entry { @[probefunc] = count(); }
	    END { printa("%s\n", @); }' 2>/dev/null | grep '^str' | sort)
fi
check "libc functions found" 3 "$(echo "$fns" | wc -w)"
descs=$(for f in $fns; do printf 'pid$target:libc.so.6:%s:,' "$f"; done)
traced libc "${descs%,}"

if $asroot && [ -r /sys/bus/event_source/devices/uprobe/type ]; then
	# The BPF engine cannot probe _start (its hlt) nor some vector
	# instructions: compare where it can.
	fn='main mix fib cmp loop bench_fn'
	descs=$(for f in $fn; do printf 'pid$target:a.out:%s:,' "$f"; done)
	want=$(bpf -q -c "./t mix 10" -n "${descs%,} $counts" 2>&1 |
	    grep '^@ ' | sort)
	got=$(grep -E "^@ ($(echo $fn | tr ' ' '|')) " "$tmp/aout.counts")
	check "every instruction of a.out, counts as under BPF" "$want" "$got"
	descs=$(for f in $fns; do
	    printf 'pid$target:libc.so.6:%s:entry,' "$f"
	    printf 'pid$target:libc.so.6:%s:return,' "$f"; done)
	# (Where the BPF engine skips a site, on an AVX-512 instruction,
	# it says so: those probes are left out of the comparison.)
	bpf -q -c "./t mix 10" -n "${descs%,} $counts" >"$tmp/bpf.out" 2>&1
	want=$(grep '^@ ' "$tmp/bpf.out" | sort)
	skipped=$(sed -n 's/^dtrace: skipped [^:]*:[^:]*:\([^:]*\):\([a-z]*\) at .*/@ \1 \2 /p' \
	    "$tmp/bpf.out")
	got=$(grep -E ' (entry|return) ' "$tmp/libc.counts" |
	    grep -vF "${skipped:-@@none@@}")
	check "libc entry and return counts as under BPF" "$want" "$got"
else
	echo "skipped the comparison with the BPF engine: needs root and uprobes"
fi

# Four threads, all counted; their sum printed as untraced.
n=5000
! $few || n=200
got=$(run -q -x engine=ptrace -c "./t threads $n" \
    -n 'pid$target::bench_fn: { @[probename] = count(); }
    END { printa("%s %@d\n", @); }' 2>&1 | grep -v '^$' | sort)
# Each of bench_fn's probes (entry, return, an offset per instruction:
# the compiler's) fires once a call.
names=$(run -l -x engine=ptrace -c "./t threads 1" -n 'pid$target::bench_fn:' |
    awk 'NR > 1 { print $NF }' | sort)
check "four threads" "$( (echo $((4 * n * (n - 1) + 4 * n))
    for p in $names; do echo "$p $((4 * n))"; done) | sort)" "$got"
[ "$(echo "$names" | wc -l)" -ge 3 ] ||
	check "bench_fn's probes" "entry, return and offsets" "$names"

# -p, then SIGTERM: the process runs on with its original code (a
# breakpoint left behind would kill it) and ends normally.
(cd "$tmp" && exec "${as_user[@]}" ./t wait "$tmp/stop") &
tpid=$!
sleep 0.2
(cd "$tmp" && exec "${as_user[@]}" "${dt[@]}" -q -x engine=ptrace \
    -p "$tpid" -n 'BEGIN { printf("ready\n"); }' \
    -n 'pid$target::bench_fn:entry { @ = count(); }' \
    >"$tmp/p.out" 2>&1) &
dpid=$!
# Attached (a slow machine, an emulator, takes seconds), then counting.
for _ in $(seq 300); do
	grep -q ready "$tmp/p.out" 2>/dev/null && break
	sleep 0.1
done
sleep 1
kill -TERM "$dpid"
wait "$dpid"
check "dtrace ends on SIGTERM: $(cat "$tmp/p.out")" 0 "$?"
[ "$(grep -o '[0-9][0-9]*' "$tmp/p.out" | head -n 1)" -gt 10 ] ||
	check "calls counted under -p" "> 10" "$(cat "$tmp/p.out")"
sleep 0.3
touch "$tmp/stop"
wait "$tpid"
check "-p process after detach" 0 "$?"

# SIGKILL leaves no chance to remove the breakpoints: a -c child is
# killed with dtrace (PTRACE_O_EXITKILL) rather than left to die of
# its breakpoint at its next probe site.
exitkill_check 'pid$target::bench_fn:entry { @ = count(); }'

exit $fail
