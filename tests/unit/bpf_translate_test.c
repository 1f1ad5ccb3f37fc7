/* SPDX-License-Identifier: MIT */
/*
 * bpf_translate_test.c: differential tests of the DIF to BPF translator
 * against the interpreter, which defines what DIF means.
 *
 * Every case is a DIF object in the assembler's syntax, traced by a
 * clause of its own on dtrace:::BEGIN.  The BPF engine runs all the
 * clauses in one program, fired (BPF_PROG_TEST_RUN) with several sets of
 * arguments; the interpreter runs the same objects with the same
 * arguments.  For each firing and clause the record data must be the
 * same bytes -- or both must fault, with the same fault kind, action, DIF
 * offset and (where it is not one of the engine's own addresses) the
 * same address.  Variables keep their values across firings in both, so
 * the stores are compared too.  Needs root and BPF; skips without.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/dif/dif.h"
#include "common/dif/dif_asm.h"
#include "common/dif/dif_interp.h"
#include "common/dif/dif_verify.h"
#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"
#include "os/linux/bpf/dt_bpf_engine.h"
#include "os/linux/dt_linux_features.h"
#include "tests/unit/unit.h"

#define STRSIZE 256
#define I "ldgs arg0, %r1\nldgs arg1, %r2\n"
#define RI "RETURN ctf signed 8\n"
#define RS "RETURN string byref 256\n"
#define BIN(op) I op " %r1, %r2, %r3\nret %r3\n" RI
#define BR(op) I "cmp %r1, %r2\n" op " L1\nret %r0\nL1:\nsetx 1, %r3\n" \
	"ret %r3\n" RI
#define PUSHS(s, r) "sets \"" s "\", " r "\npushtr DT_TYPE(1), " r ", %r0\n"

typedef struct tcase {
	const char *tc_name;
	const char *tc_text;
	bool tc_str;		/* the result is a string */
	bool tc_ouraddr;	/* fault addresses are engine memory */
} tcase_t;

/* User memory to copy in, each alone on its page. */
static const char ustr[4096] __attribute__((aligned(4096))) =
    "a user string";
static const int32_t uint32v[1024] __attribute__((aligned(4096))) = {
	-123456 };

