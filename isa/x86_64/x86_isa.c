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
static uint8_t
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
	return (uint8_t) ((in.opcode & 0x0f) + 1);
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
 * uregs[]: DTrace's register numbers (R_EIP, R_RAX, ...: the D prelude
 * defines them as illumos numbers them on amd64, the 32-bit names first)
 * as offsets in x86-64's struct pt_regs; -1 for what Linux does not keep
 * there (segment registers but cs and ss, trap number, error code).
 */
static const int16_t x86_uregs[] = {
    /* gs fs es ds edi esi ebp esp ebx edx ecx eax trapno err */
    -1,
    -1,
    -1,
    -1,
    112,
    104,
    32,
    152,
    40,
    96,
    88,
    80,
    -1,
    -1,
    /* eip cs efl uesp ss */
    128,
    136,
    144,
    152,
    160,
    /* r15 r14 r13 r12 r11 r10 r9 r8 rdi rsi rbp rbx rdx rcx rax */
    0,
    8,
    16,
    24,
    48,
    56,
    64,
    72,
    112,
    104,
    32,
    40,
    96,
    88,
    80,
    /* trapno err rip cs rfl rsp ss fs gs es ds fsbase gsbase */
    -1,
    -1,
    128,
    136,
    144,
    152,
    160,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
};

const dt_isa_layout_t dt_isa_layout = {
    .il_pc = 128,
    .il_sp = 152,
    .il_flags = 144,
    .il_ret = 80,
    /* rdi, rsi, rdx, rcx, r8, r9 */
    .il_args = {112, 104, 96, 88, 72, 64},
    .il_nargs = 6,
    .il_stackargs = 8, /* above the return address */
    .il_nuregs = sizeof(x86_uregs) / sizeof(x86_uregs[0]),
    .il_uregs = x86_uregs,
};

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
