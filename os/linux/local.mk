# SPDX-License-Identifier: MIT
# os/linux/local.mk: the Linux backend -- feature probes, the BPF engine
# (os/linux/bpf/), the ptrace engine (os/linux/ptrace/) and the Linux
# providers (os/linux/prov/).
libdtrace_core_la_SOURCES += \
	%reldir%/dt_os.c \
	%reldir%/dt_ksyms.h \
	%reldir%/dt_ksyms.c \
	%reldir%/dt_btf.h \
	%reldir%/dt_btf.c \
	%reldir%/dt_kdwarf.h \
	%reldir%/dt_kdwarf.c \
	%reldir%/dt_linux_features.h \
	%reldir%/dt_linux_features.c \
	%reldir%/dt_proc.c \
	%reldir%/dt_elfsym.h \
	%reldir%/dt_elfsym.c \
	%reldir%/dt_usyms.h \
	%reldir%/dt_usyms.c \
	%reldir%/dt_perfmap.h \
	%reldir%/dt_perfmap.c \
	%reldir%/dt_cfi.h \
	%reldir%/dt_cfi.c \
	%reldir%/dt_usdt_gen.c \
	os/posix/dt_os_net.c \
	os/posix/dt_os_clock.c \
	%reldir%/bpf/dt_bpf_insn.h \
	%reldir%/bpf/dt_bpf_insn.c \
	%reldir%/bpf/dt_bpf_relax.c \
	%reldir%/bpf/dt_bpf_attach.h \
	%reldir%/bpf/dt_bpf_attach.c \
	%reldir%/bpf/dt_bpf_gen.h \
	%reldir%/bpf/dt_bpf_impl.h \
	%reldir%/bpf/dt_bpf_layout.c \
	%reldir%/bpf/dt_bpf_gen.c \
	%reldir%/bpf/dt_bpf_var.c \
	%reldir%/bpf/dt_bpf_builtin.c \
	%reldir%/bpf/dt_bpf_instr.c \
	%reldir%/bpf/dt_bpf_rec.c \
	%reldir%/bpf/dt_bpf_agg.c \
	%reldir%/bpf/dt_bpf_aggread.h \
	%reldir%/bpf/dt_bpf_aggread.c \
	%reldir%/bpf/dt_bpf_args.c \
	%reldir%/bpf/dt_bpf_loop.c \
	%reldir%/bpf/dt_bpf_stack.c \
	%reldir%/bpf/dt_bpf_uprobes.c \
	%reldir%/bpf/dt_bpf_progress.c \
	%reldir%/bpf/dt_bpf_detach.c \
	%reldir%/bpf/dt_bpf_uprobes.h \
	%reldir%/bpf/dt_bpf_subr.c \
	%reldir%/bpf/dt_bpf_proc.c \
	%reldir%/bpf/dt_bpf_spec.c \
	%reldir%/bpf/dt_bpf_engine.h \
	%reldir%/bpf/dt_bpf_engine_impl.h \
	%reldir%/bpf/dt_bpf_engine.c \
	%reldir%/bpf/dt_bpf_mech.h \
	%reldir%/bpf/dt_bpf_mech.c \
	%reldir%/bpf/dt_bpf_mech_demand.c \
	%reldir%/bpf/dt_bpf_mech_timer.c \
	%reldir%/bpf/dt_bpf_mech_syscall.c \
	%reldir%/bpf/dt_bpf_mech_uprobe.c \
	%reldir%/bpf/dt_bpf_mech_tp.c \
	%reldir%/bpf/dt_bpf_mech_fbt.c \
	%reldir%/prov/dt_linux_prov.h \
	%reldir%/prov/dt_linux_providers.c \
	%reldir%/prov/dt_kevent.h \
	%reldir%/prov/dt_kevent.c \
	%reldir%/prov/dt_prov_sdt.c \
	%reldir%/prov/dt_prov_rawtp.c \
	%reldir%/prov/dt_prov_fbt.c \
	%reldir%/prov/dt_prov_syscall.c \
	%reldir%/prov/dt_prov_pid.c \
	%reldir%/prov/dt_pid_lib.c \
	%reldir%/prov/dt_prov_usdt.c \
	%reldir%/prov/dt_kprov.h \
	%reldir%/prov/dt_kprov.c \
	%reldir%/prov/dt_prov_io.c \
	%reldir%/prov/dt_prov_ip.c \
	%reldir%/prov/dt_prov_tcp.c \
	%reldir%/prov/dt_prov_udp.c \
	%reldir%/prov/dt_prov_lockstat.c \
	%reldir%/prov/dt_ktab.h \
	%reldir%/prov/dt_ktab.c \
	%reldir%/prov/dt_prov_proc.c \
	%reldir%/prov/dt_prov_sched.c \
	%reldir%/ptrace/dt_ptrace.h
