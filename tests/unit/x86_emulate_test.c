/* SPDX-License-Identifier: MIT */
/*
 * x86_emulate_test.c: emulation and out-of-line copies, checked against
 * the processor itself.
 *
 * Every case is an instruction placed at a "site" in an executable page
 * of this process.  It is run three ways from the same register and
 * memory state:
 *
 *   native    the processor executes it at the site;
 *   emulated  x86_emulate() on a register snapshot, memory accessed
 *             directly (cases the strategy says to emulate);
 *   OOL       the processor executes the copy x86_ool_build() made in a
 *             scratch page near the site (displacement rewritten) and in
 *             one more than 4 GiB away (scratch register borrowed).
 *
 * and the full state afterwards is compared: the 16 general registers,
 * %rip, %rflags, the data page and the stack buffer.
 *
 * How the processor is run: x86t_enter (assembly below) saves the
 * harness's callee-saved registers, loads every register from x86t_in and
 * jumps to x86t_in.rip.  Wherever execution can continue (the next
 * instruction, a branch target) there is an exit stub, which records its
 * number in the page with "movl $id, slot(%rip)" and leaves through
 * "jmp *exit(%rip)" to x86t_exit, which stores every register into
 * x86t_out -- no register or flag is touched on the way.
 */

#ifndef	_GNU_SOURCE
#define	_GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/x86_64/x86_decode.h"
#include "isa/x86_64/x86_emulate.h"

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <asm/prctl.h>

x86_regs_t x86t_in, x86t_out;
uint64_t x86t_saved_rsp;
extern void x86t_enter(void);
extern void x86t_exit(void);

/* Offsets into x86_regs_t: r[16] at 0, rip at 128, rflags at 136. */
__asm__(
	"	.text\n"
	"	.globl	x86t_enter\n"
	"	.type	x86t_enter, @function\n"
	"x86t_enter:\n"
	"	push	%rbx\n"
	"	push	%rbp\n"
	"	push	%r12\n"
	"	push	%r13\n"
	"	push	%r14\n"
	"	push	%r15\n"
	"	mov	%rsp, x86t_saved_rsp(%rip)\n"
	"	pushq	x86t_in+136(%rip)\n"
	"	popfq\n"
	"	mov	x86t_in+0(%rip), %rax\n"
	"	mov	x86t_in+8(%rip), %rcx\n"
	"	mov	x86t_in+16(%rip), %rdx\n"
	"	mov	x86t_in+24(%rip), %rbx\n"
	"	mov	x86t_in+40(%rip), %rbp\n"
	"	mov	x86t_in+48(%rip), %rsi\n"
	"	mov	x86t_in+56(%rip), %rdi\n"
	"	mov	x86t_in+64(%rip), %r8\n"
	"	mov	x86t_in+72(%rip), %r9\n"
	"	mov	x86t_in+80(%rip), %r10\n"
	"	mov	x86t_in+88(%rip), %r11\n"
	"	mov	x86t_in+96(%rip), %r12\n"
	"	mov	x86t_in+104(%rip), %r13\n"
	"	mov	x86t_in+112(%rip), %r14\n"
	"	mov	x86t_in+120(%rip), %r15\n"
	"	mov	x86t_in+32(%rip), %rsp\n"
	"	jmp	*x86t_in+128(%rip)\n"
	"	.size	x86t_enter, .-x86t_enter\n"
	"	.globl	x86t_exit\n"
	"	.type	x86t_exit, @function\n"
	"x86t_exit:\n"
	"	mov	%rax, x86t_out+0(%rip)\n"
	"	mov	%rcx, x86t_out+8(%rip)\n"
	"	mov	%rdx, x86t_out+16(%rip)\n"
	"	mov	%rbx, x86t_out+24(%rip)\n"
	"	mov	%rsp, x86t_out+32(%rip)\n"
	"	mov	%rbp, x86t_out+40(%rip)\n"
	"	mov	%rsi, x86t_out+48(%rip)\n"
	"	mov	%rdi, x86t_out+56(%rip)\n"
	"	mov	%r8, x86t_out+64(%rip)\n"
	"	mov	%r9, x86t_out+72(%rip)\n"
	"	mov	%r10, x86t_out+80(%rip)\n"
	"	mov	%r11, x86t_out+88(%rip)\n"
	"	mov	%r12, x86t_out+96(%rip)\n"
	"	mov	%r13, x86t_out+104(%rip)\n"
	"	mov	%r14, x86t_out+112(%rip)\n"
	"	mov	%r15, x86t_out+120(%rip)\n"
	"	mov	x86t_saved_rsp(%rip), %rsp\n"
	"	pushfq\n"
	"	popq	x86t_out+136(%rip)\n"
	"	cld\n"
	"	pop	%r15\n"
	"	pop	%r14\n"
	"	pop	%r13\n"
	"	pop	%r12\n"
	"	pop	%rbp\n"
	"	pop	%rbx\n"
	"	ret\n"
	"	.size	x86t_exit, .-x86t_exit\n");

