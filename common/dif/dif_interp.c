/* SPDX-License-Identifier: MIT */
/*
 * dif_interp.c: the DIF instruction loop, memory access and faults.
 *
 * dif_exec() runs one object with eight 64-bit registers, the condition
 * codes of the last cmp/scmp/tst and a tuple stack of DIF_DTR_NREGS
 * entries, all local to the call.  The semantics, which the BPF
 * translator must match:
 *
 *   - arithmetic wraps (two's complement); shifts use the count modulo
 *     64; sdiv/srem of INT64_MIN by -1 give INT64_MIN and 0; division
 *     or remainder by zero faults "divide-by-zero";
 *   - cmp sets the codes from r1 - r2 so that the signed branches
 *     (bg, bge, bl, ble) compare as signed and the *u ones as unsigned;
 *     scmp compares strings (NULL reads as ""), tst compares with 0;
 *   - loads and stores of 2, 4 and 8 bytes must be aligned ("invalid
 *     alignment"); an address outside the interpreter's storage goes to
 *     the engine, which may refuse ("invalid address");
 *   - call and the associative-array opcodes take all the entries on the
 *     tuple stack as arguments or key and leave them there: the code
 *     generator pops them (popts/flushts);
 *   - a fault stops the object; the offset reported is the byte offset
 *     of the instruction (4 * its index), as DTrace reports it.
 *
 * The loop also guards against objects that were never verified (register
 * numbers are masked, table indices and branches checked), so a bad object
 * can fault but cannot corrupt memory or loop.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dif/dif_impl.h"

#define DIF_SCRATCH_DEFAULT (256 * 1024)
#define DIF_PAGESIZE	    4096

void
dif_fault(dif_mstate_t *ms, int kind, uint64_t addr)
{
	if (ms->ms_fault.df_kind != 0)
		return;
	ms->ms_fault.df_kind = kind;
	ms->ms_fault.df_addr = addr;
	ms->ms_fault.df_offset = -1;
}

/*
 * The firing context.
 */

dif_mstate_t *
dif_mstate_create(dif_state_t *st, size_t scratchsize)
{
	dif_mstate_t *ms;
	size_t ss = st->st_strsize;
	int i;

	if ((ms = calloc(1, sizeof (*ms))) == NULL)
		return NULL;
	ms->ms_state = st;
	/* Room for strings, and for scratchsize bytes of alloca(). */
	ms->ms_scratchsize = (scratchsize ? scratchsize : DIF_SCRATCH_DEFAULT) +
	    ((st->st_scratchsize + 7) & ~(size_t) 7);
	ms->ms_keysize = 12 + DIF_DTR_NREGS * (4 + ss);
	ms->ms_scratch = calloc(1, ms->ms_scratchsize);
	ms->ms_strbuf = calloc(DIF_STR_NSLOTS, ss);
	ms->ms_strtok = calloc(1, ss);
	ms->ms_key = malloc(ms->ms_keysize);
	for (i = 0; i < DIF_NWORK; i++)
		ms->ms_work[i] = malloc(ss + 1);
	if (ms->ms_scratch == NULL || ms->ms_strbuf == NULL ||
	    ms->ms_strtok == NULL || ms->ms_key == NULL ||
	    ms->ms_work[DIF_NWORK - 1] == NULL || ms->ms_work[0] == NULL ||
	    ms->ms_work[1] == NULL) {
		dif_mstate_destroy(ms);
		return NULL;
	}
	return ms;
}

void
dif_mstate_destroy(dif_mstate_t *ms)
{
	int i;

	if (ms == NULL)
		return;
	free(ms->ms_scratch);
	free(ms->ms_strbuf);
	free(ms->ms_strtok);
	free(ms->ms_key);
	for (i = 0; i < DIF_NWORK; i++)
		free(ms->ms_work[i]);
	free(ms->ms_locals);
	dif_arena_fini(&ms->ms_localarena);
	free(ms);
}

