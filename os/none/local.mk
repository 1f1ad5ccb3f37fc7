# SPDX-License-Identifier: MIT
# os/none/local.mk: the portable build (configure --with-os=none): no OS
# backend, common/dt_os.h answered from POSIX alone, the interpreter the
# only engine.  The D library is common/lib's alone.
libdtrace_core_la_SOURCES += \
	%reldir%/dt_os.c \
	os/posix/dt_os_net.c \
	os/posix/dt_os_clock.c
