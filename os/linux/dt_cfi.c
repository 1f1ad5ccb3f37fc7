/* SPDX-License-Identifier: MIT */
/*
 * dt_cfi.c: .eh_frame and .debug_frame parsed into unwind tables, and the
 * C walk of a user stack over them.  See dt_cfi.h.
 *
 * Both sections are a sequence of entries, each a length and an ID: a
 * CIE (common information: alignment factors, the return address column,
 * the pointer encoding of its FDEs, and initial instructions) or an FDE
 * (one range of code: its CIE, start, length and instructions).  Running
 * the CIE's and then the FDE's instructions from the start of the range
 * gives the rule at each address where it changes; each such address
 * becomes a row, and the end of the range a row with the frame-pointer
 * rule (the gap to the next range).  Only what the unwinders need is
 * kept: the CFA rule, the caller's frame pointer and the return address
 * column, in the DWARF numbers of the ELF file's machine (dt_cfi_abis[]):
 * x86-64's return address must be the word at CFA - 8; arm64's is in the
 * link register until saved, in a word below the CFA after, and is
 * signed between paciasp and autiasp (DW_CFA_AARCH64_negate_ra_state).
 *
 * The differences between the two sections: .eh_frame's CIE ID is 0 and
 * an FDE's CIE pointer is relative to itself, its addresses encoded as
 * the CIE's 'R' augmentation says (usually relative to where they are);
 * .debug_frame's CIE ID is all ones, the CIE pointer a section offset,
 * addresses absolute.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/dt_cfi.h"
#include "os/linux/dt_elfsym.h"

/* DW_CFA_* opcodes (the DWARF standard's numbers). */
enum {
	CFA_nop = 0x00, CFA_set_loc = 0x01, CFA_advance_loc1 = 0x02,
	CFA_advance_loc2 = 0x03, CFA_advance_loc4 = 0x04,
	CFA_offset_extended = 0x05, CFA_restore_extended = 0x06,
	CFA_undefined = 0x07, CFA_same_value = 0x08, CFA_register = 0x09,
	CFA_remember_state = 0x0a, CFA_restore_state = 0x0b,
	CFA_def_cfa = 0x0c, CFA_def_cfa_register = 0x0d,
	CFA_def_cfa_offset = 0x0e, CFA_def_cfa_expression = 0x0f,
	CFA_expression = 0x10, CFA_offset_extended_sf = 0x11,
	CFA_def_cfa_sf = 0x12, CFA_def_cfa_offset_sf = 0x13,
	CFA_val_offset = 0x14, CFA_val_offset_sf = 0x15,
	CFA_val_expression = 0x16, CFA_AARCH64_negate_ra_state = 0x2d,
	CFA_GNU_args_size = 0x2e,
	CFA_GNU_negative_offset_extended = 0x2f,
	/* high two bits */
	CFA_advance_loc = 0x40, CFA_offset = 0x80, CFA_restore = 0xc0,
};

/*
 * What a processor's CFI names: the DWARF numbers of its stack pointer,
 * frame pointer and return address column, and where its return address
 * may be.  The ELF file's machine picks one, not the machine dtrace runs
 * on: the tables describe the traced code.
 */
typedef struct dt_cfi_abi {
	uint16_t ca_machine;	/* ELF e_machine */
	uint8_t ca_sp, ca_fp, ca_ra;
	uint8_t ca_ra_slots;	/* the largest DT_CFI_RA_SLOT of a row */
	bool ca_lr;		/* the return address starts in a register */
} dt_cfi_abi_t;

static const dt_cfi_abi_t dt_cfi_abis[] = {
	/* The call pushes the return address: always at CFA - 8. */
	{ EM_X86_64, 7, 6, 16, 0, false },
	/*
	 * bl leaves it in x30, which a function that calls saves in its
	 * frame: stp x29, x30, [sp, #-N]! puts it at CFA - N + 8, N at
	 * most 512.
	 */
	{ EM_AARCH64, 31, 29, 30, DT_CFI_RA_SLOT, true },
};

/* cr_cfa_reg of a gap's row while the rows are sorted (dt_cfi_sort()) */
#define DT_CFI_GAP 0xff

/* How a register is recovered. */
enum { R_SAME, R_UNDEF, R_OFFSET, R_OTHER };

typedef struct dt_cfi_reg {
	uint8_t kind;
	int64_t off;	/* R_OFFSET: saved at CFA + off */
} dt_cfi_reg_t;