static void
dif_setslot(dif_mstate_t *ms, int slot, const char *s)
{
	size_t ss = ms->ms_state->st_strsize;
	char *d = ms->ms_strbuf + (size_t) slot * ss;
	size_t n;

	if (s == NULL)
		s = "";
	n = strnlen(s, ss - 1);
	memcpy(d, s, n);
	d[n] = '\0';
	ms->ms_strvalid |= 1U << slot;
}

void
dif_mstate_firing(dif_mstate_t *ms, uint32_t epid, uint32_t id,
    const char *prov, const char *mod, const char *func, const char *name,
    const uint64_t *args, int nargs, uint64_t timestamp, uint64_t tkey)
{
	int i;

	ms->ms_epid = epid;
	ms->ms_id = id;
	for (i = 0; i < DIF_NARGS; i++)
		ms->ms_args[i] = args != NULL && i < nargs ? args[i] : 0;
	ms->ms_timestamp = timestamp;
	ms->ms_tkey = tkey;
	ms->ms_strvalid = 0;
	dif_setslot(ms, DIF_STR_PROBEPROV, prov);
	dif_setslot(ms, DIF_STR_PROBEMOD, mod);
	dif_setslot(ms, DIF_STR_PROBEFUNC, func);
	dif_setslot(ms, DIF_STR_PROBENAME, name);
	ms->ms_strtok_valid = false;
	dif_locals_clear(ms);
	ms->ms_scratchused = 0;
	ms->ms_allocaused = 0;
	ms->ms_fault.df_kind = 0;
}

void
dif_mstate_clause(dif_mstate_t *ms, uint32_t epid)
{
	ms->ms_epid = epid;
	ms->ms_scratchused = 0;
	ms->ms_allocaused = 0;
	ms->ms_fault.df_kind = 0;
}

const dif_fault_t *
dif_mstate_fault(const dif_mstate_t *ms)
{
	return &ms->ms_fault;
}

/*
 * Memory.
 */

/*
 * Is [addr, addr + size) in scratch?  Only what this clause allocated
 * when alloc (as DTrace checks stores and bcopy()'s destination), the
 * whole area otherwise.
 */
bool
dif_in_scratch(const dif_mstate_t *ms, uint64_t addr, size_t size,
    bool alloc)
{
	uint64_t base = (uint64_t) (uintptr_t) ms->ms_scratch;
	size_t end = alloc ? ms->ms_scratchused : ms->ms_scratchsize;

	return addr >= base && size <= end && addr - base <= end - size;
}

void *
dif_scratch_alloc(dif_mstate_t *ms, size_t size)
{
	size_t used = (ms->ms_scratchused + 7) & ~(size_t) 7;
	void *p;

	if (size > ms->ms_scratchsize || used > ms->ms_scratchsize - size) {
		dif_fault(ms, DIF_FLT_NOSCRATCH, 0);
		return NULL;
	}
	p = ms->ms_scratch + used;
	memset(p, 0, size);
	ms->ms_scratchused = used + size;
	return p;
}

/*
 * Memory of alloca() and copyin(): scratch, within the scratchsize option
 * when it is set (the strings subroutines make are not counted).
 */
void *
dif_alloca(dif_mstate_t *ms, size_t size)
{
	size_t used = (ms->ms_allocaused + 7) & ~(size_t) 7;
	uint64_t limit = ms->ms_state->st_scratchsize;
	void *p;

	if (ms->ms_state->st_scratchset && (size > limit ||
	    used > limit - size)) {
		dif_fault(ms, DIF_FLT_NOSCRATCH, 0);
		return NULL;
	}
	if ((p = dif_scratch_alloc(ms, size)) != NULL)
		ms->ms_allocaused = used + size;
	return p;
}

/* Copies size bytes at addr into buf: our storage, or the engine's. */
int
dif_copyin(dif_mstate_t *ms, dif_as_t as, uint64_t addr, void *buf,
    size_t size)
{
	const dif_ops_t *ops = ms->ms_state->st_ops;

	if (size == 0)
		return 0;
	if (dif_owned(ms, addr, size, false)) {
		memmove(buf, (const void *) (uintptr_t) addr, size);
		return 0;
	}
	if (ops == NULL || ops->do_read == NULL ||
	    ops->do_read(ms->ms_state->st_arg, as, addr, buf, size) != 0) {
		dif_fault(ms, DIF_FLT_BADADDR, addr);
		return -1;
	}
	return 0;
}

