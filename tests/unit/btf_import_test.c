/* SPDX-License-Identifier: MIT */
/*
 * btf_import_test.c: kernel types from BTF, through the D compiler.
 *
 * Builds a small BTF blob with libbpf (so it runs anywhere, with or
 * without kernel BTF), points -x btfpath at it and checks what D sees:
 * sizes, member offsets and types, bit-fields, typedefs, enums, arrays
 * (flexible ones too), function pointers, unions, forward declarations
 * completed on use, module scoping, D's own types winning over the
 * kernel's, and that nothing is read before a program names a type.
 */
#include <stdlib.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_os.h"
#include "os/linux/dt_btf.h"
#include "tests/unit/unit.h"

static dtrace_hdl_t *dtp;

/* The blob: what a kernel built from this would describe. */
static char *
make_btf(void)
{
	static char path[] = "/tmp/btf_import_testXXXXXX";
	struct btf *b = btf__new_empty();
	int t_int, t_uint, t_char, t_ulong, t_u32, t_point, t_rec, t_fnproto;
	int t_color, t_big, t_u, t_arr, t_flex, t_nodep, t_opaquep, t_cstr;
	int t_fnptr, t_recp, fd;
	const void *raw;
	__u32 size;

	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	t_uint = btf__add_int(b, "unsigned int", 4, 0);
	t_char = btf__add_int(b, "char", 1, 0);	/* no CHAR flag, as pahole */
	t_ulong = btf__add_int(b, "long unsigned int", 8, 0);
	t_u32 = btf__add_typedef(b, "u32", t_uint);
	/* Kernel typedefs clashing with D's: D's must win. */
	btf__add_typedef(b, "pid_t", t_char);
	btf__add_typedef(b, "uint64_t", t_uint);

	t_point = btf__add_struct(b, "point", 8);
	btf__add_field(b, "x", t_int, 0, 0);
	btf__add_field(b, "y", t_int, 32, 0);
	t_color = btf__add_enum(b, "color", 4);
	btf__add_enum_value(b, "RED", 1);
	btf__add_enum_value(b, "GREEN", 2);
	t_big = btf__add_enum64(b, "big", 8, false);
	btf__add_enum64_value(b, "HUGE", 1ULL << 40);
	t_fnproto = btf__add_func_proto(b, t_int);
	btf__add_func_param(b, "a", t_int);
	btf__add_func_param(b, "s", t_char);
	t_u = btf__add_union(b, NULL, 8);
	btf__add_field(b, "i", t_int, 0, 0);
	btf__add_field(b, "l", t_ulong, 0, 0);
	t_arr = btf__add_array(b, t_int, t_char, 16);
	t_flex = btf__add_array(b, t_int, t_int, 0);
	/* Declared, never defined: dereferencing them must say so. */
	t_nodep = btf__add_ptr(b, btf__add_fwd(b, "node", BTF_FWD_STRUCT));
	t_opaquep = btf__add_ptr(b, btf__add_fwd(b, "opaque",
	    BTF_FWD_STRUCT));
	t_cstr = btf__add_ptr(b, btf__add_const(b, t_char));

	t_fnptr = btf__add_ptr(b, t_fnproto);
	/* rec refers to itself: the pointer comes first, as IDs allow. */
	t_recp = btf__add_ptr(b, btf__type_cnt(b) + 1);
	t_rec = btf__add_struct(b, "rec", 88);
	btf__add_field(b, "id", t_u32, 0, 0);
	btf__add_field(b, "pt", t_point, 32, 0);
	btf__add_field(b, "name", t_arr, 96, 0);
	btf__add_field(b, "next", t_recp, 256, 0);
	btf__add_field(b, "flags", t_uint, 320, 3);
	btf__add_field(b, "mode", t_uint, 323, 5);
	btf__add_field(b, "fn", t_fnptr, 384, 0);
	btf__add_field(b, NULL, t_u, 448, 0);	/* anonymous union */
	btf__add_field(b, "c", t_color, 512, 0);
	btf__add_field(b, "b", t_big, 576, 0);
	btf__add_field(b, "op", t_opaquep, 640, 0);
	btf__add_field(b, "tail", t_flex, 704, 0);
	btf__add_struct(b, "node2", 16);
	btf__add_field(b, "next", t_nodep, 0, 0);
	btf__add_field(b, "s", t_cstr, 64, 0);
	CHECK_INT(t_recp + 1, t_rec);

	/* Variables: one global, one per-CPU, each in its section. */
	{
		int v_answer = btf__add_var(b, "answer", BTF_VAR_GLOBAL_ALLOCATED,
		    t_int);
		int v_banner = btf__add_var(b, "banner",
		    BTF_VAR_GLOBAL_ALLOCATED, t_arr);
		int v_pcpu = btf__add_var(b, "pcpu_count",
		    BTF_VAR_GLOBAL_ALLOCATED, t_ulong);

		btf__add_datasec(b, ".data", 24);
		btf__add_datasec_var_info(b, v_answer, 0, 4);
		btf__add_datasec_var_info(b, v_banner, 8, 16);
		btf__add_datasec(b, ".data..percpu", 8);
		btf__add_datasec_var_info(b, v_pcpu, 0, 8);
	}
	raw = btf__raw_data(b, &size);
	if (raw == NULL || (fd = mkstemp(path)) < 0 ||
	    write(fd, raw, size) != (ssize_t) size)
		SKIP("cannot write a temporary BTF file");
	close(fd);
	btf__free(b);
	return path;
}

