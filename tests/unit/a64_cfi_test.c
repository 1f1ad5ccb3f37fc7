/* SPDX-License-Identifier: MIT */
/*
 * a64_cfi_test.c: arm64's unwind rows (os/linux/dt_cfi.c) and the walk
 * over them.  The functions of tests/unit/a64_cfi_frames.S have known
 * frames: the rows read from the .eh_frame of the shared object built
 * from it must give, at every instruction (prologue, body, epilogue),
 * the rule written below, and the same rows in a process table
 * (dt_cfi_maps(), at a run-time address).  Then synthetic arm64 stacks
 * (registers and memory) are walked, with those rows and with a table
 * built by hand from the rules below (on any host, with or without the
 * object): in a prologue with the return address still in x30 (signed
 * and not), in the body, in an epilogue, in a frameless leaf, and in a
 * function that saved only x30, each giving the expected caller chain.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/dt_cfi.h"
#include "tests/unit/unit.h"

enum { F_START, F_FPFRAME, F_FRAMED, F_LEAF, F_LRONLY, F_END, F_N };

static const char *const t_names[F_END] = {
	"a64_start", "a64_fpframe", "a64_framed", "a64_leaf", "a64_lronly",
};

/* The functions' addresses; [F_END] is where the last one ends. */
typedef uint64_t t_funcs_t[F_N];

/* The rule from each offset of a function up to the next. */
typedef struct t_rule {
	int fn;
	uint32_t off;
	dt_cfi_row_t row;
} t_rule_t;

#define LR DT_CFI_RA_LR
#define PAC DT_CFI_RA_PAC
#define R(reg, off, ra, fp) { 0, (off), (reg), (ra), (fp) }

static const t_rule_t t_rules[] = {
	/* _start's CIE says x30 is undefined: no caller */
	{ F_START, 0, R(DT_CFI_STOP, 0, 0, 0) },
	/* stp x29, x30, [sp, #-32]!; mov x29, sp; CFA x29 + 32 */
	{ F_FPFRAME, 0, R(DT_CFI_SP, 0, LR, 0) },
	{ F_FPFRAME, 4, R(DT_CFI_SP, 32, 2, -32) },
	{ F_FPFRAME, 8, R(DT_CFI_FP, 32, 2, -32) },
	{ F_FPFRAME, 20, R(DT_CFI_SP, 32, 2, -32) },
	{ F_FPFRAME, 24, R(DT_CFI_SP, 0, LR, 0) },
	/* paciasp; stp x29, x30, [sp, #-48]!: x30 at CFA - 40, signed */
	{ F_FRAMED, 0, R(DT_CFI_SP, 0, LR, 0) },
	{ F_FRAMED, 4, R(DT_CFI_SP, 0, LR | PAC, 0) },
	{ F_FRAMED, 8, R(DT_CFI_SP, 48, 4 | PAC, -48) },
	{ F_FRAMED, 36, R(DT_CFI_SP, 0, LR | PAC, 0) },
	{ F_FRAMED, 40, R(DT_CFI_SP, 0, LR, 0) },
	/* no frame at all */
	{ F_LEAF, 0, R(DT_CFI_SP, 0, LR, 0) },
	/* str x30, [sp, #-16]!: x29 not saved */
	{ F_LRONLY, 0, R(DT_CFI_SP, 0, LR, 0) },
	{ F_LRONLY, 4, R(DT_CFI_SP, 16, 1, 0) },
	{ F_LRONLY, 12, R(DT_CFI_SP, 0, LR, 0) },
	/* past the last FDE: the frame-pointer rule */
	{ F_END, 0, R(DT_CFI_FP, 16, 0, -16) },
};
#define T_NRULES (sizeof (t_rules) / sizeof (t_rules[0]))

/* The functions as the assembler lays them out, from base. */
static void
t_layout(t_funcs_t f, uint64_t base)
{
	static const uint32_t size[F_END] = { 16, 28, 44, 8, 16 };

	f[0] = base;
	for (int i = 1; i < F_N; i++)
		f[i] = f[i - 1] + size[i - 1];
}

static bool
t_same(const dt_cfi_row_t *a, const dt_cfi_row_t *b)
{
	return a->cr_cfa_reg == b->cr_cfa_reg &&
	    a->cr_cfa_off == b->cr_cfa_off && a->cr_ra == b->cr_ra &&
	    a->cr_fp_off == b->cr_fp_off;
}

/* Every instruction of every function has its rule in ct. */
static void
t_check_rows(const dt_cfi_table_t *ct, const t_funcs_t f)
{
	for (size_t i = 0; i < T_NRULES; i++) {
		uint64_t lo = f[t_rules[i].fn] + t_rules[i].off, hi;

		hi = i + 1 < T_NRULES ? f[t_rules[i + 1].fn] +
		    t_rules[i + 1].off : lo + 4;
		for (uint64_t pc = lo; pc < hi; pc += 4) {
			const dt_cfi_row_t *r = dt_cfi_find(ct, pc);

			if (!t_same(r, &t_rules[i].row)) {
				fprintf(stderr, "%s+%u: CFA reg %u off %d, "
				    "ra %#x, fp %d; expected rule %zu\n",
				    t_rules[i].fn < F_END ?
				    t_names[t_rules[i].fn] : "end",
				    (unsigned) (pc - f[t_rules[i].fn]),
				    r->cr_cfa_reg, r->cr_cfa_off, r->cr_ra,
				    r->cr_fp_off, i);
			}
			CHECK(t_same(r, &t_rules[i].row));
		}
	}
}