typedef struct dt_cfi_state {
	int cfa_reg;	/* -1: an expression */
	int64_t cfa_off;
	dt_cfi_reg_t fp, ra;
	bool ra_signed;	/* arm64: the return address is signed */
} dt_cfi_state_t;

#define DT_CFI_STACK 16	/* remember_state depth */

/* A section being read, bounds-checked. */
typedef struct dt_cfi_rd {
	const uint8_t *p, *end;
	bool bad;
} dt_cfi_rd_t;

typedef struct dt_cfi_sec {
	const uint8_t *data;
	size_t size;
	uint64_t addr;	/* sh_addr: for pc-relative pointers */
	bool eh;	/* .eh_frame, not .debug_frame */
	const dt_cfi_abi_t *abi;
} dt_cfi_sec_t;

typedef struct dt_cfi_cie {
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra_reg;
	uint8_t fde_enc;
	bool aug_z;
	bool signal;
	const uint8_t *insns, *insns_end;
} dt_cfi_cie_t;

/* The rows built so far. */
typedef struct dt_cfi_vec {
	dt_cfi_row_t *v;
	size_t n, cap;
	bool nomem;
} dt_cfi_vec_t;

static uint64_t
rd_u(dt_cfi_rd_t *r, size_t n)
{
	uint64_t v = 0;

	if (r->bad || (size_t) (r->end - r->p) < n) {
		r->bad = true;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t) r->p[i] << (8 * i);
	r->p += n;
	return v;
}

/* A LEB128 number, sign-extended when sgn. */
static uint64_t
rd_leb(dt_cfi_rd_t *r, bool sgn)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		if (r->bad || r->p >= r->end) {
			r->bad = true;
			return 0;
		}
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t) (b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sgn && shift < 64 && (b & 0x40))
		v |= ~(uint64_t) 0 << shift;
	return v;
}

#define rd_uleb(r) rd_leb((r), false)
#define rd_sleb(r) ((int64_t) rd_leb((r), true))

/*
 * An operand times the CIE's alignment factor.  The file says what both
 * are, so the product may not fit: it wraps (in unsigned arithmetic,
 * where that is defined) to an offset no row accepts.
 */
static int64_t
dt_cfi_scale(uint64_t v, int64_t factor)
{
	return (int64_t) (v * (uint64_t) factor);
}

/*
 * A pointer in DW_EH_PE encoding enc; pc-relative ones are relative to
 * their own address in the section.  Encodings x86-64 toolchains do not
 * emit (text-, data-, function-relative, indirect) mark the reader bad.
 */
static uint64_t
rd_ptr(dt_cfi_rd_t *r, const dt_cfi_sec_t *s, uint8_t enc)
{
	uint64_t here = s->addr + (uint64_t) (r->p - s->data);
	uint64_t v;

	if (enc == 0xff) {	/* DW_EH_PE_omit */
		r->bad = true;
		return 0;
	}
	switch (enc & 0x0f) {
	case 0x00: v = rd_u(r, 8); break;			/* absptr */
	case 0x01: v = rd_uleb(r); break;
	case 0x02: v = rd_u(r, 2); break;
	case 0x03: v = rd_u(r, 4); break;
	case 0x04: v = rd_u(r, 8); break;
	case 0x09: v = (uint64_t) rd_sleb(r); break;
	case 0x0a: v = (uint64_t) (int64_t) (int16_t) rd_u(r, 2); break;
	case 0x0b: v = (uint64_t) (int64_t) (int32_t) rd_u(r, 4); break;
	case 0x0c: v = rd_u(r, 8); break;
	default:
		r->bad = true;
		return 0;
	}
	switch (enc & 0x70) {
	case 0x00:
		return v;
	case 0x10:
		return v + here;
	default:
		r->bad = true;
		return 0;
	}
}

static void
vec_add(dt_cfi_vec_t *vec, uint64_t pc, const dt_cfi_row_t *rule)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 1024;
		dt_cfi_row_t *v = realloc(vec->v, cap * sizeof (*v));

		if (v == NULL) {
			vec->nomem = true;
			return;
		}
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n] = *rule;
	vec->v[vec->n].cr_pc = pc;
	vec->n++;
}

static const dt_cfi_row_t dt_cfi_fprule = {
	0, 16, DT_CFI_FP, 0, -16
};

