/* SPDX-License-Identifier: MIT */
/*
 * dt_cc.h: the D compiler front end -- parse tree, identifiers, types and
 * the compiler state shared by the lexer, the grammar and the checks.
 *
 * Compiling a D program goes through these stages, one file each:
 *
 *	dt_lex.l	text -> tokens; probe descriptions, macro arguments,
 *			control lines (#pragma, #line) handled here
 *	dt_grammar.y	tokens -> parse tree (dt_node_t), declarations
 *			applied as they are reduced
 *	dt_decl.c	declaration specifiers and declarators -> CTF types
 *	dt_type.c	the D type system on libctf: intrinsic types, layout,
 *			type names, compatibility
 *	dt_ident.c	identifier tables: built-in variables, functions,
 *			actions, user variables, aggregations, inlines
 *	dt_cook.c	semantic checks of expressions ("cooking"): every node
 *			gets a type and identifiers resolve to their kind
 *	dt_cook_act.c	checks of clauses, actions and aggregating functions
 *	dt_xlate.c	inline definitions, translators and xlate, providers
 *	dt_pragma.c	#pragma D option/depends_on/attributes/binding, #line
 *	dt_pdesc.c	probe description text -> dt_probedesc_t
 *	dt_cc.c		the public compile API, the C preprocessor, errors
 *
 * The tree is what code generation reads.  After a successful compile:
 *
 *   - every expression node is cooked (DT_NF_COOKED) and carries its D type
 *     as (dn_ctfp, dn_type), with DT_NF_SIGNED, DT_NF_REF (the value is
 *     handled by reference: strings, structs, unions, arrays), DT_NF_LVALUE,
 *     DT_NF_WRITABLE, DT_NF_BITFIELD and DT_NF_USERLAND flags;
 *   - DT_NODE_VAR nodes point at a dt_ident_t that says what the name is:
 *     a built-in variable (di_id is its DIF variable ID), or a user global,
 *     thread-local or clause-local scalar or associative array (di_id is a
 *     DIF user variable ID from DIF_VAR_*_UBASE, di_scope its DIFV_SCOPE_*);
 *   - DT_NODE_FUNC nodes call a subroutine (di_kind DT_IDENT_FUNC, di_id
 *     its DIF_SUBR_*), an action (DT_IDENT_ACTFUNC, di_id its dt_actkind_t)
 *     or an aggregating function (DT_IDENT_AGGFUNC, di_id its dt_aggkind_t);
 *   - an inline reference is a DT_NODE_VAR whose identifier has
 *     DT_IDFLG_INLINE; di_inline is the cooked definition to expand;
 *   - xlate<T>(e) is DT_NODE_OP2 DT_OP_XLATE with dn_xlator (and
 *     DT_NF_XLATED); a member of it is DT_OP_DOT/PTR with dn_xlator set,
 *     whose expression is the translator member's dn_membexpr;
 *   - args[N] is a DT_NODE_VAR of the args identifier with dn_args N;
 *   - member references (DT_OP_DOT, DT_OP_PTR) carry the member's bit
 *     offset in dn_value, and DT_NF_BITFIELD for bit-fields;
 *   - sizeof, offsetof and constant expressions are folded to DT_NODE_INT;
 *   - E1[E2] on a C array or pointer is rewritten to *(E1 + E2);
 *   - self->x and this->x become DT_NODE_VAR of the right scope;
 *   - each clause (DT_NODE_CLAUSE) has its probe descriptions parsed into
 *     dt_probedesc_t, its cooked predicate and its list of statements:
 *     DT_NODE_DEXPR (expression evaluated for effect), DT_NODE_DFUNC (an
 *     action call), DT_NODE_AGG (an aggregation update) or DT_NODE_IF.
 *
 * Errors are raised with dt_cc_error(), which formats DTrace's message into
 * the handle and longjmps out of the compile; every allocation of a compile
 * is on lists that the error path frees, and every identifier or type a
 * failed compile created is rolled back.
 */
#ifndef DT_CC_H
#define DT_CC_H

#include <ctf-api.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/dt_impl.h"
#include "common/dt_program.h"
#include "common/compiler/dt_errtags.h"

typedef struct dt_node dt_node_t;
typedef struct dt_ident dt_ident_t;
typedef struct dt_idhash dt_idhash_t;
typedef struct dt_cc dt_cc_t;
typedef struct dt_pcb dt_pcb_t;
typedef struct dt_decl dt_decl_t;
typedef struct dt_xlator dt_xlator_t;
typedef struct dt_sou dt_sou_t;

