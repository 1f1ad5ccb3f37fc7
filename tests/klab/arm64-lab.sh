#!/bin/bash
# SPDX-License-Identifier: MIT
# arm64-lab.sh [-t SECS] [-c CPUS] [-w DIR] [-k KERNEL_DIR] COMMAND [ARG...]: run a
# command as root on a real arm64 Linux kernel -- Debian 12's
# linux-image-arm64 (6.1), or with -k another arm64 kernel unpacked by
# the kernel lab's klab-get-kernel (Debian 13's 6.12: `klab-get-kernel
# -s trixie linux-image-arm64:arm64 A612`, with arm64 among dpkg's
# architectures), whose modules and initramfs this script adds to the
# root the first time -- booted under qemu-system-aarch64's emulation
# (TCG) -- with an arm64 root
# file system that this script builds with debootstrap the first time and
# keeps in $DT_ARM64_LAB (default /var/cache/dt-arm64lab).  The work
# directory (-w, default this source tree) is shared read-write with the
# guest at the same path, so a tree cross-built here (tests/isa/
# cross-aarch64.sh) runs there unchanged.
#
# The guest mounts proc, sysfs, devtmpfs, tracefs, debugfs and bpffs,
# runs COMMAND from the work directory (its output, merged, on our
# stdout) and powers off; we exit with COMMAND's status, 124 when the
# guest ran past SECS (default 1800), 125 when the lab itself failed.
# The guest has CPUS processors (-c; default this machine's, at most 4):
# one leaves the host a processor for other work while a long run goes.
#
# Needs root (debootstrap, binfmt_misc for the second stage), and the
# Debian packages debootstrap, qemu-system-arm, qemu-user-static and
# e2fsprogs; the first run downloads about 150 MB of packages.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
lab=${DT_ARM64_LAB:-/var/cache/dt-arm64lab}
secs=1800
ncpu=
work=$root
kdir=
while [ $# -gt 0 ]; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	-k) kdir=$(cd "$2" && pwd) || exit 2; shift 2 ;;
	-c) ncpu=$2; shift 2 ;;
	-w) work=$(cd "$2" && pwd); shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-t SECS] [-c CPUS] [-w DIR] [-k KERNEL_DIR] COMMAND [ARG...]" >&2; exit 2; }
die() { echo "arm64-lab: $*" >&2; exit 125; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, loop-free image build)"
for t in debootstrap qemu-system-aarch64 mkfs.ext4; do
	command -v $t >/dev/null ||
	    die "$t is missing (apt-get install debootstrap qemu-system-arm qemu-user-static e2fsprogs)"
done

# The packages of the guest: what the cross-built dtrace links, what the
# tests run (a C compiler for their workloads, <sys/sdt.h>, python3,
# strace), and the kernel with an initramfs that finds a virtio disk.
pkgs=linux-image-arm64,initramfs-tools,kmod,udev,libbpf1,libelf1,libctf0
pkgs=$pkgs,libctf-nobfd0,libbinutils,zlib1g,libzstd1,libjansson4,gcc
pkgs=$pkgs,libc6-dev,procps,psmisc,systemtap-sdt-dev,python3-minimal,gawk
pkgs=$pkgs,strace,file

# debootstrap's second stage runs arm64 programs: through binfmt_misc and
# qemu-user-static on this x86-64 machine.
binfmt() {
	[ "$(uname -m)" = aarch64 ] && return 0
	[ -e /proc/sys/fs/binfmt_misc/register ] ||
	    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
	    die "cannot mount binfmt_misc"
	[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] ||
	    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 ||
	    die "cannot run arm64 programs here (qemu-user-static, binfmt-support)"
}

mkdir -p "$lab" || die "cannot create $lab"
if [ ! -f "$lab/root/.complete" ]; then
	binfmt
	rm -rf "$lab/root.new"
	echo "arm64-lab: building the arm64 root file system in $lab" \
	    "(debootstrap, several minutes)" >&2
	debootstrap --arch=arm64 --variant=minbase --include="$pkgs" \
	    bookworm "$lab/root.new" http://deb.debian.org/debian \
	    >"$lab/debootstrap.log" 2>&1 ||
	    die "debootstrap failed: see $lab/debootstrap.log"
	rm -rf "$lab/root"
	mv "$lab/root.new" "$lab/root"
	touch "$lab/root/.complete"
fi

# The guest's init: mount what a tracer needs, the work directory by 9p,
# run the command, power off.
init=$lab/root/usr/local/sbin/dt-lab-init
cat >"$init.new" <<'EOF'
#!/bin/sh
# dt-lab-init: the arm64 lab guest's init (written by tests/klab/arm64-lab.sh).
# (Debian's initramfs has mounted /proc, /sys and /dev already.)
mnt() { mountpoint -q "$3" 2>/dev/null || mount -t "$1" "$2" "$3" 2>/dev/null; }
mnt proc proc /proc
mnt sysfs sysfs /sys
mnt devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mnt devpts devpts /dev/pts
mnt tmpfs tmpfs /tmp
mnt tmpfs tmpfs /run
mnt tmpfs tmpfs /dev/shm
mnt debugfs debugfs /sys/kernel/debug
mnt tracefs tracefs /sys/kernel/tracing
mnt bpf bpf /sys/fs/bpf
for l in fd:/proc/self/fd stdin:/proc/self/fd/0 stdout:/proc/self/fd/1 \
    stderr:/proc/self/fd/2; do
	[ -e "/dev/${l%%:*}" ] || ln -s "${l#*:}" "/dev/${l%%:*}"