static const tcase_t cases[] = {
	{ "add", BIN("add"), false, false },
	{ "sub", BIN("sub"), false, false },
	{ "mul", BIN("mul"), false, false },
	{ "sdiv", BIN("sdiv"), false, false },
	{ "srem", BIN("srem"), false, false },
	{ "udiv", BIN("udiv"), false, false },
	{ "urem", BIN("urem"), false, false },
	{ "sll", BIN("sll"), false, false },
	{ "srl", BIN("srl"), false, false },
	{ "sra", BIN("sra"), false, false },
	{ "or", BIN("or"), false, false },
	{ "xor", BIN("xor"), false, false },
	{ "and", BIN("and"), false, false },
	{ "not", I "not %r1, %r3\nret %r3\n" RI, false, false },
	{ "be", BR("be"), false, false },
	{ "bne", BR("bne"), false, false },
	{ "bg", BR("bg"), false, false },
	{ "bgu", BR("bgu"), false, false },
	{ "bge", BR("bge"), false, false },
	{ "bgeu", BR("bgeu"), false, false },
	{ "bl", BR("bl"), false, false },
	{ "blu", BR("blu"), false, false },
	{ "ble", BR("ble"), false, false },
	{ "bleu", BR("bleu"), false, false },
	{ "tst", "ldgs arg0, %r1\ntst %r1\nbg L1\nbl L2\nsetx 7, %r2\n"
	    "ret %r2\nL1:\nsetx 1, %r2\nret %r2\nL2:\nsetx 2, %r2\nret %r2\n"
	    RI, false, false },
	{ "args[]", "ldgs arg2, %r1\nldga args, %r1, %r3\nret %r3\n" RI,
	    false, false },
	{ "setx", "setx 0x123456789abcdef0, %r1\nret %r1\n" RI, false,
	    false },
	{ "ldx", "ldgs arg3, %r1\nldx [%r1], %r2\nret %r2\n" RI, false,
	    false },
	{ "ldsb", "setx 16, %r1\nallocs %r1, %r2\nldgs arg0, %r3\n"
	    "stb %r3, [%r2]\nldsb [%r2], %r4\nret %r4\n" RI, false, false },
	{ "lduh", "setx 16, %r1\nallocs %r1, %r2\nldgs arg0, %r3\n"
	    "stx %r3, [%r2]\nlduh [%r2], %r4\nret %r4\n" RI, false, false },
	{ "uldsw", "ldgs arg5, %r1\nuldsw [%r1], %r2\nret %r2\n" RI, false,
	    false },
	{ "string", "sets \"hello\", %r1\nret %r1\n" RS, true, false },
	{ "execname", "ldgs execname, %r1\nret %r1\n" RS, true, false },
	{ "probename", "ldgs probename, %r1\nret %r1\n" RS, true, false },
	{ "probeprov", "ldgs probeprov, %r1\nret %r1\n" RS, true, false },
	{ "pid", "ldgs pid, %r1\nret %r1\n" RI, false, false },
	{ "tid", "ldgs tid, %r1\nret %r1\n" RI, false, false },
	{ "uid", "ldgs uid, %r1\nret %r1\n" RI, false, false },
	{ "epid", "ldgs epid, %r1\nret %r1\n" RI, false, false },
	{ "id", "ldgs id, %r1\nret %r1\n" RI, false, false },
	{ "strlen", PUSHS("hello, world", "%r1") "call strlen, %r2\n"
	    "flushts\nret %r2\n" RI, false, false },
	{ "strjoin", PUSHS("foo", "%r1") PUSHS("barbaz", "%r2")
	    "call strjoin, %r3\nflushts\nret %r3\n" RS, true, false },
	{ "substr", PUSHS("hello world", "%r1") I
	    "pushtv DT_TYPE(0), %r1\npushtv DT_TYPE(0), %r2\n"
	    "call substr, %r3\nflushts\nret %r3\n" RS, true, false },
	{ "substr2", PUSHS("hello world", "%r1") I
	    "pushtv DT_TYPE(0), %r1\ncall substr, %r3\nflushts\nret %r3\n"
	    RS, true, false },
	{ "strchr", PUSHS("hello world", "%r1") "setx 111, %r2\n"
	    "pushtv DT_TYPE(0), %r2\ncall strchr, %r3\nflushts\n"
	    "pushtr DT_TYPE(1), %r3, %r0\ncall strlen, %r4\nret %r4\n" RI,
	    false, false },
	{ "strrchr", PUSHS("hello world", "%r1") "setx 111, %r2\n"
	    "pushtv DT_TYPE(0), %r2\ncall strrchr, %r3\nflushts\n"
	    "pushtr DT_TYPE(1), %r3, %r0\ncall strlen, %r4\nret %r4\n" RI,
	    false, false },
	{ "lltostr", I "pushtv DT_TYPE(0), %r1\npushtv DT_TYPE(0), %r2\n"
	    "call lltostr, %r3\nflushts\nret %r3\n" RS, true, false },
	{ "lltostr10", I "pushtv DT_TYPE(0), %r1\ncall lltostr, %r3\n"
	    "flushts\nret %r3\n" RS, true, false },
	{ "strtoll", PUSHS(" -0x7fZ", "%r1") I "pushtv DT_TYPE(0), %r2\n"
	    "call strtoll, %r3\nflushts\nret %r3\n" RI, false, false },
	{ "rindex", PUSHS("abcabcab", "%r1") PUSHS("ab", "%r2") I
	    "pushtv DT_TYPE(0), %r1\ncall rindex, %r3\nflushts\nret %r3\n"
	    RI, false, false },
	{ "dirname", PUSHS("//usr//lib/", "%r1") "call dirname, %r3\n"
	    "flushts\nret %r3\n" RS, true, false },
	{ "toupper", PUSHS("Hello, World 9", "%r1")
	    "call toupper, %r3\nflushts\nret %r3\n" RS, true, false },
	{ "tolower", PUSHS("Hello, World 9", "%r1")
	    "call tolower, %r3\nflushts\nret %r3\n" RS, true, false },
	{ "scmp", "sets \"abc\", %r1\nsets \"abd\", %r2\nscmp %r1, %r2\n"
	    "bl L1\nret %r0\nL1:\nsetx 1, %r3\nret %r3\n" RI, false, false },
	{ "scmp-null", "sets \"\", %r1\nscmp %r1, %r0\nbe L1\nret %r0\n"
	    "L1:\nsetx 1, %r3\nret %r3\n" RI, false, false },
	{ "scmp-exec", "ldgs execname, %r1\nsets \"bpf_translate_t\", %r2\n"
	    "scmp %r1, %r2\nbe L1\nret %r0\nL1:\nsetx 1, %r3\nret %r3\n" RI,
	    false, false },
	{ "copyinstr", "ldgs arg4, %r1\npushtv DT_TYPE(0), %r1\n"
	    "call copyinstr, %r2\nflushts\nret %r2\n" RS, true, false },
	{ "copyinstr-max", "ldgs arg4, %r1\npushtv DT_TYPE(0), %r1\n"
	    "setx 4, %r3\npushtv DT_TYPE(0), %r3\ncall copyinstr, %r2\n"
	    "flushts\nret %r2\n" RS, true, false },
	{ "copyin", "ldgs arg5, %r1\npushtv DT_TYPE(0), %r1\nsetx 4, %r3\n"
	    "pushtv DT_TYPE(0), %r3\ncall copyin, %r2\nflushts\n"
	    "ldsw [%r2], %r4\nret %r4\n" RI, false, false },
	{ "htonl", I "pushtv DT_TYPE(0), %r1\ncall htonl, %r3\nflushts\n"
	    "ret %r3\n" RI, false, false },
	{ "htons", I "pushtv DT_TYPE(0), %r1\ncall htons, %r3\nflushts\n"
	    "ret %r3\n" RI, false, false },
	{ "getminor", I "pushtv DT_TYPE(0), %r1\ncall getminor, %r3\n"
	    "flushts\nret %r3\n" RI, false, false },
	{ "global", I "ldgs g, %r3\nadd %r3, %r1, %r3\nstgs %r3, g\n"
	    "ret %r3\n" RI "VARIABLE TABLE\n"
	    "g 1280 scalar global rw ctf signed 8\n", false, false },
	{ "gstring", "sets \"xyz\", %r1\nldgs s, %r2\npushtr DT_TYPE(1), "
	    "%r2, %r0\npushtr DT_TYPE(1), %r1, %r0\ncall strjoin, %r3\n"
	    "flushts\nstgs %r3, s\nldgs s, %r4\nret %r4\n" RS
	    "VARIABLE TABLE\ns 1281 scalar global rw string byref 256\n",
	    true, false },
	{ "thread", "ldts t, %r1\nsetx 3, %r2\nadd %r1, %r2, %r1\n"
	    "stts %r1, t\nret %r1\n" RI "VARIABLE TABLE\n"
	    "t 1282 scalar thread rw ctf signed 8\n", false, false },
	{ "assoc", I "setx 3, %r4\nand %r1, %r4, %r1\n"
	    "pushtv DT_TYPE(0), %r1\nldgaa a, %r3\nadd %r3, %r2, %r3\n"
	    "stgaa %r3, a\nflushts\nret %r3\n" RI "VARIABLE TABLE\n"
	    "a 1283 array global rw ctf signed 8\n", false, false },
	{ "assoc-str", PUSHS("key", "%r1") "ldtaa b, %r3\nsetx 10, %r2\n"
	    "add %r3, %r2, %r3\nsttaa %r3, b\nflushts\nret %r3\n" RI
	    "VARIABLE TABLE\nb 1284 array thread rw ctf signed 8\n",
	    false, false },
	{ "assoc-del", "setx 9, %r1\npushtv DT_TYPE(0), %r1\n"
	    "ldgaa c, %r3\nstgaa %r0, c\nldgaa c, %r4\nsetx 1, %r5\n"
	    "stgaa %r5, c\nflushts\nadd %r3, %r4, %r3\nret %r3\n" RI
	    "VARIABLE TABLE\nc 1285 array global rw ctf signed 8\n",
	    false, false },
	{ "local", I "stls %r1, l\nldls l, %r3\nadd %r3, %r2, %r3\n"
	    "ret %r3\n" RI "VARIABLE TABLE\n"
	    "l 1286 scalar local rw ctf signed 8\n", false, false },
	{ "divzero", "ldgs arg0, %r1\nudiv %r1, %r0, %r2\nret %r2\n" RI,
	    false, false },
	{ "badaddr", "setx 4096, %r1\nldub [%r1], %r2\nret %r2\n" RI,
	    false, false },
	{ "badalign", "setx 4097, %r1\nldsw [%r1], %r2\nret %r2\n" RI,
	    false, false },
	{ "badstore", "setx 4096, %r1\nstx %r1, [%r1]\nret %r1\n" RI,
	    false, false },
	{ "nullstr", "ret %r0\n" RS, true, false },
	{ "bigalloc", "setx 100000000, %r1\nallocs %r1, %r2\nret %r2\n" RI,
	    false, true },
};

