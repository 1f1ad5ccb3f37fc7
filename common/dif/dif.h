/* SPDX-License-Identifier: MIT */
/*
 * dif.h: the D Intermediate Format -- instruction set and DIF object.
 *
 * DIF is the one IR of this implementation: the code generator emits it,
 * the interpreter (dif_interp.h) runs it and defines its semantics, and the
 * BPF translator turns it into eBPF.  The instruction set is DTrace's:
 *
 *   - every instruction is one 32-bit word: an 8-bit opcode in the top byte
 *     and three 8-bit operand fields (r1, r2, rd) or a wider immediate;
 *   - eight 64-bit registers %r0..%r7; %r0 always reads 0 and may not be
 *     written;
 *   - branches go forward only (DIF has no loops, so every program ends),
 *     and their 24-bit target is an instruction index, not a byte offset;
 *   - constants live in the integer table (SETX) and the string table
 *     (SETS); variables are named by ID, described in the variable table;
 *   - strings are values of at most strsize bytes, handled by reference
 *     (a register holds the address of the string);
 *   - the keys of associative arrays and the arguments of subroutines are
 *     passed on the tuple stack (PUSHTR/PUSHTV, POPTS, FLUSHTS).
 *
 * Encodings (bit 31 on the left):
 *
 *	op(8) r1(8) r2(8) rd(8)	    arithmetic, CMP, SCMP, TST, MOV, COPYS
 *	op(8) r1(8) 0(8)  rd(8)	    loads (r1 is the address), ALLOCS, NOT
 *	op(8) r1(8) 0(8)  rd(8)	    stores: *rd = r1
 *	op(8) label(24)		    branches: label is an instruction index
 *	op(8) index(16)	  rd(8)	    SETX (integer table), SETS (string table)
 *	op(8) var(16)	  rd(8)	    LDGS LDTS LDLS LDGAA LDTAA  (rd = var)
 *	op(8) var(16)	  rs(8)	    STGS STTS STLS STGAA STTAA  (var = rs)
 *	op(8) var(8) r2(8) rd(8)    LDGA LDTA: rd = var[r2]
 *	op(8) subr(16)	  rd(8)	    CALL
 *	op(8) type(8) r2(8) rs(8)   PUSHTR (r2 = size for by-ref values),
 *				    PUSHTV
 *	op(8) xlref(16)	  rd(8)	    XLATE, XLARG (translator references)
 *	op(8) 0(24)		    NOP, POPTS, FLUSHTS
 *	op(8) 0(16)	  rd(8)	    RET
 *
 * The ISA is numbered as in DTrace so that a disassembly reads the same.
 */
#ifndef DIF_H
#define DIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dt_program.h"

typedef uint32_t dif_instr_t;

/* Registers and tuple-stack depth. */
#define DIF_DIR_NREGS 8		/* %r0..%r7 */
#define DIF_DTR_NREGS 8		/* tuple stack entries (DTrace's dtr_nregs) */

