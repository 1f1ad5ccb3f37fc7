/* SPDX-License-Identifier: MIT */
/*
 * x86_objdump_compare.c: check isa/x86_64's decoder against GNU objdump
 * over every instruction of real ELF files.
 *
 *	x86_objdump_compare [-v] [-m max] [-O objdump] file...
 *
 * For each file, objdump -d disassembles every executable section; the
 * tool reads the same bytes through libelf and decodes, at every address
 * where objdump starts an instruction, with x86_decode().  It compares:
 *
 *   - the length;
 *   - the target of relative branches (call, jmp, jcc, loop, jrcxz,
 *     xbegin), which objdump prints as the first operand;
 *   - the address of RIP-relative memory operands, which objdump prints
 *     as a "# addr" comment -- this checks the displacement's position;
 *   - validity: objdump's "(bad)" against X86_DEC_INVALID.
 *
 * It then walks every function symbol of .symtab and .dynsym (STT_FUNC
 * with a size) with the decoder's own lengths, from its first byte to its
 * end, and checks that every instruction boundary it reaches is one that
 * objdump reached too, and that the walk ends exactly at the symbol's end.
 * Stripped executables have few function symbols; the first pass still
 * covers all their code, because objdump sweeps whole sections.
 *
 * Where objdump prints "(bad)" and the decoder also reports an invalid
 * instruction, they agree.  Where objdump's output is not a one-line-per-
 * instruction view of what the processor decodes, a documented rule
 * (R1..R5 in excluded() and check_file()) says what must hold instead;
 * each application is counted and printed, never silent:
 *
 *   R1  prefixes printed as a line of their own (a REX not followed by
 *       the opcode, "repz" before fwait, prefixes before a bad opcode)
 *   R2  fwait + fnstcw etc. printed as one fstcw
 *   R3  an instruction that would cross a symbol boundary, which
 *       objdump prints as ".byte", bare prefixes or a shorter decode
 *   R4  mov to/from a nonexistent segment register or to %cs (#UD)
 *   R5  data objects (STT_OBJECT) in text, printed as hex + ASCII
 *   R6  67-prefixed %eip-relative addresses: objdump sign-extends them
 *   R7  MPX instructions naming bnd4-7, which are hint NOPs without MPX
 *   R8  REX/66/F2/F3/F0 before a VEX escape (#UD), decoded by objdump
 *
 * The decoder runs with X86_DF_AMD, because objdump decodes 66-prefixed
 * near branches the AMD way by default.
 *
 * Exit status: 0 if everything agrees, 1 on any mismatch, 2 on usage or
 * I/O errors.
 */

#define	_POSIX_C_SOURCE	200809L	/* popen, getopt */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/x86_64/x86_decode.h"

/* One instruction as objdump printed it. */
typedef struct oinsn {
	uint64_t	addr;
	uint64_t	target;		/* branch target, if has_target */
	uint64_t	riptarget;	/* "# addr" comment, if has_rip */
	uint32_t	text;		/* offset of its text in the pool */
	uint8_t		len;
	uint8_t		bad;		/* "(bad)" */
	uint8_t		has_target;
	uint8_t		has_rip;
	uint8_t		data;		/* a data object's bytes, not code */
	uint8_t		split;		/* rule R2 split it after byte 0 */
	uint8_t		bytes[16];
} oinsn_t;

typedef struct section {
	uint64_t	addr;
	uint64_t	size;
	const uint8_t	*data;
} section_t;

typedef struct func {
	uint64_t	addr;
	uint64_t	size;
	char		*name;
} func_t;

static int verbose;
static long max_report = 20;
static const char *objdump = "objdump";

static oinsn_t *oi;
static size_t noi, oicap;
static char *pool;
static size_t npool, poolcap;

static uint64_t *blocks;		/* where objdump (re)starts decoding */
static size_t nblocks, blockcap;

static section_t secs[64];
static size_t nsecs;
static func_t *funcs;
static size_t nfuncs, funccap;

static long nmismatch;
static long nreported;

static void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (p == NULL) {
		perror("realloc");
		exit(2);
	}
	return (p);
}