/*
 * Copies the string at addr into buf: at most size - 1 bytes and a NUL.
 * Returns its length, or -1 with a fault.  Foreign memory is read a page
 * at a time so that a string ending before an unmapped page reads well.
 */
int
dif_getstr(dif_mstate_t *ms, dif_as_t as, uint64_t addr, char *buf,
    size_t size)
{
	size_t n = 0, chunk;
	char *nul;

	if (size == 0)
		return 0;
	while (n < size - 1) {
		uint64_t a = addr + n;

		chunk = DIF_PAGESIZE - (a & (DIF_PAGESIZE - 1));
		if (chunk > size - 1 - n)
			chunk = size - 1 - n;
		if (dif_owned(ms, a, 1, false)) {
			/* Our storage: read up to the end of the region. */
			while (chunk > 1 && !dif_owned(ms, a, chunk, false))
				chunk /= 2;
			memmove(buf + n, (const void *) (uintptr_t) a, chunk);
		} else if (dif_copyin(ms, as, a, buf + n, chunk) != 0) {
			return -1;
		}
		if ((nul = memchr(buf + n, '\0', chunk)) != NULL)
			return (int) (nul - buf);
		n += chunk;
	}
	buf[n] = '\0';
	return (int) n;
}

/* The address of size writable bytes at addr, or NULL with a fault. */
void *
dif_writable(dif_mstate_t *ms, uint64_t addr, size_t size)
{
	if (!dif_owned(ms, addr, size, true)) {
		dif_fault(ms, DIF_FLT_BADADDR, addr);
		return NULL;
	}
	return (void *) (uintptr_t) addr;
}

int
dif_read(dif_mstate_t *ms, uint64_t addr, void *buf, size_t size)
{
	ms->ms_fault.df_kind = 0;
	if (dif_copyin(ms, DIF_AS_KERNEL, addr, buf, size) != 0)
		return ms->ms_fault.df_kind;
	return 0;
}

int
dif_readstr(dif_mstate_t *ms, uint64_t addr, char *buf, size_t size)
{
	int n;

	ms->ms_fault.df_kind = 0;
	if ((n = dif_getstr(ms, DIF_AS_KERNEL, addr, buf, size)) < 0)
		return ms->ms_fault.df_kind;
	/*
	 * Nothing of the source past the NUL: records and aggregation keys
	 * are compared byte for byte.
	 */
	if ((size_t) n + 1 < size)
		memset(buf + n + 1, 0, size - (size_t) n - 1);
	return 0;
}

/* A load of 1, 2, 4 or 8 bytes, sign-extended when sgn. */
static uint64_t
dif_load(dif_mstate_t *ms, dif_as_t as, uint64_t addr, size_t size, bool sgn)
{
	union {
		uint8_t b;
		uint16_t h;
		uint32_t w;
		uint64_t x;
	} u;

	if (addr & (size - 1)) {
		dif_fault(ms, DIF_FLT_BADALIGN, addr);
		return 0;
	}
	if (dif_copyin(ms, as, addr, &u, size) != 0)
		return 0;
	switch (size) {
	case 1:
		return sgn ? (uint64_t) (int64_t) (int8_t) u.b : u.b;
	case 2:
		return sgn ? (uint64_t) (int64_t) (int16_t) u.h : u.h;
	case 4:
		return sgn ? (uint64_t) (int64_t) (int32_t) u.w : u.w;
	default:
		return u.x;
	}
}

static void
dif_store(dif_mstate_t *ms, uint64_t addr, uint64_t val, size_t size)
{
	void *p;
	uint8_t b = (uint8_t) val;
	uint16_t h = (uint16_t) val;
	uint32_t w = (uint32_t) val;

	if (addr & (size - 1)) {
		dif_fault(ms, DIF_FLT_BADALIGN, addr);
		return;
	}
	if ((p = dif_writable(ms, addr, size)) == NULL)
		return;
	switch (size) {
	case 1:
		memcpy(p, &b, 1);
		break;
	case 2:
		memcpy(p, &h, 2);
		break;
	case 4:
		memcpy(p, &w, 4);
		break;
	default:
		memcpy(p, &val, 8);
		break;
	}
}