/* Operators, independent of the grammar's token numbers. */
typedef enum dt_op {
	DT_OP_NONE,
	DT_OP_COMMA,	/* , */
	DT_OP_ASGN,	/* = */
	DT_OP_ADD_EQ, DT_OP_SUB_EQ, DT_OP_MUL_EQ, DT_OP_DIV_EQ, DT_OP_MOD_EQ,
	DT_OP_AND_EQ, DT_OP_XOR_EQ, DT_OP_OR_EQ, DT_OP_LSH_EQ, DT_OP_RSH_EQ,
	DT_OP_QUESTION,	/* ?: (DT_NODE_OP3) */
	DT_OP_LOR, DT_OP_LXOR, DT_OP_LAND,
	DT_OP_BOR, DT_OP_XOR, DT_OP_BAND,
	DT_OP_EQU, DT_OP_NEQ, DT_OP_LT, DT_OP_LE, DT_OP_GT, DT_OP_GE,
	DT_OP_LSH, DT_OP_RSH,
	DT_OP_ADD, DT_OP_SUB, DT_OP_MUL, DT_OP_DIV, DT_OP_MOD,
	DT_OP_LNEG,	/* ! */
	DT_OP_BNEG,	/* ~ */
	DT_OP_PREINC, DT_OP_PREDEC, DT_OP_POSTINC, DT_OP_POSTDEC,
	DT_OP_IPOS,	/* unary + */
	DT_OP_INEG,	/* unary - */
	DT_OP_DEREF,	/* unary * */
	DT_OP_ADDROF,	/* unary & */
	DT_OP_SIZEOF,
	DT_OP_STRINGOF,
	DT_OP_OFFSETOF,
	DT_OP_CAST,	/* (type) expr: left is DT_NODE_TYPE */
	DT_OP_XLATE,	/* xlate<type>(expr): left is DT_NODE_TYPE */
	DT_OP_LBRAC,	/* E1[E2] before cooking */
	DT_OP_DOT,	/* . */
	DT_OP_PTR,	/* -> */
	DT_OP_COUNT
} dt_op_t;

typedef enum dt_nodekind {
	DT_NODE_FREE,
	DT_NODE_INT,	  /* integer constant: dn_value */
	DT_NODE_STRING,	  /* string constant: dn_string */
	DT_NODE_IDENT,	  /* identifier before cooking: dn_string */
	DT_NODE_VAR,	  /* variable: dn_ident, dn_args (array keys) */
	DT_NODE_SYM,	  /* kernel or user symbol `name: dn_ident */
	DT_NODE_TYPE,	  /* a type name (sizeof, casts, xlate) */
	DT_NODE_FUNC,	  /* call: dn_ident, dn_args */
	DT_NODE_OP1,	  /* unary: dn_op, dn_child */
	DT_NODE_OP2,	  /* binary: dn_op, dn_left, dn_right */
	DT_NODE_OP3,	  /* ?: -- dn_expr ? dn_left : dn_right */
	DT_NODE_DEXPR,	  /* statement: dn_expr evaluated for its effect */
	DT_NODE_DFUNC,	  /* statement: dn_expr is an action call */
	DT_NODE_AGG,	  /* @name[dn_aggtup] = dn_aggfun; dn_ident */
	DT_NODE_PDESC,	  /* probe description: dn_string, dn_desc */
	DT_NODE_CLAUSE,	  /* dn_pdescs, dn_pred, dn_acts */
	DT_NODE_INLINE,	  /* inline definition: dn_ident */
	DT_NODE_MEMBER,	  /* translator member: dn_membname = dn_membexpr */
	DT_NODE_XLATOR,	  /* translator definition: dn_xlator */
	DT_NODE_PROBE,	  /* probe declaration in a provider: dn_ident */
	DT_NODE_PROVIDER, /* provider definition: dn_provname, dn_probes */
	DT_NODE_PROG,	  /* the program: dn_body, list of top-level nodes */
	DT_NODE_IF,	  /* if (dn_expr) dn_body else dn_alternate */
	DT_NODE_DECL,	  /* a declaration (no code): kept for -h/-G */
} dt_nodekind_t;

/* dn_flags */
#define DT_NF_SIGNED	0x01	/* integer type is signed */
#define DT_NF_COOKED	0x02	/* node has been checked and typed */
#define DT_NF_REF	0x04	/* value is handled by reference */
#define DT_NF_LVALUE	0x08	/* node is an lvalue */
#define DT_NF_WRITABLE	0x10	/* lvalue may be assigned */
#define DT_NF_BITFIELD	0x20	/* node is an integer bit-field */
#define DT_NF_USERLAND	0x40	/* data is in user space */
#define DT_NF_DPTR	0x80	/* pointer into DTrace-managed storage */
#define DT_NF_AGGIDENT	0x100	/* IDENT node names an aggregation (@x) */
#define DT_NF_XLATED	0x200	/* value is a translated struct (xlate) */

struct dt_node {
	dt_nodekind_t dn_kind;
	dt_op_t dn_op;
	int dn_line;		/* source line (0 when not from a file) */
	int dn_endline;		/* DT_NODE_CLAUSE: line of its closing } */
	uint32_t dn_flags;
	ctf_dict_t *dn_ctfp;	/* type: dictionary ... */
	ctf_id_t dn_type;	/* ... and type ID */

	uint64_t dn_value;	/* DT_NODE_INT */
	char *dn_string;	/* STRING, IDENT, PDESC text, AGG name */
	dt_ident_t *dn_ident;	/* VAR, FUNC, AGG, INLINE, PROBE, SYM */
	dt_node_t *dn_args;	/* VAR keys, FUNC arguments */
	dt_node_t *dn_child;	/* OP1 */
	dt_node_t *dn_left;	/* OP2, OP3 */
	dt_node_t *dn_right;	/* OP2, OP3 */
	dt_node_t *dn_expr;	/* OP3 condition, DEXPR, DFUNC, IF */
	dt_node_t *dn_aggtup;	/* AGG keys */
	dt_node_t *dn_aggfun;	/* AGG: the aggregating function call */
	dt_node_t *dn_pdescs;	/* CLAUSE: list of PDESC */
	dt_node_t *dn_pred;	/* CLAUSE: predicate or NULL */
	dt_node_t *dn_acts;	/* CLAUSE: statements */
	dt_node_t *dn_body;	/* IF: then-statements */
	dt_node_t *dn_alternate; /* IF: else-statements */
	dt_probedesc_t *dn_desc; /* PDESC */
	const char *dn_membname; /* MEMBER */
	dt_node_t *dn_membexpr;	/* MEMBER */
	dt_xlator_t *dn_xlator;	/* XLATOR */
	dt_node_t *dn_members;	/* XLATOR: list of MEMBER */
	char *dn_provname;	/* PROVIDER */
	dt_node_t *dn_probes;	/* PROVIDER: list of PROBE */
	dt_node_t *dn_nargs;	/* PROBE: native argument types (TYPE) */
	dt_node_t *dn_xargs;	/* PROBE: translated argument types */
	uint32_t dn_bitoff;	/* BITFIELD: offset in bits within the word */
	uint32_t dn_depth;	/* expression nodes: levels of operands below */
	/*
	 * What the code generator learnt of the node, so that asking again
	 * at each level of a long chain is not a walk of the chain below.
	 */
	uint8_t dn_cg_nofold;	/* dt_cg_fold() found it is no constant */
	uint8_t dn_cg_regneed;	/* dt_cg_regneed(), or 0 if not yet known */
	dt_node_t *dn_cg_up;	/* parent in a chain of && or || */

