# SPDX-License-Identifier: MIT
# tests/local.mk: unit tests of common/ and the test data.
UNIT_TESTS += tests/unit/options_test
tests_unit_options_test_SOURCES = tests/unit/options_test.c tests/unit/unit.h
tests_unit_options_test_LDADD = libdtrace_core.la

UNIT_TESTS += tests/unit/probe_test
tests_unit_probe_test_SOURCES = tests/unit/probe_test.c tests/unit/unit.h
tests_unit_probe_test_LDADD = libdtrace_core.la

UNIT_TESTS += tests/unit/probe_args_test
tests_unit_probe_args_test_SOURCES = tests/unit/probe_args_test.c \
	tests/unit/unit.h
tests_unit_probe_args_test_LDADD = libdtrace_core.la

UNIT_TESTS += tests/unit/aggfunc_test
tests_unit_aggfunc_test_SOURCES = tests/unit/aggfunc_test.c tests/unit/unit.h
tests_unit_aggfunc_test_LDADD = libdtrace_core.la

UNIT_TESTS += tests/unit/interp_engine_test
tests_unit_interp_engine_test_SOURCES = tests/unit/interp_engine_test.c \
	tests/unit/unit.h
tests_unit_interp_engine_test_LDADD = libdtrace_core.la

# Every build: common/ keeps to its seam (no OS, engine or processor);
# every source file names its licence.
SHELL_TESTS += tests/shell/portable-core.sh tests/shell/licence.sh \
	tests/shell/tests-registered.sh
# dtrace.1 documents every option and provider (and only shipped files).
SHELL_TESTS += tests/shell/manpage-options.sh

# The Linux backend's, through dtrace(1).
if OS_LINUX
SHELL_TESTS += tests/shell/unprivileged.sh tests/shell/syscall-count.sh \
	tests/shell/pid-provider.sh tests/shell/pid-any.sh tests/shell/pid-debugged.sh tests/shell/progress-line.sh tests/shell/pid-many.sh tests/shell/ustack.sh \
	tests/shell/ustack-cfi.sh tests/shell/ustack-every.sh tests/shell/ustack-gen.sh \
	tests/shell/ustackdepth-deep.sh tests/shell/bpf-far-jumps.sh \
	tests/shell/pid-tailcall.sh tests/shell/pid-modname.sh tests/shell/pid-args.sh \
	tests/shell/usdt-late.sh tests/shell/lazy-start.sh \
	tests/shell/kernel-stack.sh \
	tests/shell/list-syscall-args.sh tests/shell/syscall-typed-args.sh \
	tests/shell/syscall-builtins.sh \
	tests/shell/usdt.sh tests/shell/kevent.sh tests/shell/pid-refused.sh \
	tests/shell/ptrace-engine.sh tests/shell/ptrace-syscall.sh \
	tests/shell/ptrace-follow.sh tests/shell/ptrace-fast.sh \
	tests/shell/destructive.sh tests/shell/bpf-loop.sh \
	tests/shell/execargs.sh tests/shell/execname-comm.sh tests/shell/curcpu.sh \
	tests/shell/io-provider.sh tests/shell/net-providers.sh tests/shell/fds-paths.sh \
	tests/shell/ip-provider.sh \
	tests/shell/lockstat-provider.sh tests/shell/fbt.sh \
	tests/shell/engine-choice.sh \
	tests/shell/proc-provider.sh tests/shell/sched-provider.sh \
	tests/shell/lwpsinfo-flags.sh \
	tests/shell/cwd.sh tests/shell/ptrace-real.sh tests/shell/begin-first.sh \
	tests/shell/demangle.sh tests/shell/jit-node.sh tests/shell/jit-java.sh \
	tests/shell/perfmap-unsafe.sh \
	tests/shell/maps-fifo.sh \
	tests/shell/ustack-dlopen-norows.sh \
	tests/shell/symver-names.sh \
	tests/shell/json-lines.sh tests/shell/install-layout.sh \
	tests/shell/package.sh tests/shell/folded-stacks.sh \
	tests/shell/pprof-profile.sh \
	tests/shell/metrics-endpoint.sh tests/shell/metrics-prometheus.sh \
	tests/shell/metrics-idle.sh tests/shell/metrics-totals.sh \
	tests/shell/lib-members.sh \
	tests/shell/bash-completion.sh tests/shell/agg-space-full.sh \
	tests/shell/agg-slots.sh tests/shell/agg-exact.sh \
	tests/shell/chaos.sh tests/shell/ptrace-tracer-killed.sh \
	tests/shell/ptrace-targets.sh \
	tests/shell/teardown-kill.sh \
	tests/shell/grab-refused.sh \
	tests/shell/syscall-linger.sh tests/shell/ptrace-drops.sh \
	tests/shell/ptrace-stop-calls.sh \
	tests/shell/compile-deep.sh tests/shell/drops-ratelimit.sh \
	tests/shell/bpf-option-limits.sh tests/shell/tick-busy.sh \
	tests/shell/isa-seam.sh tests/shell/uregs-engines.sh \
	tests/shell/ptrace-ustack.sh tests/shell/ptrace-vs-bpf.sh
# The fuzz targets build and run briefly (tests/fuzz; needs clang).
SHELL_TESTS += tests/shell/fuzz-smoke.sh
endif

EXTRA_DIST += %reldir%/run-tests.sh %reldir%/shell %reldir%/d %reldir%/cmd
EXTRA_DIST += %reldir%/fuzz
# The package scripts, run by hand (tests/pkg/README.md).
EXTRA_DIST += %reldir%/pkg
# Run by hand in the kernel lab (tests/klab/run-fbt.sh), not by make check.
EXTRA_DIST += %reldir%/klab
EXTRA_DIST += %reldir%/conformance