# The ptrace engine: what it does that depends on the processor is the
# ISA layer's (isa/dt_isa.h, "Linux, for the ptrace engine").
libdtrace_core_la_SOURCES += \
	%reldir%/ptrace/dt_ptrace_impl.h \
	%reldir%/ptrace/dt_ptrace.c \
	%reldir%/ptrace/dt_ptrace_fast.c \
	%reldir%/ptrace/dt_ptrace_sites.c \
	%reldir%/ptrace/dt_ptrace_sys.c \
	%reldir%/ptrace/dt_ptrace_linger.c \
	%reldir%/ptrace/dt_ptrace_trap.c \
	%reldir%/ptrace/dt_ptrace_rescue.c
EXTRA_DIST += %reldir%/README.md

# D library files: compiled before every program (common/compiler/dt_lib.c).
dist_dtracelib_DATA += %reldir%/lib/psinfo.d %reldir%/lib/signal.d
dist_dtracelib_DATA += %reldir%/lib/errno.d
dist_dtracelib_DATA += %reldir%/lib/io.d %reldir%/lib/net.d
# What kernels name differently, one file per variant ("depends_on member").
dist_dtracelib_DATA += %reldir%/lib/task_state.d %reldir%/lib/task_state_old.d
dist_dtracelib_DATA += %reldir%/lib/task_cpu.d %reldir%/lib/task_cpu_old.d
dist_dtracelib_DATA += %reldir%/lib/io_disk.d %reldir%/lib/io_disk_old.d
dist_dtracelib_DATA += %reldir%/lib/io_oflags.d %reldir%/lib/io_oflags_arm64.d

# System call numbers by name, from the C library's headers:
# { "read", 0 }, ...  (dt_prov_syscall.c includes it), in the headers'
# order.  A number may be another macro's: arm64's (asm-generic's)
# __NR_mmap is __NR3264_mmap, 222; asm-generic's count of calls and the
# start of its processor-specific range are no calls.
BUILT_SOURCES += %reldir%/prov/dt_syscall_nr.h
CLEANFILES += %reldir%/prov/dt_syscall_nr.h
%reldir%/prov/dt_syscall_nr.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	echo '#include <sys/syscall.h>' | $(CPP) -dM - | \
	  $(AWK) '$$1 == "#define" && NF == 3 { v[$$2] = $$3; k[n++] = $$2 } \
	    END { for (i = 0; i < n; i++) { m = k[i]; x = v[m]; \
	      if (m !~ /^__NR_[a-z0-9_]*$$/ || m == "__NR_syscalls" || \
	        m == "__NR_arch_specific_syscall") continue; \
	      for (j = 0; j < 4 && x !~ /^[0-9]+$$/ && (x in v); j++) \
	        x = v[x]; \
	      if (x ~ /^[0-9]+$$/) \
	        printf("{ \"%s\", %s },\n", substr(m, 6), x) } }' \
	  > $@.tmp && mv $@.tmp $@

# Kernel types from BTF (dt_btf.c) converted for the compiler.
UNIT_TESTS += tests/unit/btf_import_test
tests_unit_btf_import_test_SOURCES = tests/unit/btf_import_test.c \
	tests/unit/unit.h
tests_unit_btf_import_test_LDADD = libdtrace_core.la $(LIBBPF_LIBS)

# Kernel variables' types from DWARF (dt_kdwarf.c), read from the test's
# own: kdwarf_vars.c's variables, in DWARF 5 and (kdwarf4_test) DWARF 4.
UNIT_TESTS += tests/unit/kdwarf_test tests/unit/kdwarf4_test
tests_unit_kdwarf_test_SOURCES = tests/unit/kdwarf_test.c \
	tests/unit/kdwarf_vars.c tests/unit/unit.h
tests_unit_kdwarf_test_CFLAGS = $(AM_CFLAGS) -g -gdwarf-5
tests_unit_kdwarf_test_LDADD = libdtrace_core.la $(LIBBPF_LIBS)
tests_unit_kdwarf4_test_SOURCES = $(tests_unit_kdwarf_test_SOURCES)
tests_unit_kdwarf4_test_CFLAGS = $(AM_CFLAGS) -g -gdwarf-4
tests_unit_kdwarf4_test_LDADD = $(tests_unit_kdwarf_test_LDADD)

# The kernel symbol table over synthetic kallsyms text.
UNIT_TESTS += tests/unit/ksyms_test
tests_unit_ksyms_test_SOURCES = tests/unit/ksyms_test.c tests/unit/unit.h
tests_unit_ksyms_test_LDADD = libdtrace_core.la