#define	PAGE		4096
#define	SITE_OFF	0x400
#define	TARGET_OFF	(SITE_OFF + 0x60)	/* relative branch target */
#define	SLOT_OFF	0x800		/* stub id written here */
#define	EXITP_OFF	0x808		/* &x86t_exit */
#define	DATA_OFF	PAGE		/* data page */
#define	NEAR_OFF	(3 * PAGE)	/* near scratch page */
#define	STACK_SIZE	4096

static uint8_t *region;		/* 4 pages: code, data, -, near scratch */
static uint8_t *far_scratch;	/* more than 4 GiB from region */
static uint64_t stub_addr[4];	/* address of each exit stub by id */
static uint8_t stack_buf[STACK_SIZE] __attribute__((aligned(16)));
static uint64_t fs_base;

static int nfail, ncase, nool_far;

static void
put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void
put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* Exit stub number id at address a. */
static void
write_stub(uint8_t *a, int id)
{
	uint64_t addr = (uint64_t)(uintptr_t)a;
	uint64_t slot = (uint64_t)(uintptr_t)(region + SLOT_OFF);
	uint64_t exitp = (uint64_t)(uintptr_t)(region + EXITP_OFF);

	a[0] = 0xc7;
	a[1] = 0x05;
	put32(a + 2, (uint32_t)(slot - (addr + 10)));
	put32(a + 6, (uint32_t)id);
	a[10] = 0xff;
	a[11] = 0x25;
	put32(a + 12, (uint32_t)(exitp - (addr + 16)));
	stub_addr[id] = addr;
}

/* Known contents for the data page and the stack. */
static void
fill_memory(void)
{
	size_t k;

	for (k = 0; k < PAGE; k++)
		region[DATA_OFF + k] = (uint8_t)(k * 7 + 1);
	for (k = 0; k < STACK_SIZE; k++)
		stack_buf[k] = (uint8_t)(k * 13 + 5);
}

/* The memory a case starts from, restored before each of its runs. */
static uint8_t init_data[PAGE], init_stack[STACK_SIZE];

static void
save_initial(void)
{
	memcpy(init_data, region + DATA_OFF, PAGE);
	memcpy(init_stack, stack_buf, STACK_SIZE);
}

static void
reset_memory(void)
{
	memcpy(region + DATA_OFF, init_data, PAGE);
	memcpy(stack_buf, init_stack, STACK_SIZE);
	put32(region + SLOT_OFF, 0xffffffffu);
}

typedef struct state {
	x86_regs_t	regs;
	uint8_t		data[PAGE];
	uint8_t		stack[STACK_SIZE];
} state_t;

static void
capture(state_t *s, const x86_regs_t *r)
{
	s->regs = *r;
	memcpy(s->data, region + DATA_OFF, PAGE);
	memcpy(s->stack, stack_buf, STACK_SIZE);
}

/* Run natively from in->rip; the result lands in *out. */
static int
run_native(const x86_regs_t *in, state_t *out)
{
	uint32_t id;

	reset_memory();
	x86t_in = *in;
	x86t_enter();
	memcpy(&id, region + SLOT_OFF, 4);
	if (id >= 4)
		return (-1);
	x86t_out.rip = stub_addr[id];
	x86t_out.fs_base = in->fs_base;
	x86t_out.gs_base = in->gs_base;
	capture(out, &x86t_out);
	return (0);
}

static int
mem_read(void *arg, uint64_t addr, void *buf, size_t len)
{
	(void) arg;
	if (addr == 0 || addr < 4096)
		return (-1);
	memcpy(buf, (void *)(uintptr_t)addr, len);
	return (0);
}

