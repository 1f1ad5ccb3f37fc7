/* SPDX-License-Identifier: MIT */
/*
 * a64_ptrace_test.c: AArch64's part of the ptrace engine that needs no
 * traced process (isa/aarch64/a64_ptrace_ops.c): the breakpoint and the
 * injected system call's code, how each class of instruction is run
 * (emulated on the ptrace register set, copied out of line, refused),
 * the emulation on that register set, the out-of-line copies and their
 * return trap, and whether a conditional branch out of a function is
 * taken; and the counting trampoline, built and run here on a function
 * of our own.  Encodings by GNU as for aarch64.  Built for an arm64 host (run
 * under qemu-aarch64 in a cross build).
 */

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "isa/dt_isa.h"
#include "tests/unit/unit.h"

#define PC 0x400100ULL

static uint8_t lit[16] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

/* Memory: the 16 bytes of lit[] at PC + 0x40, nothing else. */
static int
rd(void *arg, uint64_t addr, void *buf, size_t len)
{
	(void) arg;
	if (addr < PC + 0x40 || addr + len > PC + 0x40 + sizeof(lit))
		return -1;
	memcpy(buf, lit + (addr - (PC + 0x40)), len);
	return 0;
}

static const dt_isa_memops_t mem = {rd, NULL, NULL};

static void
le(uint8_t *p, uint32_t w)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (w >> (8 * i));
}

static uint32_t
word(const uint8_t *p)
{
	return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
	    (uint32_t) p[3] << 24;
}

/* Decode w at PC: its strategy, and in *in. */
static int
decode(uint32_t w, dt_isa_insn_t *in)
{
	uint8_t b[4];
	dt_isa_strategy_t st;

	le(b, w);
	CHECK(dt_isa_ptrace_decode(b, 4, PC, in, &st) == 0);
	return (int) st;
}

static void
test_constants(void)
{
	const dt_isa_ptrace_t *ip = &dt_isa_ptrace;

	CHECK_INT(word(ip->ip_brk), 0xd4200000); /* brk #0 */
	CHECK_INT(ip->ip_brklen, 4);
	CHECK_INT(ip->ip_brksig, SIGTRAP);
	CHECK_INT(word(ip->ip_injspin), 0xd4000001);	 /* svc #0 */
	CHECK_INT(word(ip->ip_injspin + 4), 0x14000000); /* b . */
	CHECK_INT(word(ip->ip_injtrap + 4), 0xd4200000);
	CHECK_INT(ip->ip_sysdone, 4);
	CHECK_INT(ip->ip_sysnr, 8 * 8); /* x8 */
	CHECK_INT(ip->ip_sysret, 0);
	CHECK_INT(ip->ip_auditarch, 0xc00000b7); /* AUDIT_ARCH_AARCH64 */
	CHECK_INT(ip->ip_jmplen, 4);
	CHECK(ip->ip_norestart / 8 < DT_ISA_PTREGS_WORDS &&
	    ip->ip_norestart / 8 >= 34);
	/* The pc of the register set is the layout's. */
	CHECK_INT(dt_isa_layout.il_pc, 8 * 32);
}

static void
test_strategy(void)
{
	dt_isa_insn_t in;

	CHECK_INT(decode(0x91000400, &in), DT_ISA_STRAT_OOL); /* add x0,x0,1 */
	CHECK_INT(decode(0xd4000001, &in), DT_ISA_STRAT_OOL); /* svc #0 */
	CHECK_INT(decode(0x10000200, &in), DT_ISA_STRAT_EMULATE); /* adr */
	CHECK_INT(decode(0x94000010, &in), DT_ISA_STRAT_EMULATE); /* bl */
	CHECK_INT(decode(0xd65f03c0, &in), DT_ISA_STRAT_EMULATE); /* ret */
	CHECK_INT(decode(0x58000201, &in), DT_ISA_STRAT_EMULATE); /* ldr x1 */
	/* ldr q0, literal: copied, with its data */
	CHECK_INT(decode(0x9c000200, &in), DT_ISA_STRAT_OOL);
	/* ldaxr w2, [x0] and stlxr w4, w5, [x0]: never apart */
	CHECK_INT(decode(0x885ffc02, &in), DT_ISA_STRAT_REFUSE);
	CHECK_INT(decode(0x8804fc05, &in), DT_ISA_STRAT_REFUSE);
	CHECK_INT(decode(0xd4200000, &in), DT_ISA_STRAT_REFUSE); /* brk */
	/* A misaligned address or a short read is no instruction. */
	{
		uint8_t b[4] = {0};
		dt_isa_strategy_t st;

		CHECK(dt_isa_ptrace_decode(b, 4, PC + 2, &in, &st) != 0);
		CHECK(dt_isa_ptrace_decode(b, 3, PC, &in, &st) != 0);
	}
}