	dt_node_t *dn_list;	/* next node in a list */
	dt_node_t *dn_tail;	/* a list's head: a node at or before its
				   end, so appending is not a walk */
	dt_node_t *dn_link;	/* allocation list */
};

/* Identifier kinds. */
typedef enum dt_idkind {
	DT_IDENT_ARRAY,	  /* associative array (or args[], uregs[]) */
	DT_IDENT_SCALAR,  /* scalar variable */
	DT_IDENT_PTR,	  /* reserved */
	DT_IDENT_AGG,	  /* aggregation */
	DT_IDENT_AGGFUNC, /* aggregating function: count(), sum() ... */
	DT_IDENT_ACTFUNC, /* action: trace(), printf() ... */
	DT_IDENT_FUNC,	  /* subroutine: strlen(), copyin() ... */
	DT_IDENT_XLSOU,	  /* translated struct (xlate<T>) */
	DT_IDENT_XLPTR,	  /* translated struct pointer (xlate<T *>) */
	DT_IDENT_SYMBOL,  /* kernel or user symbol */
	DT_IDENT_ENUM,	  /* enumerator */
	DT_IDENT_PRAGAT,  /* #pragma attributes */
	DT_IDENT_PRAGBN,  /* #pragma binding */
	DT_IDENT_PROBE,	  /* probe declared in a provider */
} dt_idkind_t;

/* di_flags */
#define DT_IDFLG_TLS	0x0001	/* thread-local (self->) */
#define DT_IDFLG_LOCAL	0x0002	/* clause-local (this->) */
#define DT_IDFLG_WRITE	0x0004	/* may be assigned */
#define DT_IDFLG_INLINE	0x0008	/* inline: di_inline holds the body */
#define DT_IDFLG_REF	0x0010	/* read by the program */
#define DT_IDFLG_MOD	0x0020	/* written by the program */
#define DT_IDFLG_DECL	0x0040	/* explicitly declared */
#define DT_IDFLG_BUILTIN 0x0080	/* built-in: not user-created */
#define DT_IDFLG_DIFR	0x0100	/* built-in with dynamic type (args[]) */
#define DT_IDFLG_USER	0x0200	/* holds user-space data */
#define DT_IDFLG_DESTRUCT 0x0400 /* destructive action or subroutine */
#define DT_IDFLG_XLPTR	0x0800	/* holds a translated pointer (the
				   input value); di_data: its xlator */

/*
 * A function or array signature: argument (or key) types in di_sig.  A
 * NULL ds_ctfp[i] accepts any type.  ds_varargs is the index of "..." or
 * -1; ds_optargs the index of the first optional argument or -1.
 */
typedef struct dt_idsig {
	int ds_argc;
	int ds_varargs;
	int ds_optargs;
	ctf_dict_t **ds_ctfp;
	ctf_id_t *ds_type;
	uint32_t *ds_flags;	/* DT_NF_* of each key (arrays) */
} dt_idsig_t;

struct dt_ident {
	char *di_name;
	dt_idkind_t di_kind;
	uint32_t di_flags;	/* DT_IDFLG_* */
	uint32_t di_id;		/* DIF variable/subroutine ID, action or
				   aggregating function kind, agg ID */
	int di_scope;		/* DIFV_SCOPE_* for variables */
	ctf_dict_t *di_ctfp;	/* value type, or NULL until first use */
	ctf_id_t di_type;
	const char *di_proto;	/* built-in functions: "rtype(args)" */
	dt_idsig_t *di_sig;	/* array keys / function arguments */
	dt_node_t *di_inline;	/* DT_IDFLG_INLINE: cooked body */
	dt_ident_t *di_iparam;	/* inline array: its index, as the body's
				   identifier (bound where it is read) */
	dt_ident_t *di_aggfunc;	/* DT_IDENT_AGG: its aggregating function */
	dt_node_t *di_aggfirst;	/* DT_IDENT_AGG: first use, for checks */
	int64_t di_value;	/* DT_IDENT_ENUM */
	void *di_data;		/* kind-specific (xlator, provider...) */
	int di_line;		/* line of declaration or first use */
	uint32_t di_offset;	/* DIFV_OFFSET_NONE, or its place in the
				   scope's layout (dt_ident_layout()) */
	unsigned di_gen;	/* compile generation that created it */
	unsigned di_typegen;	/* generation that gave it its type */
	unsigned di_agggen;	/* generation of di_aggfirst */
	dt_ident_t *di_next;	/* hash chain */
};

