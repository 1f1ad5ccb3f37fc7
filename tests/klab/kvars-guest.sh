#!/bin/bash
# SPDX-License-Identifier: MIT
# kvars-guest.sh DTRACE [CONFIG]: kernel variables read through D's backquote
# operator, run as root on the kernel under test (run-kvars.sh boots it
# in the kernel lab).  Each variable is checked against what the kernel
# says of itself elsewhere: linux_banner is /proc/version's text,
# nr_cpu_ids the CPUs /sys calls possible, jiffies advances at CONFIG_HZ,
# init_task is the idle task "swapper/0", cad_pid's namespace level is 0;
# a variable's address prints as its name (%a) and an array's can be
# taken (&`linux_banner).
# Needs the kernel's DWARF (Debian: linux-image-<release>-dbg, under
# /usr/lib/debug/boot), since the kernel's BTF types no such variable.
# CONFIG is the kernel's config file (for CONFIG_HZ), when /boot has none.
set -u
dtrace=$1
config=${2:-/boot/config-$(uname -r)}
rel=$(uname -r)
npass=0 nfail=0
pass() { npass=$((npass + 1)); echo "PASS  $1"; }
fail() { nfail=$((nfail + 1)); echo "FAIL  $1: $2"; }
check() {
	if [ "$2" = "$3" ]; then pass "$1 = $3"; else fail "$1" "got '$2', want '$3'"; fi
}

[ -r "/usr/lib/debug/boot/vmlinux-$rel" ] || {
	echo "kvars lab on $rel: skipped: no /usr/lib/debug/boot/vmlinux-$rel" \
	    "(linux-image-$rel-dbg)"
	exit 0
}
export HOME=${HOME:-/root}
rm -rf "$HOME/.cache/dtrace"

# The first run reads the DWARF, the second its cache: both are timed.
prog='BEGIN {
	printf("max_pfn %d\n", `max_pfn);
	printf("nr_cpu_ids %d\n", vmlinux`nr_cpu_ids);
	printf("level %d\n", `cad_pid->level);
	printf("cad_nr %d\n", `cad_pid->numbers[0].nr);
	printf("init_comm %s\n", `init_task.comm);
	printf("init_pid %d\n", `init_task.pid);
	printf("sizes %d %d\n", sizeof (`init_task), sizeof (struct task_struct));
	printf("jiffies %d\n", `jiffies);
	printf("addr %a\n", &`max_pfn);
	printf("addrof %s", (string)&`linux_banner);
}
tick-1s {
	printf("jiffies %d\n", `jiffies);
	printf("%s", `linux_banner);
	exit(0);
}'
for run in first cached; do
	t0=$(date +%s%N)
	"$dtrace" -q -n "BEGIN { exit(0); }" -n "BEGIN { trace(\`max_pfn); }" \
	    >/dev/null 2>"/tmp/kv.$run.err"
	t1=$(date +%s%N)
	echo "compile and run with \`max_pfn, $run: $(((t1 - t0) / 1000000)) ms" \
	    "$(cat "/tmp/kv.$run.err")"
done
"$dtrace" -q -n "$prog" >/tmp/kv.out 2>&1
status=$?
[ $status -eq 0 ] || fail "dtrace" "exit $status: $(cat /tmp/kv.out)"
get() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' /tmp/kv.out; }

pages=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / ($(getconf PAGESIZE) / 1024)))
mp=$(get max_pfn)
if [ -n "$mp" ] && [ "$mp" -ge "$pages" ]; then
	pass "max_pfn $mp >= MemTotal's $pages pages"
else
	fail "max_pfn" "got '$mp', want at least $pages (MemTotal's pages)"
fi
possible=$(cat /sys/devices/system/cpu/possible)
ncpu=$(( ${possible##*-} + 1 ))
check "vmlinux\`nr_cpu_ids" "$(get nr_cpu_ids)" "$ncpu"
check "\`cad_pid->level" "$(get level)" 0
check "\`cad_pid->numbers[0].nr" "$(get cad_nr)" 1
check "\`init_task.comm" "$(get init_comm)" "swapper/0"
check "\`init_task.pid" "$(get init_pid)" 0
read -r s1 s2 <<<"$(get sizes)"
check "sizeof (\`init_task)" "$s1" "${s2:-?}"
hz=$(sed -n 's/^CONFIG_HZ=//p' "$config" 2>/dev/null)
j=$(awk '$1 == "jiffies" { print $2 }' /tmp/kv.out | paste -sd' ')
read -r j0 j1 <<<"$j"
if [ -n "${j1:-}" ] && [ -n "$hz" ] && [ $((j1 - j0)) -ge $((hz / 2)) ] &&
    [ $((j1 - j0)) -le $((hz * 3)) ]; then
	pass "\`jiffies advanced $((j1 - j0)) in tick-1s (HZ $hz)"
else
	fail "\`jiffies" "got '$j' a second apart, HZ '${hz:-?}'"
fi
check "%a of &\`max_pfn" "$(get addr)" "vmlinux\`max_pfn"
check "(string)&\`linux_banner" "$(sed -n 's/^addrof //p' /tmp/kv.out)" "$(cat /proc/version)"
banner=$(sed -n '/^Linux version/p' /tmp/kv.out)
check "\`linux_banner" "$banner" "$(cat /proc/version)"
echo "kvars lab on $rel: $npass passed, $nfail failed"
[ $nfail -eq 0 ]
