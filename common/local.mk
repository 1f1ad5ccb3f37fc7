# SPDX-License-Identifier: MIT
# common/local.mk: the portable core of libdtrace.
libdtrace_core_la_SOURCES += \
	%reldir%/dtrace.h \
	%reldir%/dt_impl.h \
	%reldir%/dt_errors.h \
	%reldir%/dt_error.c \
	%reldir%/dt_options.h \
	%reldir%/dt_options.c \
	%reldir%/dt_open.c \
	%reldir%/dt_program.h \
	%reldir%/dt_program.c \
	%reldir%/dt_aggfunc.h \
	%reldir%/dt_aggfunc.c \
	%reldir%/dt_demangle.h \
	%reldir%/dt_demangle.c \
	%reldir%/dt_os.h \
	%reldir%/dt_list.c \
	%reldir%/dt_proc.c \
	%reldir%/dt_work.h \
	%reldir%/dt_work.c \
	%reldir%/dt_metrics.h \
	%reldir%/dt_metrics.c \
	%reldir%/engine/dt_engine.h \
	%reldir%/engine/dt_interp.h \
	%reldir%/engine/dt_interp_engine.c \
	%reldir%/engine/dt_spec.h \
	%reldir%/engine/dt_spec.c \
	%reldir%/probe/dt_probe.h \
	%reldir%/probe/dt_probe.c \
	%reldir%/probe/dt_probe_index.c \
	%reldir%/prov/dt_prov.h \
	%reldir%/prov/dt_prov_dtrace.c \
	%reldir%/prov/dt_prov_profile.c

# The portable D library files (fault names), installed beside the OS's
# in $(libdir)/dtrace (common/compiler/dt_lib.c).
dist_dtracelib_DATA = %reldir%/lib/faults.d %reldir%/lib/sched.d
