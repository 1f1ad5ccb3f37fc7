/* SPDX-License-Identifier: MIT */
/*
 * a64_objdump_compare.c: check isa/aarch64's decoder and site scanner
 * against GNU objdump for aarch64 over every instruction of real ELF
 * files.
 *
 *	a64_objdump_compare [-cv] [-m max] [-O objdump] [-R readelf] file...
 *
 * -c fails unless every class was met at least once over all files, so
 * that a check that saw none of some class cannot pass unnoticed.
 *
 * objdump -d disassembles every executable section.  For each line it
 * prints as an instruction, the tool reads the same word through libelf
 * (and checks that it is the word objdump printed), decodes it with
 * a64_decode() and compares with what objdump's mnemonic and operands
 * say:
 *
 *   - the class (a64_class_t), from a table of objdump's mnemonics that
 *     owes nothing to the decoder: "ldr" with no '[' is a literal load,
 *     "b.eq"/"bc.eq" a conditional branch, and so on;
 *   - the target address of every pc-relative class, which objdump
 *     prints as "hex <symbol>";
 *   - the operand fields: the destination or tested register and its
 *     width, the condition of b.cond, the bit of tbz/tbnz, the size and
 *     register file of literal loads, the register of ret/br/blr.
 *
 * Lines objdump prints as data (".word" under a $d mapping symbol,
 * ".inst" for an unallocated encoding) are counted; an ".inst" word must
 * decode as A64_C_OTHER (no class of ours is unallocated).
 *
 * Then every function -- each function symbol (STT_FUNC with a size,
 * .symtab and .dynsym) and each code range of the unwind tables (an FDE
 * of .eh_frame as aarch64 readelf lists it: stripped binaries keep
 * them for every function) -- is scanned with a64_sites_scan(), and its sites
 *checked against objdump's view: every return site is an instruction objdump
 *prints as ret/retaa/retab or as a branch to an address outside the function,
 *and every such instruction is a return site; every word objdump prints as an
 *instruction is an offset site unless the scanner took it for literal data.
 *Refused sites are counted by reason.
 *
 * Exit status: 0 if everything agrees, 1 on any disagreement, 2 on usage
 * or I/O errors.
 */

#define _DEFAULT_SOURCE /* popen, getopt, strsep */

#include <ctype.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/aarch64/a64_decode.h"
#include "isa/aarch64/a64_emulate.h"
#include "isa/aarch64/a64_sites.h"

static const char *objdump = "aarch64-linux-gnu-objdump";
static const char *readelf = "aarch64-linux-gnu-readelf";
static int verbose;
static long max_report = 20;
static int coverage; /* -c: every class must have been seen */

/* One line objdump printed as an instruction. */
typedef struct oline {
	uint64_t addr;
	uint32_t word;
	uint8_t cls;  /* a64_class_t from objdump's text */
	uint8_t data; /* .word / .inst / .short ... */
	uint8_t has_target;
	uint64_t target;
} oline_t;

static oline_t *lines;
static size_t nlines, caplines;

/* Executable sections of the file being checked. */
typedef struct sect {
	uint64_t addr;
	size_t size;
	const uint8_t *data;
} sect_t;

static sect_t sects[64];
static size_t nsects;

typedef struct counts {
	unsigned long insns, data, inst, mismatches;
	unsigned long cls[A64_C_NCLASS];
	unsigned long funcs, funcs_refused, sites, returns, tailcalls;
	unsigned long refused_sites, excl_sites, litdata;
	unsigned long data_in_func; /* objdump data the scanner took as code */
	unsigned long fdes;	    /* code ranges from the unwind tables */
} counts_t;

static counts_t total;

static const uint8_t *
bytes_at(uint64_t addr, size_t len)
{
	for (size_t i = 0; i < nsects; i++)
		if (addr >= sects[i].addr &&
		    addr - sects[i].addr + len <= sects[i].size)
			return sects[i].data + (addr - sects[i].addr);
	return NULL;
}