static int
mem_write(void *arg, uint64_t addr, const void *buf, size_t len)
{
	(void) arg;
	if (addr == 0 || addr < 4096)
		return (-1);
	memcpy((void *)(uintptr_t)addr, buf, len);
	return (0);
}

static const char *const regname[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"
};

static int
compare(const char *name, const char *how, const state_t *want,
    const state_t *got)
{
	int k, bad = 0;

	for (k = 0; k < 16; k++) {
		if (want->regs.r[k] != got->regs.r[k]) {
			(void) printf("FAIL %s (%s): %%%s expected %#llx, "
			    "got %#llx\n", name, how, regname[k],
			    (unsigned long long)want->regs.r[k],
			    (unsigned long long)got->regs.r[k]);
			bad = 1;
		}
	}
	if (want->regs.rip != got->regs.rip) {
		(void) printf("FAIL %s (%s): %%rip expected %#llx, got %#llx\n",
		    name, how, (unsigned long long)want->regs.rip,
		    (unsigned long long)got->regs.rip);
		bad = 1;
	}
	if ((want->regs.rflags & 0xcd5) != (got->regs.rflags & 0xcd5)) {
		(void) printf("FAIL %s (%s): rflags expected %#llx, got "
		    "%#llx\n", name, how, (unsigned long long)want->regs.rflags,
		    (unsigned long long)got->regs.rflags);
		bad = 1;
	}
	for (k = 0; k < PAGE; k++) {
		if (want->data[k] != got->data[k]) {
			(void) printf("FAIL %s (%s): data byte %#x expected "
			    "%#x, got %#x\n", name, how, k, want->data[k],
			    got->data[k]);
			bad = 1;
			break;
		}
	}
	for (k = 0; k < STACK_SIZE; k++) {
		if (want->stack[k] != got->stack[k]) {
			(void) printf("FAIL %s (%s): stack byte %#x expected "
			    "%#x, got %#x\n", name, how, k, want->stack[k],
			    got->stack[k]);
			bad = 1;
			break;
		}
	}
	nfail += bad;
	return (bad);
}

/* Registers every case starts from, changed per case as needed. */
static void
base_regs(x86_regs_t *r)
{
	int k;

	memset(r, 0, sizeof (*r));
	for (k = 0; k < 16; k++)
		r->r[k] = 0x1111111111111111ULL * (uint64_t)(k + 1);
	r->r[X86_RSP] = (uint64_t)(uintptr_t)(stack_buf + STACK_SIZE / 2);
	r->rflags = 0x202;
	r->fs_base = fs_base;
	fill_memory();
}

static uint64_t
data_addr(size_t off)
{
	return ((uint64_t)(uintptr_t)(region + DATA_OFF + off));
}

/*
 * Run one case.  bytes: the instruction; r: registers (rip is set here).
 * expect: the strategy x86_strategy() must choose.
 */
