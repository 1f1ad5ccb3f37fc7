/* SPDX-License-Identifier: MIT */
/*
 * x86_sites_test.c: probe sites of hand-assembled x86-64 functions.
 *
 * Each function is a byte array with its disassembly beside it, placed at
 * a chosen address so that branch targets and RIP-relative operands land
 * where the case needs them (inside the function, just past its end,
 * before its start).  The cases: a plain function with two returns, tail
 * calls by jmp and jcc, instructions the emulator refuses, and functions
 * refused as a whole (bytes that do not decode, a truncated instruction,
 * a branch into an instruction, jump tables and data inside the text).
 */

#include <stdint.h>
#include <string.h>

#include "isa/x86_64/x86_decode.h"
#include "isa/x86_64/x86_emulate.h"
#include "isa/x86_64/x86_sites.h"
#include "unit.h"

#define	SCAN(code, addr, s)	x86_sites_scan(code, sizeof (code), addr, s)

/* The site of kind at off exists and is probeable. */
static int
x86t_ok(const x86_sites_t *s, x86_site_kind_t kind, size_t off)
{
	const x86_site_t *st = x86_sites_find(s, kind, off);

	return (st != NULL && st->probeable && st->reason == NULL);
}

/* The site of kind at off exists, is refused, and the reason says why. */
static int
x86t_refused(const x86_sites_t *s, x86_site_kind_t kind, size_t off,
    const char *word)
{
	const x86_site_t *st = x86_sites_find(s, kind, off);

	return (st != NULL && !st->probeable && st->reason != NULL &&
	    strstr(st->reason, word) != NULL);
}

/* The whole function is refused at off, for a reason mentioning word. */
static void
x86t_whole(const uint8_t *code, size_t size, uint64_t addr, size_t off,
    const char *word, int line)
{
	x86_sites_t s;
	int rc = x86_sites_scan(code, size, addr, &s);

	unit_checks++;
	if (rc != X86_SITES_REFUSED || s.nsites != 0 || s.sites != NULL ||
	    s.refused == NULL || strstr(s.refused, word) == NULL ||
	    s.refused_off != off) {
		unit_failures++;
		printf("%s:%d: want refusal \"%s\" at +%zx, got rc %d, "
		    "\"%s\" at +%zx, %zu sites\n", __FILE__, line, word, off,
		    rc, s.refused ? s.refused : "(none)", s.refused_off,
		    s.nsites);
	}
	x86_sites_free(&s);
}

#define	WHOLE(code, addr, off, word)					\
	x86t_whole(code, sizeof (code), addr, off, word, __LINE__)

static void
test_two_returns(void)
{
	static const uint8_t f[] = {
		0xf3, 0x0f, 0x1e, 0xfa,		/* 0:  endbr64 */
		0x85, 0xff,			/* 4:  test %edi,%edi */
		0x74, 0x06,			/* 6:  je 0xe */
		0xb8, 0x01, 0x00, 0x00, 0x00,	/* 8:  mov $1,%eax */
		0xc3,				/* d:  ret */
		0x31, 0xc0,			/* e:  xor %eax,%eax */
		0xc2, 0x08, 0x00,		/* 10: ret $8 */
	};
	static const uint32_t offs[] = { 0, 4, 6, 8, 0xd, 0xe, 0x10 };
	x86_sites_t s;
	const x86_site_t *st;
	size_t k, nret = 0;

	CHECK_INT(SCAN(f, 0x401000, &s), X86_SITES_OK);
	CHECK(s.refused == NULL);
	CHECK_INT(s.ninsns, 7);
	CHECK_INT(s.nsites, 1 + 7 + 2);
	CHECK(x86t_ok(&s, X86_SITE_ENTRY, 0));
	for (k = 0; k < sizeof (offs) / sizeof (offs[0]); k++)
		CHECK(x86t_ok(&s, X86_SITE_OFFSET, offs[k]));
	CHECK(x86t_ok(&s, X86_SITE_RETURN, 0xd));
	CHECK(x86t_ok(&s, X86_SITE_RETURN, 0x10));

	/* Not instruction boundaries, or not returns. */
	CHECK(x86_sites_find(&s, X86_SITE_OFFSET, 5) == NULL);
	CHECK(x86_sites_find(&s, X86_SITE_OFFSET, 0x13) == NULL);
	CHECK(x86_sites_find(&s, X86_SITE_RETURN, 6) == NULL);
	CHECK(x86_sites_find(&s, X86_SITE_ENTRY, 4) == NULL);

	/* Sorted by offset, then entry < offset < return. */
	for (k = 1; k < s.nsites; k++) {
		const x86_site_t *a = &s.sites[k - 1], *b = &s.sites[k];

		CHECK(a->off < b->off || (a->off == b->off &&
		    a->kind < b->kind));
	}
	for (k = 0; (st = x86_sites_get(&s, k)) != NULL; k++) {
		if (st->kind == X86_SITE_RETURN) {
			nret++;
			CHECK_INT(st->cf, X86_CF_RET);
			CHECK_INT(st->tailcall, 0);
			CHECK_INT(st->strategy, X86_STRAT_EMULATE);
		}
	}
	CHECK_INT(nret, 2);
	CHECK_INT(x86_sites_find(&s, X86_SITE_RETURN, 0x10)->len, 3);
	CHECK_INT(x86_sites_find(&s, X86_SITE_OFFSET, 8)->len, 5);
	CHECK_INT(x86_sites_find(&s, X86_SITE_OFFSET, 8)->strategy,
	    X86_STRAT_OOL);
	CHECK_STR(x86_site_kind_name(X86_SITE_RETURN), "return");
	x86_sites_free(&s);
}