static void
test_emulate(void)
{
	dt_isa_ptregs_t r;
	dt_isa_insn_t in;

	memset(&r, 0, sizeof(r));
	r.pr_w[32] = PC;
	r.pr_w[34] = 0x5a;	 /* the syscall number: left alone */
	decode(0x94000010, &in); /* bl PC + 0x40 */
	CHECK(dt_isa_ptrace_emulate(&in, &r, &mem) == 0);
	CHECK(r.pr_w[32] == PC + 0x40 && r.pr_w[30] == PC + 4);
	CHECK_INT(r.pr_w[34], 0x5a);

	r.pr_w[32] = PC;
	decode(0x58000201, &in); /* ldr x1, PC + 0x40 */
	CHECK(dt_isa_ptrace_emulate(&in, &r, &mem) == 0);
	CHECK(r.pr_w[1] == 0x0807060504030201ULL && r.pr_w[32] == PC + 4);

	/* A literal out of reach: nothing changed, the thread faults. */
	r.pr_w[32] = PC;
	r.pr_w[1] = 7;
	decode(0x58000401, &in); /* ldr x1, PC + 0x80 */
	CHECK(dt_isa_ptrace_emulate(&in, &r, &mem) != 0);
	CHECK(r.pr_w[1] == 7 && r.pr_w[32] == PC);

	r.pr_w[32] = PC;
	r.pr_w[30] = 0x1234;
	decode(0xd65f03c0, &in); /* ret */
	CHECK(dt_isa_ptrace_emulate(&in, &r, &mem) == 0);
	CHECK_INT(r.pr_w[32], 0x1234);

	r.pr_w[32] = PC;
	decode(0x90000001, &in); /* adrp x1, PC's page */
	CHECK(dt_isa_ptrace_emulate(&in, &r, &mem) == 0);
	CHECK(r.pr_w[1] == (PC & ~0xfffULL) && r.pr_w[32] == PC + 4);
}

static void
test_ool(void)
{
	uint8_t code[4], buf[128];
	uint64_t resume = 0;
	dt_isa_insn_t in;
	size_t len;
	int priv;

	le(code, 0x91000400); /* add x0, x0, #1 */
	decode(0x91000400, &in);
	CHECK(dt_isa_ptrace_ool(
		  &in, code, 0x7000, &mem, buf, sizeof(buf), &len, &priv) == 0);
	CHECK(len == 24 && priv == 0);
	CHECK_INT(word(buf), 0x91000400);
	CHECK_INT(word(buf + 4), 0xd420fae0); /* brk #0x7d7 */
	CHECK(dt_isa_ptrace_ool_return(buf + 4, sizeof(buf) - 4, &resume));
	CHECK(resume == PC + 4);
	/*
	 * Left inside the copy as tracing ends: from its trap on past the
	 * site, from its instruction back to the site; elsewhere, nothing.
	 */
	resume = 0;
	CHECK(dt_isa_ptrace_ool_leave(buf + 4, 28, &resume) &&
	    resume == PC + 4);
	resume = 0;
	CHECK(dt_isa_ptrace_ool_leave(buf, 32, &resume) && resume == PC);
	CHECK(!dt_isa_ptrace_ool_leave(buf + 8, 24, &resume));
	CHECK(!dt_isa_ptrace_ool_leave(code, 4, &resume));
	/* A brk of the program's is not a copy's return trap. */
	le(buf + 4, 0xd4200000);
	CHECK(!dt_isa_ptrace_ool_return(buf + 4, sizeof(buf) - 4, &resume));

	/* ldr q0, PC + 0x40: the load reads its data after the trap. */
	le(code, 0x9c000200);
	decode(0x9c000200, &in);
	CHECK(dt_isa_ptrace_ool(
		  &in, code, 0x7000, &mem, buf, sizeof(buf), &len, &priv) == 0);
	CHECK(len == 40 && priv == 1);
	CHECK_INT(word(buf), 0x9c0000c0); /* ldr q0, .+24 */
	CHECK(memcmp(buf + 24, lit, 16) == 0);
	CHECK(
	    dt_isa_ptrace_ool_return(buf + 4, 36, &resume) && resume == PC + 4);

	/* What is emulated is not copied. */
	le(code, 0x94000010);
	decode(0x94000010, &in);
	CHECK(dt_isa_ptrace_ool(
		  &in, code, 0x7000, &mem, buf, sizeof(buf), &len, &priv) != 0);
}