static void
run_case(const char *name, const uint8_t *bytes, size_t n,
    const x86_regs_t *r0, x86_strategy_t expect)
{
	uint8_t *site = region + SITE_OFF;
	uint64_t pc = (uint64_t)(uintptr_t)site;
	x86_insn_t in;
	x86_regs_t r = *r0;
	state_t native, other;
	x86_strategy_t st;

	ncase++;
	save_initial();
	memset(site, 0xcc, 0x100);
	memcpy(site, bytes, n);
	if (x86_decode(site, 15, pc, 0, &in) != 0 || in.len != n) {
		(void) printf("FAIL %s: decode rc or length (%u, want %zu)\n",
		    name, in.len, n);
		nfail++;
		return;
	}
	write_stub(site + in.len, 0);
	write_stub(region + TARGET_OFF, 1);
	st = x86_strategy(&in);
	if (st != expect) {
		(void) printf("FAIL %s: strategy %d, expected %d\n", name,
		    (int)st, (int)expect);
		nfail++;
		return;
	}

	r.rip = pc;
	if (run_native(&r, &native) != 0) {
		(void) printf("FAIL %s: native run did not reach a stub\n",
		    name);
		nfail++;
		return;
	}

	if (st == X86_STRAT_EMULATE) {
		x86_memops_t mops = { mem_read, mem_write, NULL };
		uint64_t fault = 0;
		int rc;

		reset_memory();
		rc = x86_emulate(&in, &r, &mops, &fault);
		if (rc != X86_EMU_OK) {
			(void) printf("FAIL %s: x86_emulate returned %d\n",
			    name, rc);
			nfail++;
			return;
		}
		capture(&other, &r);
		(void) compare(name, "emulated", &native, &other);
	} else if (st == X86_STRAT_OOL) {
		uint8_t *scr[2];
		const char *how[2] = { "OOL near", "OOL far" };
		int k;

		scr[0] = region + NEAR_OFF;
		scr[1] = far_scratch;
		for (k = 0; k < 2; k++) {
			uint8_t buf[X86_OOL_MAX];
			x86_ool_t ool;
			x86_regs_t r2 = *r0;

			if (scr[k] == NULL)
				continue;
			if (x86_ool_build(&in, site,
			    (uint64_t)(uintptr_t)scr[k], buf, sizeof (buf),
			    &ool) != 0) {
				(void) printf("FAIL %s (%s): x86_ool_build "
				    "failed\n", name, how[k]);
				nfail++;
				continue;
			}
			if (ool.len > X86_OOL_MAX ||
			    ool.resume != pc + in.len) {
				(void) printf("FAIL %s (%s): bad ool len %zu "
				    "resume %#llx\n", name, how[k], ool.len,
				    (unsigned long long)ool.resume);
				nfail++;
				continue;
			}
			if (k == 1 && in.rip_rel &&
			    ool.scratch_reg != X86_REG_NONE)
				nool_far++;
			memset(scr[k], 0xcc, 128);
			memcpy(scr[k], buf, ool.len);
			r2.rip = (uint64_t)(uintptr_t)scr[k];
			if (run_native(&r2, &other) != 0) {
				(void) printf("FAIL %s (%s): did not come "
				    "back\n", name, how[k]);
				nfail++;
				continue;
			}
			(void) compare(name, how[k], &native, &other);
		}
	}
}

#define	CASE(name, r, st, ...)						\
	do {								\
		static const uint8_t b_[] = { __VA_ARGS__ };		\
		run_case(name, b_, sizeof (b_), r, st);			\
	} while (0)

/* A rel32 to the branch target from an instruction of length len. */
static uint32_t
rel32v(size_t len)
{
	uint64_t site = (uint64_t)(uintptr_t)(region + SITE_OFF);
	uint64_t tgt = (uint64_t)(uintptr_t)(region + TARGET_OFF);

	return ((uint32_t)(tgt - (site + len)));
}

/* Build an instruction: prefix bytes, then a rel32/disp32, then tail. */
static void
run_with32(const char *name, const uint8_t *head, size_t nh, uint32_t v,
    const uint8_t *tail, size_t nt, const x86_regs_t *r, x86_strategy_t st)
{
	uint8_t b[16];

	memcpy(b, head, nh);
	put32(b + nh, v);
	if (nt != 0)
		memcpy(b + nh + 4, tail, nt);
	run_case(name, b, nh + 4 + nt, r, st);
}

/* disp32 from the end of an instruction of length len at the site to
 * data offset off. */
static uint32_t
ripdisp(size_t len, size_t off)
{
	return ((uint32_t)(data_addr(off) -
	    ((uint64_t)(uintptr_t)(region + SITE_OFF) + len)));
}