# Unit tests of the BPF engine; they skip (77) without root or BPF.
# User symbols from synthetic and live maps (no privilege needed).
UNIT_TESTS += tests/unit/usyms_test
tests_unit_usyms_test_SOURCES = tests/unit/usyms_test.c tests/unit/unit.h
tests_unit_usyms_test_LDADD = libdtrace_core.la

# The files pid probes' module names name (ld.so.cache; no privilege).
UNIT_TESTS += tests/unit/pid_lib_test
tests_unit_pid_lib_test_SOURCES = tests/unit/pid_lib_test.c tests/unit/unit.h
tests_unit_pid_lib_test_LDADD = libdtrace_core.la

UNIT_TESTS += tests/unit/perfmap_test
tests_unit_perfmap_test_SOURCES = tests/unit/perfmap_test.c tests/unit/unit.h
tests_unit_perfmap_test_LDADD = libdtrace_core.la

# Unwind tables from CFI, over a synthetic stack and the test's own.
UNIT_TESTS += tests/unit/cfi_test
tests_unit_cfi_test_SOURCES = tests/unit/cfi_test.c tests/unit/unit.h \
	tests/unit/fake_stack.h tests/fuzz/fuzz_elf.h
tests_unit_cfi_test_LDADD = libdtrace_core.la

# arm64's rows, from a shared object assembled for aarch64 (by the build's
# compiler when it builds for aarch64, else by a cross compiler), and the
# walk of synthetic arm64 stacks, on any host.
UNIT_TESTS += tests/unit/a64_cfi_test
tests_unit_a64_cfi_test_SOURCES = tests/unit/a64_cfi_test.c tests/unit/unit.h \
	tests/unit/fake_stack.h
tests_unit_a64_cfi_test_LDADD = libdtrace_core.la -lelf
EXTRA_DIST += tests/unit/a64_cfi_frames.S
if HAVE_A64_CC
tests_unit_a64_cfi_test_CPPFLAGS = $(AM_CPPFLAGS) -DA64_CFI_FRAMES
check_DATA += tests/unit/a64_cfi_frames.so
CLEANFILES += tests/unit/a64_cfi_frames.so
tests/unit/a64_cfi_frames.so: tests/unit/a64_cfi_frames.S
	$(AM_V_GEN)$(MKDIR_P) tests/unit && \
	  $(A64_CC) -shared -nostdlib -o $@ $<
endif

UNIT_TESTS += tests/unit/bpf_features_test tests/unit/bpf_engine_test \
	tests/unit/bpf_translate_test tests/unit/bpf_layout_test \
	tests/unit/usdt_args_test tests/unit/bpf_relax_test \
	tests/unit/bpf_aggread_test
tests_unit_bpf_features_test_SOURCES = tests/unit/bpf_features_test.c \
	tests/unit/unit.h
tests_unit_bpf_features_test_LDADD = libdtrace_core.la
tests_unit_bpf_engine_test_SOURCES = tests/unit/bpf_engine_test.c \
	tests/unit/unit.h
tests_unit_bpf_engine_test_LDADD = libdtrace_core.la
tests_unit_bpf_translate_test_SOURCES = tests/unit/bpf_translate_test.c \
	tests/unit/unit.h
tests_unit_bpf_translate_test_LDADD = libdtrace_core.la
tests_unit_bpf_layout_test_SOURCES = tests/unit/bpf_layout_test.c \
	tests/unit/unit.h
tests_unit_bpf_layout_test_LDADD = libdtrace_core.la
tests_unit_bpf_aggread_test_SOURCES = tests/unit/bpf_aggread_test.c \
	tests/unit/unit.h
tests_unit_bpf_aggread_test_LDADD = libdtrace_core.la
tests_unit_bpf_relax_test_SOURCES = tests/unit/bpf_relax_test.c \
	tests/unit/unit.h
tests_unit_bpf_relax_test_LDADD = libdtrace_core.la
# The ISA's struct pt_regs against the running kernel's BTF.
UNIT_TESTS += tests/unit/isa_ptregs_test
tests_unit_isa_ptregs_test_SOURCES = tests/unit/isa_ptregs_test.c \
	tests/unit/unit.h
tests_unit_isa_ptregs_test_LDADD = libdtrace_core.la
# USDT operand decoding (no root needed).
tests_unit_usdt_args_test_SOURCES = tests/unit/usdt_args_test.c \
	tests/unit/unit.h
tests_unit_usdt_args_test_LDADD = libdtrace_core.la