static void
test_taken(void)
{
	dt_isa_ptregs_t r;
	dt_isa_insn_t in;

	memset(&r, 0, sizeof(r));
	r.pr_w[32] = PC + 0x20;	 /* not where the branch is: no matter */
	decode(0x54000200, &in); /* b.eq PC + 0x40 */
	r.pr_w[33] = 1ULL << 30; /* Z */
	CHECK(dt_isa_ptrace_taken(&in, &r));
	r.pr_w[33] = 0;
	CHECK(!dt_isa_ptrace_taken(&in, &r));
	decode(0xb4000203, &in); /* cbz x3, PC + 0x40 */
	r.pr_w[3] = 0;
	CHECK(dt_isa_ptrace_taken(&in, &r));
	r.pr_w[3] = 1ULL << 40;
	CHECK(!dt_isa_ptrace_taken(&in, &r));
	decode(0x34000203, &in); /* cbz w3: the low half only */
	CHECK(dt_isa_ptrace_taken(&in, &r));
	decode(0x14000010, &in); /* b: always */
	CHECK(dt_isa_ptrace_taken(&in, &r));
	CHECK(r.pr_w[32] == PC + 0x20); /* r itself untouched */
}

/*
 * The counting trampoline: what is displaced, the b's reach, and one run
 * on a copy of "add w0, w0, #1; ret" patched as a traced process's
 * function is, called from two threads' worth of calls in turn.
 */
static void
test_tramp(void)
{
	static const uint32_t refused[] = {
	    0xd503233fu, /* paciasp: a landing pad */
	    0xd503245fu, /* bti c */
	    0x90000000u, /* adrp x0, . */
	    0x14000010u, /* b .+64 */
	    0xc85f7c20u, /* ldxr x0, [x1] */
	    0xd4000001u, /* svc #0 */
	    0xd65f03c0u, /* ret */
	};
	uint8_t code[8], buf[64], b[4];
	size_t len = 0, n;
	uint8_t *page;
	uint64_t *ctr;
	int (*f)(int);
	int ok = 1;

	for (size_t i = 0; i < sizeof(refused) / 4; i++) {
		le(code, refused[i]);
		CHECK(dt_isa_ptrace_tramp(PC, code, 4, PC + 0x1000, PC + 0x2000,
			  buf, sizeof(buf), &len) == 0);
	}
	/* b: 26 bits of words either way. */
	CHECK(dt_isa_ptrace_jmp(PC, PC + 0x7fffffc, b) == 0 &&
	    word(b) == 0x15ffffffu);
	/* How a tracer after us knows the site as patched. */
	CHECK((b[dt_isa_ptrace.ip_jmpop_at] & dt_isa_ptrace.ip_jmpop_mask) ==
	    dt_isa_ptrace.ip_jmpop);
	CHECK(dt_isa_ptrace_jmp(PC + 0x8000000, PC, b) == 0 &&
	    word(b) == 0x16000000u);
	CHECK(dt_isa_ptrace_jmp(PC, PC + 0x8000000, b) != 0);
	CHECK(dt_isa_ptrace_jmp(PC + 0x8000004, PC, b) != 0);
	CHECK(dt_isa_ptrace_lands(code, PC, 64, 4) == 0);

	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(page != MAP_FAILED);
	if (page == MAP_FAILED)
		return;
	ctr = (uint64_t *) (void *) (page + 4096);
	le(page, 0x11000400u);	   /* add w0, w0, #1 */
	le(page + 4, 0xd65f03c0u); /* ret */
	memcpy(code, page, 8);
	n = dt_isa_ptrace_tramp((uint64_t) (uintptr_t) page, code, 8,
	    (uint64_t) (uintptr_t) (page + 64),
	    (uint64_t) (uintptr_t) ctr, buf, sizeof(buf), &len);
	CHECK(n > 0 && n <= 64 && len == 4);
	CHECK(dt_isa_ptrace_jmp((uint64_t) (uintptr_t) page,
		  (uint64_t) (uintptr_t) (page + 64), b) == 0);
	if (n == 0 || n > 64)
		return;
	memcpy(page + 64, buf, n);
	memcpy(page, b, 4);
	CHECK(mprotect(page, 4096, PROT_READ | PROT_EXEC) == 0);
	__builtin___clear_cache((char *) page, (char *) page + 4096);
	f = (int (*)(int)) (uintptr_t) page;
	for (int i = 0; i < 1000; i++)
		ok &= f(i) == i + 1;
	CHECK(ok);
	CHECK(*ctr == 1000);
	(void) munmap(page, 8192);
}

int
main(void)
{
	test_constants();
	test_strategy();
	test_emulate();
	test_ool();
	test_taken();
	test_tramp();
	return unit_done();
}
