/* SPDX-License-Identifier: MIT */
/*
 * a64_linux.c: what depends on AArch64 and Linux together (isa/dt_isa.h's
 * Linux part): struct pt_regs as the kernel lays it out for arm64 (it
 * starts with struct user_pt_regs: x0..x30, sp, pc, pstate, which is
 * also the ptrace NT_PRSTATUS register set), and the pt_regs members a
 * system call's number and first argument are in.  Pure C, so the unit
 * tests build it on any host; a64_ucontext.c has the part that needs an
 * arm64 C library.
 */

#include <stdint.h>

#include "isa/dt_isa.h"
#include "isa/aarch64/a64_emulate.h"

/* uregs[i] is user_pt_regs word i: R_X0..R_X30, R_SP, R_PC, R_PSTATE. */
#define W(i) (8 * (i))
static const int16_t a64_uregs[A64_NREGS] = {
    W(0),
    W(1),
    W(2),
    W(3),
    W(4),
    W(5),
    W(6),
    W(7),
    W(8),
    W(9),
    W(10),
    W(11),
    W(12),
    W(13),
    W(14),
    W(15),
    W(16),
    W(17),
    W(18),
    W(19),
    W(20),
    W(21),
    W(22),
    W(23),
    W(24),
    W(25),
    W(26),
    W(27),
    W(28),
    W(29),
    W(30),
    W(A64_REG_SP),
    W(A64_REG_PC),
    W(A64_REG_PSTATE),
};

const dt_isa_layout_t dt_isa_layout = {
    .il_pc = W(A64_REG_PC),
    .il_sp = W(A64_REG_SP),
    .il_fp = W(29),
    .il_lr = W(30), /* the return address is in the link register */
    .il_flags = W(A64_REG_PSTATE),
    .il_ret = W(0),
    .il_args = {W(0), W(1), W(2), W(3), W(4), W(5), W(6), W(7)},
    .il_nargs = 8,
    .il_stackargs = 0, /* the ninth argument is at [sp] */
    .il_nuregs = A64_NREGS,
    .il_uregs = a64_uregs,
    .il_mode = W(A64_REG_PSTATE), /* user mode: M[3:0] is EL0t, 0 */
    .il_modemask = 0xf,
    .il_modeuser = 0,
    /* V, C, Z, N: what a64_cond() tests */
    .il_ncondbits = 4,
    .il_condbits = {28, 29, 30, 31},
};

/* Every arm64 system call is in the C library's table. */
const dt_isa_syscall_t dt_isa_linux_syscalls[] = {
    {NULL, -1},
};

/* x0 takes the return value; orig_x0 keeps the first argument. */
const char dt_isa_linux_sysnr_member[] = "pt_regs.syscallno";
/* glibc's generic ABI: a 32-bit nlink_t. */
const char dt_isa_linux_nlink_t[] = "unsigned int";
const char dt_isa_linux_sysarg0_member[] = "pt_regs.orig_x0";

/*
 * The kernel's names for the words of struct pt_regs: x0..x30 are
 * regs[] (31 words), sp, pc and pstate follow (in an anonymous struct that
 * overlays struct user_pt_regs).
 */
const dt_isa_member_t dt_isa_linux_ptregs[] = {
    {"pt_regs.regs", W(0), 31},
    {"pt_regs.sp", W(A64_REG_SP), 1},
    {"pt_regs.pc", W(A64_REG_PC), 1},
    {"pt_regs.pstate", W(A64_REG_PSTATE), 1},
    {"pt_regs.orig_x0", W(A64_NREGS), 1},
    {NULL, 0, 0},
};