/* Opcodes. */
#define DIF_OP_OR	1	/* or	r1, r2, rd */
#define DIF_OP_XOR	2	/* xor	r1, r2, rd */
#define DIF_OP_AND	3	/* and	r1, r2, rd */
#define DIF_OP_SLL	4	/* sll	r1, r2, rd */
#define DIF_OP_SRL	5	/* srl	r1, r2, rd */
#define DIF_OP_SUB	6	/* sub	r1, r2, rd */
#define DIF_OP_ADD	7	/* add	r1, r2, rd */
#define DIF_OP_MUL	8	/* mul	r1, r2, rd */
#define DIF_OP_SDIV	9	/* sdiv	r1, r2, rd */
#define DIF_OP_UDIV	10	/* udiv	r1, r2, rd */
#define DIF_OP_SREM	11	/* srem	r1, r2, rd */
#define DIF_OP_UREM	12	/* urem	r1, r2, rd */
#define DIF_OP_NOT	13	/* not	r1, rd */
#define DIF_OP_MOV	14	/* mov	r1, rd */
#define DIF_OP_CMP	15	/* cmp	r1, r2 */
#define DIF_OP_TST	16	/* tst	r1 */
#define DIF_OP_BA	17	/* ba	label */
#define DIF_OP_BE	18	/* be	label */
#define DIF_OP_BNE	19	/* bne	label */
#define DIF_OP_BG	20	/* bg	label */
#define DIF_OP_BGU	21	/* bgu	label */
#define DIF_OP_BGE	22	/* bge	label */
#define DIF_OP_BGEU	23	/* bgeu	label */
#define DIF_OP_BL	24	/* bl	label */
#define DIF_OP_BLU	25	/* blu	label */
#define DIF_OP_BLE	26	/* ble	label */
#define DIF_OP_BLEU	27	/* bleu	label */
#define DIF_OP_LDSB	28	/* ldsb	[r1], rd */
#define DIF_OP_LDSH	29	/* ldsh	[r1], rd */
#define DIF_OP_LDSW	30	/* ldsw	[r1], rd */
#define DIF_OP_LDUB	31	/* ldub	[r1], rd */
#define DIF_OP_LDUH	32	/* lduh	[r1], rd */
#define DIF_OP_LDUW	33	/* lduw	[r1], rd */
#define DIF_OP_LDX	34	/* ldx	[r1], rd */
#define DIF_OP_RET	35	/* ret	rd */
#define DIF_OP_NOP	36	/* nop */
#define DIF_OP_SETX	37	/* setx	intindex, rd */
#define DIF_OP_SETS	38	/* sets	strindex, rd */
#define DIF_OP_SCMP	39	/* scmp	r1, r2 */
#define DIF_OP_LDGA	40	/* ldga	var, r2, rd */
#define DIF_OP_LDGS	41	/* ldgs	var, rd */
#define DIF_OP_STGS	42	/* stgs	var, rs */
#define DIF_OP_LDTA	43	/* ldta	var, r2, rd */
#define DIF_OP_LDTS	44	/* ldts	var, rd */
#define DIF_OP_STTS	45	/* stts	var, rs */
#define DIF_OP_SRA	46	/* sra	r1, r2, rd */
#define DIF_OP_CALL	47	/* call	subr, rd */
#define DIF_OP_PUSHTR	48	/* pushtr type, rs, r2 (r2: size) */
#define DIF_OP_PUSHTV	49	/* pushtv type, rs */
#define DIF_OP_POPTS	50	/* popts */
#define DIF_OP_FLUSHTS	51	/* flushts */
#define DIF_OP_LDGAA	52	/* ldgaa var, rd */
#define DIF_OP_LDTAA	53	/* ldtaa var, rd */
#define DIF_OP_STGAA	54	/* stgaa var, rs */
#define DIF_OP_STTAA	55	/* sttaa var, rs */
#define DIF_OP_LDLS	56	/* ldls	var, rd */
#define DIF_OP_STLS	57	/* stls	var, rs */
#define DIF_OP_ALLOCS	58	/* allocs r1, rd */
#define DIF_OP_COPYS	59	/* copys r1, r2, rd */
#define DIF_OP_STB	60	/* stb	r1, [rd] */
#define DIF_OP_STH	61	/* sth	r1, [rd] */
#define DIF_OP_STW	62	/* stw	r1, [rd] */
#define DIF_OP_STX	63	/* stx	r1, [rd] */
#define DIF_OP_ULDSB	64	/* uldsb [r1], rd */
#define DIF_OP_ULDSH	65	/* uldsh [r1], rd */
#define DIF_OP_ULDSW	66	/* uldsw [r1], rd */
#define DIF_OP_ULDUB	67	/* uldub [r1], rd */
#define DIF_OP_ULDUH	68	/* ulduh [r1], rd */
#define DIF_OP_ULDUW	69	/* ulduw [r1], rd */
#define DIF_OP_ULDX	70	/* uldx	[r1], rd */
#define DIF_OP_RLDSB	71	/* rldsb [r1], rd */
#define DIF_OP_RLDSH	72	/* rldsh [r1], rd */
#define DIF_OP_RLDSW	73	/* rldsw [r1], rd */
#define DIF_OP_RLDUB	74	/* rldub [r1], rd */
#define DIF_OP_RLDUH	75	/* rlduh [r1], rd */
#define DIF_OP_RLDUW	76	/* rlduw [r1], rd */
#define DIF_OP_RLDX	77	/* rldx	[r1], rd */
#define DIF_OP_XLATE	78	/* xlate xlrindex, rd */
#define DIF_OP_XLARG	79	/* xlarg xlrindex, rd */
#define DIF_OP_MAX	79

