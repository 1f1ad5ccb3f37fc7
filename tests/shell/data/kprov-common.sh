# SPDX-License-Identifier: MIT
# kprov-common.sh: what the kernel provider tests share, sourced by
# tests/shell/{proc,sched,io,ip,lockstat}-provider.sh and
# net-providers.sh: their requirements (skipping with the reason), a work
# directory, fail(), the D library options, declared() and free_ports().
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to load BPF programs"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
[ -r /sys/kernel/btf/vmlinux ] || { echo "needs kernel BTF"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "$1"
	[ -f "$tmp/err" ] && cat "$tmp/err"
	exit 1
}
lib=(-x "syslibdir=$top_srcdir/common/lib:$top_srcdir/os/linux/lib")
# Whether the kernel declares a tracepoint (bare ones have no tracefs
# event): the providers list the probes on it only then.
declared() { grep -qa "btf_trace_$1" /sys/kernel/btf/vmlinux; }
# A port p such that nothing uses p .. p + $1 - 1 (TCP or UDP), in $port.
free_ports() {
	port=
	for try in 1 2 3 4 5 6 7 8; do
		local p=$((20000 + RANDOM % 20000))
		ss -Hantu "( sport >= :$p and sport < :$((p + $1)) )" \
		    2>/dev/null | grep -q . || { port=$p; return 0; }
	done
	fail "no free port"
}
