/* SPDX-License-Identifier: MIT */
/*
 * a64_isa.c: AArch64's member of isa/dt_isa.h -- probe sites from
 * a64_sites_scan(), the registers as Linux's struct user_pt_regs lays
 * them out (x0..x30, sp, pc, pstate), and the operands <sys/sdt.h>
 * writes for USDT arguments in A64 assembler syntax.
 *
 * Pure C: the unit tests build it on any host, apart from the rest of
 * the library.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dt_isa.h"
#include "isa/aarch64/a64_decode.h"
#include "isa/aarch64/a64_emulate.h"
#include "isa/aarch64/a64_sites.h"

const char dt_isa_name[] = "aarch64";

/*
 * A conditional branch out of the function is a return only when taken.
 * Its condition, cond - 1 of the site, numbered thus (dt_isa_cond_holds()
 * and dt_isa_cond_reg() decode it):
 *
 *	0..15	b.cond: the condition code on NZCV
 *	16 + (nz << 6 | wide << 5 | rt)
 *		cbz (nz 0) / cbnz (nz 1) of wt (wide 0) or xt (wide 1)
 *	144 + (nz << 11 | bit << 5 | rt)
 *		tbz (nz 0) / tbnz (nz 1) of bit 0..63 of xt
 */
#define A64_COND_CB  16
#define A64_COND_TB  (A64_COND_CB + 128)
#define A64_COND_END (A64_COND_TB + 4096)

static uint16_t
a64_isa_cond(const uint8_t *code, const a64_site_t *s, uint64_t addr)
{
	a64_insn_t in;
	unsigned nz;

	if (!s->cond)
		return DT_ISA_COND_ALWAYS;
	a64_decode(a64_word(code + s->off), addr + s->off, &in);
	switch (in.cls) {
	case A64_C_BCOND:
		return (uint16_t) (in.cond + 1);
	case A64_C_CBZ:
	case A64_C_CBNZ:
		nz = in.cls == A64_C_CBNZ;
		return (uint16_t) (A64_COND_CB +
		    (nz << 6 | (unsigned) (in.size == 8) << 5 | in.rt) + 1);
	case A64_C_TBZ:
	case A64_C_TBNZ:
		nz = in.cls == A64_C_TBNZ;
		return (uint16_t) (A64_COND_TB +
		    (nz << 11 | (unsigned) in.bit << 5 | in.rt) + 1);
	default:
		return DT_ISA_COND_UNTESTED;
	}
}

/*
 * Whether the function never makes a frame: no call (bl, blr), no
 * pointer-authentication hint (paciasp signs x30), and no instruction
 * whose destination or transfer register -- bits 0-4, and bits 10-14 of
 * a load/store pair -- is x29 or x30.  Conservative: a store of x30 also
 * counts, and any doubt leaves the function with frames.  In such a
 * function x30 holds the return address and x29 the caller's frame at
 * every instruction.
 */
static int
a64_frameless(const uint8_t *code, size_t size, uint64_t addr)
{
	for (size_t off = 0; off + 4 <= size; off += 4) {
		uint32_t w = a64_word(code + off);
		unsigned rt = w & 31, rt2 = (w >> 10) & 31;
		a64_insn_t in;

		a64_decode(w, addr + off, &in);
		if (in.cls == A64_C_BL || in.cls == A64_C_BLR ||
		    in.cls == A64_C_BLR_PAC || in.cls == A64_C_PAC_HINT)
			return 0;
		if (rt == 29 || rt == 30)
			return 0;
		if ((w & 0x3a000000) == 0x28000000 && (rt2 == 29 || rt2 == 30))
			return 0;
	}
	return 1;
}