static void
test_tail_calls(void)
{
	static const uint8_t f[] = {
		0x48, 0x83, 0xec, 0x08,		/* 0:  sub $8,%rsp */
		0x85, 0xff,			/* 4:  test %edi,%edi */
		0x74, 0x09,			/* 6:  je 0x11 */
		0x48, 0x83, 0xc4, 0x08,		/* 8:  add $8,%rsp */
		0xe9, 0x00, 0x01, 0x00, 0x00,	/* c:  jmp 0x111 (out) */
		0x48, 0x83, 0xc4, 0x08,		/* 11: add $8,%rsp */
		0x0f, 0x84, 0x00, 0x02, 0x00, 0x00, /* 15: je 0x21b (out) */
		0xeb, 0xe3,			/* 1b: jmp 0 (in) */
		0xc3,				/* 1d: ret */
	};
	/* A jump to the first byte after the function leaves it. */
	static const uint8_t g[] = {
		0x31, 0xc0,			/* 0:  xor %eax,%eax */
		0xeb, 0x00,			/* 2:  jmp 4 (= the end) */
	};
	/* A jump backwards out of it, wrapping below the function. */
	static const uint8_t h[] = {
		0xeb, 0x80,			/* 0:  jmp -0x7e */
	};
	/* An indirect jump is not a return site. */
	static const uint8_t i[] = {
		0xff, 0x25, 0x00, 0x10, 0x00, 0x00, /* 0: jmp *0x1000(%rip) */
	};
	x86_sites_t s;
	const x86_site_t *st;

	CHECK_INT(SCAN(f, 0x7f0000001000ULL, &s), X86_SITES_OK);
	CHECK_INT(s.ninsns, 9);
	CHECK_INT(s.nsites, 1 + 9 + 3);
	st = x86_sites_find(&s, X86_SITE_RETURN, 0xc);
	CHECK(st != NULL && st->tailcall && st->cf == X86_CF_JMP &&
	    st->probeable);
	st = x86_sites_find(&s, X86_SITE_RETURN, 0x15);
	CHECK(st != NULL && st->tailcall && st->cf == X86_CF_JCC &&
	    st->probeable && st->len == 6);
	st = x86_sites_find(&s, X86_SITE_RETURN, 0x1d);
	CHECK(st != NULL && !st->tailcall && st->cf == X86_CF_RET);
	CHECK(x86_sites_find(&s, X86_SITE_RETURN, 0x1b) == NULL);
	CHECK(x86_sites_find(&s, X86_SITE_RETURN, 0x6) == NULL);
	x86_sites_free(&s);

	CHECK_INT(SCAN(g, 0x1000, &s), X86_SITES_OK);
	CHECK(x86t_ok(&s, X86_SITE_RETURN, 2));
	x86_sites_free(&s);

	CHECK_INT(SCAN(h, 0x10, &s), X86_SITES_OK);
	CHECK(x86t_ok(&s, X86_SITE_ENTRY, 0));
	CHECK(x86t_ok(&s, X86_SITE_RETURN, 0));
	x86_sites_free(&s);

	CHECK_INT(SCAN(i, 0x1000, &s), X86_SITES_OK);
	CHECK_INT(s.nsites, 2);
	CHECK(x86_sites_find(&s, X86_SITE_RETURN, 0) == NULL);
	x86_sites_free(&s);
}

