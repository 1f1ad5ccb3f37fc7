/* SPDX-License-Identifier: MIT */
/*
 * x86_sites.c: probe sites of an x86-64 function (see x86_sites.h).
 *
 * The function is decoded by a linear sweep from its first byte to its
 * last, which is only right if every byte in [addr, addr + size) belongs
 * to an instruction reached in that order.  Data in text breaks that
 * assumption silently: a jump table or constant pool usually decodes as
 * some instruction sequence, and if it ends off an instruction boundary
 * every site after it is wrong.  So two passes:
 *
 *   1. decode everything, recording which offsets start an instruction
 *      and which follow an unconditional transfer (jmp, ret, ...), the
 *      only places data can sit without being executed;
 *   2. check what the code says about itself, and refuse the function
 *      when it contradicts the sweep:
 *	- a direct call, jump, jcc, loop, jrcxz or xbegin whose target is
 *	  inside the function but not an instruction boundary;
 *	- a memory operand whose address is known statically (RIP-relative,
 *	  or absolute with no base register, e.g. the non-PIC table jump
 *	  "jmp *table(,%rax,8)") that points inside the function: code does
 *	  not read or jump through its own instructions, so it is data
 *	  (the 64-bit absolute moffs of mov A0-A3 is checked the same way).
 *	  The exceptions are lea (taking an address, possibly of code) and
 *	  the hint nops and prefetches, which access nothing; but an lea
 *	  of an offset that no instruction falls through to is taken as the
 *	  start of a table (the PIC switch pattern "lea table(%rip), %rdx;
 *	  movslq (%rdx,%rax,4), %rax; add %rdx, %rax; jmp *%rax" with the
 *	  table placed right after the jmp), and refused too.  A GNU C
 *	  computed-goto label that is neither fallen into nor the target
 *	  of a direct branch is refused with it: a lost probe is better
 *	  than a corrupted process.
 *
 * Not detected (the sites would be wrong, so the caller must not trust
 * symbols that could hide these):
 *	- data in text that nothing in the function addresses statically,
 *	  e.g. a table whose address is computed from another function's
 *	  lea, or bytes after the last instruction that happen to decode;
 *	- a table at the end of a function that decodes cleanly and is
 *	  addressed only through a register loaded elsewhere;
 *	- overlapping instructions reached by an indirect jump;
 *	- a symbol size that is wrong (covers two functions, or too little).
 * And, deliberately: a jump into the middle of an instruction also occurs
 * in valid code (the old glibc idiom "je 1f; lock; 1: cmpxchg" jumps past
 * a lock prefix); such functions are refused as a whole, conservatively.
 *
 * Whether an individual instruction can be probed is the emulator's
 * decision (x86_strategy()); the reason texts here describe its rules.
 */

#include <stdlib.h>
#include <string.h>

#include "isa/x86_64/x86_decode.h"
#include "isa/x86_64/x86_emulate.h"
#include "isa/x86_64/x86_sites.h"

/* Function-level refusals. */
static const char x86_r_invalid[] =
    "bytes that do not decode as an instruction (data in text?)";
static const char x86_r_short[] =
    "an instruction runs past the end of the function";
static const char x86_r_midinsn[] =
    "a branch lands inside an instruction";
static const char x86_r_jtable[] =
    "an indirect jump goes through a table inside the function";
static const char x86_r_data[] =
    "an instruction accesses data inside the function";
static const char x86_r_lea[] =
    "the function takes the address of embedded data (a jump table?)";
static const char x86_r_toobig[] =
    "the function is too large to scan";
static const char x86_r_empty[] =
    "the function has no code (size 0)";

static int
x86_bit(const uint8_t *map, size_t i)
{
	return ((map[i >> 3] >> (i & 7)) & 1);
}