/*
 * The end of a range with CFI: the frame-pointer rule, unless a range
 * starts at the same address (DT_CFI_GAP marks it until dt_cfi_sort()).
 */
static void
dt_cfi_gap(dt_cfi_vec_t *vec, uint64_t pc)
{
	vec_add(vec, pc, &dt_cfi_fprule);
	if (!vec->nomem)
		vec->v[vec->n - 1].cr_cfa_reg = DT_CFI_GAP;
}

/*
 * The return address's place in a row (cr_ra): -1 when a row cannot say
 * it.
 */
static int
dt_cfi_ra(const dt_cfi_state_t *st, const dt_cfi_abi_t *abi)
{
	int64_t slot;

	if (st->ra.kind == R_SAME && abi->ca_lr)
		return DT_CFI_RA_LR;
	if (st->ra.kind != R_OFFSET || st->ra.off > -8 || st->ra.off % 8 != 0)
		return -1;
	slot = (-8 - st->ra.off) / 8;
	return slot <= abi->ca_ra_slots ? (int) slot : -1;
}

/* The row a state gives. */
static dt_cfi_row_t
dt_cfi_rule(const dt_cfi_state_t *st, const dt_cfi_abi_t *abi)
{
	dt_cfi_row_t row = dt_cfi_fprule;
	int ra = dt_cfi_ra(st, abi);

	if (st->ra.kind == R_UNDEF) {
		memset(&row, 0, sizeof (row));
		row.cr_cfa_reg = DT_CFI_STOP;
		return row;
	}
	/*
	 * The frame-pointer rule reads the return address from a frame
	 * record, which a signing function has signed too.
	 */
	if (st->ra_signed)
		row.cr_ra = DT_CFI_RA_PAC;
	if ((st->cfa_reg != abi->ca_sp && st->cfa_reg != abi->ca_fp) ||
	    st->cfa_off < INT32_MIN || st->cfa_off > INT32_MAX || ra < 0)
		return row;
	row.cr_cfa_reg = st->cfa_reg == abi->ca_sp ? DT_CFI_SP : DT_CFI_FP;
	row.cr_cfa_off = (int32_t) st->cfa_off;
	row.cr_ra |= (uint8_t) ra;
	row.cr_fp_off = 0;
	if (st->fp.kind == R_OFFSET && st->fp.off != 0 &&
	    st->fp.off >= INT16_MIN && st->fp.off <= INT16_MAX)
		row.cr_fp_off = (int16_t) st->fp.off;
	return row;
}

static dt_cfi_reg_t *
dt_cfi_regp(dt_cfi_state_t *st, const dt_cfi_abi_t *abi, uint64_t reg)
{
	if (reg == abi->ca_fp)
		return &st->fp;
	if (reg == abi->ca_ra)
		return &st->ra;
	return NULL;	/* a register the unwinder does not follow */
}

/*
 * Run instructions [p, end) from state *st; with vec, add a row at each
 * address where the rule changes, from *locp up to lend.  init is the
 * state after the CIE's instructions (for DW_CFA_restore).  -1 on an
 * instruction that cannot be read.
 */
