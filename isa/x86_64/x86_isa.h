/* SPDX-License-Identifier: MIT */
/*
 * x86_isa.h: x86-64's instruction-level types under the names of
 * isa/dt_isa.h, for an engine that runs displaced instructions itself.
 * Included by isa/dt_isa.h only; x86_isa.c holds the rest of the
 * interface.
 */

#ifndef ISA_X86_64_X86_ISA_H
#define ISA_X86_64_X86_ISA_H

#include "isa/x86_64/x86_decode.h"
#include "isa/x86_64/x86_emulate.h"

typedef x86_insn_t dt_isa_insn_t;
typedef x86_regs_t dt_isa_regs_t;
typedef x86_memops_t dt_isa_memops_t;
typedef x86_strategy_t dt_isa_strategy_t;

#define DT_ISA_MAX_INSN_LEN  X86_MAX_INSN_LEN
#define DT_ISA_STRAT_EMULATE X86_STRAT_EMULATE
#define DT_ISA_STRAT_OOL     X86_STRAT_OOL
#define DT_ISA_STRAT_REFUSE  X86_STRAT_REFUSE

/* struct user_regs_struct, PTRACE_GETREGS's, in words */
#define DT_ISA_PTREGS_WORDS 27

#endif /* ISA_X86_64_X86_ISA_H */
