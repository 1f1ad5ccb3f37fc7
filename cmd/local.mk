# SPDX-License-Identifier: MIT
# cmd/local.mk: dtrace(1) and its manual page.
# In $(sbindir), as DTrace installs it: scripts start #!/usr/sbin/dtrace -s.
sbin_PROGRAMS += cmd/dtrace
cmd_dtrace_SOURCES = %reldir%/dtrace.c %reldir%/dtrace_guard.c \
    %reldir%/dtrace_guard.h
cmd_dtrace_LDADD = libdtrace.la
dist_man_MANS = %reldir%/dtrace.1

# Bash completion, installed under the name of the command it completes.
bashcompdir = $(datadir)/bash-completion/completions
EXTRA_DIST += %reldir%/dtrace.bash
install-data-local:
	$(MKDIR_P) '$(DESTDIR)$(bashcompdir)'
	$(INSTALL_DATA) '$(srcdir)/%reldir%/dtrace.bash' \
	    '$(DESTDIR)$(bashcompdir)/dtrace'
uninstall-local:
	rm -f '$(DESTDIR)$(bashcompdir)/dtrace'
