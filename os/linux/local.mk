# os/linux/local.mk: the Linux backend.
libdtrace_core_la_SOURCES += \
	%reldir%/dt_os.c
EXTRA_DIST += %reldir%/README.md
