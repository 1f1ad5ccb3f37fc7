#!/bin/bash
# SPDX-License-Identifier: MIT
# symver-names.sh: a symbol table that names functions with their ELF
# version -- a library's own .symtab, or libc's debug symbols, say
# "foo@@V2" for the default version of foo -- still gives DTrace's plain
# names: pid$target::foo:entry matches it, and its frames print
# libv.so`foo.  A hidden old version (foo@V1) keeps its decorated name.
set -u
[ "$(id -u)" -eq 0 ] || { echo "needs root (pid probes on the BPF engine)"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/v.c" <<'C'
__asm__(".symver foo_v1, foo@V1");
__asm__(".symver foo_v2, foo@@V2");
int foo_v1(int x) { return x + 1; }
int __attribute__((noinline)) foo_v2(int x) { volatile int y = x; return y * 2; }
C
printf 'V1 { global: foo; local: *; };\nV2 { global: foo; } V1;\n' >"$tmp/v.map"
cat >"$tmp/m.c" <<'C'
int foo(int);
int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += foo(i); return s == 6 ? 0 : 1; }
C
cc -O1 -shared -fPIC -Wl,--version-script="$tmp/v.map" -o "$tmp/libv.so" \
    "$tmp/v.c" && cc -o "$tmp/m" "$tmp/m.c" -L"$tmp" -lv \
    -Wl,-rpath,"$tmp" || exit 1
# The test is only a test if the library's .symtab has the decorated name.
readelf -sW "$tmp/libv.so" | grep -q 'foo@@V2' ||
	{ echo "this toolchain writes no versioned names in .symtab"; exit 77; }

fail=0
out=$("$DTRACE" -q -n 'pid$target::foo:entry { @[probefunc] = count(); }
    pid$target::foo:entry { ustack(1); }' -c "$tmp/m" 2>&1)
[ "$(echo "$out" | grep -c '^ *libv\.so`foo$')" = 3 ] ||
	{ echo "FAIL: three frames named libv.so\`foo"; fail=1; }
echo "$out" | grep -q '^ *foo  *3$' ||
	{ echo "FAIL: pid\$target::foo:entry counts 3 calls as foo"; fail=1; }
echo "$out" | grep -q '@@' && { echo "FAIL: a name keeps its version"; fail=1; }
[ $fail -eq 0 ] && echo "ok: plain names for default versions" || echo "$out"
exit $fail