#define NCASES (sizeof (cases) / sizeof (cases[0]))
#define BATCH 16	/* cases to a program */

/* BPF_TT_ONLY=name runs one case, for debugging. */
static const char *only;

static int
t_read(void *arg, dif_as_t as, uint64_t addr, void *buf, size_t size)
{
	/*
	 * Our own user memory, the way the kernel lets BPF read it: the
	 * pages of the two objects (the interpreter reads strings a page
	 * at a time, past their end).
	 */
	uint64_t lo[2] = { (uint64_t) (uintptr_t) ustr,
		(uint64_t) (uintptr_t) uint32v };
	uint64_t len[2] = { sizeof (ustr), sizeof (uint32v) };

	(void) arg;
	if (as != DIF_AS_USER)
		return -1;
	for (int i = 0; i < 2; i++) {
		if (addr >= lo[i] && size <= len[i] &&
		    addr - lo[i] <= len[i] - size) {
			memcpy(buf, (const void *) (uintptr_t) addr, size);
			return 0;
		}
	}
	return -1;
}

static int
t_var(void *arg, uint32_t id, uint64_t ndx, uint64_t *valp)
{
	(void) arg;
	(void) ndx;
	switch (id) {
	case DIF_VAR_PID:
		*valp = (uint64_t) getpid();
		return 0;
	case DIF_VAR_TID:
		*valp = (uint64_t) gettid();
		return 0;
	case DIF_VAR_UID:
		*valp = (uint64_t) getuid();
		return 0;
	default:
		return -1;
	}
}

