/* SPDX-License-Identifier: MIT */
/*
 * compiler_api_test.c: the compile API and the shape of the checked tree
 * that code generation reads.
 *
 * Checks that strings and files compile, that errors come back in
 * DTrace's wording (with and without line numbers and tags), that a
 * failed compile leaves no trace in the handle, and that the tree
 * carries what dt_cc.h promises: probe descriptions parsed, identifiers
 * resolved to their kind and DIF ID, types and flags on expressions.
 */
#include <stdlib.h>

#include "common/compiler/dt_cc.h"
#include "common/dif/dif.h"
#include "tests/unit/unit.h"

static dtrace_hdl_t *dtp;

static dtrace_prog_t *
comp(const char *s)
{
	return dtrace_program_strcompile(dtp, s, DTRACE_PROBESPEC_NAME, 0, 0,
	    NULL);
}

static const char *
msg(void)
{
	return dtrace_errmsg(dtp, dtrace_errno(dtp));
}

static void
test_errors(void)
{
	char *av[] = { "prog", "42", NULL };
	FILE *fp;

	CHECK(comp("BEGIN { x = ; }") == NULL);
	CHECK_INT(dtrace_errno(dtp), EDT_COMPILER);
	CHECK_STR(msg(), "syntax error near \";\"");

	/* From a file: line numbers. */
	fp = tmpfile();
	fputs("BEGIN\n{\n\ttrace(y);\n}\n", fp);
	rewind(fp);
	CHECK(dtrace_program_fcompile(dtp, fp, 0, 0, NULL) == NULL);
	CHECK_STR(msg(), "line 3: failed to resolve y: Unknown variable name");
	fclose(fp);

	/* Tags. */
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { exit(); }",
	    DTRACE_PROBESPEC_NAME, DTRACE_C_ETAGS, 0, NULL) == NULL);
	CHECK_STR(msg(), "[D_PROTO_LEN] in action list: exit( ) prototype "
	    "mismatch: 0 args "
	    "passed, 1 expected");

	/* Macro arguments. */
	dtrace_prog_t *pgp = dtrace_program_strcompile(dtp,
	    "BEGIN { trace($1); }", DTRACE_PROBESPEC_NAME, 0, 2, av);
	CHECK(pgp != NULL);
	if (pgp != NULL)
		dtrace_program_destroy(dtp, pgp);
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { }",
	    DTRACE_PROBESPEC_NAME, 0, 2, av) == NULL);
	CHECK_STR(msg(), "extraneous argument '42' ($1 is not referenced)");
}

/* A failed compile must not leave its declarations behind. */
static void
test_rollback(void)
{
	dtrace_prog_t *pgp;

	CHECK(comp("struct rb { int a; }; int rbv; BEGIN { rbz = 1; x = ; }")
	    == NULL);
	pgp = comp("struct rb { char c; }; string rbv; "
	    "BEGIN { rbz = \"s\"; }");
	CHECK(pgp != NULL);
	if (pgp == NULL)
		printf("%s\n", msg());
	else
		dtrace_program_destroy(dtp, pgp);
	/* ... while a successful one keeps them. */
	CHECK(comp("struct rb { int a; };") == NULL);
	CHECK_STR(msg(), "type redeclared: struct rb");
}

static dt_node_t *
first_clause(dtrace_prog_t *pgp)
{
	for (dt_node_t *dnp = pgp->dp_root->dn_body; dnp != NULL;
	    dnp = dnp->dn_list)
		if (dnp->dn_kind == DT_NODE_CLAUSE)
			return dnp;
	return NULL;
}