static int
dt_cfi_run(const dt_cfi_cie_t *cie, const dt_cfi_sec_t *s, const uint8_t *p,
    const uint8_t *end, dt_cfi_state_t *st, const dt_cfi_state_t *init,
    uint64_t *locp, dt_cfi_vec_t *vec)
{
	dt_cfi_rd_t r = { p, end, false };
	dt_cfi_state_t stack[DT_CFI_STACK];
	int depth = 0;

	while (r.p < r.end && !r.bad) {
		uint8_t op = *r.p++;
		uint64_t reg, adv = UINT64_MAX, loc = 0;
		dt_cfi_reg_t *rp;
		int64_t off;

		switch (op & 0xc0) {
		case CFA_advance_loc:
			adv = (op & 0x3f) * cie->code_align;
			break;
		case CFA_offset:
			off = dt_cfi_scale(rd_uleb(&r), cie->data_align);
			if ((rp = dt_cfi_regp(st, s->abi, op & 0x3f)) != NULL)
				*rp = (dt_cfi_reg_t) { R_OFFSET, off };
			continue;
		case CFA_restore:
			if ((rp = dt_cfi_regp(st, s->abi, op & 0x3f)) != NULL)
				*rp = *dt_cfi_regp((dt_cfi_state_t *) init,
				    s->abi, op & 0x3f);
			continue;
		default:
			break;
		}
		switch (adv != UINT64_MAX ? 0xff : op) {
		case 0xff:
			break;
		case CFA_nop:
		case CFA_GNU_args_size:
			if (op == CFA_GNU_args_size)
				(void) rd_uleb(&r);
			continue;
		case CFA_set_loc:
			loc = rd_ptr(&r, s, cie->fde_enc);
			if (loc < *locp)
				return -1;
			adv = loc - *locp;
			break;
		case CFA_advance_loc1:
			adv = rd_u(&r, 1) * cie->code_align;
			break;
		case CFA_advance_loc2:
			adv = rd_u(&r, 2) * cie->code_align;
			break;
		case CFA_advance_loc4:
			adv = rd_u(&r, 4) * cie->code_align;
			break;
		case CFA_offset_extended:
			reg = rd_uleb(&r);
			off = dt_cfi_scale(rd_uleb(&r), cie->data_align);
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				*rp = (dt_cfi_reg_t) { R_OFFSET, off };
			continue;
		case CFA_offset_extended_sf:
			reg = rd_uleb(&r);
			off = dt_cfi_scale(rd_leb(&r, true), cie->data_align);
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				*rp = (dt_cfi_reg_t) { R_OFFSET, off };
			continue;
		case CFA_GNU_negative_offset_extended:
			reg = rd_uleb(&r);
			off = dt_cfi_scale(-rd_uleb(&r), cie->data_align);
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				*rp = (dt_cfi_reg_t) { R_OFFSET, off };
			continue;
		case CFA_restore_extended:
			reg = rd_uleb(&r);
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				*rp = *dt_cfi_regp((dt_cfi_state_t *) init,
				    s->abi, reg);
			continue;
		case CFA_undefined:
		case CFA_same_value:
			reg = rd_uleb(&r);
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				rp->kind = op == CFA_undefined ? R_UNDEF :
				    R_SAME;
			continue;
		case CFA_register:
			reg = rd_uleb(&r);
			(void) rd_uleb(&r);
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				rp->kind = R_OTHER;
			continue;
		case CFA_val_offset:
		case CFA_val_offset_sf:
			reg = rd_uleb(&r);
			if (op == CFA_val_offset)
				(void) rd_uleb(&r);
			else
				(void) rd_sleb(&r);
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				rp->kind = R_OTHER;
			continue;
		case CFA_expression:
		case CFA_val_expression:
			reg = rd_uleb(&r);
			off = (int64_t) rd_uleb(&r);
			if (off < 0 || off > r.end - r.p) {
				r.bad = true;
				continue;
			}
			r.p += off;
			if ((rp = dt_cfi_regp(st, s->abi, reg)) != NULL)
				rp->kind = R_OTHER;
			continue;
		case CFA_remember_state:
			if (depth == DT_CFI_STACK)
				return -1;
			stack[depth++] = *st;
			continue;
		case CFA_restore_state:
			if (depth == 0)
				return -1;
			/* The CFA rule is restored too (DWARF 5 6.4.2.4). */
			*st = stack[--depth];
			continue;
		case CFA_def_cfa:
			st->cfa_reg = (int) rd_uleb(&r);
			st->cfa_off = (int64_t) rd_uleb(&r);
			continue;
		case CFA_def_cfa_sf:
			st->cfa_reg = (int) rd_uleb(&r);
			st->cfa_off = dt_cfi_scale(rd_leb(&r, true),
			    cie->data_align);
			continue;
		case CFA_def_cfa_register:
			st->cfa_reg = (int) rd_uleb(&r);
			continue;
		case CFA_def_cfa_offset:
			st->cfa_off = (int64_t) rd_uleb(&r);
			continue;
		case CFA_def_cfa_offset_sf:
			st->cfa_off = dt_cfi_scale(rd_leb(&r, true),
			    cie->data_align);
			continue;
		case CFA_def_cfa_expression:
			off = (int64_t) rd_uleb(&r);
			if (off < 0 || off > r.end - r.p) {
				r.bad = true;
				continue;
			}
			r.p += off;
			st->cfa_reg = -1;
			continue;
		case CFA_AARCH64_negate_ra_state:
			/* On other processors, another opcode (SPARC's). */
			if (s->abi->ca_machine != EM_AARCH64)
				return -1;
			st->ra_signed = !st->ra_signed;
			continue;
		default:
			return -1;	/* vendor opcodes we cannot skip */
		}
		/* An advance: the rule so far covers [*locp, *locp + adv). */
		if (vec != NULL && adv > 0) {
			dt_cfi_row_t row = dt_cfi_rule(st, s->abi);

			vec_add(vec, *locp, &row);
		}
		*locp += adv;
	}
	return r.bad ? -1 : 0;
}

