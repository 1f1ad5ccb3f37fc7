/* SPDX-License-Identifier: MIT */
/*
 * x86_isa.c: x86-64's member of isa/dt_isa.h -- probe sites from
 * x86_sites_scan(), the registers as struct pt_regs lays them out, and
 * the AT&T operands <sys/sdt.h> writes for USDT arguments.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dt_isa.h"
#include "isa/x86_64/x86_sites.h"

const char dt_isa_name[] = "x86_64";

/*
 * The return condition of a site: a jcc out of the function leaves when
 * its condition code (x86_cond()'s numbering) holds; loop and jrcxz
 * test %rcx, which no engine tests yet.
 */
static uint16_t
x86_isa_cond(
    const uint8_t *code, size_t size, uint64_t addr, const x86_site_t *s)
{
	x86_insn_t in;

	if (!s->tailcall || s->cf == X86_CF_JMP)
		return DT_ISA_COND_ALWAYS;
	if (s->cf != X86_CF_JCC ||
	    x86_decode(code + s->off, size - s->off, addr + s->off, 0, &in) !=
		0)
		return DT_ISA_COND_UNTESTED;
	return (uint16_t) ((in.opcode & 0x0f) + 1);
}

int
dt_isa_sites_scan(
    const uint8_t *code, size_t size, uint64_t addr, dt_isa_sites_t *out)
{
	x86_sites_t xs;
	int rc;

	*out = (dt_isa_sites_t){.addr = addr, .size = size};
	rc = x86_sites_scan(code, size, addr, &xs);
	if (rc == X86_SITES_REFUSED)
		out->refused = xs.refused;
	if (rc == X86_SITES_OK && xs.nsites > 0 &&
	    (out->sites = calloc(xs.nsites, sizeof(dt_isa_site_t))) == NULL)
		rc = X86_SITES_ENOMEM;
	for (size_t i = 0; rc == X86_SITES_OK && i < xs.nsites; i++) {
		const x86_site_t *s = &xs.sites[i];
		dt_isa_site_t *d = &out->sites[i];

		d->off = s->off;
		d->kind = s->kind == X86_SITE_ENTRY ? DT_ISA_SITE_ENTRY
		    : s->kind == X86_SITE_OFFSET    ? DT_ISA_SITE_OFFSET
						    : DT_ISA_SITE_RETURN;
		d->tailcall = s->tailcall;
		d->cond = x86_isa_cond(code, size, addr, s);
		d->probeable = s->probeable;
		d->reason = s->reason;
		/* (Which offsets come before a push is the CFI's to say.) */
		d->atcall = d->kind != DT_ISA_SITE_OFFSET || d->off == 0;
		out->nsites++;
	}
	x86_sites_free(&xs);
	return rc == X86_SITES_OK     ? DT_ISA_SITES_OK
	    : rc == X86_SITES_REFUSED ? DT_ISA_SITES_REFUSED
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
 * AVX-512 (EVEX-encoded) instructions: single-stepping them out of line
 * broke glibc's strchr on the kernels tested, so no uprobe goes there.
 */
int
dt_isa_uprobe_unsafe(const uint8_t *code, size_t avail)
{
	x86_insn_t in;

	return x86_decode(code, avail, 0, 0, &in) == 0 &&
	    in.vex == X86_VEX_EVEX;
}

/*
 * The one-byte opcodes Linux's x86-64 uprobes refuse (arch/x86/kernel/
 * uprobes.c): those invalid in 64-bit mode, port I/O, interrupts, hlt,
 * cli/sti, and the 0F escape itself, whose second byte decides.  A VEX
 * instruction's opcode byte is looked up here too, as the kernel's
 * decoder gives it, so that vmovd (6E) and vpxor (EF) are refused.
 */
static const uint8_t x86_uprobe_bad1[] = {0x06, 0x07, 0x0e, 0x0f, 0x16,
    0x17, 0x1e, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x60, 0x61, 0x62, 0x6c,
    0x6d, 0x6e, 0x6f, 0x82, 0x9a, 0xc4, 0xc5, 0xcc, 0xcd, 0xce, 0xcf,
    0xd4, 0xd5, 0xd6, 0xe4, 0xe5, 0xe6, 0xe7, 0xea, 0xec, 0xed, 0xee,
    0xef, 0xf1, 0xf4, 0xfa, 0xfb};

/*
 * Its two-byte (0F xx) ones: system calls and returns, ud0-2, wrmsr,
 * sysenter and the like.  (The three-byte maps, 0F 38 and 0F 3A, it
 * takes: pshufb, palignr and crc32 were seen probed.)
 */
static const uint8_t x86_uprobe_bad2[] = {0x04, 0x05, 0x07, 0x0a, 0x0b,
    0x0c, 0x0e, 0x25, 0x27, 0x30, 0x34, 0x35, 0x37, 0xa6, 0xa7, 0xff};

static int
x86_in(const uint8_t *set, size_t n, uint8_t op)
{
	return memchr(set, op, n) != NULL;
}

int
dt_isa_uprobe_doubtful(const uint8_t *code, size_t avail)
{
	x86_insn_t in;

	if (x86_decode(code, avail, 0, 0, &in) != 0)
		return 1;	/* the kernel says ENOEXEC */
	/* lock and the ES/CS/SS/DS overrides (notrack is DS's byte) */
	if ((in.prefixes & X86_PFX_LOCK) != 0 ||
	    ((in.prefixes & X86_PFX_SEG) != 0 && in.seg != X86_SEG_FS &&
		in.seg != X86_SEG_GS))
		return 1;
	switch (in.vex) {
	case X86_VEX_VEX2:
	case X86_VEX_VEX3:
		return x86_in(x86_uprobe_bad1, sizeof(x86_uprobe_bad1),
		    in.opcode);
	case X86_VEX_NONE:
		break;
	default:
		return 0;	/* EVEX is unsafe instead; XOP: no rule */
	}
	switch (in.map) {
	case X86_MAP_1B:
		return x86_in(x86_uprobe_bad1, sizeof(x86_uprobe_bad1),
		    in.opcode);
	case X86_MAP_0F:
		return x86_in(x86_uprobe_bad2, sizeof(x86_uprobe_bad2),
		    in.opcode);
	default:
		return 0;
	}
}

/* x86_cond()'s numbering, as return sites give it. */
int
dt_isa_cond_holds(unsigned cond, uint64_t flags)
{
	return x86_cond(cond, flags);
}

/* A jcc tests the flags only (loop and jrcxz get no return probe). */
int
dt_isa_cond_reg(unsigned cond, dt_isa_regcond_t *rc)
{
	(void) cond;
	(void) rc;
	return 0;
}

/*
 * uregs[] names: illumos's on amd64 (the 32-bit names first, then 19 +
 * the amd64 register set's order), so that scripts using the numbers
 * still work; the aliases R_PC, R_SP, R_FP, R_PS, R_R0 and R_R1 are
 * R_EIP, R_UESP, R_EBP, R_EFL, R_EAX and R_EBX, as in illumos's
 * regs.d.
 */
const dt_isa_regname_t dt_isa_regnames[] = {
    {"R_GS", 0},
    {"R_FS", 1},
    {"R_ES", 2},
    {"R_DS", 3},
    {"R_EDI", 4},
    {"R_ESI", 5},
    {"R_EBP", 6},
    {"R_ESP", 7},
    {"R_EBX", 8},
    {"R_EDX", 9},
    {"R_ECX", 10},
    {"R_EAX", 11},
    {"R_TRAPNO", 12},
    {"R_ERR", 13},
    {"R_EIP", 14},
    {"R_CS", 15},
    {"R_EFL", 16},
    {"R_UESP", 17},
    {"R_SS", 18},
    {"R_R15", 19},
    {"R_R14", 20},
    {"R_R13", 21},
    {"R_R12", 22},
    {"R_R11", 23},
    {"R_R10", 24},
    {"R_R9", 25},
    {"R_R8", 26},
    {"R_RDI", 27},
    {"R_RSI", 28},
    {"R_RBP", 29},
    {"R_RBX", 30},
    {"R_RDX", 31},
    {"R_RCX", 32},
    {"R_RAX", 33},
    {"R_RIP", 36},
    {"R_RFL", 38},
    {"R_RSP", 39},
    {"R_FSBASE", 45},
    {"R_GSBASE", 46},
    {"R_PC", 14},
    {"R_SP", 17},
    {"R_FP", 6},
    {"R_PS", 16},
    {"R_R0", 11},
    {"R_R1", 8},
    {NULL, 0},
};

const char dt_isa_fputypes[] = "i387 compatible";

const uint16_t dt_isa_elf_machine = 62; /* EM_X86_64 */

/* int3; the trap leaves the pc past it. */
const dt_isa_trap_t dt_isa_trap = {
    .it_insn = {0xcc}, .it_len = 1, .it_pcadj = 1};

/*
 * USDT operands in AT&T syntax: %reg, $const, disp(%reg) or (%reg).
 */
typedef struct x86_usdt_reg {
	const char *ur_name;
	int16_t ur_off; /* in pt_regs */
	uint8_t ur_size;
	uint8_t ur_shift;
} x86_usdt_reg_t;

/* struct pt_regs of x86-64, and the names of each register's parts. */
#define X86_USDT_REGS(q, d, w, b, off)                                         \
	{q, off, 8, 0}, {d, off, 4, 0}, {w, off, 2, 0},                        \
	{                                                                      \
		b, off, 1, 0                                                   \
	}
static const x86_usdt_reg_t x86_usdt_regs[] = {
    X86_USDT_REGS("rax", "eax", "ax", "al", 80),
    X86_USDT_REGS("rbx", "ebx", "bx", "bl", 40),
    X86_USDT_REGS("rcx", "ecx", "cx", "cl", 88),
    X86_USDT_REGS("rdx", "edx", "dx", "dl", 96),
    X86_USDT_REGS("rsi", "esi", "si", "sil", 104),
    X86_USDT_REGS("rdi", "edi", "di", "dil", 112),
    X86_USDT_REGS("rbp", "ebp", "bp", "bpl", 32),
    X86_USDT_REGS("rsp", "esp", "sp", "spl", 152),
    X86_USDT_REGS("r8", "r8d", "r8w", "r8b", 72),
    X86_USDT_REGS("r9", "r9d", "r9w", "r9b", 64),
    X86_USDT_REGS("r10", "r10d", "r10w", "r10b", 56),
    X86_USDT_REGS("r11", "r11d", "r11w", "r11b", 48),
    X86_USDT_REGS("r12", "r12d", "r12w", "r12b", 24),
    X86_USDT_REGS("r13", "r13d", "r13w", "r13b", 16),
    X86_USDT_REGS("r14", "r14d", "r14w", "r14b", 8),
    X86_USDT_REGS("r15", "r15d", "r15w", "r15b", 0),
    {"ah", 80, 1, 8},
    {"bh", 40, 1, 8},
    {"ch", 88, 1, 8},
    {"dh", 96, 1, 8},
    {"rip", 128, 8, 0},
};

/* "%rdi" at *sp: the register, or NULL; *sp moves past the name. */
static const x86_usdt_reg_t *
x86_usdt_reg(const char **sp)
{
	const char *s = *sp;
	size_t n = 0;

	if (*s != '%')
		return NULL;
	s++;
	while (isalnum((unsigned char) s[n]))
		n++;
	for (size_t i = 0; i < sizeof(x86_usdt_regs) / sizeof(x86_usdt_regs[0]);
	     i++) {
		const x86_usdt_reg_t *r = &x86_usdt_regs[i];

		if (strlen(r->ur_name) == n && strncmp(r->ur_name, s, n) == 0) {
			*sp = s + n;
			return r;
		}
	}
	return NULL;
}

/*
 * An operand we cannot read (a symbol's address, an index register) is
 * DT_ISA_OP_NONE: the probe still fires, with that argument 0.
 */
void
dt_isa_usdt_operand(const char *s, dt_isa_operand_t *op)
{
	const x86_usdt_reg_t *r;
	char *end;

	memset(op, 0, sizeof(*op));
	if (*s == '$') {
		errno = 0;
		op->io_val = strtoll(s + 1, &end, 0);
		if (*end == '\0' && errno == 0 && end != s + 1)
			op->io_kind = DT_ISA_OP_CONST;
		return;
	}
	if (*s == '%') {
		if ((r = x86_usdt_reg(&s)) != NULL && *s == '\0') {
			op->io_kind = DT_ISA_OP_REG;
			op->io_reg = r->ur_off;
			op->io_shift = r->ur_shift;
			op->io_regsize = r->ur_size;
		}
		return;
	}
	errno = 0;
	op->io_val = *s == '(' ? 0 : strtoll(s, &end, 0);
	if (*s != '(' && (errno != 0 || end == s || *end != '('))
		return;
	s = strchr(s, '(') + 1;
	if ((r = x86_usdt_reg(&s)) != NULL && r->ur_size == 8 &&
	    strcmp(s, ")") == 0 && strcmp(r->ur_name, "rip") != 0) {
		op->io_kind = DT_ISA_OP_MEM;
		op->io_reg = r->ur_off;
	}
}