/* A table of the rules above, as dt_cfi_proc() would give it. */
static void
t_table(dt_cfi_table_t *ct, const t_funcs_t f)
{
	static dt_cfi_row_t rows[T_NRULES + 1];

	rows[0] = (dt_cfi_row_t) R(DT_CFI_FP, 16, 0, -16);
	for (size_t i = 0; i < T_NRULES; i++) {
		rows[i + 1] = t_rules[i].row;
		rows[i + 1].cr_pc = f[t_rules[i].fn] + t_rules[i].off;
	}
	ct->ct_rows = rows;
	ct->ct_nrows = T_NRULES + 1;
}

/* A fake stack: words at T_BASE + 8 * i. */
#define T_BASE 0x7ff000
#include "tests/unit/fake_stack.h"

/* A pointer-authentication code in the bits above a user address. */
#define T_SIGN(a) ((a) | UINT64_C(0x7f2a000000000000))

/* Walks pc/sp/fp/lr; the frames must be exp[0..nexp). */
static void
t_expect(const dt_cfi_table_t *ct, const char *what, uint64_t pc,
    uint64_t sp, uint64_t fp, uint64_t lr, const uint64_t *exp, uint32_t nexp)
{
	dt_cfi_regs_t regs = { pc, sp, fp, lr };
	uint64_t pcs[16];
	uint32_t n = dt_cfi_unwind(ct, &regs, t_read, NULL, pcs, 16);
	bool ok = n == nexp;

	for (uint32_t i = 0; ok && i < n; i++)
		ok = pcs[i] == exp[i];
	if (!ok) {
		fprintf(stderr, "%s: %u frames:", what, n);
		for (uint32_t i = 0; i < n; i++)
			fprintf(stderr, " %#llx", (unsigned long long) pcs[i]);
		fprintf(stderr, "\n");
	}
	CHECK(ok);
}

/*
 * The stack of a64_start -> a64_fpframe -> a64_framed -> a64_leaf, as the
 * code of a64_cfi_frames.S builds it, with a64_fpframe's sub sp, sp, x0
 * taking 32 bytes; s0 is the stack pointer at the call of a64_fpframe.
 */
static void
t_walks(const dt_cfi_table_t *ct, const t_funcs_t f)
{
	uint64_t s0 = T_BASE + 0x180;
	uint64_t ra_start = f[F_START] + 12, ra_fp = f[F_FPFRAME] + 16;
	uint64_t ra_fr = f[F_FRAMED] + 24;
	uint64_t fp_fp = s0 - 32, sp_fp = s0 - 64, fp_fr = s0 - 112;
	const uint64_t chain[] = { 0, ra_fr, ra_fp, ra_start };

	memset(t_stack, 0, sizeof (t_stack));
	/* a64_fpframe's record: x29 0 (a64_start's), x30 */
	t_poke(fp_fp, 0);
	t_poke(fp_fp + 8, ra_start);
	/* a64_framed's: a64_fpframe's x29, x30 signed */
	t_poke(fp_fr, fp_fp);
	t_poke(fp_fr + 8, T_SIGN(ra_fp));

	/* Prologue: at the entry, after paciasp, after the stp */
	t_expect(ct, "framed+0", f[F_FRAMED], sp_fp, fp_fp, ra_fp,
	    (uint64_t[]) { f[F_FRAMED], ra_fp, ra_start }, 3);
	t_expect(ct, "framed+4", f[F_FRAMED] + 4, sp_fp, fp_fp, T_SIGN(ra_fp),
	    (uint64_t[]) { f[F_FRAMED] + 4, ra_fp, ra_start }, 3);
	t_expect(ct, "framed+8", f[F_FRAMED] + 8, fp_fr, fp_fp, T_SIGN(ra_fp),
	    (uint64_t[]) { f[F_FRAMED] + 8, ra_fp, ra_start }, 3);
	/* a64_fpframe before and after its CFA moves to x29 */
	t_expect(ct, "fpframe+4", f[F_FPFRAME] + 4, s0 - 32, 0, ra_start,
	    (uint64_t[]) { f[F_FPFRAME] + 4, ra_start }, 2);
	t_expect(ct, "fpframe+12", f[F_FPFRAME] + 12, sp_fp, fp_fp, ra_start,
	    (uint64_t[]) { f[F_FPFRAME] + 12, ra_start }, 2);

	/* Body: the return address from the frame record, unsigned */
	t_expect(ct, "framed+24", ra_fr, fp_fr, fp_fr, ra_fr,
	    (uint64_t[]) { ra_fr, ra_fp, ra_start }, 3);

	/* Epilogue: after the ldp (x30 signed again), after autiasp */
	t_expect(ct, "framed+36", f[F_FRAMED] + 36, sp_fp, fp_fp,
	    T_SIGN(ra_fp), (uint64_t[]) { f[F_FRAMED] + 36, ra_fp, ra_start },
	    3);
	t_expect(ct, "framed+40", f[F_FRAMED] + 40, sp_fp, fp_fp, ra_fp,
	    (uint64_t[]) { f[F_FRAMED] + 40, ra_fp, ra_start }, 3);

	/* A frameless leaf: its caller from x30, then the frames above */
	{
		uint64_t exp[4];

		memcpy(exp, chain, sizeof (exp));
		exp[0] = f[F_LEAF] + 4;
		t_expect(ct, "leaf+4", f[F_LEAF] + 4, fp_fr, fp_fr, ra_fr,
		    exp, 4);
	}

	/*
	 * x30 is the first frame's only: a caller whose row says its
	 * return address is still in x30 (it made no call) ends the walk.
	 */
	t_expect(ct, "leaf called from a prologue", f[F_LEAF], fp_fr, fp_fr,
	    f[F_FRAMED] + 4, (uint64_t[]) { f[F_LEAF], f[F_FRAMED] + 4 }, 2);

	/* Only x30 saved, at CFA - 16; x29 left alone */
	t_poke(sp_fp - 16, ra_start);
	t_expect(ct, "lronly+8", f[F_LRONLY] + 8, sp_fp - 16, fp_fp, 0,
	    (uint64_t[]) { f[F_LRONLY] + 8, ra_start }, 2);
}

