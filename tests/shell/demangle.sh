#!/bin/bash
# SPDX-License-Identifier: MIT
# demangle.sh: C++ and Rust names made readable -- a C++ program's pid
# probes named and matched by their demangled and their mangled names,
# its frames demangled in ustack(), ufunc(), usym(), uaddr() and %A (in
# aggregation keys and printf), -l listing the demangled
# names, -x nodemangle keeping them raw; and a symbol table with Rust's
# legacy (_ZN..17h<hash>E) and v0 (_R...) manglings, built from C with
# the names given by asm labels (no Rust toolchain needed).
#
# It runs on the BPF engine (as root, with the uprobe PMU), then on the
# ptrace engine; DEMANGLE_ENGINE names the engine of a run.
set -u

engine=${DEMANGLE_ENGINE:-bpf}
command -v g++ >/dev/null || { echo "needs a C++ compiler (g++)"; exit 77; }
command -v cc >/dev/null || { echo "needs a C compiler (cc)"; exit 77; }
if [ "$engine" = bpf ]; then
	if [ "$(id -u)" -ne 0 ] ||
	    [ ! -r /sys/bus/event_source/devices/uprobe/type ]; then
		echo "skip: the BPF engine needs root and the uprobe PMU"
		DEMANGLE_ENGINE=ptrace exec bash "$0"
	fi
elif [ "$(uname -m)" != x86_64 ]; then
	echo "the ptrace engine is x86-64 only"
	exit 77