/* An identifier table, chained hash with insertion order kept. */
struct dt_idhash {
	const char *dh_name;	/* "global", "thread-local", ... */
	dt_ident_t **dh_buckets;
	unsigned dh_nbuckets;
	uint32_t dh_nextid;	/* next user variable ID */
	uint32_t dh_maxid;
};

/* A translator: xlate<dst>(src). */
struct dt_xlator {
	ctf_dict_t *dx_dst_ctfp;
	ctf_id_t dx_dst_type;	/* struct or union being produced */
	ctf_dict_t *dx_src_ctfp;
	ctf_id_t dx_src_type;
	char *dx_arg;		/* name of the input parameter */
	dt_ident_t *dx_argid;	/* ... as an identifier of the body */
	dt_node_t *dx_members;	/* list of MEMBER nodes */
	dt_xlator_t *dx_next;
	unsigned dx_gen;
};

/* A probe of a provider definition, kept for -h and -G. */
typedef struct dt_provprobe {
	char *pp_name;		/* as declared: "__", not "-" */
	int pp_nargs;
	char **pp_types;	/* C type names of its arguments */
} dt_provprobe_t;

/* A provider defined in the program (for -h and -G). */
typedef struct dt_provdecl {
	char *pv_name;
	dt_node_t *pv_probes;	/* PROBE nodes (of the compile only) */
	dt_provprobe_t *pv_pprobes; /* the probes, outliving the compile */
	size_t pv_npprobes;
	struct dt_provdecl *pv_next;
	unsigned pv_gen;
} dt_provdecl_t;

extern void dt_provdecl_free(dt_provdecl_t *pvp);

/* Lexer states, set by the lexer and by grammar actions. */
typedef enum dt_lexstate {
	DT_LEX_TOP,	/* between clauses: probe specs or declarations */
	DT_LEX_EXPR,	/* inside a predicate, clause body or declaration */
} dt_lexstate_t;

/*
 * The parse control block: the state of one compile.  It lives on the
 * stack of the compile call; cc_pcb points at it while it runs.
 */
/*
 * An array declarator without a dimension is an error in D, except as C
 * headers included with -C use it: a struct's flexible last member, an
 * array parameter (which C makes a pointer).
 */
#define DT_ARRCTX_NONE	0
#define DT_ARRCTX_MEMBER 1
#define DT_ARRCTX_PARAM	2

struct dt_pcb {
	dt_cc_t *pcb_cc;
	dtrace_hdl_t *pcb_hdl;
	jmp_buf pcb_jmpbuf;
	const char *pcb_string;	/* source text */
	size_t pcb_strlen;
	size_t pcb_strpos;
	FILE *pcb_fileptr;	/* source file, or NULL for a string */
	const char *pcb_filetag; /* file name from #line, or NULL */
	int pcb_pspec;		/* DTRACE_PROBESPEC_* of the text */
	unsigned pcb_cflags;	/* DTRACE_C_* */
	int pcb_sargc;		/* macro arguments $0..$N */
	char *const *pcb_sargv;
	void *pcb_scanner;	/* flex reentrant scanner */
	dt_node_t *pcb_list;	/* every node of this compile */
	dt_node_t *pcb_root;	/* the program */
	dt_lexstate_t pcb_lstate;
	int pcb_parens;		/* ( nesting */
	int pcb_brackets;	/* [ nesting */
	int pcb_braces;		/* { nesting */
	uint64_t pcb_clausebraces; /* bit n: brace at depth n+1 opens a
				      clause body */
	bool pcb_deref;		/* last token was . or -> */
	bool pcb_in_clause;	/* lexing a clause body or predicate */
	bool pcb_decl;		/* parsing a declaration */
	dt_decl_t *pcb_decls;	/* every dt_decl_t of this compile */
	dt_sou_t *pcb_sou;	/* struct/union/enum bodies being parsed */
	int pcb_cstate;		/* lexer state to return to after a comment */
	bool pcb_eof;		/* the lexer reached the end of the input */
	bool *pcb_sflagv;	/* macro argument i was referenced */
	dt_idhash_t *pcb_locals; /* this-> variables of the current clause */
	uint32_t pcb_localsize;	/* bytes of this-> variables laid out */
	dt_node_t *pcb_clause;	/* clause being cooked */
	dt_xlator_t *pcb_xlator; /* translator whose members are cooked */
	dt_ident_t *pcb_iparam;	/* index of the inline array being cooked */
	int pcb_arrctx;		/* what "[]" may mean in the declarator being
				   typed: DT_ARRCTX_* */
	int pcb_line;		/* line of the token being parsed */
	/*
	 * The part of a clause being cooked ("predicate", "action list"),
	 * which an error in a program from a string names, as DTrace's do.
	 */
	const char *pcb_region;
	char *pcb_errbuf;	/* scratch for messages */
	char **pcb_strs;	/* strings to free with the compile */
	size_t pcb_nstrs, pcb_maxstrs;
	bool pcb_cooked_args;	/* args[] used in this clause */
	int pcb_nclauses;
	unsigned pcb_gen;	/* generation of this compile */
};