/* Field limits. */
#define DIF_INTOFF_MAX	0xffff	 /* integer table index */
#define DIF_STROFF_MAX	0xffff	 /* string table offset */
#define DIF_REGISTER_MAX 0xff	 /* encoding limit; DIF_DIR_NREGS in use */
#define DIF_VARIABLE_MAX 0xffff	 /* variable ID */
#define DIF_SUBROUTINE_MAX 0xffff
#define DIF_LABEL_MAX	0xffffff /* branch target */
/* The largest by-reference value (a string of -x strsize, a struct). */
#define DIF_BYREF_MAX	(1U << 20)
#define DIF_INSTR_MAX	65536	 /* instructions in one DIF object (DTrace's
				    dtrace_difo_maxsize of 256 KB) */

/* Extracting fields. */
#define DIF_INSTR_OP(i)	    (((i) >> 24) & 0xff)
#define DIF_INSTR_R1(i)	    (((i) >> 16) & 0xff)
#define DIF_INSTR_R2(i)	    (((i) >> 8) & 0xff)
#define DIF_INSTR_RD(i)	    ((i) & 0xff)
#define DIF_INSTR_RS(i)	    ((i) & 0xff)
#define DIF_INSTR_LABEL(i)  ((i) & 0xffffff)
#define DIF_INSTR_VAR(i)    (((i) >> 8) & 0xffff)
#define DIF_INSTR_INTEGER(i) (((i) >> 8) & 0xffff)
#define DIF_INSTR_STRING(i) (((i) >> 8) & 0xffff)
#define DIF_INSTR_SUBR(i)   (((i) >> 8) & 0xffff)
#define DIF_INSTR_TYPE(i)   (((i) >> 16) & 0xff)
#define DIF_INSTR_XLREF(i)  (((i) >> 8) & 0xffff)

/* Building instructions. */
#define DIF_INSTR_FMT(op, r1, r2, d)                                          \
	((dif_instr_t) (((uint32_t) (op) << 24) | ((uint32_t) (r1) << 16) |  \
	    ((uint32_t) (r2) << 8) | (uint32_t) (d)))
#define DIF_INSTR_NOT(r1, d)	   DIF_INSTR_FMT(DIF_OP_NOT, r1, 0, d)
#define DIF_INSTR_MOV(r1, d)	   DIF_INSTR_FMT(DIF_OP_MOV, r1, 0, d)
#define DIF_INSTR_CMP(op, r1, r2)  DIF_INSTR_FMT(op, r1, r2, 0)
#define DIF_INSTR_TST(r1)	   DIF_INSTR_FMT(DIF_OP_TST, r1, 0, 0)
#define DIF_INSTR_BRANCH(op, label)                                          \
	((dif_instr_t) (((uint32_t) (op) << 24) | ((uint32_t) (label))))
#define DIF_INSTR_LOAD(op, r1, d)  DIF_INSTR_FMT(op, r1, 0, d)
#define DIF_INSTR_STORE(op, r1, d) DIF_INSTR_FMT(op, r1, 0, d)
#define DIF_INSTR_SETX(i, d)                                                 \
	((dif_instr_t) (((uint32_t) DIF_OP_SETX << 24) |                     \
	    ((uint32_t) (i) << 8) | (uint32_t) (d)))
#define DIF_INSTR_SETS(s, d)                                                 \
	((dif_instr_t) (((uint32_t) DIF_OP_SETS << 24) |                     \
	    ((uint32_t) (s) << 8) | (uint32_t) (d)))
#define DIF_INSTR_RET(d)	   DIF_INSTR_FMT(DIF_OP_RET, 0, 0, d)
#define DIF_INSTR_NOP		   DIF_INSTR_FMT(DIF_OP_NOP, 0, 0, 0)
#define DIF_INSTR_LDA(op, v, r2, d) DIF_INSTR_FMT(op, v, r2, d)
#define DIF_INSTR_LDV(op, v, d)                                              \
	((dif_instr_t) (((uint32_t) (op) << 24) | ((uint32_t) (v) << 8) |    \
	    (uint32_t) (d)))
