# SPDX-License-Identifier: MIT
# isa/x86_64/local.mk: the x86-64 decoder, emulator and probe sites, and
# x86-64's Linux facts (x86_linux.c)
libdtrace_core_la_SOURCES += isa/dt_isa.h %reldir%/x86_isa.c %reldir%/x86_isa.h \
	%reldir%/x86_linux.c %reldir%/x86_ptrace.c \
	%reldir%/x86_decode.c %reldir%/x86_decode.h \
	%reldir%/x86_emulate.c %reldir%/x86_emulate.h \
	%reldir%/x86_sites.c %reldir%/x86_sites.h

UNIT_TESTS += tests/unit/x86_decode_test tests/unit/x86_emulate_test \
	tests/unit/x86_sites_test
tests_unit_x86_decode_test_SOURCES = tests/unit/x86_decode_test.c
tests_unit_x86_decode_test_LDADD = libdtrace_core.la
tests_unit_x86_emulate_test_SOURCES = tests/unit/x86_emulate_test.c
tests_unit_x86_emulate_test_LDADD = libdtrace_core.la
tests_unit_x86_sites_test_SOURCES = tests/unit/x86_sites_test.c
tests_unit_x86_sites_test_LDADD = libdtrace_core.la

# Comparison with objdump over real binaries (tests/isa/).
noinst_PROGRAMS += tests/isa/x86_objdump_compare
tests_isa_x86_objdump_compare_SOURCES = tests/isa/x86_objdump_compare.c
tests_isa_x86_objdump_compare_LDADD = libdtrace_core.la -lelf
SHELL_TESTS += tests/isa/decode-real-binaries.sh

EXTRA_DIST += %reldir%/README.md tests/isa/decode-real-binaries.sh \
	tests/isa/decode-vs-objdump.sh

UNIT_TESTS += tests/unit/x86_isa_test
tests_unit_x86_isa_test_SOURCES = tests/unit/x86_isa_test.c
tests_unit_x86_isa_test_LDADD = libdtrace_core.la

# The breakpoint handler left in traced processes (x86_ptrace.c), run in
# the test's own.
UNIT_TESTS += tests/unit/ptrace_trap_test
tests_unit_ptrace_trap_test_SOURCES = tests/unit/ptrace_trap_test.c \
	tests/unit/unit.h
tests_unit_ptrace_trap_test_LDADD = libdtrace_core.la
