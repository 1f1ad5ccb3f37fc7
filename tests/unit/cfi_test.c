/* SPDX-License-Identifier: MIT */
/*
 * cfi_test.c: unwind tables from call frame information (os/linux/dt_cfi.c)
 * -- the walk over a synthetic table and stack (rules through %rsp and
 * %rbp, a saved %rbp, the frame-pointer rule where there is no CFI, the
 * outermost frame), and this test's own stack, a -> b -> c, walked from
 * its registers with the rows of its own mappings (on x86-64 and arm64;
 * arm64's rows themselves: a64_cfi_test.c); and libraries without a
 * row: no .eh_frame or .debug_frame, or sections with no entry.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/dt_cfi.h"
#include "tests/fuzz/fuzz_elf.h"
#include "tests/unit/unit.h"

/* A fake stack: words at 0x1000 + 8 * i. */
#define T_BASE 0x1000
#include "tests/unit/fake_stack.h"

/* The walk from pc, sp and %rbp (x86-64 has no link register). */
static uint32_t
t_walk(const dt_cfi_table_t *ct, uint64_t pc, uint64_t sp, uint64_t bp,
    uint64_t *pcs, uint32_t max)
{
	dt_cfi_regs_t regs = { pc, sp, bp, 0 };

	return dt_cfi_unwind(ct, &regs, t_read, NULL, pcs, max);
}

static void
t_synthetic(void)
{
	/*
	 * 0x400000 f: CFA = rsp + 24 (a function that pushed two words)
	 * 0x400100 g: CFA = rbp + 16, rbp saved at CFA - 16
	 * 0x400200 no CFI (the frame-pointer rule)
	 * 0x400300 _start: the outermost frame
	 */
	dt_cfi_row_t rows[] = {
		{ 0, 16, DT_CFI_FP, 0, -16 },
		{ 0x400000, 24, DT_CFI_SP, 0, 0 },
		{ 0x400100, 16, DT_CFI_FP, 0, -16 },
		{ 0x400200, 16, DT_CFI_FP, 0, -16 },
		{ 0x400300, 0, DT_CFI_STOP, 0, 0 },
	};
	dt_cfi_table_t ct = { rows, 5 };
	uint64_t pcs[8];
	uint32_t n;

	CHECK(dt_cfi_find(&ct, 0x3fffff) == &rows[0]);
	CHECK(dt_cfi_find(&ct, 0x400000) == &rows[1]);
	CHECK(dt_cfi_find(&ct, 0x4000ff) == &rows[1]);
	CHECK(dt_cfi_find(&ct, 0x400150) == &rows[2]);
	CHECK(dt_cfi_find(&ct, 0x500000) == &rows[4]);

	/*
	 * f at 0x400010, sp 0x1000: its return address (into g) at
	 * sp + 16.  g's frame: rbp = 0x1040, saved rbp at 0x1040 (0x1080),
	 * return address at 0x1048, into code without CFI; that frame's
	 * rbp 0x1080 holds 0x10c0 and its return address (0x1088) is in
	 * _start.
	 */
	memset(t_stack, 0, sizeof (t_stack));
	t_stack[2] = 0x400120;			/* f -> g */
	t_stack[8] = 0x1080;			/* g's saved rbp */
	t_stack[9] = 0x400210;			/* g -> no CFI */
	t_stack[16] = 0x10c0;
	t_stack[17] = 0x400301;			/* -> _start */
	n = t_walk(&ct, 0x400010, 0x1000, 0x1040, pcs, 8);
	CHECK_INT(n, 4);
	CHECK_INT(pcs[0], 0x400010);
	CHECK_INT(pcs[1], 0x400120);
	CHECK_INT(pcs[2], 0x400210);
	CHECK_INT(pcs[3], 0x400301);

	/* ustack(2): two frames. */
	CHECK_INT(t_walk(&ct, 0x400010, 0x1000, 0x1040, pcs, 2), 2);

	/*
	 * A return address one past a call that ends its function is
	 * looked up at the call: 0x400100 is g's first byte, but
	 * 0x400100 - 1 is still f (CFA = rsp + 24).
	 */
	memset(t_stack, 0, sizeof (t_stack));
	t_stack[2] = 0x400100;
	t_stack[5] = 0x400301;
	n = t_walk(&ct, 0x400010, 0x1000, 0, pcs, 8);
	CHECK_INT(n, 3);
	CHECK_INT(pcs[2], 0x400301);

	/* A CFA that does not move up the stack ends the walk. */
	n = t_walk(&ct, 0x400150, 0x1000, 0x0ff0, pcs, 8);
	CHECK_INT(n, 1);
	/* So does an unreadable word. */
	n = t_walk(&ct, 0x400150, 0x1000, 0x9000, pcs, 8);
	CHECK_INT(n, 1);
}

#if defined(__x86_64__) || defined(__aarch64__)
/*
 * This test's own stack, without frame pointers: x86-64's (the return
 * address in the word below the CFA) or arm64's (x30 saved wherever the
 * compiler put it; x29 is not a frame pointer here, so a walk by frame
 * pointers would not find these callers).
 */