#define DIF_INSTR_STV(op, v, rs)   DIF_INSTR_LDV(op, v, rs)
#define DIF_INSTR_CALL(s, d)	   DIF_INSTR_LDV(DIF_OP_CALL, s, d)
#define DIF_INSTR_PUSHTS(op, t, r2, rs) DIF_INSTR_FMT(op, t, r2, rs)
#define DIF_INSTR_POPTS		   DIF_INSTR_FMT(DIF_OP_POPTS, 0, 0, 0)
#define DIF_INSTR_FLUSHTS	   DIF_INSTR_FMT(DIF_OP_FLUSHTS, 0, 0, 0)
#define DIF_INSTR_ALLOCS(r1, d)	   DIF_INSTR_FMT(DIF_OP_ALLOCS, r1, 0, d)
#define DIF_INSTR_COPYS(r1, r2, d) DIF_INSTR_FMT(DIF_OP_COPYS, r1, r2, d)
#define DIF_INSTR_XLATE(op, r, d)  DIF_INSTR_LDV(op, r, d)

/*
 * Variable IDs.  Arrays (LDGA/LDTA) have IDs up to 0xff, everything else
 * 0x100 and up; user-defined variables start at the *_UBASE values.  The
 * built-in variables below UBASE are read-only: the verifier rejects a
 * store to one.
 */
#define DIF_VAR_ARRAY_MIN   0x0000
#define DIF_VAR_ARRAY_UBASE 0x0080
#define DIF_VAR_ARRAY_MAX   0x00ff
#define DIF_VAR_OTHER_MIN   0x0100
#define DIF_VAR_OTHER_UBASE 0x0500
#define DIF_VAR_OTHER_MAX   0xffff

/* Built-in arrays (LDGA). */
#define DIF_VAR_ARGS	    0x0000 /* args[] */
#define DIF_VAR_REGS	    0x0001 /* regs[] */
#define DIF_VAR_UREGS	    0x0002 /* uregs[] */

/* Built-in scalars (LDGS). */
#define DIF_VAR_CURTHREAD   0x0100 /* curthread */
#define DIF_VAR_TIMESTAMP   0x0101 /* timestamp */
#define DIF_VAR_VTIMESTAMP  0x0102 /* vtimestamp */
#define DIF_VAR_IPL	    0x0103 /* ipl */
#define DIF_VAR_EPID	    0x0104 /* epid */
#define DIF_VAR_ID	    0x0105 /* id */
#define DIF_VAR_ARG0	    0x0106 /* arg0 .. arg9 are ARG0 + n */
#define DIF_VAR_ARG1	    0x0107
#define DIF_VAR_ARG2	    0x0108
#define DIF_VAR_ARG3	    0x0109
#define DIF_VAR_ARG4	    0x010a
#define DIF_VAR_ARG5	    0x010b
#define DIF_VAR_ARG6	    0x010c
#define DIF_VAR_ARG7	    0x010d
#define DIF_VAR_ARG8	    0x010e
#define DIF_VAR_ARG9	    0x010f
#define DIF_VAR_STACKDEPTH  0x0110 /* stackdepth */
#define DIF_VAR_CALLER	    0x0111 /* caller */
#define DIF_VAR_PROBEPROV   0x0112 /* probeprov */
#define DIF_VAR_PROBEMOD    0x0113 /* probemod */
#define DIF_VAR_PROBEFUNC   0x0114 /* probefunc */
#define DIF_VAR_PROBENAME   0x0115 /* probename */
#define DIF_VAR_PID	    0x0116 /* pid */
#define DIF_VAR_TID	    0x0117 /* tid */
#define DIF_VAR_EXECNAME    0x0118 /* execname */
#define DIF_VAR_ZONENAME    0x0119 /* zonename */
#define DIF_VAR_WALLTIMESTAMP 0x011a /* walltimestamp */
#define DIF_VAR_USTACKDEPTH 0x011b /* ustackdepth */
#define DIF_VAR_UCALLER	    0x011c /* ucaller */
#define DIF_VAR_PPID	    0x011d /* ppid */
#define DIF_VAR_UID	    0x011e /* uid */
#define DIF_VAR_GID	    0x011f /* gid */
#define DIF_VAR_ERRNO	    0x0120 /* errno */
#define DIF_VAR_CURCPU	    0x0121 /* curcpu */
#define DIF_VAR_CWD	    0x0122 /* cwd */
#define DIF_VAR_ROOT	    0x0123 /* root */
#define DIF_VAR_EXECARGS    0x0124 /* execargs */
#define DIF_VAR_CPU	    0x0200 /* cpu */
#define DIF_VAR_BUILTIN_MAX 0x0200

/*
 * Subroutine IDs (CALL).  Arguments are on the tuple stack, first argument
 * first; the result goes to rd.
 */
