/* SPDX-License-Identifier: MIT */
/*
 * dt_cg.h: code generation -- the cooked D parse tree to DIF objects and a
 * dt_program_t (common/dt_program.h).
 *
 * The module is two files along one seam:
 *
 *	dt_cg.c		expressions: one D expression to one DIF object
 *			(registers, labels, the integer, string and variable
 *			tables, constant folding, loads and stores, variables
 *			of every scope, subroutine calls, control flow)
 *	dt_cg_act.c	clauses: statements, actions and their record
 *			layouts, aggregations, if/else, the program API and
 *			the -S listing
 *
 * What a caller uses is the first block below; the rest is shared by the
 * two files and by nothing else.
 */
#ifndef DT_CG_H
#define DT_CG_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

#include "common/compiler/dt_cc.h"
#include "common/dif/dif.h"

/*
 * Why code generation refused a tree: the D error tag, the source line of
 * the offending node (0 if unknown) and DTrace's wording of the problem.
 * Internal errors (a DIF object the verifier rejects) say so, since they
 * are bugs in the compiler rather than in the program.
 */
typedef struct dt_cg_error {
	dt_errtag_t ce_tag;
	int ce_line;		/* -1: none (a limit, not the text's fault) */
	char ce_msg[512];
} dt_cg_error_t;

/*
 * Generates the program for a cooked DT_NODE_PROG.  Returns 0 with a new
 * program in *pgpp (free it with dt_program_free()), or -1 with the
 * reason in *errp and the handle's error set to EDT_COMPILER (EDT_NOMEM
 * when out of memory).  Options read: strsize, stackframes,
 * ustackframes, jstackframes.
 */
extern int dt_cg_program(dtrace_hdl_t *dtp, dt_node_t *root,
    dt_program_t **pgpp, dt_cg_error_t *errp);

/* Frees a program and every DIF object it holds; NULL is ignored. */
extern void dt_program_free(dt_program_t *pgp);

/*
 * Prints the DIF of every statement, as `dtrace -S` does: the probe
 * descriptions, the predicate and each action's objects.
 */
extern void dt_cg_disasm(dtrace_hdl_t *dtp, FILE *fp,
    const dt_program_t *pgp);

/*
 * Shared by dt_cg.c and dt_cg_act.c.
 */

/* What code generation needs to know about a D type. */
typedef struct dt_cg_tinfo {
	int ti_kind;		/* resolved CTF_K_* */
	uint32_t ti_size;	/* bytes (strings: strsize) */
	bool ti_signed;
	bool ti_string;		/* D string */
	bool ti_byref;		/* handled by reference */
	bool ti_ptr;		/* pointer (or array used as one) */
} dt_cg_tinfo_t;

/* Nested translators whose inputs wait in clause-locals, not registers. */
#define DT_CG_XLDEPTH	16

typedef struct dt_cg {
	dtrace_hdl_t *cg_hdl;
	dt_program_t *cg_prog;	/* being built; freed on error */
	dt_cg_error_t *cg_err;
	bool cg_nomem;		/* the error is an allocation failure */
	jmp_buf cg_jmp;
	uint32_t cg_strsize;

	/* The DIF object being built. */
	dif_instr_t *cg_buf;
	uint32_t cg_len, cg_bufcap;
	int64_t *cg_ints;
	uint32_t cg_nints, cg_intcap;
	char *cg_strs;
	uint32_t cg_strlen, cg_strcap;
	dif_var_t *cg_vars;
	uint32_t cg_nvars, cg_varcap;
	uint32_t *cg_labels;	/* label -> instruction index */
	uint32_t cg_nlabels, cg_labcap;
	uint8_t cg_regs;	/* bit n: %rn in use */
	const dt_node_t *cg_node; /* for the line of an error */
	const dt_ident_t *cg_xlarg; /* translator input being inlined ... */
	int cg_xlreg;		/* ... and the register holding it, */
	uint32_t cg_xlvar;	/* ... or the hidden clause-local (0: none) */
	uint32_t cg_xldepth;	/* translators being inlined, nested */
	uint32_t cg_xlvars[DT_CG_XLDEPTH]; /* each depth's hidden local */

	/* The statement being built (dt_cg_act.c). */
	dt_stmt_t *cg_stmt;
	uint32_t cg_nextlocal;	/* next synthetic clause-local ID */
	uint32_t cg_speclocal;	/* hidden local holding the clause's
				   speculation ID, or 0 */
	dt_ident_t **cg_aggids;	/* aggregation of each pg_aggs index */
} dt_cg_t;

/* Errors: format into cg_err and unwind to dt_cg_program(). */
extern void dt_cg_fail(dt_cg_t *cg, const dt_node_t *dnp, dt_errtag_t tag,
    const char *fmt, ...) __attribute__((noreturn, format(printf, 4, 5)));
extern void dt_cg_nomem(dt_cg_t *cg) __attribute__((noreturn));
extern void *dt_cg_zalloc(dt_cg_t *cg, size_t size);
extern char *dt_cg_strdup(dt_cg_t *cg, const char *s);

/* Types. */
extern void dt_cg_typeinfo(dt_cg_t *cg, ctf_dict_t *ctfp, ctf_id_t type,
    uint32_t flags, dt_cg_tinfo_t *tip);
extern void dt_cg_node_tinfo(dt_cg_t *cg, const dt_node_t *dnp,
    dt_cg_tinfo_t *tip);
extern void dt_cg_diftype(dt_cg_t *cg, ctf_dict_t *ctfp, ctf_id_t type,
    uint32_t flags, dif_type_t *dtp);
extern bool dt_cg_fold(dt_cg_t *cg, const dt_node_t *dnp, int64_t *valp);

/* Building one DIF object. */
extern void dt_cg_obj_begin(dt_cg_t *cg);
extern dif_object_t *dt_cg_obj_end(dt_cg_t *cg, int reg,
    const dif_type_t *rtype);
extern int dt_cg_reg_alloc(dt_cg_t *cg);
extern void dt_cg_reg_free(dt_cg_t *cg, int reg);
extern void dt_cg_emit(dt_cg_t *cg, dif_instr_t instr);
extern uint32_t dt_cg_label(dt_cg_t *cg);
extern void dt_cg_label_set(dt_cg_t *cg, uint32_t label);
extern void dt_cg_branch(dt_cg_t *cg, uint32_t op, uint32_t label);
extern void dt_cg_setx(dt_cg_t *cg, int64_t val, int reg);
extern uint32_t dt_cg_var(dt_cg_t *cg, const char *name, uint32_t id,
    uint8_t kind, uint8_t scope, uint16_t flags, const dif_type_t *type);

/* Expressions: the register holding the value (caller frees it). */
extern int dt_cg_expr(dt_cg_t *cg, dt_node_t *dnp);

/* One expression as a whole DIF object returning its value. */
extern dif_object_t *dt_cg_difo(dt_cg_t *cg, dt_node_t *dnp);
/* A DIF object returning a constant of the given type. */
extern dif_object_t *dt_cg_difo_const(dt_cg_t *cg, int64_t val,
    uint32_t size, bool sgn);

#endif /* DT_CG_H */