int
dt_isa_sites_scan(
    const uint8_t *code, size_t size, uint64_t addr, dt_isa_sites_t *out)
{
	a64_sites_t as;
	int rc, frameless = 0;

	*out = (dt_isa_sites_t){.addr = addr, .size = size};
	rc = a64_sites_scan(code, size, addr, &as);
	if (rc == A64_SITES_REFUSED)
		out->refused = as.refused;
	if (rc == A64_SITES_OK && as.nsites > 0 &&
	    (out->sites = calloc(as.nsites, sizeof(dt_isa_site_t))) == NULL)
		rc = A64_SITES_ENOMEM;
	if (rc == A64_SITES_OK)
		frameless = a64_frameless(code, size, addr);
	for (size_t i = 0; rc == A64_SITES_OK && i < as.nsites; i++) {
		const a64_site_t *s = &as.sites[i];
		dt_isa_site_t *d = &out->sites[i];

		d->off = s->off;
		d->kind = s->kind == A64_SITE_ENTRY ? DT_ISA_SITE_ENTRY
		    : s->kind == A64_SITE_OFFSET    ? DT_ISA_SITE_OFFSET
						    : DT_ISA_SITE_RETURN;
		d->tailcall = s->tailcall;
		d->cond = a64_isa_cond(code, s, addr);
		d->probeable = s->probeable;
		d->reason = s->reason;
		d->atcall =
		    d->kind != DT_ISA_SITE_OFFSET || d->off == 0 || frameless;
		out->nsites++;
	}
	a64_sites_free(&as);
	return rc == A64_SITES_OK     ? DT_ISA_SITES_OK
	    : rc == A64_SITES_REFUSED ? DT_ISA_SITES_REFUSED
				      : DT_ISA_SITES_ENOMEM;
}

void
dt_isa_sites_free(dt_isa_sites_t *s)
{
	free(s->sites);
	s->sites = NULL;
	s->nsites = 0;
}

/*
 * The arm64 kernel refuses what it cannot single-step (exclusives,
 * pc-relative loads it does not simulate) when the uprobe is made, so
 * nothing it accepts is known to run wrongly.
 */
int
dt_isa_uprobe_unsafe(const uint8_t *code, size_t avail)
{
	(void) code;
	(void) avail;
	return 0;
}

/*
 * What arm64's uprobes refuse for certain: exception generation (svc,
 * hvc, smc, brk, hlt) and the exclusive loads and stores, which must not
 * be stepped apart from their pair.
 */
int
dt_isa_uprobe_doubtful(const uint8_t *code, size_t avail)
{
	uint32_t insn;

	if (avail < 4)
		return 1;
	insn = (uint32_t) code[0] | (uint32_t) code[1] << 8 |
	    (uint32_t) code[2] << 16 | (uint32_t) code[3] << 24;
	return (insn & 0xff000000U) == 0xd4000000U ||
	    (insn & 0x3f000000U) == 0x08000000U;
}

/* b.cond's: a64_cond()'s numbering, its condition field. */
int
dt_isa_cond_holds(unsigned cond, uint64_t flags)
{
	return cond < A64_COND_CB && a64_cond(cond, flags);
}

/*
 * cbz/cbnz and tbz/tbnz.  Register 31 is xzr there (uregs[31] is sp): a
 * mask of 0 tests a zero, so that cbz and tbz of it always branch and
 * cbnz and tbnz never do, as on the processor.
 */
int
dt_isa_cond_reg(unsigned cond, dt_isa_regcond_t *rc)
{
	unsigned v;

	if (cond < A64_COND_CB || cond >= A64_COND_END)
		return 0;
	if (cond < A64_COND_TB) {
		v = cond - A64_COND_CB;
		rc->dr_reg = v & 31;
		rc->dr_mask = (v & 32) ? UINT64_MAX : UINT32_MAX;
		rc->dr_zero = !(v & 64);
	} else {
		v = cond - A64_COND_TB;
		rc->dr_reg = v & 31;
		rc->dr_mask = 1ULL << ((v >> 5) & 63);
		rc->dr_zero = !(v & 2048);
	}
	if (rc->dr_reg == 31) {
		rc->dr_reg = 0;
		rc->dr_mask = 0;
	}
	return 1;
}

/*
 * uregs[] names as arm64 DTrace ports name them: R_X0..R_X30, R_SP,
 * R_PC, R_PSTATE, numbered as user_pt_regs orders its words; and the
 * common aliases (R_FP is x29, R_PS pstate, R_R0 and R_R1 x0 and x1).
 */
#define A64_X(n)                                                               \
	{                                                                      \
		"R_X" #n, n                                                    \
	}
