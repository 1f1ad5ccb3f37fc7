# SPDX-License-Identifier: MIT
# common/compiler/cg.mk: code generation -- the cooked D tree to DIF and a
# dt_program_t -- and its unit test.
libdtrace_core_la_SOURCES += \
	%reldir%/dt_cg.h \
	%reldir%/dt_cg.c \
	%reldir%/dt_cg_act.c

UNIT_TESTS += tests/unit/cg_test
tests_unit_cg_test_SOURCES = tests/unit/cg_test.c tests/unit/unit.h
tests_unit_cg_test_LDADD = libdtrace_core.la