static void
x86_setbit(uint8_t *map, size_t i)
{
	map[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* Control never continues with the next instruction. */
static int
x86_is_uncond(const x86_insn_t *in)
{
	switch ((x86_cf_t)in->cf) {
	case X86_CF_JMP:
	case X86_CF_JMP_IND:
	case X86_CF_JMP_FAR:
	case X86_CF_RET:
	case X86_CF_RET_FAR:
	case X86_CF_IRET:
	case X86_CF_UD:
		return (1);
	default:
		return (0);
	}
}

/* Relative branches that can leave the function without returning to it. */
static int
x86_is_rel_jump(const x86_insn_t *in)
{
	switch ((x86_cf_t)in->cf) {
	case X86_CF_JMP:
	case X86_CF_JCC:
	case X86_CF_LOOP:
	case X86_CF_JRCXZ:
		return (1);
	default:
		return (0);
	}
}

static int
x86_is_lea(const x86_insn_t *in)
{
	return (in->vex == X86_VEX_NONE && in->map == X86_MAP_1B &&
	    in->opcode == 0x8d);
}

/* Instructions with a memory operand that they never access. */
static int
x86_is_hint(const x86_insn_t *in)
{
	return (in->vex == X86_VEX_NONE && in->map == X86_MAP_0F &&
	    (in->opcode == 0x0d || in->opcode == 0x18 || in->opcode == 0x1f));
}

/*
 * The address of in's memory operand when it does not depend on
 * registers: RIP-relative, or a disp32 with no base register (the table
 * base when there is an index).  FS and GS overrides add a per-thread
 * base (the stack protector's %fs:0x28), so those are not static.
 */
static int
x86_static_addr(const x86_insn_t *in, uint64_t *ap)
{
	const x86_mem_t *m = &in->mem;

	if (in->seg == X86_SEG_FS || in->seg == X86_SEG_GS)
		return (0);
	if (in->vex == X86_VEX_NONE && in->map == X86_MAP_1B &&
	    in->opcode >= 0xa0 && in->opcode <= 0xa3) {
		/* mov with a 64-bit (or, with 67, 32-bit) absolute moffs */
		*ap = (uint64_t)in->disp;
		if (in->disp_size == 4)
			*ap &= 0xffffffffULL;
		return (1);
	}
	if (!in->has_mem)
		return (0);
	if (m->base == X86_RIP) {
		*ap = in->target;
	} else if (m->base == X86_REG_NONE) {
		*ap = (uint64_t)(int64_t)m->disp;
		if (m->addr32)
			*ap &= 0xffffffffULL;
	} else {
		return (0);
	}
	return (1);
}

/* The emulator's reason, in words, for refusing in. */
static const char *
x86_refusal(const x86_insn_t *in)
{
	switch ((x86_cf_t)in->cf) {
	case X86_CF_INT3:
		return ("int3: a breakpoint or trap is already here");
	case X86_CF_UD:
		return ("ud0/ud1/ud2 raise #UD by design");
	case X86_CF_CALL_FAR:
	case X86_CF_JMP_FAR:
	case X86_CF_RET_FAR:
		return ("far call, jump or return");
	case X86_CF_IRET:
		return ("iret");
	case X86_CF_SYSCALL:
		return ("sysenter is not usable from 64-bit user code");
	case X86_CF_SYSRET:
		return ("sysret and sysexit are privileged");
	case X86_CF_XBEGIN:
		return ("xbegin: its abort address is relative to it");
	case X86_CF_LOOP:
		return ("loop with a 66 or 67 prefix: its effect on %rcx "
		    "is not pinned down");
	case X86_CF_CALL:
	case X86_CF_JMP:
	case X86_CF_JCC:
	case X86_CF_JRCXZ:
	case X86_CF_RET:
	case X86_CF_CALL_IND:
	case X86_CF_JMP_IND:
		return ("near branch with a 66 prefix: Intel and AMD "
		    "processors run it differently");
	default:
		return ("the instruction can be neither emulated nor run "
		    "out of line");
	}
}

static void
x86_push(x86_sites_t *s, const x86_insn_t *in, size_t off,
    x86_site_kind_t kind, int tail)
{
	x86_site_t *st = &s->sites[s->nsites++];
	x86_strategy_t strat = x86_strategy(in);

	st->off = (uint32_t)off;
	st->len = in->len;
	st->kind = (uint8_t)kind;
	st->cf = in->cf;
	st->strategy = (uint8_t)strat;
	st->tailcall = (uint8_t)(tail != 0);
	st->probeable = (strat != X86_STRAT_REFUSE);
	st->reason = st->probeable ? NULL : x86_refusal(in);
}

static int
x86_refuse(x86_sites_t *s, const char *why, size_t off)
{
	free(s->sites);
	s->sites = NULL;
	s->nsites = 0;
	s->refused = why;
	s->refused_off = off;
	return (X86_SITES_REFUSED);
}

/*
 * Pass 2 for one instruction at off: check it against the sweep (returns
 * a refusal reason, or NULL) and say whether it is a tail call.
 */
static const char *
x86_check(const x86_sites_t *s, const x86_insn_t *in, const uint8_t *starts,
    const uint8_t *reached, int *tailp)
{
	uint64_t a, t;

	*tailp = 0;
	if (in->is_rel) {
		t = in->target - s->addr;
		if (t < s->size && !x86_bit(starts, (size_t)t))
			return (x86_r_midinsn);
		if (t >= s->size && x86_is_rel_jump(in))
			*tailp = 1;
	}
	if (x86_static_addr(in, &a) && a - s->addr < s->size) {
		t = a - s->addr;
		if (x86_is_hint(in))
			return (NULL);
		if (x86_is_lea(in)) {
			if (!x86_bit(starts, (size_t)t) ||
			    !x86_bit(reached, (size_t)t))
				return (x86_r_lea);
			return (NULL);
		}
		if (in->cf == X86_CF_JMP_IND || in->cf == X86_CF_CALL_IND)
			return (x86_r_jtable);
		return (x86_r_data);
	}
	return (NULL);
}

int
x86_sites_scan(const uint8_t *code, size_t size, uint64_t addr,
    x86_sites_t *out)
{
	uint8_t *starts = NULL, *reached = NULL;
	x86_insn_t in;
	size_t off, nmax, mapsz;
	const char *why;
	int rc, tail;

	memset(out, 0, sizeof (*out));
	out->addr = addr;
	out->size = size;
	if (size == 0)
		return (x86_refuse(out, x86_r_empty, 0));
	if (size > UINT32_MAX)
		return (x86_refuse(out, x86_r_toobig, 0));

	/*
	 * starts: offsets where an instruction begins.  reached: offsets that
	 * control visibly gets to: the entry, those the previous instruction
	 * falls through to, and the targets of direct branches.  One bit
	 * more than size, for the end.
	 */
	mapsz = size / 8 + 1;
	starts = calloc(mapsz, 1);
	reached = calloc(mapsz, 1);
	if (starts == NULL || reached == NULL) {
		rc = X86_SITES_ENOMEM;
		goto done;
	}
	x86_setbit(reached, 0);

	/* Pass 1.  nmax bounds the sites: entry, offsets, returns. */
	nmax = 1;
	for (off = 0; off < size; off += in.len) {
		rc = x86_decode(code + off, size - off, addr + off, 0, &in);
		if (rc != 0) {
			rc = x86_refuse(out, rc == X86_DEC_SHORT ?
			    x86_r_short : x86_r_invalid, off);
			goto done;
		}
		x86_setbit(starts, off);
		if (!x86_is_uncond(&in))
			x86_setbit(reached, off + in.len);
		if (in.is_rel && in.target - addr < size)
			x86_setbit(reached, (size_t)(in.target - addr));
		out->ninsns++;
		nmax += (in.cf == X86_CF_RET || x86_is_rel_jump(&in)) ? 2 : 1;
	}

	out->sites = calloc(nmax, sizeof (x86_site_t));
	if (out->sites == NULL) {
		rc = X86_SITES_ENOMEM;
		goto done;
	}

	/* Pass 2. */
	for (off = 0; off < size; off += in.len) {
		(void) x86_decode(code + off, size - off, addr + off, 0, &in);
		why = x86_check(out, &in, starts, reached, &tail);
		if (why != NULL) {
			rc = x86_refuse(out, why, off);
			goto done;
		}
		if (off == 0)
			x86_push(out, &in, off, X86_SITE_ENTRY, 0);
		x86_push(out, &in, off, X86_SITE_OFFSET, 0);
		if (in.cf == X86_CF_RET || tail)
			x86_push(out, &in, off, X86_SITE_RETURN, tail);
	}
	rc = X86_SITES_OK;
done:
	if (rc == X86_SITES_ENOMEM) {
		free(out->sites);
		memset(out, 0, sizeof (*out));
		out->addr = addr;
		out->size = size;
	}
	free(starts);
	free(reached);
	return (rc);
}

void
x86_sites_free(x86_sites_t *s)
{
	if (s == NULL)
		return;
	free(s->sites);
	s->sites = NULL;
	s->nsites = 0;
}

const x86_site_t *
x86_sites_get(const x86_sites_t *s, size_t i)
{
	return (i < s->nsites ? &s->sites[i] : NULL);
}

const x86_site_t *
x86_sites_find(const x86_sites_t *s, x86_site_kind_t kind, size_t off)
{
	size_t lo = 0, hi = s->nsites, mid;

	/* sites[] is sorted by (offset, kind): find the first at off. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->sites[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nsites && s->sites[lo].off == off; lo++) {
		if (s->sites[lo].kind == (uint8_t)kind)
			return (&s->sites[lo]);
	}
	return (NULL);
}

const char *
x86_site_kind_name(x86_site_kind_t kind)
{
	switch (kind) {
	case X86_SITE_ENTRY:
		return ("entry");
	case X86_SITE_OFFSET:
		return ("offset");
	case X86_SITE_RETURN:
		return ("return");
	}
	return ("?");
}