static uint32_t
pool_add(const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t off;

	if (npool + n > poolcap) {
		poolcap = (poolcap + n) * 2;
		pool = xrealloc(pool, poolcap);
	}
	off = (uint32_t)npool;
	memcpy(pool + npool, s, n);
	npool += n;
	return (off);
}

static int
is_hex(const char *s, size_t n)
{
	size_t k;

	if (n == 0)
		return (0);
	for (k = 0; k < n; k++)
		if (!isxdigit((unsigned char)s[k]))
			return (0);
	return (1);
}

/* Mnemonics whose first operand objdump prints as an absolute target. */
static int
is_branch_mnemonic(const char *m, size_t n)
{
	static const char *const names[] = {
		"call", "callq", "callw", "calll", "jmp", "jmpq", "jmpw",
		"jmpl", "loop", "loope", "loopne", "loopl", "loopel",
		"loopnel", "loopq", "loopeq", "loopneq", "loopw", "loopew",
		"loopnew", "jrcxz", "jecxz", "jcxz", "xbegin", "xbeginw",
		"xbeginl", "xbeginq", NULL
	};
	size_t k;

	for (k = 0; names[k] != NULL; k++)
		if (strlen(names[k]) == n && memcmp(names[k], m, n) == 0)
			return (1);
	/* jcc: j + condition, optionally with a size suffix */
	if (n >= 2 && m[0] == 'j')
		return (1);
	return (0);
}

/*
 * Parse the text of an instruction: find a branch mnemonic followed by a
 * hex target, and a "# addr" RIP-relative comment.
 */
static void
parse_text(oinsn_t *o, const char *t)
{
	const char *p = t, *c;

	o->bad = strstr(t, "(bad)") != NULL;
	for (;;) {
		const char *w;
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			break;
		w = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		n = (size_t)(p - w);
		/* "loope,pn": a branch hint from a 2E/3E prefix */
		if (memchr(w, ',', n) != NULL)
			n = (size_t)((const char *)memchr(w, ',', n) - w);
		if (is_branch_mnemonic(w, n)) {
			const char *a = p;

			while (*a == ' ' || *a == '\t')
				a++;
			if (a[0] == '0' && a[1] == 'x')
				a += 2;
			n = 0;
			while (isxdigit((unsigned char)a[n]))
				n++;
			if (is_hex(a, n) && (a[n] == '\0' || a[n] == ' ')) {
				o->has_target = 1;
				o->target = strtoull(a, NULL, 16);
			}
			break;
		}
	}
	if ((c = strstr(t, "(%rip)")) != NULL ||
	    (c = strstr(t, "(%eip)")) != NULL) {
		const char *h = strstr(c, "# ");

		if (h != NULL) {
			h += 2;
			if (h[0] == '0' && h[1] == 'x')
				h += 2;
			o->has_rip = 1;
			o->riptarget = strtoull(h, NULL, 16);
		}
	}
}

/*
 * Run objdump and collect its instructions.  Lines look like
 *	"  1f2a0:\tf3 0f 1e fa          \tendbr64"
 */