#define DIF_SUBR_RAND		0
#define DIF_SUBR_MUTEX_OWNED	1
#define DIF_SUBR_MUTEX_OWNER	2
#define DIF_SUBR_MUTEX_TYPE_ADAPTIVE 3
#define DIF_SUBR_MUTEX_TYPE_SPIN 4
#define DIF_SUBR_RW_READ_HELD	5
#define DIF_SUBR_RW_WRITE_HELD	6
#define DIF_SUBR_RW_ISWRITER	7
#define DIF_SUBR_COPYIN		8
#define DIF_SUBR_COPYINSTR	9
#define DIF_SUBR_SPECULATION	10
#define DIF_SUBR_PROGENYOF	11
#define DIF_SUBR_STRLEN		12
#define DIF_SUBR_COPYOUT	13
#define DIF_SUBR_COPYOUTSTR	14
#define DIF_SUBR_ALLOCA		15
#define DIF_SUBR_BCOPY		16
#define DIF_SUBR_COPYINTO	17
#define DIF_SUBR_MSGDSIZE	18
#define DIF_SUBR_MSGSIZE	19
#define DIF_SUBR_GETMAJOR	20
#define DIF_SUBR_GETMINOR	21
#define DIF_SUBR_DDI_PATHNAME	22
#define DIF_SUBR_STRJOIN	23
#define DIF_SUBR_LLTOSTR	24
#define DIF_SUBR_BASENAME	25
#define DIF_SUBR_DIRNAME	26
#define DIF_SUBR_CLEANPATH	27
#define DIF_SUBR_STRCHR		28
#define DIF_SUBR_STRRCHR	29
#define DIF_SUBR_STRSTR		30
#define DIF_SUBR_STRTOK		31
#define DIF_SUBR_SUBSTR		32
#define DIF_SUBR_INDEX		33
#define DIF_SUBR_RINDEX		34
#define DIF_SUBR_HTONS		35
#define DIF_SUBR_HTONL		36
#define DIF_SUBR_HTONLL		37
#define DIF_SUBR_NTOHS		38
#define DIF_SUBR_NTOHL		39
#define DIF_SUBR_NTOHLL		40
#define DIF_SUBR_INET_NTOP	41
#define DIF_SUBR_INET_NTOA	42
#define DIF_SUBR_INET_NTOA6	43
#define DIF_SUBR_TOUPPER	44
#define DIF_SUBR_TOLOWER	45
#define DIF_SUBR_GETF		46
#define DIF_SUBR_JSON		47
#define DIF_SUBR_STRTOLL	48
#define DIF_SUBR_MEMREF		49
#define DIF_SUBR_LINK_NTOP	50	/* Oracle Linux DTrace's */
#define DIF_SUBR_D_PATH		51	/* Oracle Linux DTrace's */
#define DIF_SUBR_MAX		51

/* Tuple-stack entry types (PUSHTR/PUSHTV). */
#define DIF_TYPE_CTF	0	/* a C type: integer or pointer by value */
#define DIF_TYPE_STRING 1	/* a string, by reference */

/*
 * The type of a value: what RET returns, what a variable holds.  By-value
 * types fit a register; by-reference types (strings, structs, arrays) are
 * addresses of dt_size bytes.
 */
#define DIF_TF_BYREF	0x1	/* value is the address of dt_size bytes */
#define DIF_TF_SIGNED	0x2	/* integer is signed */
#define DIF_TF_POINTER	0x4	/* C pointer (trace() prints it in hex) */

typedef struct dif_type {
	uint8_t dt_kind;	/* DIF_TYPE_CTF or DIF_TYPE_STRING */
	uint8_t dt_flags;	/* DIF_TF_* */
	uint32_t dt_size;	/* bytes: 1, 2, 4, 8, or the by-ref size */
	void *dt_ctf;		/* libctf dictionary, or NULL */
	long dt_ctftype;	/* type ID in dt_ctf, or 0 */
} dif_type_t;

/* Variable kinds and scopes (the variable table). */
#define DIFV_KIND_ARRAY	 0	/* associative (or built-in) array */
#define DIFV_KIND_SCALAR 1

#define DIFV_SCOPE_GLOBAL 0
#define DIFV_SCOPE_THREAD 1	/* self->x */
#define DIFV_SCOPE_LOCAL  2	/* this->x */