static void
test_branches(void)
{
	x86_regs_t r;
	uint64_t tgt = (uint64_t)(uintptr_t)(region + TARGET_OFF);
	unsigned int cc, fl;
	static const uint64_t flagsets[] = {
		0x000, 0x001, 0x004, 0x040, 0x080, 0x800, 0x880, 0x041,
		0x8c5
	};
	uint8_t b[16];
	uint8_t rel8 = (uint8_t)(TARGET_OFF - (SITE_OFF + 2));

	base_regs(&r);
	{
		static const uint8_t h[] = { 0xe8 };
		run_with32("call rel32", h, 1, rel32v(5), NULL, 0, &r,
		    X86_STRAT_EMULATE);
	}
	{
		static const uint8_t h[] = { 0xe9 };
		run_with32("jmp rel32", h, 1, rel32v(5), NULL, 0, &r,
		    X86_STRAT_EMULATE);
	}
	b[0] = 0xeb;
	b[1] = rel8;
	run_case("jmp rel8", b, 2, &r, X86_STRAT_EMULATE);

	for (cc = 0; cc < 16; cc++) {
		for (fl = 0; fl < sizeof (flagsets) / sizeof (flagsets[0]);
		    fl++) {
			char name[64];

			base_regs(&r);
			r.rflags = 0x202 | flagsets[fl];
			(void) snprintf(name, sizeof (name),
			    "jcc rel8 cc=%x flags=%#llx", cc,
			    (unsigned long long)flagsets[fl]);
			b[0] = (uint8_t)(0x70 + cc);
			b[1] = rel8;
			run_case(name, b, 2, &r, X86_STRAT_EMULATE);
			(void) snprintf(name, sizeof (name),
			    "jcc rel32 cc=%x flags=%#llx", cc,
			    (unsigned long long)flagsets[fl]);
			b[0] = 0x0f;
			b[1] = (uint8_t)(0x80 + cc);
			put32(b + 2, rel32v(6));
			run_case(name, b, 6, &r, X86_STRAT_EMULATE);
		}
	}

	/* loop, loope, loopne, jrcxz, jecxz */
	{
		static const uint64_t counts[] = { 0, 1, 2, 0x100000000ULL };
		static const uint8_t ops[] = { 0xe0, 0xe1, 0xe2, 0xe3 };
		size_t i, j, z;

		for (i = 0; i < 4; i++) {
			for (j = 0; j < 4; j++) {
				for (z = 0; z < 2; z++) {
					char name[64];

					base_regs(&r);
					r.r[X86_RCX] = counts[j];
					r.rflags = 0x202 | (z ? 0x40 : 0);
					(void) snprintf(name, sizeof (name),
					    "%02x rcx=%#llx zf=%zu", ops[i],
					    (unsigned long long)counts[j], z);
					b[0] = ops[i];
					b[1] = rel8;
					run_case(name, b, 2, &r,
					    X86_STRAT_EMULATE);
				}
			}
		}
		for (j = 0; j < 4; j++) {
			base_regs(&r);
			r.r[X86_RCX] = counts[j];
			b[0] = 0x67;
			b[1] = 0xe3;
			b[2] = (uint8_t)(TARGET_OFF - (SITE_OFF + 3));
			run_case("jecxz (67)", b, 3, &r, X86_STRAT_EMULATE);
		}
	}

	/* ret, ret $imm16 */
	base_regs(&r);
	put64((uint8_t *)(uintptr_t)r.r[X86_RSP], tgt);
	CASE("ret", &r, X86_STRAT_EMULATE, 0xc3);
	CASE("rep ret", &r, X86_STRAT_EMULATE, 0xf3, 0xc3);
	CASE("ret $16", &r, X86_STRAT_EMULATE, 0xc2, 0x10, 0x00);

	/* indirect call/jmp, register */
	base_regs(&r);
	r.r[X86_RAX] = tgt;
	r.r[X86_R11] = tgt;
	CASE("call *%rax", &r, X86_STRAT_EMULATE, 0xff, 0xd0);
	CASE("jmp *%rax", &r, X86_STRAT_EMULATE, 0xff, 0xe0);
	CASE("call *%r11", &r, X86_STRAT_EMULATE, 0x41, 0xff, 0xd3);
	CASE("notrack jmp *%r11", &r, X86_STRAT_EMULATE, 0x3e, 0x41, 0xff,
	    0xe3);

	/* indirect call/jmp through memory, every ModRM/SIB/REX shape */
	base_regs(&r);
	put64(region + DATA_OFF + 0x100 + 3 * 8, tgt);
	r.r[X86_R12] = data_addr(0x100);
	r.r[X86_RAX] = 3;
	r.r[X86_RSI] = 3;
	CASE("call *(%r12,%rax,8)", &r, X86_STRAT_EMULATE, 0x41, 0xff, 0x14,
	    0xc4);
	CASE("jmp *(%r12,%rsi,8)", &r, X86_STRAT_EMULATE, 0x41, 0xff, 0x24,
	    0xf4);
	r.r[X86_R13] = data_addr(0x100) - 8;
	r.r[X86_R9] = 3;
	CASE("call *0x8(%r13,%r9,8)", &r, X86_STRAT_EMULATE, 0x43, 0xff,
	    0x54, 0xcd, 0x08);
	r.r[X86_RBX] = data_addr(0x100) + 0x100;
	CASE("jmp *-0xe8(%rbx) disp32", &r, X86_STRAT_EMULATE, 0xff, 0xa3,
	    0x18, 0xff, 0xff, 0xff);
	r.r[X86_R12] = data_addr(0x100 + 24);
	CASE("call *(%r12)", &r, X86_STRAT_EMULATE, 0x41, 0xff, 0x14, 0x24);
	r.r[X86_R13] = data_addr(0x100 + 24);
	CASE("jmp *0x0(%r13)", &r, X86_STRAT_EMULATE, 0x41, 0xff, 0x65,
	    0x00);
	r.r[X86_RAX] = data_addr(0x100);
	r.r[X86_R12] = 3;
	CASE("call *(%rax,%r12,8) REX.X", &r, X86_STRAT_EMULATE, 0x42, 0xff,
	    0x14, 0xe0);
	CASE("REX.W call *(%rax,%r12,8)", &r, X86_STRAT_EMULATE, 0x4a, 0xff,
	    0x14, 0xe0);
	/* call *8(%rsp): the address is computed before the push */
	base_regs(&r);
	put64((uint8_t *)(uintptr_t)(r.r[X86_RSP] + 8), tgt);
	CASE("call *0x8(%rsp)", &r, X86_STRAT_EMULATE, 0xff, 0x54, 0x24,
	    0x08);
	/* RIP-relative and FS-relative */
	base_regs(&r);
	put64(region + DATA_OFF + 0x200, tgt);
	{
		static const uint8_t h[] = { 0xff, 0x25 };
		run_with32("jmp *disp(%rip)", h, 2, ripdisp(6, 0x200), NULL,
		    0, &r, X86_STRAT_EMULATE);
	}
	{
		static const uint8_t h[] = { 0xff, 0x15 };
		run_with32("call *disp(%rip)", h, 2, ripdisp(6, 0x200), NULL,
		    0, &r, X86_STRAT_EMULATE);
	}
	r.r[X86_RAX] = data_addr(0x200) - fs_base;
	CASE("jmp *%fs:(%rax)", &r, X86_STRAT_EMULATE, 0x64, 0xff, 0x20);

	/* push/pop */
	base_regs(&r);
	CASE("push %rbp", &r, X86_STRAT_EMULATE, 0x55);
	CASE("push %r12", &r, X86_STRAT_EMULATE, 0x41, 0x54);
	CASE("push %rsp", &r, X86_STRAT_EMULATE, 0x54);
	CASE("pop %rbx", &r, X86_STRAT_EMULATE, 0x5b);
	CASE("pop %r15", &r, X86_STRAT_EMULATE, 0x41, 0x5f);
	put64((uint8_t *)(uintptr_t)r.r[X86_RSP],
	    (uint64_t)(uintptr_t)(stack_buf + 256));
	CASE("pop %rsp", &r, X86_STRAT_EMULATE, 0x5c);
	CASE("pushw %ax (66: out of line)", &r, X86_STRAT_OOL, 0x66, 0x50);
}

