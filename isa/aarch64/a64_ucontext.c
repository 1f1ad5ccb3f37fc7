/* SPDX-License-Identifier: MIT */
/*
 * a64_ucontext.c: the calling thread's registers from an arm64 C
 * library's ucontext_t (isa/dt_isa.h's dt_isa_linux_uregs_self()).  Built
 * only for an arm64 host, unlike the rest of isa/aarch64.
 */

#include <stdint.h>
#include <ucontext.h>

#include "isa/dt_isa.h"
#include "isa/aarch64/a64_emulate.h"

/* mcontext_t keeps x0..x30, sp, pc and pstate: all of uregs[]. */
size_t
dt_isa_linux_uregs_self(uint64_t *regs, size_t max)
{
	ucontext_t uc;
	size_t n = A64_NREGS;

	if (getcontext(&uc) != 0)
		return 0;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		regs[i] = i < 31      ? uc.uc_mcontext.regs[i]
		    : i == A64_REG_SP ? uc.uc_mcontext.sp
		    : i == A64_REG_PC ? uc.uc_mcontext.pc
				      : uc.uc_mcontext.pstate;
	}
	return n;
}