/* The compiler state of a handle (dtp->dt_cc). */
struct dt_cc {
	dtrace_hdl_t *cc_hdl;
	ctf_dict_t *cc_ctf;	/* D intrinsics and program-declared types */
	ctf_id_t cc_type_int;	/* int */
	ctf_id_t cc_type_uint;
	ctf_id_t cc_type_long;
	ctf_id_t cc_type_ulong;
	ctf_id_t cc_type_llong;
	ctf_id_t cc_type_ullong;
	ctf_id_t cc_type_char;
	ctf_id_t cc_type_void;
	ctf_id_t cc_type_voidp;
	ctf_id_t cc_type_str;	/* string */
	ctf_id_t cc_type_dyn;	/* <DYN>: arrays, aggregations, args[] */
	ctf_id_t cc_type_stack;	/* stack(), ustack() results */
	ctf_id_t cc_type_symaddr; /* sym(), func(), mod() results */
	ctf_id_t cc_type_usymaddr; /* usym(), ufunc(), umod(), uaddr() */
	ctf_id_t cc_type_int64;
	ctf_id_t cc_type_uint64;
	ctf_id_t cc_type_sizet;
	ctf_id_t cc_type_ptrdiff;
	dt_idhash_t *cc_globals; /* built-ins, functions, user globals */
	dt_idhash_t *cc_tls;	/* self-> variables */
	dt_idhash_t *cc_aggs;	/* aggregations */
	dt_idhash_t *cc_macros;	/* $target, $pid ... */
	dt_xlator_t *cc_xlators;
	dt_provdecl_t *cc_providers;
	dt_node_t *cc_keep;	/* nodes of successful compiles */
	unsigned cc_gen;	/* current compile generation */
	uint32_t cc_globalsize;	/* bytes of global variables laid out */
	uint32_t cc_naggs;	/* aggregation IDs handed out */
	dt_pcb_t *cc_pcb;	/* compile in progress, or NULL */
	char cc_errmsg[2048];	/* formatted message of the last error */
	const char *cc_errtag;	/* D_* tag of the last error */
	unsigned cc_strsize;	/* string size the string type was made with */
	uint32_t cc_maxdepth;	/* deepest expression allowed (dt_node.c) */
	bool cc_noktypes;	/* compiling the prelude: no kernel types */
	bool cc_libs_loaded;	/* D library files compiled (dt_lib.c) */
	struct dt_lib_names *cc_libdecls; /* the names they declare, once
					     scanned (dt_lib_need.c) */
	bool cc_programs;	/* past the prelude and D library files: a
				   D version asked for now hides later
				   built-ins (dt_ident_reduce) at once */
	bool cc_inlib;		/* compiling one of them */
	char **cc_libnames;	/* ... the names of those compiled */
	size_t cc_nlibs;
	int cc_target_set;	/* -c or -p gave $target a process */
	char **cc_cpp;		/* -D, -U, -I arguments for cpp */
	size_t cc_ncpp;
};

/* The program handed back by the compile API (dtrace_prog_t). */
struct dtrace_prog {
	dtrace_hdl_t *dp_hdl;
	dt_node_t *dp_root;	/* DT_NODE_PROG, cooked */
	unsigned dp_gen;
	dt_program_t *dp_program; /* filled in by code generation */
};

/* Per-handle setup and teardown (dt_cc.c). */
extern int dt_cc_create(dtrace_hdl_t *dtp);
extern const char *dt_cc_errmsg(dtrace_hdl_t *dtp);
extern void dt_cc_destroy(dtrace_hdl_t *dtp);

/* Errors (dt_cc.c).  These format the message and longjmp out. */
extern void dt_cc_error(dt_pcb_t *pcb, dt_errtag_t tag, const char *fmt,
    ...) __attribute__((noreturn, format(printf, 3, 4)));
/*
 * The same with a message made already, its quoted text escaped and its
 * layout (newlines, tabs) kept: printf()'s checks make theirs.
 */
extern void dt_cc_nerror_made(dt_pcb_t *pcb, const dt_node_t *dnp,
    dt_errtag_t tag, const char *msg) __attribute__((noreturn));
extern void dt_cc_nerror(dt_pcb_t *pcb, const dt_node_t *dnp,
    dt_errtag_t tag, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));
/* "probe description ... does not match any probes", with the hint. */
extern void dt_cc_nomatch(dt_pcb_t *pcb, int line, const dt_probedesc_t *pdp)
    __attribute__((noreturn));
extern void dt_cc_syntax(dt_pcb_t *pcb, const char *text,
    const char *msg) __attribute__((noreturn));
extern void dt_cc_nomem(dt_pcb_t *pcb) __attribute__((noreturn));

/*
 * The deepest expression a program may have, in levels of operators, and
 * dt_cc_run(), which calls fn(arg) on a stack with room for it and sets
 * cc_maxdepth to what that stack allows (dt_cc_run.c).
 */
#define DT_CC_MAXDEPTH 100000
/* The largest script dtrace_program_fcompile() reads, in bytes. */
#define DT_CC_MAXSCRIPT (64 << 20)
extern void dt_cc_run(dt_cc_t *cc, void (*fn)(void *), void *arg);
extern char *dt_cc_strdup(dt_pcb_t *pcb, const char *s);
extern char *dt_cc_strndup(dt_pcb_t *pcb, const char *s, size_t n);
extern void *dt_cc_zalloc(dt_pcb_t *pcb, size_t size);

/* Nodes (dt_node.c). */
extern dt_node_t *dt_node_alloc(dt_pcb_t *pcb, dt_nodekind_t kind);
extern void dt_node_free_list(dt_node_t *list);
extern dt_node_t *dt_node_int(dt_pcb_t *pcb, uint64_t value,
    const char *text);