static int
t_varstr(void *arg, uint32_t id, char *buf, size_t size)
{
	(void) arg;
	if (id != DIF_VAR_EXECNAME)
		return -1;
	(void) pthread_getname_np(pthread_self(), buf, size < 16 ? size : 16);
	return 0;
}

static const dif_ops_t t_ops = {
	.do_read = t_read,
	.do_var = t_var,
	.do_varstr = t_varstr,
};

/* What one clause produced in one firing. */
typedef struct outcome {
	bool o_seen;
	bool o_fault;
	dt_faultrec_t o_flt;
	unsigned char o_data[STRSIZE];
	uint32_t o_size;
} outcome_t;

static outcome_t bpf_out[NCASES];

static int
drain_cb(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf, size_t len,
    void *arg)
{
	const unsigned char *p = buf, *end = p + len;

	(void) dtp;
	(void) cpu;
	(void) arg;
	while (p + sizeof (dt_rechdr_t) <= end) {
		dt_rechdr_t rh;
		uint32_t epid;
		outcome_t *o;

		memcpy(&rh, p, sizeof (rh));
		if (rh.rh_epid == DT_EPID_FAULT) {
			dt_faultrec_t fr;

			memcpy(&fr, p + sizeof (rh), sizeof (fr));
			epid = fr.fr_epid;
			if (epid >= 1 && epid <= NCASES) {
				o = &bpf_out[epid - 1];
				o->o_seen = o->o_fault = true;
				o->o_flt = fr;
			}
		} else if (rh.rh_epid >= 1 && rh.rh_epid <= NCASES) {
			o = &bpf_out[rh.rh_epid - 1];
			o->o_seen = true;
			o->o_size = rh.rh_size;
			memcpy(o->o_data, p + sizeof (rh),
			    rh.rh_size < STRSIZE ? rh.rh_size : STRSIZE);
		}
		p += sizeof (rh) + rh.rh_size;
	}
	return 0;
}

