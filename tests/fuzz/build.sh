#!/bin/bash
# SPDX-License-Identifier: MIT
# build.sh: build the libFuzzer targets (see README.md).
#
#   tests/fuzz/build.sh [OUTDIR]       (default: /tmp/dtrace-fuzz)
#
# produces, with clang -fsanitize=fuzzer,address,undefined:
#
#   OUTDIR/compile_fuzz   the D compiler front end and code generation
#   OUTDIR/cfi_fuzz       os/linux/dt_cfi.c: .eh_frame and .debug_frame
#   OUTDIR/elfsym_fuzz    os/linux/dt_elfsym.c: ELF symbol tables
#   OUTDIR/kdwarf_fuzz    os/linux/dt_kdwarf.c: a kernel's .debug_info
#   OUTDIR/seeds/{cfi,elfsym,kdwarf}/   seed inputs for the last three,
#                         made here from small objects the build's
#                         compilers make
#
# compile_fuzz links against every C file of common/ and the no-OS
# backend (os/none, os/posix), put in an archive: the linker takes what
# the compiler needs and nothing else, so a file added to common/ needs
# no change here, and os/none answers dt_os.h as it does for the
# --with-os=none build.  The lexer and grammar are generated here with
# flex and bison.  FUZZ_JOBS (default 2) compiles that many at once;
# FUZZ_OPT (default "-g -O1") is the optimization: tests/shell/fuzz-smoke.sh
# builds with -O0, which compiles several times faster, to run briefly.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/dtrace-fuzz}
jobs=${FUZZ_JOBS:-2}
cc=${CLANG:-clang}
gen=$out/gen
obj=$out/obj
mkdir -p "$gen/common/compiler" "$obj"
rm -f "$obj"/*.o "$out/libcore.a"

bison -d -Wno-yacc -o "$gen/common/compiler/dt_grammar.c" \
	"$top/common/compiler/dt_grammar.y"
flex -o "$gen/common/compiler/dt_lex.c" "$top/common/compiler/dt_lex.l"
# config.h: only the package's name and version are read from it.
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' \
	"$top/configure.ac")
printf '#define PACKAGE_NAME "dtrace"\n#define PACKAGE_VERSION "%s"\n' \
	"${version:-0}" >"$gen/config.h"

read -r -a opt <<<"${FUZZ_OPT:--g -O1}"
flags=("${opt[@]}" -fsanitize=address,undefined -fno-sanitize-recover=undefined
	-D_GNU_SOURCE -DDTRACE_LIBDIR='"/nonexistent"'
	-DDTRACE_SRC_LIBDIR='"/nonexistent"' -I"$top" -I"$gen"
	-Wno-unused-command-line-argument)
# Each source into obj/, named by its path, instrumented for coverage
# (xargs fails if any compile does).
{
	(cd "$top" && find common -name '*.c' | sort)
	(cd "$top" && ls os/none/*.c os/posix/*.c)
} | while read -r f; do
	echo "$top/$f -o $obj/$(printf '%s' "$f" | tr / _ | sed 's/c$/o/')"
done >"$out/sources"
printf '%s\n' "$gen/common/compiler/dt_grammar.c -o $obj/dt_grammar.o" \
	"$gen/common/compiler/dt_lex.c -o $obj/dt_lex.o" >>"$out/sources"
xargs -P "$jobs" -L 1 "$cc" "${flags[@]}" -fsanitize=fuzzer-no-link -c \
	<"$out/sources"
ar rcs "$out/libcore.a" "$obj"/*.o

"$cc" "${flags[@]}" -fsanitize=fuzzer "$top/tests/fuzz/compile_fuzz.c" \
	"$out/libcore.a" -o "$out/compile_fuzz" -lctf -liberty -lz -lm -lpthread
echo "built $out/compile_fuzz"

# The ELF readers need libelf and nothing of common/, but each other (the
# unwinder opens files as the symbol reader does, which reads build IDs
# as the DWARF reader does): all three go in each.
for t in cfi elfsym; do
	"$cc" "${flags[@]}" -fsanitize=fuzzer "$top/tests/fuzz/${t}_fuzz.c" \
		"$top/os/linux/dt_cfi.c" "$top/os/linux/dt_elfsym.c" \
		"$top/os/linux/dt_kdwarf.c" \
		-o "$out/${t}_fuzz" -lelf
	echo "built $out/${t}_fuzz"
done
"$cc" "${flags[@]}" -fsanitize=fuzzer "$top/tests/fuzz/kdwarf_fuzz.c" \
	"$top/os/linux/dt_kdwarf.c" -o "$out/kdwarf_fuzz" -lelf
echo "built $out/kdwarf_fuzz"

# Seeds for them: a small C file compiled as an object, a shared library
# (with .eh_frame) and with -g but no unwind tables (.debug_frame only),
# for each processor the CFI reader knows whose compiler is installed;
# each also as its bare section, the targets' other input form.
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$seeds/cfi" "$seeds/elfsym" "$seeds/kdwarf"
mkseeds() {
	local tcc=$1 tag=$2 machine=$3 tmp=$out/seedtmp
	command -v "$tcc" >/dev/null || return 0
	mkdir -p "$tmp"
	"$tcc" -O2 -fPIC -c "$top/tests/fuzz/seed.c" -o "$tmp/$tag.o"
	"$tcc" -O2 -fPIC -shared -nostdlib "$top/tests/fuzz/seed.c" \
		-o "$tmp/$tag.so"
	"$tcc" -O0 -g -fPIC -shared -nostdlib -fno-asynchronous-unwind-tables \
		-fno-unwind-tables "$top/tests/fuzz/seed.c" -o "$tmp/$tag-dbg.so"
	for f in "$tmp/$tag.o" "$tmp/$tag.so" "$tmp/$tag-dbg.so"; do
		cp "$f" "$seeds/cfi/"
		cp "$f" "$seeds/elfsym/"
	done
	# The bare sections: a flags byte (1: .debug_frame, 2: arm64),
	# then the section's bytes.
	for s in eh_frame debug_frame; do
		local flag=$machine src=$tmp/$tag.so
		[ $s = debug_frame ] && flag=$((flag + 1)) src=$tmp/$tag-dbg.so
		objcopy --dump-section .$s="$tmp/sec" "$src" "$tmp/junk" \
			2>/dev/null || continue
		[ -s "$tmp/sec" ] || continue
		{ printf "\\x$(printf %02x $flag)"; cat "$tmp/sec"; } \
			>"$seeds/cfi/$tag-$s.bin"
	done
	rm -rf "$tmp"
}
# The DWARF reader's: the unit test's variables, in DWARF 4 and 5.
for v in 4 5; do
	"${SEED_CC:-cc}" -g -gdwarf-$v -fPIC -shared -nostdlib \
		"$top/tests/unit/kdwarf_vars.c" \
		-o "$seeds/kdwarf/vars-dwarf$v.so"
done
# and clang's DWARF 5, whose names are string indexes (DW_FORM_strx)
"$cc" -g -gdwarf-5 -fPIC -shared -nostdlib "$top/tests/unit/kdwarf_vars.c" \
	-o "$seeds/kdwarf/vars-clang.so"
mkseeds "${SEED_CC:-cc}" native "$([ "$(uname -m)" = aarch64 ] && echo 2 ||
	echo 0)"
[ "$(uname -m)" = aarch64 ] || mkseeds aarch64-linux-gnu-gcc a64 2
echo "seeds in $seeds"