extern dt_node_t *dt_node_string(dt_pcb_t *pcb, char *s);
extern dt_node_t *dt_node_ident(dt_pcb_t *pcb, char *name);
extern dt_node_t *dt_node_op1(dt_pcb_t *pcb, dt_op_t op, dt_node_t *cp);
extern dt_node_t *dt_node_op2(dt_pcb_t *pcb, dt_op_t op, dt_node_t *lp,
    dt_node_t *rp);
extern dt_node_t *dt_node_op3(dt_pcb_t *pcb, dt_node_t *ep, dt_node_t *lp,
    dt_node_t *rp);
extern dt_node_t *dt_node_func(dt_pcb_t *pcb, dt_node_t *name,
    dt_node_t *args);
extern dt_node_t *dt_node_type(dt_pcb_t *pcb, dt_decl_t *ddp);
extern dt_node_t *dt_node_vartype(dt_pcb_t *pcb, ctf_dict_t *ctfp,
    ctf_id_t type);
extern dt_node_t *dt_node_statement(dt_pcb_t *pcb, dt_node_t *expr);
extern dt_node_t *dt_node_pdesc(dt_pcb_t *pcb, char *spec);
extern dt_node_t *dt_node_clause(dt_pcb_t *pcb, dt_node_t *pdescs,
    dt_node_t *pred, dt_node_t *acts);
extern dt_node_t *dt_node_if(dt_pcb_t *pcb, dt_node_t *cond,
    dt_node_t *body, dt_node_t *alt);
extern dt_node_t *dt_node_link(dt_node_t *lp, dt_node_t *rp);
extern unsigned dt_node_list_len(const dt_node_t *lp);
extern const char *dt_op_name(dt_op_t op);
extern const char *dt_node_kind_name(dt_nodekind_t kind);
extern void dt_node_printr(const dt_node_t *dnp, FILE *fp, int depth);
extern void dt_node_type_assign(dt_node_t *dnp, ctf_dict_t *ctfp,
    ctf_id_t type);
extern void dt_node_type_propagate(const dt_node_t *src, dt_node_t *dst);

/* Types (dt_type.c). */
extern int dt_type_init(dt_cc_t *cc);
extern void dt_type_fini(dt_cc_t *cc);
extern int dt_type_lookup(dt_cc_t *cc, const char *name, ctf_dict_t **ctfpp,
    ctf_id_t *typep);
extern char *dt_type_name(ctf_dict_t *ctfp, ctf_id_t type, char *buf,
    size_t len);
extern char *dt_node_type_name(const dt_cc_t *cc, const dt_node_t *dnp,
    char *buf, size_t len);
extern ctf_id_t dt_type_pointer(dt_pcb_t *pcb, ctf_dict_t **ctfpp,
    ctf_id_t type);
extern ctf_id_t dt_type_import(dt_pcb_t *pcb, ctf_dict_t *ctfp,
    ctf_id_t type);
extern bool dt_type_is_void(ctf_dict_t *ctfp, ctf_id_t type);
extern bool dt_type_complete(dt_cc_t *cc, ctf_dict_t **ctfpp,
    ctf_id_t *typep);
extern int dt_type_member_info(ctf_dict_t *ctfp, ctf_id_t type,
    const char *name, ctf_membinfo_t *mip);
extern bool dt_node_is_integer(const dt_node_t *dnp);
extern bool dt_node_is_arith(const dt_node_t *dnp);
extern bool dt_node_is_float(const dt_node_t *dnp);
extern bool dt_node_is_scalar(const dt_node_t *dnp);
extern bool dt_node_is_pointer(const dt_node_t *dnp);
extern bool dt_node_is_xlptr(const dt_node_t *dnp);
extern bool dt_node_is_vfptr(const dt_node_t *dnp);
extern bool dt_node_is_void(const dt_node_t *dnp);
extern bool dt_node_is_string(const dt_cc_t *cc, const dt_node_t *dnp);
extern bool dt_node_is_strcompat(const dt_cc_t *cc, const dt_node_t *dnp);
extern bool dt_node_is_dynamic(const dt_cc_t *cc, const dt_node_t *dnp);
extern bool dt_node_is_stack(const dt_cc_t *cc, const dt_node_t *dnp);
extern bool dt_node_is_symaddr(const dt_cc_t *cc, const dt_node_t *dnp);
extern bool dt_node_is_actfunc(const dt_node_t *dnp);
extern bool dt_node_is_argcompat(const dt_cc_t *cc, const dt_node_t *lp,
    const dt_node_t *rp);
extern bool dt_node_is_ptrcompat(const dt_cc_t *cc, const dt_node_t *lp,
    const dt_node_t *rp, ctf_dict_t **ctfpp, ctf_id_t *typep);
extern bool dt_type_compat(ctf_dict_t *lfp, ctf_id_t ltype, ctf_dict_t *rfp,
    ctf_id_t rtype);
extern void dt_type_promote(dt_cc_t *cc, const dt_node_t *lp,
    const dt_node_t *rp, ctf_dict_t **ctfpp, ctf_id_t *typep);
extern size_t dt_node_sizeof(const dt_cc_t *cc, const dt_node_t *dnp);
extern ssize_t dt_type_align(ctf_dict_t *ctfp, ctf_id_t type);
extern int dt_type_update_strsize(dt_cc_t *cc);

/* Declarations (dt_decl.c). */
typedef enum dt_dclass {
	DT_DC_DEFAULT, DT_DC_AUTO, DT_DC_REGISTER, DT_DC_STATIC,
	DT_DC_EXTERN, DT_DC_TYPEDEF, DT_DC_SELF, DT_DC_THIS
} dt_dclass_t;

