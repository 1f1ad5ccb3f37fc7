# SPDX-License-Identifier: MIT
# common/consumer/local.mk: the consumer -- records and aggregations to
# DTrace's text output, JSON, folded stacks or pprof profiles.
libdtrace_core_la_SOURCES += \
	%reldir%/dt_consumer.h \
	%reldir%/dt_cons_impl.h \
	%reldir%/dt_consume.c \
	%reldir%/dt_print.c \
	%reldir%/dt_print_type.c \
	%reldir%/dt_printf.h \
	%reldir%/dt_printf.c \
	%reldir%/dt_aggregate.c \
	%reldir%/dt_aggprint.c \
	%reldir%/dt_json.c \
	%reldir%/dt_folded.c \
	%reldir%/dt_protobuf.h \
	%reldir%/dt_protobuf.c \
	%reldir%/dt_pprof.c \
	%reldir%/dt_metrics_fmt.c \
	%reldir%/dt_cons_spec.c \
	%reldir%/dt_cons_bufpolicy.c

# Unit tests of the consumer: exact output for known records.
CONSUMER_TESTS = \
	tests/unit/consumer_printf_test \
	tests/unit/consumer_agg_test \
	tests/unit/consumer_buf_test \
	tests/unit/consumer_spec_test \
	tests/unit/metrics_fmt_test \
	tests/unit/protobuf_test \
	tests/unit/consumer_pprof_test
UNIT_TESTS += $(CONSUMER_TESTS)
tests_unit_consumer_printf_test_SOURCES = tests/unit/consumer_printf_test.c \
	tests/unit/consumer_test.h tests/unit/unit.h
tests_unit_consumer_printf_test_LDADD = libdtrace_core.la
tests_unit_consumer_agg_test_SOURCES = tests/unit/consumer_agg_test.c \
	tests/unit/consumer_test.h tests/unit/unit.h
tests_unit_consumer_agg_test_LDADD = libdtrace_core.la
tests_unit_consumer_buf_test_SOURCES = tests/unit/consumer_buf_test.c \
	tests/unit/consumer_test.h tests/unit/unit.h
tests_unit_consumer_buf_test_LDADD = libdtrace_core.la
tests_unit_consumer_spec_test_SOURCES = tests/unit/consumer_spec_test.c \
	tests/unit/consumer_test.h tests/unit/unit.h
tests_unit_consumer_spec_test_LDADD = libdtrace_core.la
tests_unit_metrics_fmt_test_SOURCES = tests/unit/metrics_fmt_test.c \
	tests/unit/consumer_test.h tests/unit/unit.h
tests_unit_metrics_fmt_test_LDADD = libdtrace_core.la
tests_unit_protobuf_test_SOURCES = tests/unit/protobuf_test.c tests/unit/unit.h
tests_unit_protobuf_test_LDADD = libdtrace_core.la
tests_unit_consumer_pprof_test_SOURCES = tests/unit/consumer_pprof_test.c \
	tests/unit/consumer_test.h tests/unit/unit.h
tests_unit_consumer_pprof_test_LDADD = libdtrace_core.la $(ZLIB_LIBS)