static const dt_engine_ops_t *const eo = &dt_bpf_engine_ops;

/*
 * Fire BEGIN with each argument set and compare each of the n cases'
 * records with what the interpreter computes.  Returns the differences.
 */
static int
run_sets(dtrace_hdl_t *dtp, dif_state_t *ist, dif_mstate_t *ims,
    dif_object_t **difo, const tcase_t *const *tcs, size_t n,
    uint64_t (*argsets)[DIF_NARGS], size_t nsets)
{
	int mismatches = 0;

	for (size_t s = 0; s < nsets; s++) {
		memset(bpf_out, 0, sizeof (bpf_out));
		if (s > 0)
			CHECK(dt_bpf_engine_fire(dtp, DT_PROBE_ID_BEGIN,
			    argsets[s], DIF_NARGS) == 0);
		CHECK(eo->eo_drain(dtp, drain_cb, NULL) == 0);

		dif_mstate_firing(ims, 1, DT_PROBE_ID_BEGIN, "dtrace", "", "",
		    "BEGIN", argsets[s], DIF_NARGS, 0, (uint64_t) gettid());
		for (size_t i = 0; i < n; i++) {
			const tcase_t *tc = tcs[i];
			const outcome_t *b = &bpf_out[i];
			unsigned char want[STRSIZE];
			uint64_t v = 0;
			int rc;

			memset(want, 0, sizeof (want));
			dif_mstate_clause(ims, (uint32_t) i + 1);
			rc = dif_exec(ist, ims, difo[i], &v);
			if (rc == 0 && tc->tc_str)
				rc = dif_readstr(ims, v, (char *) want,
				    STRSIZE);
			else if (rc == 0)
				memcpy(want, &v, 8);
			if (!b->o_seen) {
				printf("set %zu %s: no record from bpf\n", s,
				    tc->tc_name);
				mismatches++;
				continue;
			}
			if (rc != 0) {
				const dif_fault_t *f = dif_mstate_fault(ims);

				if (!b->o_fault ||
				    b->o_flt.fr_kind != (uint32_t) f->df_kind ||
				    b->o_flt.fr_offset != f->df_offset ||
				    b->o_flt.fr_action != 1 ||
				    (!tc->tc_ouraddr &&
				    b->o_flt.fr_addr != f->df_addr)) {
					printf("set %zu %s: interp faults %d "
					    "at %d addr %#llx; bpf %s %u at "
					    "%d addr %#llx\n", s, tc->tc_name,
					    f->df_kind, f->df_offset,
					    (unsigned long long) f->df_addr,
					    b->o_fault ? "faults" : "does not",
					    b->o_flt.fr_kind,
					    b->o_flt.fr_offset,
					    (unsigned long long)
					    b->o_flt.fr_addr);
					mismatches++;
				}
				continue;
			}
			/*
			 * Strings: the bytes up to the NUL.  The interpreter
			 * may leave bytes of the source after the NUL (it
			 * reads a page at a time); ours are always zero.
			 */
			if (tc->tc_str) {
				size_t n = strnlen((char *) want, STRSIZE);

				memset(want + n, 0, STRSIZE - n);
			}
			if (b->o_fault || memcmp(want, b->o_data,
			    tc->tc_str ? STRSIZE : 8) != 0) {
				int64_t bv;

				memcpy(&bv, b->o_data, 8);
				if (b->o_fault)
					printf("set %zu %s: bpf faults %u at "
					    "%d addr %#llx\n", s, tc->tc_name,
					    b->o_flt.fr_kind,
					    b->o_flt.fr_offset,
					    (unsigned long long)
					    b->o_flt.fr_addr);
				else if (tc->tc_str)
					printf("set %zu %s: \"%s\" != \"%s\"\n",
					    s, tc->tc_name, (char *) want,
					    (char *) b->o_data);
				else
					printf("set %zu %s: %lld != %lld\n",
					    s, tc->tc_name, (long long) v,
					    (long long) bv);
				mismatches++;
			}
		}
	}
	return mismatches;
}