static void
test_ool(void)
{
	x86_regs_t r;

	base_regs(&r);
	r.r[X86_RDI] = data_addr(0x300);
	r.r[X86_RCX] = 5;
	CASE("add %rbx,%rax", &r, X86_STRAT_OOL, 0x48, 0x01, 0xd8);
	CASE("rep stosb", &r, X86_STRAT_OOL, 0xf3, 0xaa);
	CASE("imul $7,%rdx,%rax", &r, X86_STRAT_OOL, 0x48, 0x6b, 0xc2, 0x07);

#define	RIPCASE(name, len, off, tail, ntail, ...)			\
	do {								\
		static const uint8_t h_[] = { __VA_ARGS__ };		\
		run_with32(name, h_, sizeof (h_), ripdisp(len, off), tail, \
		    ntail, &r, X86_STRAT_OOL);				\
	} while (0)

	base_regs(&r);
	RIPCASE("mov disp(%rip),%rax", 7, 0x40, NULL, 0, 0x48, 0x8b, 0x05);
	RIPCASE("mov disp(%rip),%rsi", 7, 0x40, NULL, 0, 0x48, 0x8b, 0x35);
	RIPCASE("mov disp(%rip),%rdi", 7, 0x40, NULL, 0, 0x48, 0x8b, 0x3d);
	RIPCASE("mov disp(%rip),%rbx", 7, 0x40, NULL, 0, 0x48, 0x8b, 0x1d);
	RIPCASE("REX.B ignored: mov disp(%rip),%rax", 7, 0x48, NULL, 0,
	    0x49, 0x8b, 0x05);
	RIPCASE("mov disp(%rip),%r14", 7, 0x48, NULL, 0, 0x4c, 0x8b, 0x35);
	RIPCASE("add %rbx,disp(%rip)", 7, 0x50, NULL, 0, 0x48, 0x01, 0x1d);
	RIPCASE("lea disp(%rip),%rcx", 7, 0x58, NULL, 0, 0x48, 0x8d, 0x0d);
	RIPCASE("lock cmpxchg %rcx,disp(%rip)", 9, 0x60, NULL, 0, 0xf0, 0x48,
	    0x0f, 0xb1, 0x0d);
	{
		static const uint8_t imm[] = { 0x78, 0x56, 0x34, 0x12 };
		static const uint8_t imm8[] = { 0x42 };

		RIPCASE("movl $imm32,disp(%rip)", 10, 0x68, imm, 4, 0xc7,
		    0x05);
		RIPCASE("cmpb $imm8,disp(%rip)", 7, 0x70, imm8, 1, 0x80,
		    0x3d);
	}
	RIPCASE("push disp(%rip)", 6, 0x78, NULL, 0, 0xff, 0x35);
	RIPCASE("pop disp(%rip)", 6, 0x80, NULL, 0, 0x8f, 0x05);
	RIPCASE("andn disp(%rip),%rsi,%rdi (VEX3)", 9, 0x88, NULL, 0, 0xc4,
	    0xe2, 0xc8, 0xf2, 0x3d);
	RIPCASE("andn disp(%rip),%rdi,%rsi (VEX3)", 9, 0x88, NULL, 0, 0xc4,
	    0xe2, 0xc0, 0xf2, 0x35);
	RIPCASE("shlx %rdx,disp(%rip),%rsi (VEX3 W1)", 9, 0x90, NULL, 0,
	    0xc4, 0xe2, 0xe9, 0xf7, 0x35);
	r.r[X86_RAX] = 0;
	RIPCASE("cmpxchg16b disp(%rip)", 8, 0x100, NULL, 0, 0x48, 0x0f, 0xc7,
	    0x0d);
	{
		uint64_t site = (uint64_t)(uintptr_t)(region + SITE_OFF);

		/* EIP-relative only when the data is below 4 GiB */
		if (site < 0x80000000ULL)
			RIPCASE("mov disp(%eip),%eax (67)", 7, 0x40, NULL, 0,
			    0x67, 0x8b, 0x05);
	}

	/* syscall: %rcx must hold the original next address afterwards */
	base_regs(&r);
	r.r[X86_RAX] = SYS_getpid;
	CASE("syscall getpid", &r, X86_STRAT_OOL, 0x0f, 0x05);
}