done
hostname arm64-lab
# The loopback interface, down until someone brings it up: the tests'
# TCP, UDP and HTTP run over it.  The minimal root has no ip(8), so
# python3 sets IFF_UP (SIOCGIFFLAGS, SIOCSIFFLAGS).
python3 -c 'import fcntl, socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
f = struct.unpack("16sh", fcntl.ioctl(s, 0x8913, struct.pack("16sh", b"lo", 0)))[1]
fcntl.ioctl(s, 0x8914, struct.pack("16sh", b"lo", f | 1))' ||
    echo "dt-lab-init: cannot bring up lo" >/dev/console
for a in $(cat /proc/cmdline); do
	case $a in dtlab.work=*) work=${a#dtlab.work=} ;; esac
done
modprobe 9pnet_virtio 2>/dev/null
mkdir -p "$work"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 dtwork "$work" ||
    echo "dt-lab-init: cannot mount the work directory" >/dev/console
cd "$work" && PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root TERM=dumb sh "$work/.arm64-lab/cmd" </dev/null \
    >/dev/console 2>&1
echo "dt-lab-status $?" >/dev/console
sync
echo o >/proc/sysrq-trigger
sleep 10
EOF
chmod +x "$init.new" && mv "$init.new" "$init"

# Another kernel (-k): its modules and config into the root, and an
# initramfs made for it there (mkinitramfs under qemu-user), once.  The
# image below is made again after that.
kver=
if [ -n "$kdir" ]; then
	kimg=$(ls "$kdir"/boot/vmlinuz-* 2>/dev/null | head -1)
	[ -n "$kimg" ] || die "no boot/vmlinuz-* in $kdir"
	kver=${kimg##*/vmlinuz-}
	if [ ! -f "$lab/root/boot/initrd.img-$kver" ]; then
		binfmt
		mods=$kdir/usr/lib/modules/$kver
		[ -d "$mods" ] || mods=$kdir/lib/modules/$kver
		[ -d "$mods" ] || die "no modules for $kver in $kdir"
		echo "arm64-lab: adding kernel $kver to $lab (an initramfs" \
		    "made under emulation, a few minutes)" >&2
		rm -rf "$lab/root/usr/lib/modules/$kver"
		cp -a "$mods" "$lab/root/usr/lib/modules/$kver" &&
		    cp "$kdir/boot/config-$kver" "$kdir/boot/System.map-$kver" \
		    "$kimg" "$lab/root/boot/" &&
		    chroot "$lab/root" depmod "$kver" &&
		    chroot "$lab/root" mkinitramfs -o "/boot/initrd.img-$kver.new" \
		    "$kver" >"$lab/mkinitramfs.log" 2>&1 &&
		    mv "$lab/root/boot/initrd.img-$kver.new" \
		    "$lab/root/boot/initrd.img-$kver" ||
		    die "cannot add kernel $kver: see $lab/mkinitramfs.log"
		rm -f "$lab/root.img"
	fi
fi

# The disk: an ext4 image of the root, made again when the root changed.
img=$lab/root.img
if [ ! -f "$img" ] || [ -n "$(find "$lab/root/usr/local/sbin" -newer "$img" \
    -print -quit)" ]; then
	rm -f "$img"
	mkfs.ext4 -q -L dtlab -d "$lab/root" "$img" 3G >/dev/null 2>&1 ||
	    die "cannot make $img"
fi
# Without -k, the root's own kernel: Debian 12's, the oldest there.
[ -n "$kver" ] || kver=$(ls "$lab"/root/boot/vmlinuz-* 2>/dev/null |
    sed 's|.*/vmlinuz-||' | sort -V | head -1)
kernel=$lab/root/boot/vmlinuz-$kver
initrd=$lab/root/boot/initrd.img-$kver
[ -f "$kernel" ] || kernel=
[ -f "$initrd" ] || initrd=
[ -n "$kernel" ] && [ -n "$initrd" ] || die "no kernel or initrd in $lab/root/boot"

mkdir -p "$work/.arm64-lab"
{
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$work/.arm64-lab/cmd"
out=$work/.arm64-lab/console
if [ -z "$ncpu" ]; then
	ncpu=$(nproc)
	[ "$ncpu" -gt 4 ] && ncpu=4
fi
timeout "$secs" qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on \
    -smp "$ncpu" -m 2048 -nographic -no-reboot \
    -kernel "$kernel" -initrd "$initrd" \
    -append "root=/dev/vda rw console=ttyAMA0 quiet init=/usr/local/sbin/dt-lab-init dtlab.work=$work" \
    -drive "if=virtio,format=raw,file=$img,snapshot=on" \
    -virtfs "local,path=$work,mount_tag=dtwork,security_model=none" \
    </dev/null >"$out" 2>&1
qstatus=$?
tr -d '\r' <"$out" | sed -n '/dt-lab-init\|^\[/!p' |
    grep -v '^dt-lab-status ' | sed '/reboot: Power down/d'
status=$(tr -d '\r' <"$out" | sed -n 's/^dt-lab-status \([0-9]*\)$/\1/p' |
    tail -1)
if [ "$qstatus" -eq 124 ]; then
	echo "arm64-lab: the guest ran past $secs s" >&2
	exit 124
fi
[ -n "$status" ] || { tail -20 "$out" >&2; die "the guest did not run the command"; }
exit "$status"