static int
run_objdump(const char *file)
{
	char cmd[4096], line[8192];
	FILE *fp;
	int st;

	noi = 0;
	npool = 0;
	nblocks = 0;
	(void) snprintf(cmd, sizeof (cmd),
	    "LC_ALL=C '%s' -d -z --insn-width=16 '%s'", objdump, file);
	if ((fp = popen(cmd, "r")) == NULL) {
		perror("popen");
		return (-1);
	}
	while (fgets(line, sizeof (line), fp) != NULL) {
		char *p = line, *tab1, *tab2, *b;
		oinsn_t o;
		size_t n;

		n = strlen(line);
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (isxdigit((unsigned char)line[0]) &&
		    (b = strstr(line, " <")) != NULL && n > 2 &&
		    strcmp(line + strlen(line) - 2, ">:") == 0) {
			/* "0000000000401000 <main>:" starts a block */
			if (nblocks == blockcap) {
				blockcap = blockcap ? blockcap * 2 : 4096;
				blocks = xrealloc(blocks, blockcap *
				    sizeof (uint64_t));
			}
			blocks[nblocks++] = strtoull(line, NULL, 16);
			continue;
		}
		while (*p == ' ')
			p++;
		if (!isxdigit((unsigned char)*p))
			continue;
		tab1 = strchr(p, ':');
		if (tab1 == NULL || tab1[1] != '\t' || !is_hex(p,
		    (size_t)(tab1 - p)))
			continue;
		memset(&o, 0, sizeof (o));
		o.addr = strtoull(p, NULL, 16);
		b = tab1 + 2;
		tab2 = strchr(b, '\t');
		if (tab2 != NULL)
			*tab2 = '\0';
		while (*b != '\0') {
			while (*b == ' ')
				b++;
			if (!isxdigit((unsigned char)b[0]) ||
			    !isxdigit((unsigned char)b[1]))
				break;
			if (o.len < sizeof (o.bytes))
				o.bytes[o.len] =
				    (uint8_t)strtoul((char[3]){ b[0], b[1], 0 },
				    NULL, 16);
			o.len++;
			b += 2;
		}
		if (o.len == 0)
			continue;
		/* No instruction text: a hex+ASCII dump of a data object. */
		o.data = tab2 == NULL;
		parse_text(&o, tab2 != NULL ? tab2 + 1 : "");
		o.text = pool_add(tab2 != NULL ? tab2 + 1 : "");
		if (noi == oicap) {
			oicap = oicap ? oicap * 2 : 65536;
			oi = xrealloc(oi, oicap * sizeof (oinsn_t));
		}
		oi[noi++] = o;
	}
	st = pclose(fp);
	if (st != 0) {
		(void) fprintf(stderr, "%s: objdump failed on %s (status %d)\n",
		    "x86_objdump_compare", file, st);
		return (-1);
	}
	return (0);
}

static int
cmp_oinsn(const void *a, const void *b)
{
	const oinsn_t *x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

static oinsn_t *
find_oinsn(uint64_t addr)
{
	size_t lo = 0, hi = noi;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (oi[mid].addr < addr)
			lo = mid + 1;
		else if (oi[mid].addr > addr)
			hi = mid;
		else
			return (&oi[mid]);
	}
	return (NULL);
}

/* The bytes at addr and how many of them lie in the same section. */
static const uint8_t *
bytes_at(uint64_t addr, size_t *avail)
{
	size_t k;

	for (k = 0; k < nsecs; k++) {
		if (addr >= secs[k].addr &&
		    addr < secs[k].addr + secs[k].size) {
			*avail = (size_t)(secs[k].addr + secs[k].size - addr);
			return (secs[k].data + (addr - secs[k].addr));
		}
	}
	return (NULL);
}

static void
hexdump(const uint8_t *b, size_t n, char *out)
{
	size_t k;

	out[0] = '\0';
	for (k = 0; k < n && k < 16; k++)
		(void) sprintf(out + 3 * k, "%02x ", b[k]);
}

static void
mismatch(const char *file, const oinsn_t *o, const char *what,
    const x86_insn_t *in, int rc)
{
	char hex[64];
	const uint8_t *b;
	size_t avail = 0;

	nmismatch++;
	if (nreported++ >= max_report)
		return;
	b = bytes_at(o->addr, &avail);
	hexdump(b != NULL ? b : o->bytes, b != NULL ? (avail < 15 ?
	    avail : 15) : o->len, hex);
	(void) printf("MISMATCH %s %#llx: %s\n"
	    "    bytes   %s\n"
	    "    objdump len %u: %s\n"
	    "    decoder rc %d len %u cf %s rel %d target %#llx rip %d\n",
	    file, (unsigned long long)o->addr, what, hex, o->len,
	    pool + o->text, rc, in->len, x86_cf_name((x86_cf_t)in->cf),
	    in->is_rel, (unsigned long long)in->target, in->rip_rel);
}

static int
cmp_func(const void *a, const void *b)
{
	const func_t *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	return (x->size < y->size ? -1 : x->size > y->size);
}