int
main(void)
{
	uint64_t argsets[][DIF_NARGS] = {
		{ 0 },
		{ 5, 3, 2, 0x1000, (uint64_t) (uintptr_t) ustr,
		    (uint64_t) (uintptr_t) uint32v },
		{ (uint64_t) -7, 2, 1, 0x1001, 0, 16 },
		{ (uint64_t) INT64_MIN, (uint64_t) -1, 0, 0,
		    (uint64_t) (uintptr_t) ustr + 2, 0 },
		{ 100, 0, 7, 8, 1, 0 },
		{ (uint64_t) -1, 65, 9, 0, 0, 0 },
		{ 0x12345678, 130, 3, 0, 0, 0 },
		{ 0x8000000000000000ULL, 0x8000000000000000ULL, 4, 0, 0, 0 },
		{ (uint64_t) -12, (uint64_t) -5, 5, 0, 0, 0 },
	};
	size_t nsets = sizeof (argsets) / sizeof (argsets[0]);
	dif_object_t *difo[NCASES];
	dt_actarg_t targ[NCASES];
	dt_action_t act[NCASES];
	dt_probedesc_t desc;
	dt_stmt_t st[NCASES];
	dt_eprobe_t ep[NCASES], *eps[NCASES];
	dt_program_t pg;
	dif_options_t o;
	dif_state_t *ist;
	dif_mstate_t *ims;
	dtrace_hdl_t *dtp;
	dt_engine_status_t es;
	char err[256];
	int e, mismatches = 0;
	dif_object_t *all[NCASES];
	const tcase_t *tcsel[NCASES];
	size_t ncases;

	if (geteuid() != 0)
		SKIP("not root: the BPF engine needs root");
	if (!dt_linux_feature(DT_LF_BPF) || !dt_linux_feature(DT_LF_RINGBUF) ||
	    !dt_linux_feature(DT_LF_TEST_RUN))
		SKIP("no BPF test runs on this kernel");
	(void) pthread_setname_np(pthread_self(), "bpf_translate_t");
	/*
	 * BPF reads user memory only where a page is mapped in (it cannot
	 * take a fault), so touch the two objects' pages first: a binary on
	 * a network file system (the arm64 lab's 9p) has them mapped in only
	 * when first read.
	 */
	for (size_t i = 0; i < sizeof (ustr); i += 512)
		(void) *(const volatile char *) &ustr[i];
	for (size_t i = 0; i < sizeof (uint32v) / sizeof (uint32v[0]); i += 128)
		(void) *(const volatile int32_t *) &uint32v[i];

	memset(&desc, 0, sizeof (desc));
	memset(st, 0, sizeof (st));
	only = getenv("BPF_TT_ONLY");
	for (size_t i = 0; i < NCASES; i++) {
		difo[i] = dif_asm(cases[i].tc_text, err, sizeof (err));
		if (difo[i] == NULL || dif_verify(difo[i], err,
		    sizeof (err)) != 0) {
			printf("%s: %s\n", cases[i].tc_name, err);
			return 1;
		}
		memset(&targ[i], 0, sizeof (targ[i]));
		targ[i].aa_difo = difo[i];
		targ[i].aa_rec.rd_type = cases[i].tc_str ? DT_REC_STRING :
		    DT_REC_SINT;
		targ[i].aa_rec.rd_size = cases[i].tc_str ? STRSIZE : 8;
		targ[i].aa_rec.rd_align = cases[i].tc_str ? 1 : 8;
		memset(&act[i], 0, sizeof (act[i]));
		act[i].ac_kind = DT_ACT_TRACE;
		act[i].ac_nargs = 1;
		act[i].ac_args = &targ[i];
		st[i].st_id = (uint32_t) i;
		st[i].st_ndescs = 1;
		st[i].st_descs = &desc;
		st[i].st_nactions = 1;
		st[i].st_actions = &act[i];
		st[i].st_size = targ[i].aa_rec.rd_size;
	}
	/*
	 * The cases that run, moved to the front: BPF_TT_ONLY names one;
	 * without bpf_loop() (before Linux 5.17) rindex()'s nested loops
	 * are unrolled past what the verifier follows, and it is refused.
	 */
	memcpy(all, difo, sizeof (all));
	ncases = 0;
	for (size_t i = 0; i < NCASES; i++) {
		if (only != NULL && strcmp(cases[i].tc_name, only) != 0)
			continue;
		if (strcmp(cases[i].tc_name, "rindex") == 0 &&
		    !dt_linux_feature(DT_LF_BPF_LOOP)) {
			printf("%s: not run: the kernel has no bpf_loop()\n",
			    cases[i].tc_name);
			continue;
		}
		difo[ncases] = difo[i];
		targ[ncases] = targ[i];
		st[ncases].st_size = st[i].st_size;
		tcsel[ncases++] = &cases[i];
	}
	memset(&o, 0, sizeof (o));
	o.dio_strsize = STRSIZE;
	o.dio_ops = &t_ops;
	ist = dif_state_create(&o);
	ims = dif_mstate_create(ist, 0);

	/*
	 * The cases run as clauses of BEGIN, BATCH to a program: a program
	 * of all 75 is more than Linux 5.10's verifier will follow (E2BIG),
	 * and what is tested is each instruction's translation.
	 */
	for (size_t b0 = 0; b0 < ncases; b0 += BATCH) {
		size_t n = ncases - b0 < BATCH ? ncases - b0 : BATCH;

		pg.pg_nstmts = n;
		pg.pg_stmts = &st[b0];
		pg.pg_naggs = 0;
		pg.pg_aggs = NULL;
		dtp = dtrace_open(DTRACE_VERSION, 0, &e);
		CHECK(dtp != NULL);
		if (dtp == NULL)
			return 1;
		for (size_t i = 0; i < n; i++) {
			ep[i].ep_epid = (uint32_t) i + 1;
			ep[i].ep_probe = dt_probe_lookup_id(dtp,
			    DT_PROBE_ID_BEGIN);
			ep[i].ep_stmt = &st[b0 + i];
			ep[i].ep_prog = &pg;
			eps[i] = &ep[i];
		}
		CHECK(eo->eo_open(dtp) == 0);
		CHECK(eo->eo_enable(dtp, eps, n) == 0);
		if (eo->eo_go(dtp) != 0) {
			printf("go failed: %s\n", dt_bpf_engine_detail(dtp));
			return 1;
		}
		mismatches += run_sets(dtp, ist, ims, &difo[b0], &tcsel[b0],
		    n, argsets, nsets);
		/* No store was dropped: every case's variables fit. */
		eo->eo_status(dtp, &es);
		CHECK_INT(es.es_dyndrops, 0);
		CHECK(eo->eo_stop(dtp) == 0);
		eo->eo_close(dtp);
		dtrace_close(dtp);
	}
	printf("%zu cases x %zu argument sets: %d differences\n", ncases,
	    nsets, mismatches);
	CHECK_INT(mismatches, 0);
	dif_mstate_destroy(ims);
	dif_state_destroy(ist);
	for (size_t i = 0; i < NCASES; i++)
		dif_object_free(all[i]);
	return unit_done();
}