#define DT_DA_SIGNED	0x0001
#define DT_DA_UNSIGNED	0x0002
#define DT_DA_SHORT	0x0004
#define DT_DA_LONG	0x0008
#define DT_DA_LONGLONG	0x0010
#define DT_DA_CONST	0x0020
#define DT_DA_RESTRICT	0x0040
#define DT_DA_VOLATILE	0x0080
#define DT_DA_PAREN	0x0100	/* declarator was parenthesized */
#define DT_DA_BITFIELD	0x0200	/* member declarator with : width */
#define DT_DA_TNAME	0x0400	/* identifier was lexed as a type name */

typedef enum dt_dkind {
	DT_DK_NONE,	/* declarator head (holds the identifier) */
	DT_DK_SPEC,	/* declaration specifiers: base type, class, attrs */
	DT_DK_PTR,	/* pointer derivation */
	DT_DK_ARRAY,	/* array derivation: dd_node size or key types */
	DT_DK_FUNC,	/* function derivation: dd_node parameters */
} dt_dkind_t;

/*
 * Declarations are built bottom-up by the grammar.  Specifiers merge into
 * one DT_DK_SPEC (dd_name: "int", "string", a typedef name; or dd_ctfp and
 * dd_type for struct, union and enum specifiers).  A declarator is a chain
 * (dd_next) read from the identifier outwards: "*a[4]" is
 * NONE(a) -> ARRAY(4) -> PTR, that is an array of 4 pointers; the type is
 * built by applying the chain to the base type from its far end.
 */
struct dt_decl {
	dt_dkind_t dd_kind;
	unsigned dd_attr;	/* DT_DA_* */
	dt_dclass_t dd_class;	/* DT_DK_SPEC */
	char *dd_name;		/* DT_DK_SPEC: base type name */
	char *dd_ident;		/* DT_DK_NONE: declared identifier */
	dt_node_t *dd_node;	/* array size or keys, parameters, bits */
	ctf_dict_t *dd_ctfp;	/* DT_DK_SPEC: struct/union/enum type */
	ctf_id_t dd_type;
	dt_decl_t *dd_spec;	/* type names: the specifiers */
	dt_decl_t *dd_next;	/* next derivation outwards */
	dt_decl_t *dd_list;	/* next declarator of a declaration */
	dt_decl_t *dd_tail;	/* a list's head: a declarator at or before
				   its end, so appending is not a walk */
	dt_decl_t *dd_link;	/* allocation list */
	int dd_line;
};

/* A struct, union or enum whose body is being parsed. */
struct dt_sou {
	ctf_dict_t *ds_ctfp;
	ctf_id_t ds_type;
	int ds_kind;		/* CTF_K_STRUCT, _UNION or _ENUM */
	char *ds_name;
	uint64_t ds_offset;	/* next free bit (struct) */
	uint64_t ds_size;	/* bytes so far */
	uint32_t ds_align;	/* bytes */
	int64_t ds_enumval;	/* next enumerator value */
	unsigned ds_nmembers;
	int ds_line;		/* line of the opening brace */
	struct dt_member *ds_members;	/* dt_decl.c */
	struct dt_sou *ds_next;
};

extern dt_decl_t *dt_decl_new(dt_pcb_t *pcb, dt_dkind_t kind);
extern dt_decl_t *dt_decl_class(dt_pcb_t *pcb, dt_dclass_t dclass);
extern dt_decl_t *dt_decl_spec(dt_pcb_t *pcb, const char *name);
extern dt_decl_t *dt_decl_attr(dt_pcb_t *pcb, unsigned attr);
extern dt_decl_t *dt_decl_merge(dt_pcb_t *pcb, dt_decl_t *a, dt_decl_t *b);
/* Derivations (pointer, array, function) one declarator may have. */
#define DT_DECL_MAXDERIV 64
extern dt_decl_t *dt_decl_chain(dt_pcb_t *pcb, dt_decl_t *dtor,
    dt_decl_t *deriv);
extern dt_decl_t *dt_decl_list_append(dt_decl_t *a, dt_decl_t *b);
extern dt_decl_t *dt_decl_apply(dt_pcb_t *pcb, dt_decl_t *spec,
    dt_decl_t *dtor);
extern void dt_decl_sou_begin(dt_pcb_t *pcb, int kind, char *name);
extern void dt_decl_sou_members(dt_pcb_t *pcb, dt_decl_t *spec,
    dt_decl_t *dtors);
extern dt_decl_t *dt_decl_sou_end(dt_pcb_t *pcb);
extern dt_decl_t *dt_decl_sou_ref(dt_pcb_t *pcb, int kind, char *name);
extern void dt_decl_enum_begin(dt_pcb_t *pcb, char *name);
extern void dt_decl_enumerator(dt_pcb_t *pcb, char *name, dt_node_t *val);
extern dt_decl_t *dt_decl_enum_end(dt_pcb_t *pcb);
extern void dt_decl_type(dt_pcb_t *pcb, dt_decl_t *ddp, ctf_dict_t **ctfpp,
    ctf_id_t *typep);
extern void dt_decl_declare(dt_pcb_t *pcb, dt_decl_t *spec,
    dt_decl_t *dtors);
extern dt_node_t *dt_decl_param(dt_pcb_t *pcb, dt_decl_t *spec,
    dt_decl_t *dtor);
extern dt_node_t *dt_decl_inline(dt_pcb_t *pcb, dt_decl_t *spec,
    dt_decl_t *dtor, dt_node_t *expr);
