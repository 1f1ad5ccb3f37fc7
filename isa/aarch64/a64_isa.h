/* SPDX-License-Identifier: MIT */
/*
 * a64_isa.h: AArch64's instruction-level types under the names of
 * isa/dt_isa.h.  Included by isa/dt_isa.h only; a64_isa.c holds the rest
 * of the interface.
 */

#ifndef ISA_AARCH64_A64_ISA_H
#define ISA_AARCH64_A64_ISA_H

#include "isa/aarch64/a64_decode.h"
#include "isa/aarch64/a64_emulate.h"

typedef a64_insn_t dt_isa_insn_t;
typedef a64_regs_t dt_isa_regs_t;
typedef a64_memops_t dt_isa_memops_t;
typedef a64_strategy_t dt_isa_strategy_t;

#define DT_ISA_MAX_INSN_LEN  4
#define DT_ISA_STRAT_EMULATE A64_STRAT_EMULATE
#define DT_ISA_STRAT_OOL     A64_STRAT_OOL
#define DT_ISA_STRAT_REFUSE  A64_STRAT_REFUSE

/* struct user_pt_regs (NT_PRSTATUS) and the system call number
 * (NT_ARM_SYSTEM_CALL), in words */
#define DT_ISA_PTREGS_WORDS 35

#endif /* ISA_AARCH64_A64_ISA_H */