const dt_isa_regname_t dt_isa_regnames[] = {
    A64_X(0),
    A64_X(1),
    A64_X(2),
    A64_X(3),
    A64_X(4),
    A64_X(5),
    A64_X(6),
    A64_X(7),
    A64_X(8),
    A64_X(9),
    A64_X(10),
    A64_X(11),
    A64_X(12),
    A64_X(13),
    A64_X(14),
    A64_X(15),
    A64_X(16),
    A64_X(17),
    A64_X(18),
    A64_X(19),
    A64_X(20),
    A64_X(21),
    A64_X(22),
    A64_X(23),
    A64_X(24),
    A64_X(25),
    A64_X(26),
    A64_X(27),
    A64_X(28),
    A64_X(29),
    A64_X(30),
    {"R_SP", A64_REG_SP},
    {"R_PC", A64_REG_PC},
    {"R_PSTATE", A64_REG_PSTATE},
    {"R_FP", 29},
    {"R_LR", 30},
    {"R_PS", A64_REG_PSTATE},
    {"R_R0", 0},
    {"R_R1", 1},
    {NULL, 0},
};

/* Linux names no FPU type for arm64 (its /proc/cpuinfo lists features). */
const char dt_isa_fputypes[] = "";

const uint16_t dt_isa_elf_machine = 183; /* EM_AARCH64 */

/* brk #0, little-endian; the trap leaves the pc at it. */
const dt_isa_trap_t dt_isa_trap = {
    .it_insn = {0x00, 0x00, 0x20, 0xd4}, .it_len = 4, .it_pcadj = 0};

/*
 * "x0", "w13", "sp", "xzr" at *sp: the register's number (31 for sp,
 * 32 for the zero register) and width; *sp moves past it.  -1 if none.
 */
static int
a64_usdt_reg(const char **sp, uint8_t *size)
{
	const char *s = *sp;
	char *end;
	long n;

	if (strncmp(s, "sp", 2) == 0 || strncmp(s, "wsp", 3) == 0) {
		*size = s[0] == 'w' ? 4 : 8;
		*sp = s + (s[0] == 'w' ? 3 : 2);
		return A64_REG_SP;
	}
	if (strncmp(s, "xzr", 3) == 0 || strncmp(s, "wzr", 3) == 0) {
		*size = s[0] == 'w' ? 4 : 8;
		*sp = s + 3;
		return 32;
	}
	if ((s[0] != 'x' && s[0] != 'w') || s[1] < '0' || s[1] > '9')
		return -1;
	n = strtol(s + 1, &end, 10);
	if (n > 30 || end - (s + 1) > 2)
		return -1;
	*size = s[0] == 'w' ? 4 : 8;
	*sp = end;
	return (int) n;
}

/* A signed number, with an optional '#': true if one was there. */
static int
a64_usdt_num(const char **sp, int64_t *v)
{
	const char *s = *sp + (**sp == '#');
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	if (end == s || errno != 0)
		return 0;
	*sp = end;
	return 1;
}

/*
 * Operands: a register (x0, w1, sp), a constant (#5, #-1, 5), or memory
 * at a base register with an optional displacement ([x0], [sp, 12],
 * [x29, #-8]).  Anything else -- an index register, a symbol -- is
 * DT_ISA_OP_NONE, and the argument reads as 0.
 */
void
dt_isa_usdt_operand(const char *s, dt_isa_operand_t *op)
{
	uint8_t size;
	int64_t v;
	int r;

	memset(op, 0, sizeof(*op));
	if (*s == '[') {
		s++;
		if ((r = a64_usdt_reg(&s, &size)) < 0 || r > A64_REG_SP ||
		    size != 8)
			return;
		if (*s == ',') {
			s++;
			s += strspn(s, " \t");
			if (!a64_usdt_num(&s, &v))
				return;
			op->io_val = v;
		}
		if (strcmp(s, "]") != 0)
			return;
		op->io_kind = DT_ISA_OP_MEM;
		op->io_reg = (int16_t) (8 * r);
		return;
	}
	if ((r = a64_usdt_reg(&s, &size)) >= 0) {
		if (*s != '\0')
			return;
		if (r == 32) { /* the zero register: a constant */
			op->io_kind = DT_ISA_OP_CONST;
			return;
		}
		op->io_kind = DT_ISA_OP_REG;
		op->io_reg = (int16_t) (8 * r);
		op->io_regsize = size;
		return;
	}
	if (a64_usdt_num(&s, &v) && *s == '\0') {
		op->io_kind = DT_ISA_OP_CONST;
		op->io_val = v;
	}
}