static int
load_elf(const char *file, Elf **ep, int *fdp)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int fd;

	nsecs = 0;
	nfuncs = 0;
	if ((fd = open(file, O_RDONLY)) < 0) {
		(void) fprintf(stderr, "%s: %s\n", file, strerror(errno));
		return (-1);
	}
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) == NULL ||
	    elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx) != 0) {
		(void) fprintf(stderr, "%s: not an ELF file\n", file);
		(void) close(fd);
		return (-1);
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if ((sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_type == SHT_PROGBITS &&
		    nsecs < sizeof (secs) / sizeof (secs[0]) &&
		    (data = elf_getdata(scn, NULL)) != NULL &&
		    data->d_size == sh.sh_size) {
			secs[nsecs].addr = sh.sh_addr;
			secs[nsecs].size = sh.sh_size;
			secs[nsecs].data = data->d_buf;
			nsecs++;
		}
	}
	/* Function symbols from both symbol tables. */
	scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t k, nsym;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    sh.sh_entsize == 0 ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		nsym = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < nsym; k++) {
			GElf_Sym sym;
			size_t avail;
			const char *name;

			if (gelf_getsym(data, (int)k, &sym) == NULL ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_size == 0 || sym.st_shndx == SHN_UNDEF ||
			    bytes_at(sym.st_value, &avail) == NULL)
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (nfuncs == funccap) {
				funccap = funccap ? funccap * 2 : 4096;
				funcs = xrealloc(funcs, funccap *
				    sizeof (func_t));
			}
			funcs[nfuncs].addr = sym.st_value;
			funcs[nfuncs].size = sym.st_size;
			funcs[nfuncs].name = (char *)(name != NULL ? name :
			    "?");
			nfuncs++;
		}
	}
	/* The same function is often in both tables: keep one. */
	qsort(funcs, nfuncs, sizeof (func_t), cmp_func);
	if (nfuncs > 0) {
		size_t k, j = 1;

		for (k = 1; k < nfuncs; k++)
			if (funcs[k].addr != funcs[j - 1].addr ||
			    funcs[k].size != funcs[j - 1].size)
				funcs[j++] = funcs[k];
		nfuncs = j;
	}
	*ep = e;
	*fdp = fd;
	return (0);
}