/* The value of a constant D expression, through an inline. */
static long long
cval(const char *expr)
{
	static int n;
	char src[512], name[32];
	dt_ident_t *idp;
	dtrace_prog_t *pgp;

	snprintf(name, sizeof (name), "v%d", n++);
	snprintf(src, sizeof (src), "inline long long %s = %s;", name, expr);
	if ((pgp = dtrace_program_strcompile(dtp, src, DTRACE_PROBESPEC_NAME,
	    DTRACE_C_EMPTY, 0, NULL)) == NULL) {
		printf("%s: %s\n", expr, dtrace_errmsg(dtp, dtrace_errno(dtp)));
		return -1;
	}
	dtrace_program_destroy(dtp, pgp);
	idp = dt_idhash_lookup(dtp->dt_cc->cc_globals, name);
	if (idp == NULL || idp->di_inline == NULL ||
	    idp->di_inline->dn_kind != DT_NODE_INT)
		return -2;
	return (long long) idp->di_inline->dn_value;
}

/* The error a D clause gives, or "" when it compiles. */
static const char *
cerr(const char *clause)
{
	dtrace_prog_t *pgp = dtrace_program_strcompile(dtp, clause,
	    DTRACE_PROBESPEC_NAME, 0, 0, NULL);

	if (pgp == NULL)
		return unit_noregion(dtrace_errmsg(dtp, dtrace_errno(dtp)));
	dtrace_program_destroy(dtp, pgp);
	return "";
}

static void
test_lazy(void)
{
	/*
	 * A program that names no kernel type and no identifier D does not
	 * know reads no BTF (an unknown identifier may be a kernel typedef).
	 */
	CHECK(cerr("BEGIN { trace(pid); @[execname] = count(); }")[0] == '\0');
	CHECK(dtp->dt_ktypes == NULL);
	CHECK(cerr("BEGIN { x = 1; }")[0] == '\0');
	CHECK(cerr("BEGIN { x = (u32)1; y = (vmlinux`u32)2; }")[0] == '\0');
	CHECK_INT(cval("sizeof (struct point)"), 8);
	CHECK(dtp->dt_ktypes != NULL);
}

static void
test_layout(void)
{
	CHECK_INT(cval("sizeof (struct rec)"), 88);
	CHECK_INT(cval("offsetof(struct rec, pt)"), 4);
	CHECK_INT(cval("offsetof(struct rec, name)"), 12);
	CHECK_INT(cval("offsetof(struct rec, next)"), 32);
	CHECK_INT(cval("offsetof(struct rec, fn)"), 48);
	CHECK_INT(cval("offsetof(struct rec, i)"), 56);	/* anonymous union */
	CHECK_INT(cval("offsetof(struct rec, l)"), 56);
	CHECK_INT(cval("offsetof(struct rec, tail)"), 88);
	CHECK_INT(cval("sizeof (((struct rec *)0)->name)"), 16);
	CHECK_INT(cval("sizeof (((struct rec *)0)->c)"), 4);
	CHECK_INT(cval("sizeof (((struct rec *)0)->b)"), 8);
	/* A flexible array has no size, but can be indexed. */
	CHECK_INT(cval("sizeof (((struct rec *)0)->tail)"), -1);
	CHECK_INT(cval("sizeof (((struct rec *)0)->tail[3])"), 4);
	CHECK_INT(cval("sizeof (((struct rec *)0)->pt.y)"), 4);
	CHECK_INT(cval("sizeof (u32)"), 4);
	CHECK_INT(cval("sizeof (vmlinux`u32)"), 4);
	CHECK_INT(cval("sizeof (struct vmlinux`point)"), 8);
	CHECK_INT(cval("sizeof (union vmlinux`nosuch *)"), -1);
	CHECK_INT(cval("sizeof (enum color)"), 4);
	/* Bit-fields cannot be sized, but do type-check. */
	CHECK_STR(cerr("BEGIN { trace(sizeof (((struct rec *)0)->mode)); }"),
	    "cannot apply sizeof to a bit-field");
	CHECK_STR(cerr("BEGIN { trace(((struct rec *)arg0)->mode + 1); }"),
	    "");
	/* D's and C's types win over the kernel's of the same name. */
	CHECK_INT(cval("sizeof (pid_t)"), 4);
	CHECK_INT(cval("sizeof (uint64_t)"), 8);
}