/* Parse the CIE at offset off of the section. */
static int
dt_cfi_cie(const dt_cfi_sec_t *s, uint64_t off, dt_cfi_cie_t *cie)
{
	dt_cfi_rd_t r = { s->data, s->data + s->size, false };
	const char *aug;
	uint64_t len, id;
	uint8_t version;
	const uint8_t *end;

	/* An FDE's CIE pointer may point anywhere: check before moving. */
	if (off >= s->size)
		return -1;
	r.p += off;
	memset(cie, 0, sizeof (*cie));
	len = rd_u(&r, 4);
	if (len == 0xffffffff)
		len = rd_u(&r, 8);
	if (r.bad || len > (uint64_t) (r.end - r.p))
		return -1;
	end = r.p + len;
	r.end = end;
	id = rd_u(&r, 4);
	if (id != (s->eh ? 0 : 0xffffffff))
		return -1;
	version = (uint8_t) rd_u(&r, 1);
	aug = (const char *) r.p;
	while (r.p < r.end && *r.p != '\0')
		r.p++;
	if (r.p >= r.end)
		return -1;
	r.p++;
	if (version >= 4)
		(void) rd_u(&r, 2);	/* address and segment sizes */
	cie->code_align = rd_uleb(&r);
	cie->data_align = rd_sleb(&r);
	cie->ra_reg = version == 1 ? rd_u(&r, 1) : rd_uleb(&r);
	cie->fde_enc = s->eh ? 0 : 0x04;	/* absptr: 8 bytes */
	if (aug[0] == 'z') {
		uint64_t alen = rd_uleb(&r);
		const uint8_t *aend;

		cie->aug_z = true;
		if (r.bad || alen > (uint64_t) (r.end - r.p))
			return -1;
		aend = r.p + alen;
		for (const char *a = aug + 1; *a != '\0' && !r.bad; a++) {
			uint8_t enc;

			switch (*a) {
			case 'L':
				(void) rd_u(&r, 1);
				break;
			case 'R':
				cie->fde_enc = (uint8_t) rd_u(&r, 1);
				break;
			case 'P':
				enc = (uint8_t) rd_u(&r, 1);
				/* the personality routine: skipped */
				(void) rd_ptr(&r, s, enc & 0x0f);
				break;
			case 'S':
				cie->signal = true;
				break;
			default:
				/* unknown: the length lets us skip the rest */
				r.p = aend;
				break;
			}
			if (r.p == aend)
				break;
		}
		r.p = aend;
	} else if (aug[0] != '\0') {
		return -1;
	}
	if (r.bad)
		return -1;
	cie->insns = r.p;
	cie->insns_end = end;
	return 0;
}

