#!/bin/bash
# SPDX-License-Identifier: MIT
# build.sh: build the libFuzzer target for the D compiler front end.
#
#   tests/fuzz/build.sh [OUTDIR]       (default: /tmp/dtrace-fuzz)
#
# produces OUTDIR/compile_fuzz, built with clang -fsanitize=fuzzer,address,
# undefined from the compiler sources, code generation and DIF (the lexer
# and grammar generated here with flex and bison).  Run it over the seed corpus, e.g.
#
#   mkdir -p /tmp/fuzz-corpus
#   find tests/d -name '*.d' -exec cp {} /tmp/fuzz-corpus \;
#   cp tests/fuzz/corpus/* /tmp/fuzz-corpus
#   /tmp/dtrace-fuzz/compile_fuzz -max_total_time=600 -timeout=10 \
#       /tmp/fuzz-corpus
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/dtrace-fuzz}
mkdir -p "$out/gen/common/compiler"
gen=$out/gen/common/compiler

bison -d -Wno-yacc -o "$gen/dt_grammar.c" "$top/common/compiler/dt_grammar.y"
flex -o "$gen/dt_lex.c" "$top/common/compiler/dt_lex.l"

# config.h is only needed for the package name in dt_open.c, not built.
srcs=(
	"$top"/common/compiler/*.c "$top"/common/consumer/*.c
	"$top"/common/dif/*.c
	"$gen/dt_grammar.c" "$gen/dt_lex.c"
	"$top/common/dt_options.c" "$top/common/dt_error.c"
	"$top/common/dt_aggfunc.c" "$top/common/probe/dt_probe.c"
	"$top/common/dt_program.c" "$top/common/dt_demangle.c"
	"$top/common/dt_metrics.c"
	"$top/tests/fuzz/compile_fuzz.c"
)
clang -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -D_GNU_SOURCE \
	-DDTRACE_LIBDIR='"/nonexistent"' -DDTRACE_SRC_LIBDIR='"/nonexistent"' \
	-I"$top" -I"$out/gen" -Wno-unused-command-line-argument \
	"${srcs[@]}" -o "$out/compile_fuzz" -lctf -liberty
echo "built $out/compile_fuzz"