static void
mismatch(counts_t *c, const char *file, uint64_t addr, uint32_t word,
    const char *what, const char *text)
{
	if (c->mismatches++ < (unsigned long) max_report)
		printf("%s: %#llx: %08x: %s (objdump: %s)\n", file,
		    (unsigned long long) addr, word, what, text);
}

/* objdump's mnemonic as one of our classes; ops to tell literal forms. */
static a64_class_t
class_of(const char *m, const char *ops)
{
	static const struct {
		const char *m;
		a64_class_t cls;
	} tab[] = {
	    {"adr", A64_C_ADR},
	    {"adrp", A64_C_ADRP},
	    {"b", A64_C_B},
	    {"bl", A64_C_BL},
	    {"cbz", A64_C_CBZ},
	    {"cbnz", A64_C_CBNZ},
	    {"tbz", A64_C_TBZ},
	    {"tbnz", A64_C_TBNZ},
	    {"ret", A64_C_RET},
	    {"br", A64_C_BR},
	    {"blr", A64_C_BLR},
	    {"retaa", A64_C_RET_PAC},
	    {"retab", A64_C_RET_PAC},
	    {"braa", A64_C_BR_PAC},
	    {"brab", A64_C_BR_PAC},
	    {"braaz", A64_C_BR_PAC},
	    {"brabz", A64_C_BR_PAC},
	    {"blraa", A64_C_BLR_PAC},
	    {"blrab", A64_C_BLR_PAC},
	    {"blraaz", A64_C_BLR_PAC},
	    {"blrabz", A64_C_BLR_PAC},
	    {"eret", A64_C_ERET},
	    {"eretaa", A64_C_ERET},
	    {"eretab", A64_C_ERET},
	    {"drps", A64_C_ERET},
	    {"xpaclri", A64_C_PAC_HINT},
	    {"pacia1716", A64_C_PAC_HINT},
	    {"pacib1716", A64_C_PAC_HINT},
	    {"autia1716", A64_C_PAC_HINT},
	    {"autib1716", A64_C_PAC_HINT},
	    {"paciaz", A64_C_PAC_HINT},
	    {"paciasp", A64_C_PAC_HINT},
	    {"pacibz", A64_C_PAC_HINT},
	    {"pacibsp", A64_C_PAC_HINT},
	    {"autiaz", A64_C_PAC_HINT},
	    {"autiasp", A64_C_PAC_HINT},
	    {"autibz", A64_C_PAC_HINT},
	    {"autibsp", A64_C_PAC_HINT},
	    {"bti", A64_C_BTI},
	    {"ldxr", A64_C_LDEX},
	    {"ldxrb", A64_C_LDEX},
	    {"ldxrh", A64_C_LDEX},
	    {"ldaxr", A64_C_LDEX},
	    {"ldaxrb", A64_C_LDEX},
	    {"ldaxrh", A64_C_LDEX},
	    {"ldxp", A64_C_LDEX},
	    {"ldaxp", A64_C_LDEX},
	    {"stxr", A64_C_STEX},
	    {"stxrb", A64_C_STEX},
	    {"stxrh", A64_C_STEX},
	    {"stlxr", A64_C_STEX},
	    {"stlxrb", A64_C_STEX},
	    {"stlxrh", A64_C_STEX},
	    {"stxp", A64_C_STEX},
	    {"stlxp", A64_C_STEX},
	    {"clrex", A64_C_CLREX},
	    {"svc", A64_C_SVC},
	    {"hvc", A64_C_HVC},
	    {"smc", A64_C_SMC},
	    {"brk", A64_C_BRK},
	    {"hlt", A64_C_HLT},
	    {"udf", A64_C_UDF},
	};
	int lit = strchr(ops, '[') == NULL;

	if ((strcmp(m, "ldr") == 0 || strcmp(m, "ldrsw") == 0) && lit)
		return A64_C_LDR_LIT;
	if (strcmp(m, "prfm") == 0 && lit)
		return A64_C_PRFM_LIT;
	if (strncmp(m, "b.", 2) == 0 || strncmp(m, "bc.", 3) == 0)
		return A64_C_BCOND;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(tab[i].m, m) == 0)
			return tab[i].cls;
	return A64_C_OTHER;
}