/* Every FDE of a section into rows; 0, or -1 when out of memory. */
static int
dt_cfi_section(const dt_cfi_sec_t *s, dt_cfi_vec_t *vec)
{
	uint64_t off = 0;

	while (off + 4 <= s->size) {
		dt_cfi_rd_t r = { s->data + off, s->data + s->size, false };
		uint64_t len, idpos, id, start, range, loc;
		dt_cfi_state_t init, st;
		const uint8_t *end;
		dt_cfi_cie_t cie;
		bool dwarf64 = false;

		len = rd_u(&r, 4);
		if (len == 0)	/* the terminator in .eh_frame */
			break;
		if (len == 0xffffffff) {
			len = rd_u(&r, 8);
			dwarf64 = true;
		}
		if (r.bad || len > (uint64_t) (r.end - r.p))
			break;
		end = r.p + len;
		r.end = end;
		idpos = (uint64_t) (r.p - s->data);
		id = rd_u(&r, dwarf64 ? 8 : 4);
		off = (uint64_t) (end - s->data);
		if (id == (s->eh ? 0 : (dwarf64 ? UINT64_MAX : 0xffffffff)))
			continue;	/* a CIE: read with its FDEs */
		if (dt_cfi_cie(s, s->eh ? idpos - id : id, &cie) != 0 ||
		    cie.signal || cie.ra_reg != s->abi->ca_ra)
			continue;
		start = rd_ptr(&r, s, cie.fde_enc);
		range = rd_ptr(&r, s, cie.fde_enc & 0x0f);
		if (cie.aug_z) {
			uint64_t alen = rd_uleb(&r);

			if (alen > (uint64_t) (r.end - r.p))
				continue;
			r.p += alen;
		}
		if (r.bad || start == 0 || range == 0)
			continue;
		memset(&init, 0, sizeof (init));
		init.cfa_reg = -1;
		init.fp.kind = R_SAME;
		/* arm64's CIE leaves x30 to the ABI: it holds the address */
		init.ra.kind = s->abi->ca_lr ? R_SAME : R_OTHER;
		loc = start;
		if (dt_cfi_run(&cie, s, cie.insns, cie.insns_end, &init,
		    &init, &loc, NULL) != 0)
			continue;
		st = init;
		loc = start;
		if (dt_cfi_run(&cie, s, r.p, end, &st, &init, &loc, vec) != 0) {
			/* Rows already added up to the bad one stay. */
			continue;
		}
		if (loc < start + range) {
			dt_cfi_row_t row = dt_cfi_rule(&st, s->abi);

			vec_add(vec, loc, &row);
		}
		dt_cfi_gap(vec, start + range);
	}
	return vec->nomem ? -1 : 0;
}

/*
 * Sort rows by address; of two at one address, a range's own rule wins
 * over the gap after the range before it (DT_CFI_GAP while sorting).
 */
static int
dt_cfi_cmp(const void *a, const void *b)
{
	const dt_cfi_row_t *l = a, *r = b;

	if (l->cr_pc != r->cr_pc)
		return l->cr_pc < r->cr_pc ? -1 : 1;
	return (r->cr_cfa_reg == DT_CFI_GAP) - (l->cr_cfa_reg == DT_CFI_GAP);
}

static bool
dt_cfi_same(const dt_cfi_row_t *a, const dt_cfi_row_t *b)
{
	return a->cr_cfa_reg == b->cr_cfa_reg &&
	    a->cr_cfa_off == b->cr_cfa_off && a->cr_ra == b->cr_ra &&
	    a->cr_fp_off == b->cr_fp_off;
}

/*
 * Sort, keep the last row of each address, drop rows that change nothing.
 * A file without CFI has no rows, and no array at all: qsort() may not
 * be given a null one, even to sort nothing.
 */
static void
dt_cfi_sort(dt_cfi_vec_t *vec)
{
	size_t k = 0;

	if (vec->n > 1)
		qsort(vec->v, vec->n, sizeof (vec->v[0]), dt_cfi_cmp);
	for (size_t i = 0; i < vec->n; i++) {
		dt_cfi_row_t row = vec->v[i];

		if (row.cr_cfa_reg == DT_CFI_GAP)
			row.cr_cfa_reg = DT_CFI_FP;
		if (i + 1 < vec->n && vec->v[i + 1].cr_pc == row.cr_pc)
			continue;
		if (k > 0 && dt_cfi_same(&vec->v[k - 1], &row))
			continue;
		vec->v[k++] = row;
	}
	vec->n = k;
}