static void
test_emulator_refusals(void)
{
	static const uint8_t f[] = {
		0x55,				/* 0:  push %rbp */
		0xe8, 0x00, 0x10, 0x00, 0x00,	/* 1:  call (out) */
		0x0f, 0x0b,			/* 6:  ud2 */
		0xcc,				/* 8:  int3 */
		0x66, 0xc3,			/* 9:  data16 ret */
	};
	x86_sites_t s;

	CHECK_INT(SCAN(f, 0x400000, &s), X86_SITES_OK);
	CHECK_INT(s.nsites, 1 + 5 + 1);
	CHECK(x86t_ok(&s, X86_SITE_ENTRY, 0));
	CHECK_INT(x86_sites_find(&s, X86_SITE_ENTRY, 0)->strategy,
	    X86_STRAT_EMULATE);
	CHECK(x86t_ok(&s, X86_SITE_OFFSET, 1));
	CHECK(x86_sites_find(&s, X86_SITE_RETURN, 1) == NULL);
	CHECK(x86t_refused(&s, X86_SITE_OFFSET, 6, "ud2"));
	CHECK(x86t_refused(&s, X86_SITE_OFFSET, 8, "int3"));
	CHECK(x86t_refused(&s, X86_SITE_OFFSET, 9, "66 prefix"));
	CHECK(x86t_refused(&s, X86_SITE_RETURN, 9, "66 prefix"));
	CHECK_INT(x86_sites_find(&s, X86_SITE_RETURN, 9)->strategy,
	    X86_STRAT_REFUSE);
	x86_sites_free(&s);
}

static void
test_undecodable(void)
{
	static const uint8_t bad[] = {
		0x55,				/* 0:  push %rbp */
		0x5d,				/* 1:  pop %rbp */
		0xc3,				/* 2:  ret */
		0xff, 0xff,			/* 3:  (FF /7: invalid) */
	};
	static const uint8_t legacy[] = {
		0x31, 0xc0,			/* 0:  xor %eax,%eax */
		0x06,				/* 2:  push %es (not 64-bit) */
		0xc3,
	};
	static const uint8_t trunc[] = {
		0x31, 0xc0,			/* 0:  xor %eax,%eax */
		0xc3,				/* 2:  ret */
		0xe8, 0x00, 0x00,		/* 3:  call rel32, cut short */
	};
	static const uint8_t empty[1] = { 0xc3 };
	x86_sites_t s;

	WHOLE(bad, 0x1000, 3, "decode");
	WHOLE(legacy, 0x1000, 2, "decode");
	WHOLE(trunc, 0x1000, 3, "past the end");
	x86t_whole(empty, 0, 0x1000, 0, "size 0", __LINE__);

	/* A refused scan leaves a freeable, empty result. */
	CHECK_INT(SCAN(trunc, 0x1000, &s), X86_SITES_REFUSED);
	CHECK(x86_sites_get(&s, 0) == NULL);
	CHECK(x86_sites_find(&s, X86_SITE_ENTRY, 0) == NULL);
	x86_sites_free(&s);
}