/* The address objdump prints before " <sym>", or the last hex operand. */
static int
target_of(const char *ops, uint64_t *t)
{
	const char *lt = strchr(ops, '<'), *p;

	if (lt == NULL || lt == ops)
		return 0;
	p = lt - 1;
	while (p > ops && *p == ' ')
		p--;
	while (p > ops && isxdigit((unsigned char) p[-1]))
		p--;
	*t = strtoull(p, NULL, 16);
	return 1;
}

/* "x3" / "w3" / "xzr" / "q7": register number (31 for zr), and kind. */
static int
reg_of(const char *s, char *kind)
{
	*kind = s[0];
	if (strncmp(s + 1, "zr", 2) == 0)
		return 31;
	if (!isdigit((unsigned char) s[1]))
		return -1;
	return atoi(s + 1);
}

static const char *const conds[16] = {
    "eq",
    "ne",
    "cs",
    "cc",
    "mi",
    "pl",
    "vs",
    "vc",
    "hi",
    "ls",
    "ge",
    "lt",
    "gt",
    "le",
    "al",
    "nv",
};

/* Fields objdump's operands show against the decoded ones. */
static const char *
check_fields(const a64_insn_t *in, const char *m, const char *ops)
{
	char k;
	int r;

	switch ((a64_class_t) in->cls) {
	case A64_C_ADR:
	case A64_C_ADRP:
		r = reg_of(ops, &k);
		return r != in->rt || k != 'x' ? "destination register" : NULL;
	case A64_C_LDR_LIT:
		r = reg_of(ops, &k);
		if (r != in->rt)
			return "literal load register";
		if (in->simd)
			return (k == 's' && in->size == 4) ||
				(k == 'd' && in->size == 8) ||
				(k == 'q' && in->size == 16)
			    ? NULL
			    : "literal load size";
		if (in->sign != (strcmp(m, "ldrsw") == 0))
			return "literal load signedness";
		return (k == 'w' && in->size == 4) ||
			(k == 'x' && in->size == (in->sign ? 4 : 8))
		    ? NULL
		    : "literal load size";
	case A64_C_BCOND: {
		const char *c = strchr(m, '.') + 1;

		/* objdump spells cs/cc as hs/lo in some versions */
		if (strcmp(c, conds[in->cond]) == 0 ||
		    (in->cond == 2 && strcmp(c, "hs") == 0) ||
		    (in->cond == 3 && strcmp(c, "lo") == 0))
			return NULL;
		return "condition";
	}
	case A64_C_CBZ:
	case A64_C_CBNZ:
		r = reg_of(ops, &k);
		return r != in->rt || k != (in->size == 8 ? 'x' : 'w')
		    ? "tested register"
		    : NULL;
	case A64_C_TBZ:
	case A64_C_TBNZ: {
		const char *h = strchr(ops, '#');

		r = reg_of(ops, &k);
		if (r != in->rt || h == NULL || atoi(h + 1) != in->bit)
			return "tested register or bit";
		return NULL;
	}
	case A64_C_RET:
		if (*ops == '\0')
			return in->rn == 30 ? NULL : "ret register";
		/* FALLTHROUGH */
	case A64_C_BR:
	case A64_C_BLR:
		r = reg_of(ops, &k);
		return r != in->rn ? "branch register" : NULL;
	default:
		return NULL;
	}
}

