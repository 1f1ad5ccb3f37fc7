# isa/aarch64/local.mk: the AArch64 decoder, emulator, probe sites and
# isa/dt_isa.h member.  Pure C, so the unit tests and the comparison
# with aarch64 objdump build and run on any host; the library takes
# these sources only when it is built for aarch64.
A64_SOURCES = %reldir%/a64_decode.c %reldir%/a64_decode.h \
	%reldir%/a64_emulate.c %reldir%/a64_emulate.h \
	%reldir%/a64_sites.c %reldir%/a64_sites.h \
	%reldir%/a64_isa.c %reldir%/a64_isa.h isa/dt_isa.h

UNIT_TESTS += tests/unit/a64_decode_test tests/unit/a64_sites_test
tests_unit_a64_decode_test_SOURCES = tests/unit/a64_decode_test.c \
	$(A64_SOURCES)
tests_unit_a64_sites_test_SOURCES = tests/unit/a64_sites_test.c \
	$(A64_SOURCES)

EXTRA_DIST += %reldir%/README.md

# Comparison with aarch64 objdump over Debian's arm64 binaries (tests/isa/).
noinst_PROGRAMS += tests/isa/a64_objdump_compare
tests_isa_a64_objdump_compare_SOURCES = tests/isa/a64_objdump_compare.c \
	$(A64_SOURCES)
tests_isa_a64_objdump_compare_LDADD = -lelf
SHELL_TESTS += tests/isa/decode-arm64-binaries.sh
EXTRA_DIST += tests/isa/decode-arm64-binaries.sh \
	tests/isa/fetch-arm64-debs.sh tests/isa/a64-classes.s