#define DIFV_F_REF 0x1		/* the object reads it */
#define DIFV_F_MOD 0x2		/* the object writes it */

typedef struct dif_var {
	uint32_t dv_name;	/* offset of the name in the string table */
	uint32_t dv_id;		/* DIF_VAR_* or a user ID >= *_UBASE */
	uint8_t dv_kind;	/* DIFV_KIND_* */
	uint8_t dv_scope;	/* DIFV_SCOPE_* */
	uint16_t dv_flags;	/* DIFV_F_* */
	dif_type_t dv_type;
	uint32_t dv_offset;	/* for listings: where DTrace's layout of the
				   scope's storage puts it, or
				   DIFV_OFFSET_NONE; engines go by ID */
} dif_var_t;

#define DIFV_OFFSET_NONE UINT32_MAX

/*
 * A DIF object: one expression (a predicate, an action argument, an
 * aggregation key) compiled to straight-line, forward-branching code.
 * Every array is owned by the object and freed by dif_object_free().
 */
struct dif_object {
	dif_instr_t *dif_buf;	/* instructions */
	uint32_t dif_len;	/* number of instructions */
	int64_t *dif_inttab;	/* integer table */
	uint32_t dif_intlen;
	char *dif_strtab;	/* string table: NUL-terminated strings */
	uint32_t dif_strlen;	/* bytes */
	dif_var_t *dif_vartab;	/* variables referenced */
	uint32_t dif_varlen;
	dif_type_t dif_rtype;	/* type of the value RET returns */
	uint32_t dif_refcnt;	/* shared by several actions */
};

/*
 * Allocating and freeing.  dif_object_create() copies the arrays it is
 * given (any may be NULL with a zero length) and returns NULL when out of
 * memory.  dif_object_free() drops one reference and frees at zero.
 */
extern dif_object_t *dif_object_create(const dif_instr_t *buf, uint32_t len,
    const int64_t *inttab, uint32_t intlen, const char *strtab,
    uint32_t strtablen, const dif_var_t *vartab, uint32_t varlen,
    const dif_type_t *rtype);
extern void dif_object_hold(dif_object_t *difo);
extern void dif_object_free(dif_object_t *difo);

/*
 * Operand formats: which fields an opcode uses and how.  The assembler,
 * disassembler, verifier and translators all dispatch on this.
 */
typedef enum dif_fmt {
	DIF_FMT_INVALID,	/* not an opcode */
	DIF_FMT_NONE,		/* nop, popts, flushts */
	DIF_FMT_R1R2RD,		/* rd = r1 op r2 */
	DIF_FMT_R1RD,		/* not, mov, allocs: rd = op r1 */
	DIF_FMT_R1R2,		/* cmp, scmp */
	DIF_FMT_R1,		/* tst */
	DIF_FMT_BRANCH,		/* label */
	DIF_FMT_LOAD,		/* rd = *r1 */
	DIF_FMT_STORE,		/* *rd = r1 */
	DIF_FMT_SETX,		/* rd = inttab[index] */
	DIF_FMT_SETS,		/* rd = strtab + offset */
	DIF_FMT_LDV,		/* rd = var */
	DIF_FMT_STV,		/* var = rs */
	DIF_FMT_LDA,		/* rd = var[r2] (8-bit var) */
	DIF_FMT_CALL,		/* rd = subr(tuple stack) */
	DIF_FMT_PUSHTR,		/* push (type, rs, size r2) */
	DIF_FMT_PUSHTV,		/* push (type, rs) */
	DIF_FMT_RET,		/* return rd */
	DIF_FMT_COPYS,		/* copy r2 bytes from r1 to rd */
	DIF_FMT_XLATE,		/* rd = translator member xlref */
} dif_fmt_t;

extern dif_fmt_t dif_op_format(uint32_t op);

/* Names, for the disassembler and messages: NULL when not defined. */
extern const char *dif_op_name(uint32_t op);
extern const char *dif_subr_name(uint32_t subr);
extern const char *dif_var_name(uint32_t id);	/* built-in variables */
extern int dif_subr_lookup(const char *name);	/* -1 if unknown */
extern int dif_var_lookup(const char *name);	/* -1 if unknown */

/* The name of a variable in the object's table (via its string table). */
extern const char *dif_var_tabname(const dif_object_t *difo,
    const dif_var_t *v);

#endif /* DIF_H */