static int
run_objdump(const char *file, counts_t *c)
{
	char cmd[4096], buf[1024];
	FILE *fp;

	nlines = 0;
	(void) snprintf(
	    cmd, sizeof(cmd), "%s -d -w '%s' 2>/dev/null", objdump, file);
	if ((fp = popen(cmd, "r")) == NULL)
		return -1;
	while (fgets(buf, sizeof(buf), fp) != NULL) {
		char *f[4] = {NULL}, *p = buf, *end;
		size_t nf = 0;
		oline_t o = {0};
		a64_insn_t in;
		const uint8_t *b;
		const char *why;
		char *ops;

		buf[strcspn(buf, "\n")] = '\0';
		while (nf < 4 && (f[nf] = strsep(&p, "\t")) != NULL)
			nf++;
		if (nf < 3)
			continue;
		o.addr = strtoull(f[0], &end, 16);
		if (end == f[0] || *end != ':')
			continue;
		f[1][strcspn(f[1], " ")] = '\0';
		if (strlen(f[1]) != 8)
			continue; /* .byte / .short: not a word */
		o.word = (uint32_t) strtoul(f[1], NULL, 16);
		ops = f[3] != NULL ? f[3] : f[2] + strlen(f[2]);
		ops[strcspn(ops, "/")] = '\0'; /* "// b.any" comments */
		if ((b = bytes_at(o.addr, 4)) == NULL ||
		    a64_word(b) != o.word) {
			mismatch(c, file, o.addr, o.word,
			    "objdump's word is not the file's", f[2]);
			continue;
		}
		if (f[2][0] == '.') { /* .word, .inst */
			o.data = 1;
			c->data++;
			if (strcmp(f[2], ".inst") == 0) {
				c->inst++;
				a64_decode(o.word, o.addr, &in);
				if (in.cls != A64_C_OTHER)
					mismatch(c, file, o.addr, o.word,
					    a64_class_name(in.cls), f[2]);
			}
		} else {
			c->insns++;
			o.cls = (uint8_t) class_of(f[2], ops);
			o.has_target = (uint8_t) target_of(ops, &o.target);
			a64_decode(o.word, o.addr, &in);
			c->cls[in.cls]++;
			if (in.cls != o.cls) {
				(void) snprintf(cmd, sizeof(cmd),
				    "class %s, objdump's %s",
				    a64_class_name(in.cls),
				    a64_class_name(o.cls));
				mismatch(c, file, o.addr, o.word, cmd, f[2]);
			} else if (a64_class_pcrel(in.cls) &&
			    (!o.has_target || o.target != in.target)) {
				(void) snprintf(cmd, sizeof(cmd),
				    "target %#llx",
				    (unsigned long long) in.target);
				mismatch(c, file, o.addr, o.word, cmd, ops);
			} else if ((why = check_fields(&in, f[2], ops)) !=
			    NULL) {
				mismatch(c, file, o.addr, o.word, why, ops);
			}
		}
		if (nlines == caplines) {
			caplines = caplines ? caplines * 2 : 65536;
			if ((lines = realloc(
				 lines, caplines * sizeof(*lines))) == NULL) {
				perror("realloc");
				exit(2);
			}
		}
		lines[nlines++] = o;
	}
	return pclose(fp) == 0 ? 0 : -1;
}