extern void dt_decl_xlator_begin(dt_pcb_t *pcb, dt_decl_t *dst,
    dt_decl_t *src, char *arg);
extern dt_node_t *dt_decl_xlator_end(dt_pcb_t *pcb, dt_node_t *members);
extern dt_node_t *dt_decl_member(dt_pcb_t *pcb, char *name, dt_node_t *e);
extern dt_node_t *dt_decl_probe(dt_pcb_t *pcb, char *name,
    dt_node_t *nargs, dt_node_t *xargs, bool has_xargs);
extern dt_node_t *dt_decl_provider(dt_pcb_t *pcb, char *name,
    dt_node_t *probes);
extern void dt_decl_free_all(dt_pcb_t *pcb);
extern bool dt_node_const_eval(dt_pcb_t *pcb, dt_node_t *dnp,
    int64_t *valp);

/* Identifiers (dt_ident.c). */
extern dt_idhash_t *dt_idhash_create(const char *name, uint32_t base,
    uint32_t max);
extern void dt_idhash_destroy(dt_idhash_t *dhp);
extern dt_ident_t *dt_idhash_lookup(dt_idhash_t *dhp, const char *name);
extern dt_ident_t *dt_idhash_insert(dt_idhash_t *dhp, const char *name,
    dt_idkind_t kind, uint32_t flags, uint32_t id, unsigned gen);
extern void dt_idhash_rollback(dt_idhash_t *dhp, unsigned gen);
extern int dt_idhash_nextid(dt_idhash_t *dhp, uint32_t *idp);
extern int dt_ident_init(dt_cc_t *cc);
extern int dt_ident_types(dt_cc_t *cc);
extern void dt_ident_reduce(dt_cc_t *cc, int64_t vers);
extern const char *dt_idkind_name(dt_idkind_t kind);
extern void dt_ident_type_assign(dt_ident_t *idp, ctf_dict_t *ctfp,
    ctf_id_t type);
extern bool dt_ident_unref(const dt_ident_t *idp);
extern void dt_ident_layout(dt_pcb_t *pcb, dt_ident_t *idp);
extern void dt_ident_cook(dt_pcb_t *pcb, dt_node_t *dnp, dt_ident_t *idp,
    dt_node_t *args);
extern dt_ident_t *dt_ident_lookup_global(dt_pcb_t *pcb, const char *name);
extern void dt_ident_sig_free(dt_idsig_t *sig);
extern void dt_macros_update(dtrace_hdl_t *dtp);

/* Semantic checks (dt_cook.c, dt_cook_act.c). */
extern dt_node_t *dt_node_cook(dt_pcb_t *pcb, dt_node_t *dnp,
    unsigned idflags);
extern void dt_node_list_cook(dt_pcb_t *pcb, dt_node_t **lpp,
    unsigned idflags);
extern void dt_cook_clause(dt_pcb_t *pcb, dt_node_t *dnp);
extern void dt_cook_program(dt_pcb_t *pcb, dt_node_t *root);
extern void dt_cook_statement_list(dt_pcb_t *pcb, dt_node_t *list);
extern void dt_cook_aggfunc(dt_pcb_t *pcb, dt_node_t *agg);
extern void dt_cook_action(dt_pcb_t *pcb, dt_node_t *dfunc);
extern dt_node_t *dt_cook_xlator(dt_pcb_t *pcb, dt_node_t *dnp);

/* D library files (dt_lib.c). */
extern int dt_lib_load(dtrace_hdl_t *dtp);
/*
 * The text of every library file dt_lib_load() would compile (an entry
 * NULL when unreadable), *np of them; NULL when out of memory.
 */
extern char **dt_lib_texts(dtrace_hdl_t *dtp, size_t *np);
/*
 * Whether a program (text, len bytes, its compile flags and macro
 * arguments) may use what the library files declare (dt_lib_need.c).
 */
extern bool dt_lib_needed(dtrace_hdl_t *dtp, const char *text, size_t len,
    unsigned cflags, int argc, char *const argv[]);
extern void dt_lib_names_free(dt_cc_t *cc);
extern dtrace_prog_t *dt_cc_libcompile(dtrace_hdl_t *dtp, const char *text,
    size_t len);
extern bool dt_lib_loaded(const dt_cc_t *cc, const char *name);

/*
 * The di_id of built-in variables that a D library defines as inlines
 * (curpsinfo): placeholders with a type until the library replaces them.
 */
#define DT_VAR_NONE	0xffff

/* Pragmas and control lines (dt_pragma.c). */
extern void dt_pragma(dt_pcb_t *pcb, const char *line);

/*
 * Probe descriptions (dt_pdesc.c).  Returns 0; -1 with *errp saying what is
 * wrong with the description; or -2 with *errp the whole message.
 */
extern int dt_pdesc_parse(dt_pcb_t *pcb, const char *spec, int pspec,
    dt_probedesc_t *pdp, const char **errp);

/* The lexer and parser (generated). */
extern int dt_lex_init(dt_pcb_t *pcb);
extern void dt_lex_fini(dt_pcb_t *pcb);
extern const char *dt_lex_text(dt_pcb_t *pcb);
extern size_t dt_lex_textlen(dt_pcb_t *pcb);
extern int dt_lex_lineno(dt_pcb_t *pcb);
extern void dt_yyset_lineno_pcb(dt_pcb_t *pcb, int line);
extern int dt_parse(dt_pcb_t *pcb);
extern bool dt_lex_is_typename(dt_pcb_t *pcb, const char *name);

#endif /* DT_CC_H */