static Elf_Scn *
dt_cfi_scn(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn != NULL;
	    scn = elf_nextscn(elf, scn)) {
		const char *n;

		if (gelf_getshdr(scn, shdr) == NULL ||
		    shdr->sh_type == SHT_NOBITS)
			continue;
		if ((n = elf_strptr(elf, shstrndx, shdr->sh_name)) != NULL &&
		    strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

/* Rows of an open ELF file at link-time addresses, unsorted, into vec. */
static int
dt_cfi_elf(Elf *elf, const dt_cfi_abi_t *abi, dt_cfi_vec_t *vec)
{
	static const char *const names[] = { ".eh_frame", ".debug_frame" };

	for (size_t i = 0; i < 2; i++) {
		dt_cfi_sec_t s;
		GElf_Shdr shdr;
		Elf_Scn *scn;
		Elf_Data *d;
		size_t n0 = vec->n;

		if ((scn = dt_cfi_scn(elf, names[i], &shdr)) == NULL ||
		    (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL)
			continue;
		s.data = d->d_buf;
		s.size = d->d_size;
		s.addr = shdr.sh_addr;
		s.eh = i == 0;
		s.abi = abi;
		if (dt_cfi_section(&s, vec) != 0)
			return -1;
		if (vec->n > n0)
			break;	/* .debug_frame only without .eh_frame */
	}
	return 0;
}

int
dt_cfi_load(const char *path, dt_cfi_table_t *out)
{
	dt_cfi_vec_t vec = { NULL, 0, 0, false };
	const dt_cfi_abi_t *abi = NULL;
	GElf_Ehdr eh;
	Elf *elf;
	int fd, rc;

	memset(out, 0, sizeof (*out));
	(void) elf_version(EV_CURRENT);
	if ((fd = dt_elfsym_open(path)) < 0)
		return -1;
	/*
	 * The file's machine says what its CFI's register numbers are; a
	 * processor the unwinder does not know gets no rows, and its stacks
	 * follow frame pointers.
	 */
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL &&
	    elf_kind(elf) == ELF_K_ELF && gelf_getclass(elf) == ELFCLASS64 &&
	    gelf_getehdr(elf, &eh) != NULL) {
		for (size_t i = 0; i < sizeof (dt_cfi_abis) /
		    sizeof (dt_cfi_abis[0]); i++) {
			if (dt_cfi_abis[i].ca_machine == eh.e_machine)
				abi = &dt_cfi_abis[i];
		}
	}
	if (abi == NULL) {
		if (elf != NULL)
			(void) elf_end(elf);
		(void) close(fd);
		errno = ENOEXEC;
		return -1;
	}
	rc = dt_cfi_elf(elf, abi, &vec);
	(void) elf_end(elf);
	(void) close(fd);
	if (rc != 0) {
		free(vec.v);
		errno = ENOMEM;
		return -1;
	}
	dt_cfi_sort(&vec);
	out->ct_rows = vec.v;
	out->ct_nrows = vec.n;
	return 0;
}

void
dt_cfi_free(dt_cfi_table_t *ct)
{
	free(ct->ct_rows);
	memset(ct, 0, sizeof (*ct));
}

/*
 * The PT_LOAD segments of a file, to turn its link-time addresses into
 * file offsets; at most nmax.
 */
typedef struct dt_cfi_seg {
	uint64_t vaddr, memsz, offset;
} dt_cfi_seg_t;

static size_t
dt_cfi_segs(const char *path, dt_cfi_seg_t *segs, size_t nmax)
{
	size_t n = 0, nph;
	Elf *elf;
	int fd;

	(void) elf_version(EV_CURRENT);
	if ((fd = dt_elfsym_open(path)) < 0)
		return 0;
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL &&
	    elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph && n < nmax; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int) i, &ph) != NULL &&
			    ph.p_type == PT_LOAD)
				segs[n++] = (dt_cfi_seg_t) { ph.p_vaddr,
					ph.p_memsz, ph.p_offset };
		}
	}
	if (elf != NULL)
		(void) elf_end(elf);
	(void) close(fd);
	return n;
}

/*
 * Add the rows of the file mapped executable at [lo, hi) from page offset
 * pgoff, moved to their run-time addresses.
 */
static int
dt_cfi_mapping(dt_cfi_vec_t *vec, const char *path, uint64_t lo,
    uint64_t hi, uint64_t pgoff)
{
	dt_cfi_seg_t segs[16];
	dt_cfi_table_t ft;
	size_t nsegs;
	bool in = false;

	if ((nsegs = dt_cfi_segs(path, segs, 16)) == 0 ||
	    dt_cfi_load(path, &ft) != 0)
		return 0;	/* not an ELF file we can read: no rows */
	for (size_t i = 0; i < ft.ct_nrows; i++) {
		uint64_t v = ft.ct_rows[i].cr_pc, addr = 0;
		bool found = false;

		for (size_t j = 0; j < nsegs && !found; j++) {
			if (v >= segs[j].vaddr &&
			    v - segs[j].vaddr <= segs[j].memsz) {
				uint64_t foff = v - segs[j].vaddr +
				    segs[j].offset;

				if (foff >= pgoff && foff - pgoff < hi - lo) {
					addr = lo + foff - pgoff;
					found = true;
				}
			}
		}
		if (!found) {
			/* Leaving the mapping: what follows has no CFI. */
			if (in)
				dt_cfi_gap(vec, hi);
			in = false;
			continue;
		}
		vec_add(vec, addr, &ft.ct_rows[i]);
		in = true;
	}
	if (in)
		dt_cfi_gap(vec, hi);
	dt_cfi_free(&ft);
	return vec->nomem ? -1 : 0;
}

