# cmd/local.mk: dtrace(1) and its manual page.
bin_PROGRAMS += cmd/dtrace
cmd_dtrace_SOURCES = %reldir%/dtrace.c %reldir%/dtrace_guard.c \
    %reldir%/dtrace_guard.h
cmd_dtrace_LDADD = libdtrace.la
dist_man_MANS = %reldir%/dtrace.1
