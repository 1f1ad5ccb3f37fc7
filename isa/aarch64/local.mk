# SPDX-License-Identifier: MIT
# isa/aarch64/local.mk: the AArch64 decoder, emulator, probe sites and
# isa/dt_isa.h member, as one convenience library.  Pure C, so the unit
# tests and the comparison with aarch64 objdump build and run on any
# host; libdtrace takes the library only when built for aarch64.
noinst_LTLIBRARIES += libisa_aarch64.la
libisa_aarch64_la_SOURCES = %reldir%/a64_decode.c %reldir%/a64_decode.h \
	%reldir%/a64_emulate.c %reldir%/a64_emulate.h \
	%reldir%/a64_sites.c %reldir%/a64_sites.h \
	%reldir%/a64_isa.c %reldir%/a64_isa.h %reldir%/a64_linux.c isa/dt_isa.h
if ISA_AARCH64
libdtrace_core_la_LIBADD += libisa_aarch64.la
# The calling thread's registers, ptrace(2) and the breakpoint handler's
# code need an arm64 C library and assembler; the ptrace engine's part
# uses isa/dt_isa.h's instruction-level types, which are arm64's there.
libdtrace_core_la_SOURCES += %reldir%/a64_ucontext.c %reldir%/a64_ptrace.c \
	%reldir%/a64_ptrace_ops.c
UNIT_TESTS += tests/unit/a64_ptrace_test
tests_unit_a64_ptrace_test_SOURCES = tests/unit/a64_ptrace_test.c \
	tests/unit/unit.h
tests_unit_a64_ptrace_test_LDADD = libdtrace_core.la
endif

UNIT_TESTS += tests/unit/a64_decode_test tests/unit/a64_sites_test
tests_unit_a64_decode_test_SOURCES = tests/unit/a64_decode_test.c
tests_unit_a64_decode_test_LDADD = libisa_aarch64.la
tests_unit_a64_sites_test_SOURCES = tests/unit/a64_sites_test.c
tests_unit_a64_sites_test_LDADD = libisa_aarch64.la

# Comparison with aarch64 objdump over Debian's arm64 binaries (tests/isa/).
noinst_PROGRAMS += tests/isa/a64_objdump_compare
tests_isa_a64_objdump_compare_SOURCES = tests/isa/a64_objdump_compare.c
tests_isa_a64_objdump_compare_LDADD = libisa_aarch64.la -lelf
SHELL_TESTS += tests/isa/decode-arm64-binaries.sh
EXTRA_DIST += %reldir%/README.md tests/isa/decode-arm64-binaries.sh \
	tests/isa/fetch-arm64-debs.sh tests/isa/a64-classes.s \
	tests/isa/cross-aarch64.sh