/* Compares two strings of at most strsize bytes; NULL reads as "". */
static int
dif_strcmp(dif_mstate_t *ms, uint64_t a, uint64_t b)
{
	dif_state_t *st = ms->ms_state;
	char *s1 = ms->ms_work[0], *s2 = ms->ms_work[1];
	int c;

	if (a == b)
		return 0;
	s1[0] = s2[0] = '\0';
	if (a != 0 && dif_getstr(ms, DIF_AS_KERNEL, a, s1, st->st_strsize) < 0)
		return 0;
	if (b != 0 && dif_getstr(ms, DIF_AS_KERNEL, b, s2, st->st_strsize) < 0)
		return 0;
	c = strcmp(s1, s2);
	return c < 0 ? -1 : c > 0;
}

/*
 * Built-in variables.
 */

static uint64_t
dif_builtin_str(dif_mstate_t *ms, uint32_t id)
{
	dif_state_t *st = ms->ms_state;
	const dif_ops_t *ops = st->st_ops;
	int slot;
	char *buf;

	switch (id) {
	case DIF_VAR_PROBEPROV:
		slot = DIF_STR_PROBEPROV;
		break;
	case DIF_VAR_PROBEMOD:
		slot = DIF_STR_PROBEMOD;
		break;
	case DIF_VAR_PROBEFUNC:
		slot = DIF_STR_PROBEFUNC;
		break;
	case DIF_VAR_PROBENAME:
		slot = DIF_STR_PROBENAME;
		break;
	case DIF_VAR_EXECNAME:
		slot = DIF_STR_EXECNAME;
		break;
	case DIF_VAR_ZONENAME:
		slot = DIF_STR_ZONENAME;
		break;
	case DIF_VAR_CWD:
		slot = DIF_STR_CWD;
		break;
	case DIF_VAR_ROOT:
		slot = DIF_STR_ROOT;
		break;
	default:
		slot = DIF_STR_EXECARGS;
		break;
	}
	buf = ms->ms_strbuf + (size_t) slot * st->st_strsize;
	if (!(ms->ms_strvalid & (1U << slot))) {
		if (ops == NULL || ops->do_varstr == NULL ||
		    ops->do_varstr(st->st_arg, id, buf, st->st_strsize) != 0) {
			/* Linux has one zone; everything else must come
			 * from the engine. */
			if (id != DIF_VAR_ZONENAME) {
				dif_fault(ms, DIF_FLT_ILLOP, 0);
				return 0;
			}
			dif_setslot(ms, slot, "global");
		}
		buf[st->st_strsize - 1] = '\0';
		ms->ms_strvalid |= 1U << slot;
	}
	return (uint64_t) (uintptr_t) buf;
}

static uint64_t
dif_builtin(dif_mstate_t *ms, uint32_t id)
{
	dif_state_t *st = ms->ms_state;
	const dif_ops_t *ops = st->st_ops;
	uint64_t val = 0;

	switch (id) {
	case DIF_VAR_ARG0: case DIF_VAR_ARG1: case DIF_VAR_ARG2:
	case DIF_VAR_ARG3: case DIF_VAR_ARG4: case DIF_VAR_ARG5:
	case DIF_VAR_ARG6: case DIF_VAR_ARG7: case DIF_VAR_ARG8:
	case DIF_VAR_ARG9:
		return ms->ms_args[id - DIF_VAR_ARG0];
	case DIF_VAR_EPID:
		return ms->ms_epid;
	case DIF_VAR_ID:
		return ms->ms_id;
	case DIF_VAR_TIMESTAMP:
		return ms->ms_timestamp;
	case DIF_VAR_PROBEPROV: case DIF_VAR_PROBEMOD:
	case DIF_VAR_PROBEFUNC: case DIF_VAR_PROBENAME:
	case DIF_VAR_EXECNAME: case DIF_VAR_ZONENAME: case DIF_VAR_CWD:
	case DIF_VAR_ROOT: case DIF_VAR_EXECARGS:
		return dif_builtin_str(ms, id);
	default:
		break;
	}
	if (ops == NULL || ops->do_var == NULL ||
	    ops->do_var(st->st_arg, id, 0, &val) != 0)
		dif_fault(ms, DIF_FLT_ILLOP, 0);
	return val;
}