static void
test_members(void)
{
	dtrace_prog_t *pgp;
	ctf_dict_t *fp;
	ctf_id_t t;
	char buf[256];

	/* Pointers to structs are forwards until dereferenced. */
	CHECK_STR(cerr("BEGIN { trace(((struct rec *)arg0)->next->next->id);"
	    " }"), "");
	CHECK_STR(cerr("BEGIN { trace(((struct node2 *)arg0)->next->val); }"),
	    "operator -> cannot be applied to a forward declaration: no "
	    "struct node definition is available");
	CHECK_STR(cerr("BEGIN { trace(((struct rec *)arg0)->op->x); }"),
	    "operator -> cannot be applied to a forward declaration: no "
	    "struct opaque definition is available");
	CHECK_STR(cerr("BEGIN { trace(((struct rec *)arg0)->nope); }"),
	    "nope is not a member of struct rec");
	CHECK_STR(cerr("BEGIN { trace(stringof(((struct rec *)arg0)->name));"
	    " }"), "");
	CHECK_STR(cerr("BEGIN { trace(((struct rec *)arg0)->name); }"), "");
	CHECK_STR(cerr("BEGIN { f = ((struct rec *)arg0)->fn; }"), "");
	CHECK_STR(cerr("BEGIN { trace(((struct rec *)arg0)->c == RED); }"),
	    "");
	CHECK_STR(cerr("BEGIN { trace(((struct rec *)arg0)->c == BLUE); }"),
	    "failed to resolve BLUE: Unknown variable name");
	CHECK_STR(cerr("BEGIN { p = &((struct rec *)arg0)->pt; "
	    "trace(p->y); }"), "");

	/* Type names as DTrace prints them. */
	CHECK(dt_os_ktype_lookup(dtp, NULL, "struct rec", &fp, &t) == 0);
	if (ctf_member_info(fp, t, "fn", &(ctf_membinfo_t) { 0 }) == 0) {
		ctf_membinfo_t m;

		ctf_member_info(fp, t, "fn", &m);
		CHECK_STR(dt_type_name(fp, m.ctm_type, buf, sizeof (buf)),
		    "int (*)(int, char)");
		ctf_member_info(fp, t, "name", &m);
		CHECK_STR(dt_type_name(fp, m.ctm_type, buf, sizeof (buf)),
		    "char [16]");
		ctf_member_info(fp, t, "mode", &m);
		CHECK_INT(m.ctm_offset, 323);
	}
	CHECK(dt_os_ktype_lookup(dtp, "nosuchmod", "struct rec", &fp, &t) !=
	    0);

	/* Kernel variables' types: `answer, `banner; not per-CPU ones. */
	{
		const char *why;

		CHECK_INT(dt_btf_kvar(dtp, NULL, "answer", &fp, &t, &why), 0);
		if (dt_btf_kvar(dtp, NULL, "answer", &fp, &t, &why) == 0)
			CHECK_STR(dt_type_name(fp, t, buf, sizeof (buf)),
			    "int");
		CHECK_INT(dt_btf_kvar(dtp, "vmlinux", "banner", &fp, &t, &why),
		    0);
		if (dt_btf_kvar(dtp, NULL, "banner", &fp, &t, &why) == 0)
			CHECK_STR(dt_type_name(fp, t, buf, sizeof (buf)),
			    "char [16]");
		CHECK_INT(dt_btf_kvar(dtp, NULL, "pcpu_count", &fp, &t, &why),
		    -2);
		CHECK_STR(why, "it is a per-CPU variable");
		CHECK_INT(dt_btf_kvar(dtp, NULL, "point", &fp, &t, &why), -2);
		CHECK_INT(dt_btf_kvar(dtp, "nosuchmod", "answer", &fp, &t,
		    &why), -2);
	}
	CHECK(dt_os_ktype_lookup(dtp, "vmlinux", "struct nosuch", &fp, &t) !=
	    0);

	/* A declaration may use kernel types, and D types embed them. */
	pgp = dtrace_program_strcompile(dtp, "struct mine { struct point p; "
	    "struct rec *r; }; struct mine mm; "
	    "BEGIN { mm.p.y = 1; trace(mm.r->pt.x); }",
	    DTRACE_PROBESPEC_NAME, 0, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp != NULL)
		dtrace_program_destroy(dtp, pgp);
	CHECK_INT(cval("sizeof (struct mine)"), 16);
}

int
main(void)
{
	char *path = make_btf();
	int err;

	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL)
		SKIP("dtrace_open failed");
	/* The D library files would be typed against the test's BTF. */
	CHECK(dtrace_setopt(dtp, "nolibs", NULL) == 0);
	CHECK(dtrace_setopt(dtp, "btfpath", path) == 0);
	test_lazy();
	test_layout();
	test_members();
	dtrace_close(dtp);
	if (getenv("BTF_KEEP") == NULL)
		unlink(path);
	return unit_done();
}