static const oline_t *
line_at(uint64_t addr)
{
	size_t lo = 0, hi = nlines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lines[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nlines && lines[lo].addr == addr ? &lines[lo] : NULL;
}

static int
cmp_line(const void *a, const void *b)
{
	const oline_t *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

typedef struct func {
	uint64_t addr, size;
} func_t;

static int
cmp_func(const void *a, const void *b)
{
	const func_t *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

/* One function: its sites against objdump's lines. */
static void
check_func(const char *file, const func_t *fn, counts_t *c)
{
	const uint8_t *code = bytes_at(fn->addr, fn->size);
	a64_sites_t s;

	if (code == NULL)
		return; /* not in an executable section */
	c->funcs++;
	if (a64_sites_scan(code, fn->size, fn->addr, &s) != A64_SITES_OK) {
		c->funcs_refused++;
		if (verbose)
			printf("%s: %#llx: function refused: %s\n", file,
			    (unsigned long long) fn->addr, s.refused);
		a64_sites_free(&s);
		return;
	}
	c->litdata += s.ndata;
	for (uint64_t off = 0; off < fn->size; off += 4) {
		const oline_t *o = line_at(fn->addr + off);
		const a64_site_t *os = a64_sites_find(&s, A64_SITE_OFFSET, off);
		const a64_site_t *rs = a64_sites_find(&s, A64_SITE_RETURN, off);
		int oret;

		if (o == NULL) {
			mismatch(c, file, fn->addr + off, 0,
			    "no objdump line in a function", "-");
			continue;
		}
		if (o->data) {
			if (os != NULL)
				c->data_in_func++;
			continue;
		}
		if (os == NULL) {
			/* only literal data the function reads is skipped */
			continue;
		}
		c->sites++;
		if (!os->probeable) {
			c->refused_sites++;
			if (os->reason != NULL &&
			    strstr(os->reason, "sequence") != NULL)
				c->excl_sites++;
		}
		oret = o->cls == A64_C_RET || o->cls == A64_C_RET_PAC ||
		    ((o->cls == A64_C_B || o->cls == A64_C_BCOND ||
			 (o->cls >= A64_C_CBZ && o->cls <= A64_C_TBNZ)) &&
			o->has_target &&
			(o->target < fn->addr ||
			    o->target >= fn->addr + fn->size));
		if (oret != (rs != NULL))
			mismatch(c, file, fn->addr + off, o->word,
			    oret ? "return site missed"
				 : "return site objdump does not see",
			    "-");
		if (rs != NULL) {
			c->returns++;
			c->tailcalls += rs->tailcall;
		}
	}
	if (a64_sites_find(&s, A64_SITE_ENTRY, 0) == NULL &&
	    !line_at(fn->addr)->data)
		mismatch(c, file, fn->addr, 0, "no entry site", "-");
	a64_sites_free(&s);
}

static void
add_func(func_t **fp, size_t *np, size_t *capp, uint64_t addr, uint64_t size)
{
	if (*np == *capp) {
		*capp = *capp ? *capp * 2 : 4096;
		if ((*fp = realloc(*fp, *capp * sizeof(**fp))) == NULL) {
			perror("realloc");
			exit(2);
		}
	}
	(*fp)[(*np)++] = (func_t){addr, size};
}

/* The code ranges of the FDEs: "... FDE cie=... pc=start..end". */
static int
add_fdes(const char *file, func_t **fp, size_t *np, size_t *capp,
    unsigned long *nfde)
{
	char cmd[4096], buf[512];
	FILE *f;

	(void) snprintf(cmd, sizeof(cmd),
	    "%s --debug-dump=frames '%s' "
	    "2>/dev/null",
	    readelf, file);
	if ((f = popen(cmd, "r")) == NULL)
		return -1;
	while (fgets(buf, sizeof(buf), f) != NULL) {
		const char *pc = strstr(buf, " FDE ");
		unsigned long long lo, hi;

		if (pc == NULL || (pc = strstr(pc, "pc=")) == NULL ||
		    sscanf(pc, "pc=%llx..%llx", &lo, &hi) != 2 || hi <= lo)
			continue;
		add_func(fp, np, capp, lo, hi - lo);
		(*nfde)++;
	}
	return pclose(f) == 0 ? 0 : -1;
}

static int
check_file(const char *file)
{
	counts_t c = {0};
	func_t *funcs = NULL;
	size_t nfuncs = 0, cap = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	Elf *e;
	int fd;

	if ((fd = open(file, O_RDONLY)) < 0 ||
	    (e = elf_begin(fd, ELF_C_READ, NULL)) == NULL ||
	    gelf_getehdr(e, &eh) == NULL) {
		fprintf(stderr, "%s: cannot read as ELF\n", file);
		return 2;
	}
	if (eh.e_machine != EM_AARCH64) {
		fprintf(stderr, "%s: not an aarch64 ELF file\n", file);
		return 2;
	}
	nsects = 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
			d = elf_getdata(scn, NULL);
			for (size_t i = 0;
			     d != NULL && i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym sym;

				if (gelf_getsym(d, (int) i, &sym) == NULL ||
				    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
				    sym.st_size == 0 ||
				    sym.st_shndx == SHN_UNDEF)
					continue;
				add_func(&funcs, &nfuncs, &cap, sym.st_value,
				    sym.st_size);
			}
		}
		if (!(sh.sh_flags & SHF_EXECINSTR) ||
		    sh.sh_type != SHT_PROGBITS || nsects == 64)
			continue;
		if ((d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL)
			continue;
		sects[nsects++] = (sect_t){sh.sh_addr, d->d_size, d->d_buf};
	}
	if (add_fdes(file, &funcs, &nfuncs, &cap, &c.fdes) != 0) {
		fprintf(stderr, "%s: %s failed\n", file, readelf);
		return 2;
	}
	if (run_objdump(file, &c) != 0) {
		fprintf(stderr, "%s: %s failed\n", file, objdump);
		return 2;
	}
	qsort(lines, nlines, sizeof(*lines), cmp_line);
	qsort(funcs, nfuncs, sizeof(*funcs), cmp_func);
	for (size_t i = 0; i < nfuncs; i++)
		if (i == 0 || cmp_func(&funcs[i - 1], &funcs[i]) != 0)
			check_func(file, &funcs[i], &c);
	free(funcs);
	elf_end(e);
	(void) close(fd);

	printf("%s: %lu instructions, %lu data words (%lu .inst), "
	       "%lu functions and FDE ranges (%lu FDEs; %lu refused), %lu "
	       "sites (%lu refused, %lu in "
	       "exclusive sequences), %lu return sites (%lu tail calls), %lu "
	       "literal words skipped, %lu data words objdump marks that the "
	       "scanner takes as code; %lu disagreements\n",
	    file, c.insns, c.data, c.inst, c.funcs, c.fdes, c.funcs_refused,
	    c.sites, c.refused_sites, c.excl_sites, c.returns, c.tailcalls,
	    c.litdata, c.data_in_func, c.mismatches);
	if (verbose)
		for (int k = 0; k < A64_C_NCLASS; k++)
			printf("\t%-14s %lu\n", a64_class_name(k), c.cls[k]);
	total.insns += c.insns;
	total.funcs += c.funcs;
	total.sites += c.sites;
	total.mismatches += c.mismatches;
	for (int k = 0; k < A64_C_NCLASS; k++)
		total.cls[k] += c.cls[k];
	return c.mismatches != 0;
}

int
main(int argc, char **argv)
{
	int ch, rc = 0;

	while ((ch = getopt(argc, argv, "cvm:O:R:")) != -1) {
		switch (ch) {
		case 'c':
			coverage = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'm':
			max_report = atol(optarg);
			break;
		case 'O':
			objdump = optarg;
			break;
		case 'R':
			readelf = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc)
		goto usage;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 2;
	for (int i = optind; i < argc; i++) {
		int r = check_file(argv[i]);

		if (r > rc)
			rc = r;
	}
	printf("total: %lu instructions, %lu functions, %lu sites; by class:",
	    total.insns, total.funcs, total.sites);
	for (int k = 0; k < A64_C_NCLASS; k++)
		printf(" %s %lu", a64_class_name(k), total.cls[k]);
	printf("; %lu disagreements\n", total.mismatches);
	for (int k = 0; coverage && k < A64_C_NCLASS; k++) {
		if (total.cls[k] != 0)
			continue;
		printf("class %s never met\n", a64_class_name(k));
		if (rc == 0)
			rc = 1;
	}
	return rc;
usage:
	fprintf(stderr,
	    "usage: a64_objdump_compare [-cv] [-m max] "
	    "[-O objdump] [-R readelf] file...\n");
	return 2;
}