/* Faults and refusals. */
static void
test_refuse(void)
{
	static const struct {
		const char *name;
		uint8_t b[8];
		size_t n;
	} refuse[] = {
		{ "int3", { 0xcc }, 1 },
		{ "ud2", { 0x0f, 0x0b }, 2 },
		{ "66 call rel32 (vendor-dependent)", { 0x66, 0xe8, 0, 0, 0,
		    0 }, 6 },
		{ "66 ret", { 0x66, 0xc3 }, 2 },
		{ "67 loop", { 0x67, 0xe2, 0xfe }, 3 },
		{ "lcall *(%rax)", { 0xff, 0x18 }, 2 },
		{ "xbegin", { 0xc7, 0xf8, 0, 0, 0, 0 }, 6 },
		{ "iretq", { 0x48, 0xcf }, 2 },
		{ "sysenter", { 0x0f, 0x34 }, 2 },
	};
	size_t k;
	x86_insn_t in;
	x86_regs_t r;
	x86_memops_t mops = { mem_read, mem_write, NULL };
	uint64_t fault = 0;
	uint8_t buf[X86_OOL_MAX];
	x86_ool_t ool;
	int rc;

	for (k = 0; k < sizeof (refuse) / sizeof (refuse[0]); k++) {
		ncase++;
		if (x86_decode(refuse[k].b, refuse[k].n, 0x1000, 0, &in) !=
		    0 || x86_strategy(&in) != X86_STRAT_REFUSE ||
		    x86_ool_build(&in, refuse[k].b, 0x2000, buf, sizeof (buf),
		    &ool) == 0) {
			(void) printf("FAIL %s: not refused\n",
			    refuse[k].name);
			nfail++;
		}
	}

	/* A fault leaves the registers untouched. */
	{
		static const uint8_t b[] = { 0xff, 0x10 }; /* call *(%rax) */
		x86_regs_t before;

		ncase++;
		base_regs(&r);
		r.r[X86_RAX] = 8;
		r.rip = 0x1000;
		before = r;
		(void) x86_decode(b, sizeof (b), 0x1000, 0, &in);
		rc = x86_emulate(&in, &r, &mops, &fault);
		if (rc != X86_EMU_FAULT || fault != 8 ||
		    memcmp(&r, &before, sizeof (r)) != 0) {
			(void) printf("FAIL call *(%%rax) fault: rc %d fault "
			    "%#llx\n", rc, (unsigned long long)fault);
			nfail++;
		}
	}
	{
		static const uint8_t b[] = { 0xc3 };
		x86_regs_t before;

		ncase++;
		base_regs(&r);
		r.r[X86_RSP] = 16;
		r.rip = 0x1000;
		before = r;
		(void) x86_decode(b, sizeof (b), 0x1000, 0, &in);
		rc = x86_emulate(&in, &r, &mops, &fault);
		if (rc != X86_EMU_FAULT || fault != 16 ||
		    memcmp(&r, &before, sizeof (r)) != 0) {
			(void) printf("FAIL ret fault: rc %d\n", rc);
			nfail++;
		}
	}
	/* A non-emulated instruction is left alone. */
	{
		static const uint8_t b[] = { 0x48, 0x01, 0xd8 };
		x86_regs_t before;

		ncase++;
		base_regs(&r);
		r.rip = 0x1000;
		before = r;
		(void) x86_decode(b, sizeof (b), 0x1000, 0, &in);
		rc = x86_emulate(&in, &r, &mops, &fault);
		if (rc != X86_EMU_UNSUPPORTED ||
		    memcmp(&r, &before, sizeof (r)) != 0) {
			(void) printf("FAIL add: emulate rc %d\n", rc);
			nfail++;
		}
	}
}

