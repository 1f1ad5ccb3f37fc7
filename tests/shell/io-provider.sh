#!/bin/bash
# SPDX-License-Identifier: MIT
# io-provider.sh: the io provider -- its probes and stable argument types
# (dtrace -lv), and DTrace's one-liner summing the bytes of the I/O
# started per device, checked against a known workload: one process
# overwrites 1 MiB of a file with O_DIRECT writes, so the writes io:::start
# sees in it add up to exactly 1 MiB, on the disk holding the file, whose
# name (dev_statname) is the one /sys/block gives.
. "$top_srcdir/tests/shell/data/kprov-common.sh"
command -v dd >/dev/null || { echo "needs dd"; exit 77; }
dir=$(mktemp -d /var/tmp/io-provider.XXXXXX)
trap 'rm -rf "$tmp" "$dir"' EXIT

"$DTRACE" "${lib[@]}" -l -n 'io:::' >"$tmp/l" 2>"$tmp/err"
grep -q ' io  *vmlinux  *start$' "$tmp/l" || {
	echo "no io:::start here (no block tracepoints)"
	exit 77
}

# 1. The probes and their translated argument types.
"$DTRACE" "${lib[@]}" -lv -n 'io:::' 2>"$tmp/err" |
    sed -n 's/^ *[0-9][0-9]* *//p; /args\[/p' >"$tmp/lv"
cat >"$tmp/lv.want" <<'EOW'
io           vmlinux                                   start
		args[0]: bufinfo_t *
		args[1]: devinfo_t *
		args[2]: fileinfo_t *
io           vmlinux                                   done
		args[0]: bufinfo_t *
		args[1]: devinfo_t *
		args[2]: fileinfo_t *
EOW
diff -u "$tmp/lv.want" "$tmp/lv" || fail "dtrace -lv io::: differs"

# 2. The workload's disk: the device of /var/tmp, or the disk holding
#    that partition; its requests must go through a request queue (not
#    device-mapper, zram, tmpfs, ...).
dev=$(stat -c '%Hd:%Ld' "$dir")
sys=$(readlink -f "/sys/dev/block/$dev" 2>/dev/null)
[ -n "$sys" ] && [ -d "$sys" ] || {
	echo "/var/tmp is not on a block device"
	exit 77
}
[ -f "$sys/partition" ] && sys=$(dirname "$sys")
disk=$(basename "$sys")
[ -d "$sys/mq" ] || {
	echo "/var/tmp is on $disk, which has no request queue"
	exit 77
}
# Allocated beforehand, so that overwriting it needs no metadata I/O.
dd if=/dev/zero of="$dir/f" bs=64k count=16 oflag=direct 2>/dev/null &&
    sync || { echo "no O_DIRECT writes on /var/tmp"; exit 77; }

"$DTRACE" "${lib[@]}" -q -c "dd if=/dev/zero of=$dir/f bs=64k count=16 \
    oflag=direct conv=notrunc" -n '
io:::start
/pid == $target && args[0]->b_flags & B_WRITE/
{
	@[args[1]->dev_statname] = sum(args[0]->b_bcount);
}
io:::done
/args[1]->dev_statname == "'"$disk"'" && args[2]->fi_pathname == "<unknown>"/
{
	@d = count();
}
END
{
	printa("%s %@d\n", @);
	printa("done %@d\n", @d);
}' >"$tmp/out" 2>"$tmp/err" || fail "dtrace io:::start failed"
grep -v '^$' "$tmp/out" | grep -v '^done ' >"$tmp/sum"
[ "$(cat "$tmp/sum")" = "$disk 1048576" ] || {
	cat "$tmp/out"
	fail "io:::start: want \"$disk 1048576\""
}
n=$(sed -n 's/^done //p' "$tmp/out")
[ "${n:-0}" -ge 1 ] || fail "io:::done did not fire on $disk"
exit 0
