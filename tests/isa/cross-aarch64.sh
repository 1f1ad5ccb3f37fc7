#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cross-aarch64.sh: cross-build dtrace and libdtrace for arm64 on an
# x86-64 Debian machine, run the unit tests under qemu-user, and run
# dtrace there on the interpreter engine (the uregs[] names).
#
#	tests/isa/cross-aarch64.sh [builddir]	(default build-aarch64)
#
# The arm64 libraries the build links (libbpf, libelf, libctf and what
# they need) are not installed: installing their -dev packages for a
# second architecture would replace the host's.  They are downloaded as
# .debs and unpacked into a sysroot, $DT_ARM64_SYSROOT (default
# /var/cache/dt-arm64sysroot), which needs arm64 among apt's
# architectures (dpkg --add-architecture arm64; apt-get update) once.
# Needs gcc-aarch64-linux-gnu and qemu-user (or qemu-user-static).

set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
builddir=${1:-build-aarch64}
sr=${DT_ARM64_SYSROOT:-/var/cache/dt-arm64sysroot}
triplet=aarch64-linux-gnu
libdir=$sr/root/usr/lib/$triplet

for t in $triplet-gcc qemu-aarch64; do
	command -v $t >/dev/null 2>&1 || {
		echo "$0: $t is missing (gcc-aarch64-linux-gnu, qemu-user)" >&2
		exit 2
	}
done
if [ ! -f "$libdir/libbpf.so" ] || [ ! -f "$libdir/libiberty.a" ]; then
	mkdir -p "$sr/debs"
	(cd "$sr/debs" && apt-get download libbpf-dev:arm64 libbpf1:arm64 \
	    libelf-dev:arm64 libelf1:arm64 binutils-dev:arm64 \
	    libctf0:arm64 libctf-nobfd0:arm64 libbinutils:arm64 \
	    zlib1g:arm64 zlib1g-dev:arm64 libzstd1:arm64 libjansson4:arm64 \
	    libiberty-dev:arm64)
	for d in "$sr"/debs/*.deb; do
		dpkg-deb -x "$d" "$sr/root"
	done
fi

[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
mkdir -p "$top/$builddir"
cd "$top/$builddir"
libs="$sr/root/usr/lib/$triplet:$sr/root/lib/$triplet"
PKG_CONFIG_LIBDIR=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$sr/root \
    "$top/configure" -q --enable-werror --host=$triplet \
    CPPFLAGS="-I$sr/root/usr/include" \
    LDFLAGS="-L$libdir -Wl,-rpath-link=$libdir -L$sr/root/lib/$triplet \
-Wl,-rpath-link=$sr/root/lib/$triplet" \
    TEST_EXEC="qemu-aarch64 -L /usr/$triplet -E LD_LIBRARY_PATH=$libs"
make -s -j2
file cmd/.libs/dtrace .libs/libdtrace.so.0
make -s check TESTS_FILTER=unit/

# dtrace itself under qemu-user, on the interpreter engine (qemu-user has
# no bpf(2)): the D prelude names arm64's registers (R_X0..R_X30, R_SP,
# R_PC, R_PSTATE, from isa/aarch64), not x86-64's, and BEGIN's uregs[]
# come from arm64's ucontext_t.
dt() {
	qemu-aarch64 -L /usr/$triplet -E LD_LIBRARY_PATH="$libs:$PWD/.libs" \
	    cmd/.libs/dtrace -q -x engine=interp "$@"
}
got=$(dt -n 'BEGIN { printf("%d %d %d %d %d %d\n", R_X0, R_X30, R_SP,
    R_PC, R_PSTATE, uregs[R_PC] != 0 && uregs[R_SP] != 0); exit(0); }' 2>&1)
[ "$got" = "0 30 31 32 33 1" ] ||
	{ echo "FAIL: arm64 uregs[] names: got \"$got\"" >&2; exit 1; }
dt -n 'BEGIN { trace(R_RIP); }' >/dev/null 2>&1 &&
	{ echo "FAIL: arm64 dtrace knows x86-64's R_RIP" >&2; exit 1; }
echo "ok: dtrace under qemu-aarch64: the prelude has arm64's uregs[] names"

