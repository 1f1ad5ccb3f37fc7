# cmd/local.mk: dtrace(1) and its manual page.
# In $(sbindir), as DTrace installs it: scripts start #!/usr/sbin/dtrace -s.
sbin_PROGRAMS += cmd/dtrace
cmd_dtrace_SOURCES = %reldir%/dtrace.c
cmd_dtrace_LDADD = libdtrace.la
dist_man_MANS = %reldir%/dtrace.1
