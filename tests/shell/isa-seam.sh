#!/bin/bash
# SPDX-License-Identifier: MIT
# isa-seam.sh: nothing outside isa/ names a processor.  Every difference
# between x86-64 and arm64 is a member of isa/dt_isa.h, chosen by the
# build (configure's isa_dir), so os/, common/ and cmd/ test no
# processor macro and include no isa/<cpu>/ header of their own, and
# common/ and cmd/ use none of the ISA layer's Linux part.
set -u
cd "$top_srcdir" || exit 1
fail=0

hits=$(grep -rnE '__x86_64__|__aarch64__|__i386__|__amd64__|__arm__' \
    os/ common/ cmd/)
if [ -n "$hits" ]; then
	printf 'FAIL: processor macros outside isa/:\n%s\n' "$hits"
	fail=1
else
	echo "ok: no processor macro in os/, common/, cmd/"
fi

hits=$(grep -rnE '#[[:space:]]*include[[:space:]]+"isa/[a-z0-9_]+/' \
    os/ common/ cmd/)
if [ -n "$hits" ]; then
	printf 'FAIL: isa/<cpu>/ headers included outside isa/:\n%s\n' "$hits"
	fail=1
else
	echo "ok: only isa/dt_isa.h is included from outside isa/"
fi

# The portable core uses only the ISA's OS-free members: the Linux part
# (pt_regs, ucontext_t, system calls) is for os/linux alone.
hits=$(grep -rnE 'dt_isa_layout|dt_isa_linux_' common/ cmd/)
if [ -n "$hits" ]; then
	printf 'FAIL: the ISA layer'"'"'s Linux part used outside os/:\n%s\n' "$hits"
	fail=1
else
	echo "ok: common/ and cmd/ use no Linux member of isa/dt_isa.h"
fi

# Each ISA directory defines every member the header declares.
for m in dt_isa_name dt_isa_sites_scan dt_isa_uprobe_unsafe \
    dt_isa_usdt_operand dt_isa_cond_holds dt_isa_regnames dt_isa_fputypes \
    dt_isa_trap dt_isa_layout dt_isa_linux_uregs_self dt_isa_linux_syscalls \
    dt_isa_linux_sysnr_member dt_isa_linux_sysarg0_member dt_isa_linux_ptregs \
    dt_isa_ptrace dt_isa_ptrace_getregs dt_isa_ptrace_setregs \
    dt_isa_ptrace_decode dt_isa_ptrace_emulate dt_isa_ptrace_ool \
    dt_isa_ptrace_ool_return dt_isa_ptrace_taken dt_isa_ptrace_lands \
    dt_isa_ptrace_tramp dt_isa_ptrace_jmp; do
	grep -q "$m" isa/dt_isa.h ||
		{ echo "FAIL: isa/dt_isa.h does not declare $m"; fail=1; }
	for d in isa/x86_64 isa/aarch64; do
		grep -qE "^(const .*[ *])?$m(\[\])?( =|\()|^$m\(" "$d"/*.c ||
			{ echo "FAIL: $d does not define $m"; fail=1; }
	done
done
# The breakpoint handler's code is each ISA's own assembly.
for m in dt_isa_trap_code dt_isa_trap_code_end dt_isa_trap_restorer; do
	for d in isa/x86_64 isa/aarch64; do
		grep -q "\.globl $m\\\\n" "$d"/*.c ||
			{ echo "FAIL: $d does not define $m"; fail=1; }
	done
done
[ $fail -eq 0 ] && echo "ok: both ISAs define every member of isa/dt_isa.h"
exit $fail