/* Counts of instructions excluded by each documented rule. */
typedef struct counts {
	long	ninsn, nrel, nrip, nbad, ndata, nrex, nfwait, ncross, nsreg,
		nmpx, nvexpfx;
} counts_t;

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* The first block start after addr, or UINT64_MAX. */
static uint64_t
next_block(uint64_t addr)
{
	size_t lo = 0, hi = nblocks;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (blocks[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo < nblocks ? blocks[lo] : UINT64_MAX);
}

static int
decode_at(uint64_t addr, x86_insn_t *in)
{
	const uint8_t *b;
	size_t avail;

	if ((b = bytes_at(addr, &avail)) == NULL) {
		memset(in, 0, sizeof (*in));
		return (X86_DEC_INVALID);
	}
	return (x86_decode(b, avail, addr, X86_DF_AMD, in));
}

static int
starts_with(const char *s, const char *prefix)
{
	return (strncmp(s, prefix, strlen(prefix)) == 0);
}

static int
is_prefix_byte(uint8_t b)
{
	return ((b & 0xf0) == 0x40 || b == 0xf0 || b == 0xf2 || b == 0xf3 ||
	    b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 ||
	    b == 0x65 || b == 0x66 || b == 0x67);
}

/* objdump's line is prefix bytes only. */
static int
all_prefixes(const oinsn_t *o)
{
	unsigned int k;

	if (o->len == 0 || o->len > sizeof (o->bytes))
		return (0);
	for (k = 0; k < o->len; k++)
		if (!is_prefix_byte(o->bytes[k]))
			return (0);
	return (1);
}

/*
 * Whether these prefix bytes, before a VEX/EVEX/XOP escape, make the
 * processor raise #UD: a REX right before it, or any of 66 F2 F3 F0.
 */
static int
vex_killer(const uint8_t *b, size_t n)
{
	size_t k;

	if (n > 0 && (b[n - 1] & 0xf0) == 0x40)
		return (1);
	for (k = 0; k < n; k++)
		if (b[k] == 0x66 || b[k] == 0xf2 || b[k] == 0xf3 ||
		    b[k] == 0xf0)
			return (1);
	return (0);
}

/*
 * Documented rules for places where objdump's output is not an
 * instruction-by-instruction view of what the processor decodes.
 * Returns 1 if a rule explains the difference (and counts it).
 */
static int
excluded(oinsn_t *o, const x86_insn_t *in, int rc, counts_t *c)
{
	const char *t = pool + o->text;
	x86_insn_t nx;
	int nrc;

	/*
	 * R3: objdump never decodes an instruction across the start of the
	 * next symbol; it prints the bytes before the symbol as ".byte", as
	 * a line of bare prefixes ("cs", "rex.W"), or as a shorter
	 * instruction without a prefix that it cannot fit.  Agree if our
	 * instruction at addr does cross that boundary (or runs off the end
	 * of the section).  ".byte" where we find no instruction either is
	 * agreement on invalidity.
	 */
	if ((rc == X86_DEC_SHORT && o->len < X86_MAX_INSN_LEN) ||
	    (rc == 0 && o->len < in->len &&
	    o->addr + in->len > next_block(o->addr))) {
		c->ncross++;
		return (1);
	}
	if (starts_with(t, ".byte") && rc != 0) {
		c->nbad++;
		return (1);
	}

	/*
	 * R1: prefixes the processor ignores or that objdump does not
	 * attach to the next opcode are printed as a line of their own:
	 * a REX not immediately followed by the opcode ("rex.W", "lock
	 * rex", "addr32 rex.RX"), "repz" before fwait, or the prefixes
	 * before an opcode objdump rejects ("gs" then "(bad)").  Agree if
	 * our instruction at addr is that line plus our instruction after
	 * it, or both are invalid.  A REX directly before a VEX/EVEX/XOP
	 * escape makes the processor raise #UD; objdump may print the REX
	 * alone, or with the rest as one instruction.
	 */
	if (all_prefixes(o)) {
		nrc = decode_at(o->addr + o->len, &nx);
		if ((rc == 0 && nrc == 0 && in->len == nx.len + o->len) ||
		    (rc != 0 && nrc != 0) ||
		    (rc != 0 && nrc == 0 && nx.vex != X86_VEX_NONE &&
		    vex_killer(o->bytes, o->len))) {
			c->nrex++;
			return (1);
		}
	}

	/*
	 * R8: a REX, 66, F2, F3 or F0 prefix before a VEX/EVEX/XOP escape
	 * makes the processor raise #UD; objdump decodes the instruction
	 * with the prefix ("data16 vpxor", "rex.RX vmaxps").
	 */
	if (rc == X86_DEC_INVALID) {
		size_t k = 0;

		while (k < o->len && k < sizeof (o->bytes) &&
		    is_prefix_byte(o->bytes[k]))
			k++;
		if (k > 0 && k < o->len && vex_killer(o->bytes, k) &&
		    decode_at(o->addr + k, &nx) == 0 &&
		    nx.vex != X86_VEX_NONE && nx.len == o->len - k) {
			c->nvexpfx++;
			return (1);
		}
	}

	/*
	 * R2: objdump shows fwait (9B) followed by a non-waiting x87
	 * control instruction (fnstcw, fnstsw, fninit, fnclex, fnsave,
	 * fnstenv, ...) as the single pseudo-instruction fstcw, fstsw,
	 * finit, fclex, fsave, fstenv.  The processor executes two
	 * instructions and a probe may sit on either.
	 */
	if (o->bytes[0] == 0x9b && o->len > 1 && rc == 0 && in->len == 1) {
		nrc = decode_at(o->addr + 1, &nx);
		if (nrc == 0 && nx.len == o->len - 1 && nx.opcode >= 0xd8 &&
		    nx.opcode <= 0xdf) {
			o->split = 1;
			c->nfwait++;
			return (1);
		}
	}

	/*
	 * R4: mov to or from a segment register that does not exist (reg
	 * 6 or 7, printed "%?") or mov to %cs: objdump decodes them, the
	 * processor raises #UD.
	 */
	if (rc == X86_DEC_INVALID && strstr(t, "mov ") != NULL &&
	    (strstr(t, "%?") != NULL || strstr(t, ",%cs") != NULL)) {
		c->nsreg++;
		return (1);
	}

	/*
	 * R6: for an address-size (67) RIP-relative operand the processor
	 * computes the address in 32 bits and zero-extends it; objdump's
	 * "# addr" comment sign-extends it.  Compare the low 32 bits.
	 */
	if (rc == 0 && in->rip_rel && (in->prefixes & X86_PFX_ADSIZE) &&
	    o->has_rip && in->len == o->len &&
	    (uint32_t)o->riptarget == (uint32_t)in->target) {
		o->riptarget = in->target;
		return (0);
	}

	/*
	 * R7: MPX bndldx/bndstx/bndmov/... naming a bound register 4-7
	 * print "(bad)" as an operand.  0F 1A and 0F 1B are hint NOPs on
	 * processors without MPX (and Linux no longer enables MPX), so the
	 * decoder accepts them; lengths must still agree.
	 */
	if (rc == 0 && strstr(t, "bnd") != NULL && strstr(t, "(bad)") != NULL &&
	    in->len == o->len && in->map == X86_MAP_0F &&
	    (in->opcode == 0x1a || in->opcode == 0x1b)) {
		c->nmpx++;
		return (1);
	}
	return (0);
}

static int
check_file(const char *file)
{
	Elf *e;
	int fd;
	size_t k;
	counts_t c;
	long nfwalk = 0, nfinsn = 0;
	long before = nmismatch;
	GElf_Ehdr eh;

	memset(&c, 0, sizeof (c));
	if (load_elf(file, &e, &fd) != 0)
		return (-1);
	if (gelf_getehdr(e, &eh) == NULL || eh.e_machine != EM_X86_64 ||
	    gelf_getclass(e) != ELFCLASS64) {
		(void) printf("%s: not an x86-64 ELF file, skipped\n", file);
		(void) elf_end(e);
		(void) close(fd);
		return (0);
	}
	if (run_objdump(file) != 0) {
		(void) elf_end(e);
		(void) close(fd);
		return (-1);
	}
	qsort(oi, noi, sizeof (oinsn_t), cmp_oinsn);
	qsort(blocks, nblocks, sizeof (uint64_t), cmp_u64);

	/* Pass 1: every instruction objdump printed. */
	for (k = 0; k < noi; k++) {
		oinsn_t *o = &oi[k];
		const uint8_t *b;
		size_t avail;
		x86_insn_t in;
		int rc;

		if (o->data) {
			/* R5: contents of a data object, not code */
			c.ndata++;
			continue;
		}
		b = bytes_at(o->addr, &avail);
		if (b == NULL) {
			memset(&in, 0, sizeof (in));
			mismatch(file, o, "address not in an executable "
			    "section", &in, 0);
			continue;
		}
		if (memcmp(b, o->bytes, o->len < avail ? (o->len < 16 ?
		    o->len : 16) : avail) != 0) {
			memset(&in, 0, sizeof (in));
			mismatch(file, o, "objdump bytes differ from the file",
			    &in, 0);
			continue;
		}
		c.ninsn++;
		rc = x86_decode(b, avail, o->addr, X86_DF_AMD, &in);
		if (excluded(o, &in, rc, &c))
			continue;
		if (o->bad) {
			if (rc != 0) {
				c.nbad++;
				continue;
			}
			mismatch(file, o, "objdump says (bad), decoder "
			    "accepts", &in, rc);
			continue;
		}
		if (rc != 0) {
			mismatch(file, o, "decoder rejects", &in, rc);
			continue;
		}
		if (in.len != o->len) {
			mismatch(file, o, "length differs", &in, rc);
			continue;
		}
		if (o->has_target != in.is_rel ||
		    (in.is_rel && o->target != in.target)) {
			mismatch(file, o, "branch target differs", &in, rc);
			continue;
		}
		if (o->has_rip != in.rip_rel ||
		    (in.rip_rel && o->riptarget != in.target)) {
			mismatch(file, o, "RIP-relative operand differs", &in,
			    rc);
			continue;
		}
		c.nrel += in.is_rel;
		c.nrip += in.rip_rel;
		if (verbose > 1)
			(void) printf("ok %#llx len %u %s\n",
			    (unsigned long long)o->addr, in.len,
			    pool + o->text);
	}

	/*
	 * Pass 2: walk each function with the decoder's own lengths; every
	 * boundary reached must be one objdump reached (or the second half
	 * of an fwait pair it fused, rule R2).
	 */
	for (k = 0; k < nfuncs; k++) {
		uint64_t pc = funcs[k].addr, end = pc + funcs[k].size;

		nfwalk++;
		while (pc < end) {
			x86_insn_t in;
			oinsn_t *o = find_oinsn(pc);
			int rc;

			if (o == NULL) {
				oinsn_t *prev = find_oinsn(pc - 1);

				if (prev == NULL || !prev->split)
					goto lost;
			} else if (o->data) {
				/* a data object inside the function */
				pc += o->len;
				continue;
			}
			rc = decode_at(pc, &in);
			nfinsn++;
			if (rc != 0) {
				if (o == NULL)
					goto lost;
				/* counted in pass 1; resync on objdump */
				pc += o->len;
				continue;
			}
			pc += in.len;
			continue;
lost:
			{
				oinsn_t fake;

				memset(&fake, 0, sizeof (fake));
				memset(&in, 0, sizeof (in));
				fake.addr = pc;
				fake.text = pool_add(funcs[k].name);
				mismatch(file, &fake, "function walk reached "
				    "an address where objdump has no "
				    "instruction (text is the function)", &in,
				    0);
			}
			break;
		}
	}

	(void) printf("%s: %ld instructions checked, %ld mismatches; "
	    "%ld branch targets and %ld RIP-relative addresses compared; "
	    "%ld functions walked (%ld instructions)\n",
	    file, c.ninsn, nmismatch - before, c.nrel, c.nrip, nfwalk, nfinsn);
	if (c.nbad + c.nrex + c.nfwait + c.ncross + c.nsreg + c.ndata +
	    c.nmpx + c.nvexpfx != 0)
		(void) printf("    rules: %ld invalid in both, %ld lone "
		    "prefixes (R1), %ld fwait pairs (R2), %ld at symbol "
		    "boundary (R3), %ld bad segment-register moves (R4), %ld "
		    "data-object lines (R5), %ld MPX bnd4-7 (R7), %ld "
		    "prefix before VEX (R8)\n", c.nbad, c.nrex, c.nfwait,
		    c.ncross, c.nsreg, c.ndata, c.nmpx, c.nvexpfx);
	(void) elf_end(e);
	(void) close(fd);
	return (0);
}

static void
usage(void)
{
	(void) fprintf(stderr, "usage: x86_objdump_compare [-v] [-m max] "
	    "[-O objdump] elf-file...\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	int c, err = 0;

	while ((c = getopt(argc, argv, "vm:O:")) != -1) {
		switch (c) {
		case 'v':
			verbose++;
			break;
		case 'm':
			max_report = strtol(optarg, NULL, 0);
			break;
		case 'O':
			objdump = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	if (elf_version(EV_CURRENT) == EV_NONE) {
		(void) fprintf(stderr, "libelf initialisation failed\n");
		return (2);
	}
	for (; optind < argc; optind++)
		if (check_file(argv[optind]) != 0)
			err = 1;
	if (nmismatch > max_report)
		(void) printf("(%ld mismatches not shown)\n",
		    nmismatch - max_report);
	(void) printf("total: %ld mismatches\n", nmismatch);
	if (err)
		return (2);
	return (nmismatch != 0 ? 1 : 0);
}