static uint64_t
dif_builtin_array(dif_mstate_t *ms, uint32_t id, uint64_t ndx)
{
	dif_state_t *st = ms->ms_state;
	const dif_ops_t *ops = st->st_ops;
	uint64_t val = 0;

	if (id == DIF_VAR_ARGS && ndx < DIF_NARGS)
		return ms->ms_args[ndx];
	if (ops == NULL || ops->do_var == NULL ||
	    ops->do_var(st->st_arg, id, ndx, &val) != 0)
		dif_fault(ms, DIF_FLT_ILLOP, 0);
	return val;
}

/*
 * The loop.
 */

#define R(n) regs[(n) & (DIF_DIR_NREGS - 1)]

int
dif_exec(dif_state_t *st, dif_mstate_t *ms, const dif_object_t *difo,
    uint64_t *resultp)
{
	const dif_instr_t *buf = difo->dif_buf;
	const uint32_t len = difo->dif_len;
	uint64_t regs[DIF_DIR_NREGS];
	dif_tuple_t tup[DIF_DTR_NREGS];
	int ttop = 0;
	bool cc_n = false, cc_z = false, cc_v = false, cc_c = false;
	uint32_t pc = 0, opc;
	uint64_t a, b;

	(void) st;
	memset(regs, 0, sizeof (regs));
	ms->ms_difo = difo;
	ms->ms_fault.df_kind = 0;
	*resultp = 0;

	while (pc < len) {
		dif_instr_t in = buf[pc];
		unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
		unsigned rd = DIF_INSTR_RD(in);
		uint32_t x;

		opc = pc++;
		switch (DIF_INSTR_OP(in)) {
		case DIF_OP_OR:
			R(rd) = R(r1) | R(r2);
			break;
		case DIF_OP_XOR:
			R(rd) = R(r1) ^ R(r2);
			break;
		case DIF_OP_AND:
			R(rd) = R(r1) & R(r2);
			break;
		case DIF_OP_SLL:
			R(rd) = R(r1) << (R(r2) & 63);
			break;
		case DIF_OP_SRL:
			R(rd) = R(r1) >> (R(r2) & 63);
			break;
		case DIF_OP_SRA:
			a = R(r1);
			b = R(r2) & 63;
			/* Arithmetic shift without relying on >> of negatives. */
			R(rd) = (a >> b) | ((a >> 63) && b ? ~(~0ULL >> b) : 0);
			break;
		case DIF_OP_SUB:
			R(rd) = R(r1) - R(r2);
			break;
		case DIF_OP_ADD:
			R(rd) = R(r1) + R(r2);
			break;
		case DIF_OP_MUL:
			R(rd) = R(r1) * R(r2);
			break;
		case DIF_OP_SDIV:
		case DIF_OP_SREM:
			a = R(r1);
			b = R(r2);
			if (b == 0) {
				dif_fault(ms, DIF_FLT_DIVZERO, 0);
				break;
			}
			if (a == (uint64_t) INT64_MIN && b == (uint64_t) -1) {
				R(rd) = DIF_INSTR_OP(in) == DIF_OP_SDIV ? a : 0;
				break;
			}
			R(rd) = DIF_INSTR_OP(in) == DIF_OP_SDIV ?
			    (uint64_t) ((int64_t) a / (int64_t) b) :
			    (uint64_t) ((int64_t) a % (int64_t) b);
			break;
		case DIF_OP_UDIV:
		case DIF_OP_UREM:
			if ((b = R(r2)) == 0) {
				dif_fault(ms, DIF_FLT_DIVZERO, 0);
				break;
			}
			R(rd) = DIF_INSTR_OP(in) == DIF_OP_UDIV ? R(r1) / b :
			    R(r1) % b;
			break;
		case DIF_OP_NOT:
			R(rd) = ~R(r1);
			break;
		case DIF_OP_MOV:
			R(rd) = R(r1);
			break;
		case DIF_OP_CMP:
			a = R(r1);
			b = R(r2);
			cc_z = a == b;
			cc_n = (int64_t) (a - b) < 0;
			/* Signed overflow of a - b: operands differ in sign
			 * and the result's sign differs from a's. */
			cc_v = (((a ^ b) & (a ^ (a - b))) >> 63) != 0;
			cc_c = a < b;
			break;
		case DIF_OP_SCMP: {
			int c = dif_strcmp(ms, R(r1), R(r2));

			cc_n = c < 0;
			cc_z = c == 0;
			cc_v = cc_c = false;
			break;
		}
		case DIF_OP_TST:
			cc_n = (int64_t) R(r1) < 0;
			cc_z = R(r1) == 0;
			cc_v = cc_c = false;
			break;
		case DIF_OP_BA:
		case DIF_OP_BE:
		case DIF_OP_BNE:
		case DIF_OP_BG:
		case DIF_OP_BGU:
		case DIF_OP_BGE:
		case DIF_OP_BGEU:
		case DIF_OP_BL:
		case DIF_OP_BLU:
		case DIF_OP_BLE:
		case DIF_OP_BLEU: {
			bool take;

			switch (DIF_INSTR_OP(in)) {
			case DIF_OP_BA:
				take = true;
				break;
			case DIF_OP_BE:
				take = cc_z;
				break;
			case DIF_OP_BNE:
				take = !cc_z;
				break;
			case DIF_OP_BG:
				take = !(cc_z || (cc_n ^ cc_v));
				break;
			case DIF_OP_BGU:
				take = !(cc_c || cc_z);
				break;
			case DIF_OP_BGE:
				take = !(cc_n ^ cc_v);
				break;
			case DIF_OP_BGEU:
				take = !cc_c;
				break;
			case DIF_OP_BL:
				take = cc_n ^ cc_v;
				break;
			case DIF_OP_BLU:
				take = cc_c;
				break;
			case DIF_OP_BLE:
				take = cc_z || (cc_n ^ cc_v);
				break;
			default: /* BLEU */
				take = cc_c || cc_z;
				break;
			}
			if (!take)
				break;
			if ((x = DIF_INSTR_LABEL(in)) <= opc) {
				dif_fault(ms, DIF_FLT_ILLOP, 0);
				break;
			}
			pc = x;
			break;
		}
		case DIF_OP_LDSB:
		case DIF_OP_RLDSB:
			R(rd) = dif_load(ms, DIF_AS_KERNEL, R(r1), 1, true);
			break;
		case DIF_OP_LDSH:
		case DIF_OP_RLDSH:
			R(rd) = dif_load(ms, DIF_AS_KERNEL, R(r1), 2, true);
			break;
		case DIF_OP_LDSW:
		case DIF_OP_RLDSW:
			R(rd) = dif_load(ms, DIF_AS_KERNEL, R(r1), 4, true);
			break;
		case DIF_OP_LDUB:
		case DIF_OP_RLDUB:
			R(rd) = dif_load(ms, DIF_AS_KERNEL, R(r1), 1, false);
			break;
		case DIF_OP_LDUH:
		case DIF_OP_RLDUH:
			R(rd) = dif_load(ms, DIF_AS_KERNEL, R(r1), 2, false);
			break;
		case DIF_OP_LDUW:
		case DIF_OP_RLDUW:
			R(rd) = dif_load(ms, DIF_AS_KERNEL, R(r1), 4, false);
			break;
		case DIF_OP_LDX:
		case DIF_OP_RLDX:
			R(rd) = dif_load(ms, DIF_AS_KERNEL, R(r1), 8, false);
			break;
		case DIF_OP_ULDSB:
			R(rd) = dif_load(ms, DIF_AS_USER, R(r1), 1, true);
			break;
		case DIF_OP_ULDSH:
			R(rd) = dif_load(ms, DIF_AS_USER, R(r1), 2, true);
			break;
		case DIF_OP_ULDSW:
			R(rd) = dif_load(ms, DIF_AS_USER, R(r1), 4, true);
			break;
		case DIF_OP_ULDUB:
			R(rd) = dif_load(ms, DIF_AS_USER, R(r1), 1, false);
			break;
		case DIF_OP_ULDUH:
			R(rd) = dif_load(ms, DIF_AS_USER, R(r1), 2, false);
			break;
		case DIF_OP_ULDUW:
			R(rd) = dif_load(ms, DIF_AS_USER, R(r1), 4, false);
			break;
		case DIF_OP_ULDX:
			R(rd) = dif_load(ms, DIF_AS_USER, R(r1), 8, false);
			break;
		case DIF_OP_STB:
			dif_store(ms, R(rd), R(r1), 1);
			break;
		case DIF_OP_STH:
			dif_store(ms, R(rd), R(r1), 2);
			break;
		case DIF_OP_STW:
			dif_store(ms, R(rd), R(r1), 4);
			break;
		case DIF_OP_STX:
			dif_store(ms, R(rd), R(r1), 8);
			break;
		case DIF_OP_RET:
			*resultp = R(rd);
			return 0;
		case DIF_OP_NOP:
			break;
		case DIF_OP_SETX:
			if ((x = DIF_INSTR_INTEGER(in)) >= difo->dif_intlen) {
				dif_fault(ms, DIF_FLT_ILLOP, 0);
				break;
			}
			R(rd) = (uint64_t) difo->dif_inttab[x];
			break;
		case DIF_OP_SETS:
			if ((x = DIF_INSTR_STRING(in)) >= difo->dif_strlen) {
				dif_fault(ms, DIF_FLT_ILLOP, 0);
				break;
			}
			R(rd) = (uint64_t) (uintptr_t) (difo->dif_strtab + x);
			break;
		case DIF_OP_LDGA:
			R(rd) = dif_builtin_array(ms, r1, R(r2));
			break;
		case DIF_OP_LDGS:
			x = DIF_INSTR_VAR(in);
			if (x < DIF_VAR_OTHER_UBASE)
				R(rd) = dif_builtin(ms, x);
			else
				(void) dif_ldsvar(ms, DIFV_SCOPE_GLOBAL, x,
				    &R(rd));
			break;
		case DIF_OP_STGS:
			x = DIF_INSTR_VAR(in);
			if (x < DIF_VAR_OTHER_UBASE) {
				dif_fault(ms, DIF_FLT_ILLOP, 0);
				break;
			}
			(void) dif_stsvar(ms, DIFV_SCOPE_GLOBAL, x, R(rd));
			break;
		case DIF_OP_LDLS:
			(void) dif_ldsvar(ms, DIFV_SCOPE_LOCAL,
			    DIF_INSTR_VAR(in), &R(rd));
			break;
		case DIF_OP_STLS:
			(void) dif_stsvar(ms, DIFV_SCOPE_LOCAL,
			    DIF_INSTR_VAR(in), R(rd));
			break;
		case DIF_OP_LDTS:
			(void) dif_lddvar(ms, DIFV_SCOPE_THREAD,
			    DIF_INSTR_VAR(in), false, NULL, 0, &R(rd));
			break;
		case DIF_OP_STTS:
			(void) dif_stdvar(ms, DIFV_SCOPE_THREAD,
			    DIF_INSTR_VAR(in), false, NULL, 0, R(rd));
			break;
		case DIF_OP_LDGAA:
			(void) dif_lddvar(ms, DIFV_SCOPE_GLOBAL,
			    DIF_INSTR_VAR(in), true, tup, ttop, &R(rd));
			break;
		case DIF_OP_STGAA:
			(void) dif_stdvar(ms, DIFV_SCOPE_GLOBAL,
			    DIF_INSTR_VAR(in), true, tup, ttop, R(rd));
			break;
		case DIF_OP_LDTAA:
			(void) dif_lddvar(ms, DIFV_SCOPE_THREAD,
			    DIF_INSTR_VAR(in), true, tup, ttop, &R(rd));
			break;
		case DIF_OP_STTAA:
			(void) dif_stdvar(ms, DIFV_SCOPE_THREAD,
			    DIF_INSTR_VAR(in), true, tup, ttop, R(rd));
			break;
		case DIF_OP_CALL:
			dif_subr(ms, DIF_INSTR_SUBR(in), tup, ttop, &R(rd));
			break;
		case DIF_OP_PUSHTR:
		case DIF_OP_PUSHTV:
			if (ttop >= DIF_DTR_NREGS) {
				dif_fault(ms, DIF_FLT_TUPOFLOW, 0);
				break;
			}
			tup[ttop].tu_value = R(rd);
			tup[ttop].tu_type = (uint8_t) r1;
			tup[ttop].tu_byref = DIF_INSTR_OP(in) == DIF_OP_PUSHTR;
			tup[ttop].tu_size = r1 == DIF_TYPE_STRING ?
			    ms->ms_state->st_strsize : R(r2);
			ttop++;
			break;
		case DIF_OP_POPTS:
			if (ttop > 0)
				ttop--;
			break;
		case DIF_OP_FLUSHTS:
			ttop = 0;
			break;
		case DIF_OP_ALLOCS: {
			void *p = dif_scratch_alloc(ms, R(r1));

			R(rd) = (uint64_t) (uintptr_t) p;
			break;
		}
		case DIF_OP_COPYS: {
			size_t n = R(r2);
			void *dst;

			if (n > ms->ms_scratchsize) {
				dif_fault(ms, DIF_FLT_NOSCRATCH, 0);
				break;
			}
			if ((dst = dif_writable(ms, R(rd), n)) != NULL)
				(void) dif_copyin(ms, DIF_AS_KERNEL, R(r1),
				    dst, n);
			break;
		}
		default:
			/* ldta, xlate, xlarg and unknown opcodes. */
			dif_fault(ms, DIF_FLT_ILLOP, 0);
			break;
		}
		regs[0] = 0;
		if (ms->ms_fault.df_kind != 0) {
			ms->ms_fault.df_offset = (int32_t) (opc *
			    sizeof (dif_instr_t));
			return ms->ms_fault.df_kind;
		}
	}
	/* Fell off the end: only an unverified object gets here. */
	dif_fault(ms, DIF_FLT_ILLOP, 0);
	ms->ms_fault.df_offset = (int32_t) (len * sizeof (dif_instr_t));
	return DIF_FLT_ILLOP;
}