/* The address of each function in the object's symbol table. */
static int
t_symbols(const char *path, t_funcs_t f)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	int fd, found = 0;

	memset(f, 0, sizeof (t_funcs_t));
	(void) elf_version(EV_CURRENT);
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	if ((elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL) {
		(void) close(fd);
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type != SHT_SYMTAB ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (gelf_getsym(d, (int) i, &sym) == NULL ||
			    (n = elf_strptr(elf, sh.sh_link, sym.st_name)) ==
			    NULL)
				continue;
			for (int k = 0; k < F_END; k++) {
				if (strcmp(n, t_names[k]) == 0) {
					f[k] = sym.st_value;
					f[F_END] = sym.st_value + sym.st_size >
					    f[F_END] ? sym.st_value +
					    sym.st_size : f[F_END];
					found++;
				}
			}
		}
	}
	(void) elf_end(elf);
	(void) close(fd);
	return found == F_END ? 0 : -1;
}

/* The rows of the object assembled from a64_cfi_frames.S. */
static void
t_object(const char *path)
{
	dt_cfi_table_t ct;
	t_funcs_t f, lay;
	char maps[4096 + 128];
	uint64_t base = UINT64_C(0x7f1234560000);

	CHECK(t_symbols(path, f) == 0);
	/* The layout the hand-built table assumes is the assembler's. */
	t_layout(lay, f[F_START]);
	CHECK(memcmp(f, lay, sizeof (f)) == 0);

	CHECK(dt_cfi_load(path, &ct) == 0);
	t_check_rows(&ct, f);
	t_walks(&ct, f);
	dt_cfi_free(&ct);

	/* Mapped at base from offset 0, as a process maps it */
	(void) snprintf(maps, sizeof (maps), "%llx-%llx r-xp 00000000 "
	    "08:01 42 %s\n", (unsigned long long) base,
	    (unsigned long long) base + 0x1000, path);
	CHECK(dt_cfi_maps(maps, &ct) == 0);
	CHECK(ct.ct_nrows > T_NRULES / 2);
	for (int i = 0; i < F_N; i++)
		f[i] += base;
	t_check_rows(&ct, f);
	t_walks(&ct, f);
	dt_cfi_free(&ct);
}

int
main(void)
{
	const char *top = getenv("top_builddir");
	dt_cfi_table_t ct;
	t_funcs_t f;
	char path[4096], abs[PATH_MAX];

	/* The walks over rows made by hand, on any host */
	t_layout(f, 0x10390);
	t_table(&ct, f);
	t_check_rows(&ct, f);
	t_walks(&ct, f);

	(void) snprintf(path, sizeof (path), "%s/tests/unit/a64_cfi_frames.so",
	    top != NULL ? top : ".");
	/* A process's maps name files by absolute paths (run by hand). */
	if (path[0] != '/' && realpath(path, abs) != NULL)
		(void) snprintf(path, sizeof (path), "%s", abs);
#ifdef A64_CFI_FRAMES
	t_object(path);
#else
	if (access(path, R_OK) == 0)
		t_object(path);
	else if (unit_done() == 0) {
		printf("no C compiler for aarch64 (aarch64-linux-gnu-gcc) to "
		    "build %s: the rows of arm64 objects not checked\n", path);
		return 77;
	}
#endif
	return unit_done();
}
