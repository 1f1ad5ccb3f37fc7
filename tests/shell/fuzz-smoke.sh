#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-smoke.sh: the libFuzzer targets of tests/fuzz build, and each runs
# briefly without a finding: over its seeds (compile_fuzz's regression
# inputs and the compile-error tests; the ELF readers' seeds, made by
# tests/fuzz/build.sh, and cfi_fuzz's regression inputs), then a fixed
# number of mutated inputs.  So a
# change that breaks the targets' build, or an input that once failed,
# fails here rather than at the next fuzzing session.  Built at -O0,
# which compiles fast; the real runs are README.md's.  Skips, saying why,
# without clang and its libFuzzer runtime.
set -u
: "${top_srcdir:?top_srcdir must be set}"
command -v clang >/dev/null || { echo "clang is not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ (void) d; (void) n; return 0; }' >"$work/t.c"
if ! clang -fsanitize=fuzzer,address,undefined "$work/t.c" -o "$work/t" \
    >/dev/null 2>&1; then
	echo "clang cannot link -fsanitize=fuzzer (libclang-rt-dev?)"
	exit 77
fi

if ! FUZZ_OPT=-O0 "$top_srcdir/tests/fuzz/build.sh" "$work/out" \
    >"$work/build.log" 2>&1; then
	grep -v warning "$work/build.log" | tail -n 20
	echo "FAIL: tests/fuzz/build.sh"
	exit 1
fi

# libFuzzer exits non-zero on a crash, sanitizer report, leak or timeout.
fail=0
run() {
	local name=$1 runs=$2
	shift 2
	mkdir -p "$work/corpus-$name" "$work/art-$name"
	cp "$@" "$work/corpus-$name/"
	if "$work/out/$name" -runs="$runs" -max_len=65536 -timeout=60 \
	    -artifact_prefix="$work/art-$name/" "$work/corpus-$name" \
	    >"$work/$name.log" 2>&1; then
		echo "$name: $(grep -o 'Done [0-9]* runs' "$work/$name.log")"
	else
		tail -n 30 "$work/$name.log"
		echo "FAIL: $name"
		fail=1
	fi
}
run compile_fuzz 300 "$top_srcdir"/tests/fuzz/corpus/regress-* \
	"$top_srcdir"/tests/d/errors/*.d
run cfi_fuzz 3000 "$work"/out/seeds/cfi/* "$top_srcdir"/tests/fuzz/corpus-cfi/*
run elfsym_fuzz 3000 "$work"/out/seeds/elfsym/*
run kdwarf_fuzz 3000 "$work"/out/seeds/kdwarf/* \
	"$top_srcdir"/tests/fuzz/corpus-kdwarf/*
exit $fail