static void
test_data_in_text(void)
{
	/* A branch into the middle of the mov. */
	static const uint8_t mid[] = {
		0xeb, 0x01,			/* 0:  jmp 3 */
		0xb8, 0x00, 0x00, 0x00, 0x00,	/* 2:  mov $0,%eax */
		0xc3,				/* 7:  ret */
	};
	/* Non-PIC switch at 0x401000: the table follows the jump. */
	static const uint8_t jt[] = {
		0x83, 0xff, 0x01,		/* 0:  cmp $1,%edi */
		0x77, 0x21,			/* 3:  ja 0x26 */
		0x89, 0xf8,			/* 5:  mov %edi,%eax */
		0xff, 0x24, 0xc5, 0x10, 0x10, 0x40, 0x00,
						/* 7:  jmp *0x401010(,%rax,8) */
		0x90, 0x90,			/* e:  nop; nop */
		0x20, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x26, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,
						/* 10: table, decodes */
		0xb8, 0x01, 0x00, 0x00, 0x00,	/* 20: mov $1,%eax */
		0xc3,				/* 25: ret */
		0x31, 0xc0,			/* 26: xor %eax,%eax */
		0xc3,				/* 28: ret */
	};
	/* PIC switch: lea of a table of offsets placed after jmp *%rax. */
	static const uint8_t pic[] = {
		0x48, 0x8d, 0x15, 0x09, 0x00, 0x00, 0x00,
						/* 0:  lea 0x10(%rip),%rdx */
		0x48, 0x63, 0x04, 0x82,	/* 7:  movslq (%rdx,%rax,4),%rax */
		0x48, 0x01, 0xd0,		/* b:  add %rdx,%rax */
		0xff, 0xe0,			/* e:  jmp *%rax */
		0x08, 0x00, 0x00, 0x00,
		0x0b, 0x00, 0x00, 0x00,		/* 10: table, decodes */
		0x31, 0xc0, 0xc3,		/* 18: xor %eax,%eax; ret */
		0xb8, 0x01, 0x00, 0x00, 0x00,	/* 1b: mov $1,%eax */
		0xc3,				/* 20: ret */
	};
	/* A constant after the ret, read RIP-relative. */
	static const uint8_t cst[] = {
		0x8b, 0x05, 0x01, 0x00, 0x00, 0x00, /* 0: mov 7(%rip),%eax */
		0xc3,				/* 6:  ret */
		0x00, 0x00, 0x00, 0x00,		/* 7:  data, decodes */
	};
	/* The same through a 64-bit absolute moffs. */
	static const uint8_t moffs[] = {
		0xa1, 0x0b, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
						/* 0:  movabs 0x100b,%eax */
		0xc3,				/* 9:  ret */
		0x00, 0x00,			/* a:  data, decodes */
	};
	/* Allowed: lea of the next instruction (code, fallen into). */
	static const uint8_t leacode[] = {
		0x48, 0x8d, 0x05, 0x00, 0x00, 0x00, 0x00,
						/* 0:  lea 7(%rip),%rax */
		0xc3,				/* 7:  ret */
	};
	/* Allowed: %fs:0x28 is per-thread, whatever the address is. */
	static const uint8_t canary[] = {
		0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00,
						/* 0:  mov %fs:0x28,%rax */
		0xc3,				/* 9:  ret */
	};
	/* Allowed: a nop whose operand is inside the function. */
	static const uint8_t nop[] = {
		0x0f, 0x1f, 0x05, 0x00, 0x00, 0x00, 0x00,
						/* 0:  nopl 7(%rip) */
		0xc3,				/* 7:  ret */
	};
	x86_sites_t s;

	WHOLE(mid, 0x1000, 0, "inside an instruction");
	WHOLE(jt, 0x401000, 7, "table");
	WHOLE(pic, 0x7f0000000000ULL, 0, "embedded data");
	WHOLE(cst, 0x1000, 0, "data inside");
	WHOLE(moffs, 0x1000, 0, "data inside");

	/* Without its table reference the switch body itself is fine. */
	CHECK_INT(x86_sites_scan(jt, 7, 0x401000, &s), X86_SITES_OK);
	x86_sites_free(&s);

	CHECK_INT(SCAN(leacode, 0x1000, &s), X86_SITES_OK);
	CHECK_INT(s.nsites, 4);
	x86_sites_free(&s);
	CHECK_INT(SCAN(canary, 0x20, &s), X86_SITES_OK);
	CHECK(x86t_ok(&s, X86_SITE_OFFSET, 9));
	x86_sites_free(&s);
	CHECK_INT(SCAN(nop, 0x1000, &s), X86_SITES_OK);
	x86_sites_free(&s);
}

int
main(void)
{
	test_two_returns();
	test_tail_calls();
	test_emulator_refusals();
	test_undecodable();
	test_data_in_text();
	return (unit_done());
}