/*
 * Faults, in DTrace's words.
 */

const char *
dif_fault_name(int kind)
{
	switch (kind) {
	case DIF_FLT_BADADDR:
		return "invalid address";
	case DIF_FLT_BADALIGN:
		return "invalid alignment";
	case DIF_FLT_ILLOP:
		return "illegal operation";
	case DIF_FLT_DIVZERO:
		return "divide-by-zero";
	case DIF_FLT_NOSCRATCH:
		return "out of scratch space";
	case DIF_FLT_KPRIV:
		return "invalid kernel access";
	case DIF_FLT_UPRIV:
		return "invalid user access";
	case DIF_FLT_TUPOFLOW:
		return "tuple stack overflow";
	case DIF_FLT_BADSTACK:
		return "bad stack";
	case DIF_FLT_LIBRARY:
		return "library-level fault";
	default:
		return "unknown fault";
	}
}

int
dif_fault_format(const dif_fault_t *f, int action, char *buf, size_t size)
{
	char details[32] = "", where[32], offs[32] = "";

	switch (f->df_kind) {
	case DIF_FLT_BADADDR:
	case DIF_FLT_BADALIGN:
	case DIF_FLT_BADSTACK:
		snprintf(details, sizeof (details), " (0x%" PRIx64 ")",
		    f->df_addr);
		break;
	default:
		break;
	}
	if (action == 0)
		snprintf(where, sizeof (where), "predicate");
	else
		snprintf(where, sizeof (where), "action #%d", action);
	if (f->df_offset >= 0)
		snprintf(offs, sizeof (offs), " at DIF offset %d",
		    (int) f->df_offset);
	return snprintf(buf, size, "%s%s in %s%s", dif_fault_name(f->df_kind),
	    details, where, offs);
}