static int
t_mem(void *arg, uint64_t addr, uint64_t *valp)
{
	(void) arg;
	memcpy(valp, (const void *) (uintptr_t) addr, 8);
	return 0;
}

static uint64_t t_ra_b, t_ra_c, t_got[8];
static uint32_t t_ngot;

__attribute__((noinline, optimize("omit-frame-pointer"))) static void
t_c(void)
{
	dt_cfi_table_t ct;
	dt_cfi_regs_t regs = { 0, 0, 0, 0 };

#if defined(__x86_64__)
	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
	    : "=r"(regs.cx_pc), "=r"(regs.cx_sp), "=r"(regs.cx_fp));
#else
	__asm__ volatile("adr %0, .\n\tmov %1, sp\n\tmov %2, x29\n\t"
	    "mov %3, x30" : "=r"(regs.cx_pc), "=r"(regs.cx_sp),
	    "=r"(regs.cx_fp), "=r"(regs.cx_lr));
#endif
	t_ra_c = (uint64_t) (uintptr_t) __builtin_return_address(0);
	if (dt_cfi_proc(getpid(), &ct) != 0)
		return;
	t_ngot = dt_cfi_unwind(&ct, &regs, t_mem, NULL, t_got, 8);
	dt_cfi_free(&ct);
}

__attribute__((noinline, optimize("omit-frame-pointer"))) static void
t_b(void)
{
	t_ra_b = (uint64_t) (uintptr_t) __builtin_return_address(0);
	t_c();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, optimize("omit-frame-pointer"))) static void
t_a(void)
{
	t_b();
	__asm__ volatile("" ::: "memory");
}

static void
t_live(void)
{
	dt_cfi_table_t ct;
	bool sorted = true;

	CHECK(dt_cfi_proc(getpid(), &ct) == 0);
	CHECK(ct.ct_nrows > 10);
	CHECK(ct.ct_rows[0].cr_pc == 0);
	for (size_t i = 1; i < ct.ct_nrows; i++)
		sorted &= ct.ct_rows[i].cr_pc > ct.ct_rows[i - 1].cr_pc;
	CHECK(sorted);
	dt_cfi_free(&ct);

	t_a();
	CHECK(t_ngot >= 4);	/* c, b, a, main at least */
	CHECK_INT(t_got[1], t_ra_c);
	CHECK_INT(t_got[2], t_ra_b);
}
#endif

/*
 * A library whose CFI gives no row: read as a file and as a process's
 * mapping, it has the frame-pointer rule alone (and nothing is sorted
 * or copied from an empty table: the sanitizer build checks that).
 */
static void
t_norows(const fz_sec_t *secs, size_t n)
{
	char path[64], maps[160];
	dt_cfi_table_t ct;
	int fd = fz_elf(EM_X86_64, ET_DYN, secs, n);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	fz_path(fd, path, sizeof (path));
	CHECK(dt_cfi_load(path, &ct) == 0);
	CHECK_INT(ct.ct_nrows, 0);
	dt_cfi_free(&ct);
	(void) snprintf(maps, sizeof (maps),
	    "7f0000000000-7f0000010000 r-xp 00000000 08:01 42 %s\n", path);
	CHECK(dt_cfi_maps(maps, &ct) == 0);
	CHECK_INT(ct.ct_nrows, 1);
	if (ct.ct_nrows > 0)
		CHECK(ct.ct_rows[0].cr_pc == 0 &&
		    ct.ct_rows[0].cr_cfa_reg == DT_CFI_FP);
	dt_cfi_free(&ct);
	(void) close(fd);
}

static void
t_nocfi(void)
{
	static const uint8_t text[16] = { 0xc3 };
	static const uint8_t term[4] = { 0 };	/* .eh_frame's terminator */
	/* A CIE alone: version 1, no augmentation, no FDE. */
	static const uint8_t cie[16] = { 12, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
		1, 0, 1, 0x78, 16, 0, 0, 0 };
	fz_sec_t none[] = {
		{ ".text", SHT_PROGBITS, 0x1000, text, sizeof (text), 0, 0 },
	};
	fz_sec_t empty[] = {
		{ ".text", SHT_PROGBITS, 0x1000, text, sizeof (text), 0, 0 },
		{ ".eh_frame", SHT_PROGBITS, 0x2000, term, sizeof (term), 0,
		    0 },
		{ ".debug_frame", SHT_PROGBITS, 0, cie, sizeof (cie), 0, 0 },
	};
	fz_sec_t zero[] = {
		{ ".eh_frame", SHT_PROGBITS, 0x2000, NULL, 0, 0, 0 },
	};

	t_norows(none, 1);
	t_norows(empty, 3);
	t_norows(zero, 1);
}

int
main(void)
{
	dt_cfi_table_t ct;

	t_synthetic();
	t_nocfi();
#if defined(__x86_64__) || defined(__aarch64__)
	t_live();
#endif
	CHECK(dt_cfi_load("/nonexistent/file", &ct) == -1);
	errno = 0;
	CHECK(dt_cfi_load("/proc/self/status", &ct) == -1 &&
	    errno == ENOEXEC);
	return unit_done();
}