/* Map len bytes RWX, at hint if possible. */
static uint8_t *
map_rwx(uint64_t hint, size_t len)
{
	void *p = mmap((void *)(uintptr_t)hint, len,
	    PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);

	return (p == MAP_FAILED ? NULL : (uint8_t *)p);
}

int
main(void)
{
	uint64_t dist;

	if (syscall(SYS_arch_prctl, ARCH_GET_FS, &fs_base) != 0)
		fs_base = 0;

	/* Low if we can: EIP-relative cases need the data below 4 GiB. */
	region = map_rwx(0x20000000ULL, 4 * PAGE);
	if (region == NULL) {
		(void) printf("SKIP: cannot map executable memory\n");
		return (77);
	}
	put64(region + EXITP_OFF, (uint64_t)(uintptr_t)x86t_exit);
	far_scratch = map_rwx((uint64_t)(uintptr_t)region + (8ULL << 30),
	    PAGE);
	if (far_scratch != NULL) {
		dist = (uint64_t)(uintptr_t)far_scratch -
		    (uint64_t)(uintptr_t)region;
		if ((uint64_t)(uintptr_t)far_scratch <
		    (uint64_t)(uintptr_t)region)
			dist = -dist;
		if (dist < (4ULL << 30)) {
			(void) munmap(far_scratch, PAGE);
			far_scratch = NULL;
		}
	}
	if (far_scratch == NULL) {
		(void) printf("x86_emulate_test: no scratch page 4 GiB "
		    "away; far copies not tested\n");
	}

	test_branches();
	test_ool();
	test_refuse();

	if (far_scratch != NULL && nool_far == 0) {
		(void) printf("FAIL: no case used a scratch register\n");
		nfail++;
	}
	if (nfail != 0) {
		(void) printf("x86_emulate_test: %d failures in %d cases\n",
		    nfail, ncase);
		return (1);
	}
	(void) printf("x86_emulate_test: %d cases passed (%d far RIP-relative "
	    "copies)\n", ncase, nool_far);
	return (0);
}

#else	/* not x86-64 Linux with GNU C */

int
main(void)
{
	(void) printf("SKIP: the native comparison needs x86-64 Linux\n");
	return (77);
}

#endif
