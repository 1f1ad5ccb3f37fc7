# SPDX-License-Identifier: MIT
# common/dif/local.mk: DIF -- instruction set, assembler/disassembler,
# verifier and interpreter; their unit tests and the interpreter benchmark.
libdtrace_core_la_SOURCES += \
	%reldir%/dif.h \
	%reldir%/dif.c \
	%reldir%/dif_asm.h \
	%reldir%/dif_asm.c \
	%reldir%/dif_verify.h \
	%reldir%/dif_verify.c \
	%reldir%/dif_interp.h \
	%reldir%/dif_impl.h \
	%reldir%/dif_interp.c \
	%reldir%/dif_vars.c \
	%reldir%/dif_subr.c

UNIT_TESTS += tests/unit/dif_subr_test
tests_unit_dif_subr_test_SOURCES = tests/unit/dif_subr_test.c tests/unit/unit.h
tests_unit_dif_subr_test_LDADD = libdtrace_core.la

UNIT_TESTS += tests/unit/dif_interp_test
tests_unit_dif_interp_test_SOURCES = tests/unit/dif_interp_test.c \
	tests/unit/unit.h
tests_unit_dif_interp_test_LDADD = libdtrace_core.la

UNIT_TESTS += tests/unit/dif_asm_test tests/unit/dif_verify_test
tests_unit_dif_asm_test_SOURCES = tests/unit/dif_asm_test.c tests/unit/unit.h
tests_unit_dif_asm_test_LDADD = libdtrace_core.la
tests_unit_dif_verify_test_SOURCES = tests/unit/dif_verify_test.c \
	tests/unit/unit.h
tests_unit_dif_verify_test_LDADD = libdtrace_core.la

noinst_PROGRAMS += tests/bench/interp_bench
tests_bench_interp_bench_SOURCES = tests/bench/interp_bench.c
tests_bench_interp_bench_LDADD = libdtrace_core.la