static void
test_tree(void)
{
	dtrace_prog_t *pgp;
	dt_node_t *cl, *st, *e;
	char n[256];

	pgp = dtrace_program_strcompile(dtp, "read:entry, syscall::write:"
	    "return /pid == 1/ { self->ts = timestamp; "
	    "@c[execname] = count(); trace(arg0 + 1); a[1, \"k\"] = 2; }",
	    DTRACE_PROBESPEC_NAME, DTRACE_C_ZDEFS, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp == NULL) {
		printf("%s\n", msg());
		return;
	}
	CHECK_INT(pgp->dp_root->dn_kind, DT_NODE_PROG);
	cl = first_clause(pgp);
	CHECK(cl != NULL);

	/* Descriptions: fields filled from the name end. */
	CHECK_STR(cl->dn_pdescs->dn_desc->pd_function, "read");
	CHECK_STR(cl->dn_pdescs->dn_desc->pd_name, "entry");
	CHECK_STR(cl->dn_pdescs->dn_desc->pd_provider, "");
	CHECK_STR(cl->dn_pdescs->dn_list->dn_desc->pd_provider, "syscall");

	/* Predicate: pid is a built-in with its DIF ID; result is int. */
	CHECK_INT(cl->dn_pred->dn_kind, DT_NODE_OP2);
	CHECK_INT(cl->dn_pred->dn_op, DT_OP_EQU);
	CHECK_INT(cl->dn_pred->dn_left->dn_kind, DT_NODE_VAR);
	CHECK_INT(cl->dn_pred->dn_left->dn_ident->di_id, DIF_VAR_PID);
	CHECK_STR(dt_node_type_name(dtp->dt_cc, cl->dn_pred, n, sizeof (n)),
	    "int");

	/* self->ts = timestamp */
	st = cl->dn_acts;
	CHECK_INT(st->dn_kind, DT_NODE_DEXPR);
	e = st->dn_expr;
	CHECK_INT(e->dn_op, DT_OP_ASGN);
	CHECK_INT(e->dn_left->dn_kind, DT_NODE_VAR);
	CHECK_INT(e->dn_left->dn_ident->di_scope, DIFV_SCOPE_THREAD);
	CHECK(e->dn_left->dn_ident->di_id >= DIF_VAR_OTHER_UBASE);
	CHECK(e->dn_left->dn_flags & DT_NF_WRITABLE);
	CHECK_STR(dt_node_type_name(dtp->dt_cc, e->dn_left, n, sizeof (n)),
	    "uint64_t");

	/* @c[execname] = count() */
	st = st->dn_list;
	CHECK_INT(st->dn_kind, DT_NODE_AGG);
	CHECK_STR(st->dn_ident->di_name, "c");
	CHECK_INT(st->dn_aggfun->dn_ident->di_kind, DT_IDENT_AGGFUNC);
	CHECK_INT(st->dn_aggfun->dn_ident->di_id, DT_AGG_COUNT);
	CHECK(dt_node_is_string(dtp->dt_cc, st->dn_aggtup));

	/* trace(arg0 + 1) */
	st = st->dn_list;
	CHECK_INT(st->dn_kind, DT_NODE_DFUNC);
	CHECK_INT(st->dn_expr->dn_ident->di_id, DT_ACT_TRACE);
	CHECK(st->dn_expr->dn_args->dn_flags & DT_NF_SIGNED);

	/* a[1, "k"] = 2: an associative array with two keys. */
	st = st->dn_list;
	e = st->dn_expr->dn_left;
	CHECK_INT(e->dn_kind, DT_NODE_VAR);
	CHECK_INT(e->dn_ident->di_kind, DT_IDENT_ARRAY);
	CHECK_INT(dt_node_list_len(e->dn_args), 2);
	CHECK_INT(e->dn_ident->di_sig->ds_argc, 2);
	dtrace_program_destroy(dtp, pgp);

	/* -f and -m fill descriptions from their own field. */
	pgp = dtrace_program_strcompile(dtp, "vmlinux:do_exit",
	    DTRACE_PROBESPEC_FUNC, DTRACE_C_ZDEFS, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp != NULL) {
		cl = first_clause(pgp);
		CHECK_STR(cl->dn_pdescs->dn_desc->pd_module, "vmlinux");
		CHECK_STR(cl->dn_pdescs->dn_desc->pd_function, "do_exit");
		dtrace_program_destroy(dtp, pgp);
	}
	pgp = dtrace_program_strcompile(dtp, "12", DTRACE_PROBESPEC_ID,
	    DTRACE_C_ZDEFS, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp != NULL) {
		CHECK_INT(first_clause(pgp)->dn_pdescs->dn_desc->pd_id, 12);
		dtrace_program_destroy(dtp, pgp);
	}
}

int
main(void)
{
	int err;

	if ((dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_LP64, &err)) == NULL) {
		printf("dtrace_open: %s\n", dtrace_errmsg(NULL, err));
		return 1;
	}
	test_errors();
	test_rollback();
	test_tree();
	dtrace_close(dtp);
	return unit_done();
}
