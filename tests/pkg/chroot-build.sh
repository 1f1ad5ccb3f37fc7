#!/bin/bash
# SPDX-License-Identifier: MIT
# chroot-build.sh: build the Debian packages in a clean Debian bookworm
# chroot, which has build-essential and nothing else before apt installs
# debian/control's Build-Depends: a build dependency missing from the
# list fails the build here, as it would on a Debian build daemon, where
# on a developer's machine something installed for another reason would
# hide it.
#
#	tests/pkg/chroot-build.sh [-a arm64] [outdir]
#
# outdir (default pkg-out/chroot-ARCH) receives the .debs, the .changes,
# the build log and lintian's report.  -a arm64 cross-builds for arm64
# (`dpkg-buildpackage -a arm64`, with crossbuild-essential-arm64 and the
# arm64 Build-Depends installed in the chroot, which is why it is done
# there: binutils is not Multi-Arch, so binutils-dev:arm64 cannot be
# installed beside this machine's binutils -- in the chroot it is
# unpacked instead, see run.sh below).
#
# Needs root, debootstrap and the network (the Debian mirror of
# /etc/apt/sources.list*, or $DT_MIRROR).  The first run makes a base
# chroot with `debootstrap --variant=buildd` and keeps it as a tar file
# in $DT_CHROOT_CACHE (default /var/cache/dt-chroot; about 500 MB);
# every run unpacks it afresh into a temporary directory, so each build
# starts clean.  It takes about ten minutes, so it is
# not part of `make check`.
set -eu

arch=
while getopts a: o; do
	case $o in
	a) arch=$OPTARG ;;
	*) echo "usage: $0 [-a arm64] [outdir]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
top=$(cd "$(dirname "$0")/../.." && pwd)
native=$(dpkg --print-architecture)
out=$(realpath -m "${1:-$top/pkg-out/chroot-${arch:-$native}}")
cache=${DT_CHROOT_CACHE:-/var/cache/dt-chroot}
suite=bookworm
base=$cache/$suite-$native-base.tar

[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null ||
	{ echo "$0: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }

# The mirror this machine's apt uses: a deb822 URIs: line or a one-line
# "deb URL bookworm ..." entry.
mirror=${DT_MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
    /etc/apt/sources.list.d/*.list 2>/dev/null |
    awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }
	 /^deb / && $3 == "'$suite'" { print $2; exit }')}
mirror=${mirror:-http://deb.debian.org/debian}

root=$(mktemp -d /var/tmp/dt-chroot.XXXXXX)
# Its / must be open to the unprivileged user who builds.
chmod 755 "$root"
cleanup() {
	for m in proc dev/pts dev; do
		mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
	done
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT

if [ ! -s "$base" ]; then
	echo "chroot-build: debootstrap $suite from $mirror (once; kept in $base)"
	mkdir -p "$cache"
	debootstrap --variant=buildd "$suite" "$root" "$mirror" \
	    >"$cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/debootstrap.log"; echo "FAIL: debootstrap"; exit 1; }
	# Without the .debs debootstrap fetched (about 100 MB).
	rm -f "$root"/var/cache/apt/archives/*.deb
	tar -C "$root" -cf "$base.tmp" . && mv "$base.tmp" "$base"
	rm -rf --one-file-system "$root" && mkdir -m 755 "$root"
fi
tar -C "$root" -xf "$base"
chmod 755 "$root"

cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"

# The sources as git sees them (tracked and new files, no build trees).
mkdir -p "$root/build/src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	    xargs -0 tar -cf - 2>/dev/null) | tar -C "$root/build/src" -xf -
else
	tar -C "$top" --exclude-vcs --exclude=./build --exclude=./pkg-out \
	    -cf - . | tar -C "$root/build/src" -xf -
fi

# Inside: apt installs the Build-Depends (apt-get build-dep of the
# unpacked source), then an unprivileged user builds, as Debian's build
# daemons do (Rules-Requires-Root: no).
cat >"$root/build/run.sh" <<'SH'
#!/bin/sh
set -e
arch=$1
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
apt="apt-get -y -q -o APT::Install-Recommends=false"
if [ -n "$arch" ]; then
	dpkg --add-architecture "$arch"
	$apt update
	$apt install "crossbuild-essential-$arch"
	# `apt-get build-dep -a ARCH` cannot work: binutils-dev:ARCH depends
	# on binutils:ARCH, and binutils (not Multi-Arch) cannot be installed
	# beside this machine's, which the cross toolchain needs.  So each
	# Build-Depends is installed by hand -- the build tools for this
	# machine, the libraries for ARCH -- and binutils-dev:ARCH (headers
	# and link libraries of libctf) is unpacked, not installed, its
	# libraries installed for ARCH; dpkg-buildpackage then checks no
	# build dependency (-d), dpkg-checkbuilddeps having shown that
	# binutils-dev is the only one unmet.
	pkgs=
	for p in $(awk '/^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, "") }
	    on && /^[^ \t]/ && !/^Build-Depends:/ { exit } on' \
	    /build/src/debian/control | tr ',' '\n' | sed 's/(.*)//; s/[[:space:]]//g'); do
		case $p in
		'') ;;
		debhelper-compat) pkgs="$pkgs debhelper" ;;
		bison | flex) pkgs="$pkgs $p" ;;
		binutils-dev) ;;
		*) pkgs="$pkgs $p:$arch" ;;
		esac
	done
	$apt install $pkgs libbinutils:$arch libctf0:$arch libctf-nobfd0:$arch
	(cd /tmp && apt-get download binutils-dev:$arch && dpkg-deb -x binutils-dev_*_$arch.deb /)
	echo "== unmet, as dpkg-checkbuilddeps -a $arch sees it (binutils-dev only):"
	unmet=$(cd /build/src && dpkg-checkbuilddeps -a "$arch" 2>&1 |
	    sed -n 's/.*Unmet build dependencies: //p')
	echo "$unmet"
	[ "$unmet" = binutils-dev ] || { echo "unexpected unmet build dependencies"; exit 1; }
	aopt="-a $arch -d"
else
	$apt update
	$apt build-dep /build/src
	aopt=
fi
echo "== installed for the build:"
dpkg-query -W -f '${binary:Package} ${Version}\n' | sort
useradd -m builder
chown -R builder /build
su builder -c "cd /build/src && DEB_BUILD_OPTIONS='parallel=$(nproc) nocheck' \
    dpkg-buildpackage -us -uc -b $aopt"
SH
chmod +x "$root/build/run.sh"

mkdir -p "$out"
echo "chroot-build: building${arch:+ for $arch} in a fresh $suite chroot ($root)"
status=0
chroot "$root" /build/run.sh "$arch" >"$out/build.log" 2>&1 || status=$?
cp "$root"/build/*.deb "$root"/build/*.changes "$root"/build/*.buildinfo \
    "$out"/ 2>/dev/null || true
if [ $status -ne 0 ]; then
	tail -n 40 "$out/build.log"
	echo "FAIL: the build in the chroot (exit $status); log: $out/build.log"
	exit 1
fi
echo "chroot-build: built in $out:"
(cd "$out" && ls -1 ./*.deb)
if command -v lintian >/dev/null; then
	# (Less its remark that it runs as root.)
	lintian --pedantic --display-info "$out"/*.changes 2>&1 |
	    { grep -v '^running with root privileges' || true; } >"$out/lintian.log"
	if [ -s "$out/lintian.log" ]; then
		echo "chroot-build: lintian --pedantic says:"
		cat "$out/lintian.log"
	else
		echo "chroot-build: lintian --pedantic: no tags"
	fi
fi