fi
echo "engine: $engine"
dt() { "$DTRACE" -x engine="$engine" "$@"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() {
	if [ "$3" != "$2" ]; then
		printf 'FAIL: %s\n--- want\n%s\n--- got\n%s\n' "$1" "$2" "$3"
		fail=1
	else
		echo "ok: $1"
	fi
}

cat >"$tmp/cppt.cc" <<'CC'
#include <string>
volatile int sink;
extern "C" __attribute__((noinline)) void leaf(void) { sink = sink + 1; }
namespace ns {
struct K {
	int f(const std::string &s);
};
__attribute__((noinline)) int K::f(const std::string &s)
{
	leaf();
	return (int) s.size();
}
}
int main()
{
	ns::K k;
	std::string s("hello");
	int t = 0;
	for (int i = 0; i < 1000; i++)
		t += k.f(s);
	return t == 5000 ? 0 : 1;
}
CC
g++ -O1 -fno-omit-frame-pointer -o "$tmp/cppt" "$tmp/cppt.cc" ||
	{ echo "FAIL: g++ could not build the test program"; exit 1; }
name='ns::K::f(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)'
mangled=_ZN2ns1K1fERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE

out=$(dt -q -n 'pid$target::ns??K??f*:entry { @[probefunc] = count(); }
    END { printa("%s %@d\n", @); }' -c "$tmp/cppt")
check "probe matched by its demangled name" "$name 1000" "$(grep . <<<"$out")"

out=$(dt -q -n 'pid$target::_ZN2ns1K1f*:entry { @[probefunc] = count(); }
    END { printa("%s %@d\n", @); }' -c "$tmp/cppt")
check "probe matched by its mangled name" "$name 1000" "$(grep . <<<"$out")"

out=$(dt -q -n 'pid$target::_ZN2ns1K1f*:entry /n++ == 0/ {
    printf("%s\n", probefunc); ustack(2); }' -c "$tmp/cppt")
check "ustack() frames demangled" "$name
cppt\`$name
cppt\`main" "$(sed -e 's/^ *//' -e 's/+0x[0-9a-f]*$//' <<<"$out" | grep .)"

# ufunc(), usym(), uaddr() and %A of an address in a C++ function (the
# return address in ns::K::f of its call to leaf()), in an aggregation's
# keys and in printf.
out=$(dt -q -n 'pid$target:a.out:leaf:entry /n++ == 0/ {
    printf("%A\n", ucaller);
    @[ufunc(ucaller), usym(ucaller), uaddr(ucaller)] = count(); }
    END { printa("%A|%A|%A\n", @); }' -c "$tmp/cppt")
# (Sorted: the probe's record and END's are in different CPUs' buffers,
# which a last drain prints in CPU order, as DTrace does.)
want=$(printf '%s\n' "cppt\`$name+0x" \
    "cppt\`$name|cppt\`$name|cppt\`$name+0x" | sort)
check "ufunc(), usym(), uaddr() and %A demangled" "$want" \
    "$(sed 's/+0x[0-9a-f]*/+0x/g' <<<"$out" | grep . | sort)"

out=$(dt -q -x nodemangle -n 'pid$target::ns??K??f*:entry /n++ == 0/ {
    printf("%s\n", probefunc); ustack(1); }' -c "$tmp/cppt")
check "-x nodemangle keeps raw names, matched by the demangled" "$mangled
cppt\`$mangled" "$(sed -e 's/^ *//' -e 's/+0x[0-9a-f]*$//' <<<"$out" | grep .)"

out=$(dt -l -n 'pid$target:a.out:*K*:entry' -c "$tmp/cppt" |
	awk 'NR > 1 { $1 = $2 = ""; print substr($0, 3) }')
check "-l lists the demangled name" "cppt $name entry" "$out"

# A constructor's C1 and C2 symbols, one address, demangle alike: one
# probe, each call counted once.
cat >"$tmp/ctor.cc" <<'CC'
volatile int sink;
struct A {
	A();
	int x;
};
__attribute__((noinline)) A::A() { x = sink; sink = sink + 1; }
int main()
{
	for (int i = 0; i < 3; i++)
		A a;
	return 0;
}
CC
g++ -O1 -o "$tmp/ctor" "$tmp/ctor.cc" ||
	{ echo "FAIL: g++ could not build the constructor program"; exit 1; }
out=$(dt -q -n 'pid$target:a.out:A??A*:entry { @[probefunc] = count(); }
    END { printa("%s %@d\n", @); }' -c "$tmp/ctor")
check "aliases demangled alike make one probe" "A::A() 3" \
    "$(grep . <<<"$out")"

# A USDT probe in a C++ function: its function field demangled too.
if echo '#include <sys/sdt.h>' | g++ -E -x c++ - >/dev/null 2>&1; then
	cat >"$tmp/cppu.cc" <<'CC'
#include <sys/sdt.h>
namespace app {
__attribute__((noinline)) void step(int i)
{
	DTRACE_PROBE1(cppprov, tick, i);
}
}
int main()
{
	for (int i = 0; i < 5; i++)
		app::step(i);
	return 0;
}
CC
	g++ -O1 -o "$tmp/cppu" "$tmp/cppu.cc" ||
		{ echo "FAIL: g++ could not build the USDT program"; exit 1; }
	out=$(dt -q -n 'cppprov$target:::tick { @[probefunc] = count(); }
	    END { printa("%s %@d\n", @); }' -c "$tmp/cppu")
	check "USDT probe's function demangled" "app::step(int) 5" \
	    "$(grep . <<<"$out")"
	out=$(dt -q -n 'cppprov$target::_ZN3app4stepEi:tick { @ = count(); }
	    END { printa("%@d\n", @); }' -c "$tmp/cppu")
	check "USDT probe matched by its mangled function" "5" \
	    "$(grep . <<<"$out")"
else
	echo "skip: the USDT part needs <sys/sdt.h> (systemtap-sdt-dev)"
fi

# Rust: a legacy name (an Itanium name ending in a hash element, which
# prints without the hash) and a v0 name.
cat >"$tmp/rust.c" <<'C'
void legacy(void) __asm__("_ZN7mycrate6module4work17h0123456789abcdefE");
void v0(void) __asm__("_RNvNtCs1234_7mycrate6module5other");
volatile int sink;
__attribute__((noinline)) void legacy(void) { sink = sink + 1; }
__attribute__((noinline)) void v0(void) { sink = sink + 2; }
int
main(void)
{
	for (int i = 0; i < 3; i++) {
		legacy();
		v0();
	}
	return 0;
}
C
cc -O1 -fno-omit-frame-pointer -o "$tmp/rust" "$tmp/rust.c" ||
	{ echo "FAIL: cc could not build the Rust-named program"; exit 1; }
out=$(dt -q -n 'pid$target:a.out:mycrate??module*:entry {
    @[probefunc] = count(); } END { printa("%s %@d\n", @); }' -c "$tmp/rust")
check "Rust legacy and v0 names demangled" "mycrate::module::other 3
mycrate::module::work 3" "$(grep . <<<"$out" | sort)"
out=$(dt -q -n 'pid$target:a.out:_R*:entry /n++ == 0/ { ustack(1); }
    pid$target:a.out:_ZN7mycrate*:entry /m++ == 0/ { ustack(1); }' \
    -c "$tmp/rust")
check "Rust frames matched by mangled names, printed demangled" \
    "rust\`mycrate::module::other
rust\`mycrate::module::work" \
    "$(sed -e 's/^ *//' -e 's/+0x[0-9a-f]*$//' <<<"$out" | grep . | sort)"

[ "$fail" -eq 0 ] || exit 1
[ "$engine" = bpf ] && DEMANGLE_ENGINE=ptrace exec bash "$0"
exit 0