int
dt_cfi_maps(const char *maps, dt_cfi_table_t *out)
{
	dt_cfi_vec_t vec = { NULL, 0, 0, false };
	const char *line = maps;

	memset(out, 0, sizeof (*out));
	vec_add(&vec, 0, &dt_cfi_fprule);
	while (line != NULL && *line != '\0' && !vec.nomem) {
		const char *nl = strchr(line, '\n');
		size_t len = nl != NULL ? (size_t) (nl - line) : strlen(line);
		char buf[PATH_MAX + 128], perms[8], path[PATH_MAX];
		unsigned long long lo, hi, pgoff;
		int n;

		if (len < sizeof (buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			path[0] = '\0';
			n = sscanf(buf, "%llx-%llx %7s %llx %*s %*s %4095[^\n]",
			    &lo, &hi, perms, &pgoff, path);
			if (n == 5 && perms[2] == 'x' && path[0] == '/' &&
			    dt_cfi_mapping(&vec, path, lo, hi, pgoff) != 0)
				break;
		}
		line = nl != NULL ? nl + 1 : NULL;
	}
	if (vec.nomem) {
		free(vec.v);
		errno = ENOMEM;
		return -1;
	}
	dt_cfi_sort(&vec);
	out->ct_rows = vec.v;
	out->ct_nrows = vec.n;
	return 0;
}

int
dt_cfi_proc(int pid, dt_cfi_table_t *out)
{
	char path[64], *text = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, rc;

	(void) snprintf(path, sizeof (path), "/proc/%d/maps", pid);
	if ((fd = dt_elfsym_open(path)) < 0)
		return -1;
	for (;;) {
		if (cap - len < 4096) {
			char *t = realloc(text, cap + 65536);

			if (t == NULL) {
				free(text);
				(void) close(fd);
				errno = ENOMEM;
				return -1;
			}
			text = t;
			cap += 65536;
		}
		if ((n = read(fd, text + len, cap - len - 1)) <= 0)
			break;
		len += (size_t) n;
	}
	(void) close(fd);
	text[len] = '\0';
	rc = dt_cfi_maps(text, out);
	free(text);
	return rc;
}

const dt_cfi_row_t *
dt_cfi_find(const dt_cfi_table_t *ct, uint64_t pc)
{
	size_t lo = 0, n = ct->ct_nrows;

	if (n == 0)
		return &dt_cfi_fprule;
	/* The last row at or below pc: as the BPF unwinder searches. */
	while (n > 1) {
		size_t half = n / 2;

		if (ct->ct_rows[lo + half].cr_pc <= pc)
			lo += half;
		n -= half;
	}
	return &ct->ct_rows[lo];
}

uint32_t
dt_cfi_unwind(const dt_cfi_table_t *ct, const dt_cfi_regs_t *regs,
    dt_cfi_read_f *rd, void *arg, uint64_t *pcs, uint32_t max)
{
	uint64_t pc = regs->cx_pc, sp = regs->cx_sp, fp = regs->cx_fp;
	uint32_t n = 0;

	while (n < max) {
		const dt_cfi_row_t *row;
		uint64_t cfa, ra;

		pcs[n++] = pc;
		row = dt_cfi_find(ct, n == 1 ? pc : pc - 1);
		if (row->cr_cfa_reg == DT_CFI_STOP)
			break;
		cfa = (row->cr_cfa_reg == DT_CFI_SP ? sp : fp) +
		    (uint64_t) (int64_t) row->cr_cfa_off;
		if (row->cr_ra & DT_CFI_RA_LR) {
			if (n != 1 || cfa < sp)
				break;
			ra = regs->cx_lr;
		} else if (cfa <= sp || rd(arg, cfa - 8 - 8 *
		    (uint64_t) (row->cr_ra & DT_CFI_RA_SLOT), &ra) != 0) {
			break;
		}
		if (row->cr_fp_off != 0 &&
		    rd(arg, cfa + (uint64_t) (int64_t) row->cr_fp_off,
		    &fp) != 0)
			break;
		if (row->cr_ra & DT_CFI_RA_PAC)
			ra = DT_CFI_PAC_STRIP(ra);
		sp = cfa;
		if ((pc = ra) == 0)
			break;
	}
	return n;
}
