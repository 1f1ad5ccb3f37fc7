# SPDX-License-Identifier: MIT
# common/compiler/local.mk: the D compiler front end -- lexer, grammar,
# declarations, types, identifiers, semantic checks, pragmas and the
# compile API (see common/compiler/dt_cc.h for the pipeline).
AM_YFLAGS = -d -Wno-yacc -o y.tab.c
AM_LFLAGS = -o lex.yy.c
BUILT_SOURCES += %reldir%/dt_grammar.h
# The generated scanner and parser go in a build directory that a build
# without dependency tracking (Debian's) has not made yet when they are
# generated first.
%reldir%/dt_grammar.c %reldir%/dt_grammar.h %reldir%/dt_lex.c: \
	%reldir%/$(am__dirstamp)
libdtrace_core_la_SOURCES += \
	%reldir%/dt_cc.h \
	%reldir%/dt_errtags.h \
	%reldir%/dt_grammar.y \
	%reldir%/dt_lex.l \
	%reldir%/dt_node.c \
	%reldir%/dt_type.c \
	%reldir%/dt_decl.c \
	%reldir%/dt_ident.c \
	%reldir%/dt_cook.c \
	%reldir%/dt_cook_act.c \
	%reldir%/dt_xlate.c \
	%reldir%/dt_pragma.c \
	%reldir%/dt_pdesc.c \
	%reldir%/dt_lib.c \
	%reldir%/dt_lib_need.c \
	%reldir%/dt_cc.c \
	%reldir%/dt_cc_run.c

UNIT_TESTS += tests/unit/compiler_layout_test tests/unit/compiler_api_test
tests_unit_compiler_layout_test_SOURCES = \
	tests/unit/compiler_layout_test.c tests/unit/unit.h
tests_unit_compiler_layout_test_LDADD = libdtrace_core.la
tests_unit_compiler_api_test_SOURCES = \
	tests/unit/compiler_api_test.c tests/unit/unit.h
tests_unit_compiler_api_test_LDADD = libdtrace_core.la
