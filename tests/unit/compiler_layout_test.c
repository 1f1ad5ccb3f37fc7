/* SPDX-License-Identifier: MIT */
/*
 * compiler_layout_test.c: struct and union layout of D declarations
 * against gcc's for the same C declarations, where DTrace's layout and
 * C's agree.
 *
 * Each case is a declaration valid in both languages.  The test compiles
 * a C program that prints sizeof, alignment and the bit offset of every
 * member, runs it, and compares with what the D compiler put in its CTF
 * dictionary.  DTrace lays out a D struct as its CTF library does: each
 * member at the next offset its alignment allows, as C does, but with no
 * padding after the last member (so a struct's size ends at its last
 * member, and a union's is its largest member's), and bit-fields each in
 * a unit of their own.  So the members' offsets and the alignment are
 * C's, and the size is checked against that rule; cases with bit-fields
 * are left to tests/d/types/struct_layout.d.  Without gcc it skips.
 */
#include <ctf-api.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/compiler/dt_cc.h"
#include "tests/unit/unit.h"

typedef struct layout_case {
	const char *lc_decl;	/* "struct NAME { ... };" */
	const char *lc_name;	/* "struct NAME" */
	const char *lc_members[12];
	int lc_bitfield[12];	/* 1 if member is a bit-field */
} layout_case_t;

static const layout_case_t cases[] = {
	{ "struct l1 { char a; int b; char c; };", "struct l1",
	    { "a", "b", "c" }, { 0 } },
	{ "struct l2 { char a; long b; short c; };", "struct l2",
	    { "a", "b", "c" }, { 0 } },
	{ "struct l3 { short a; char b[3]; long long c; char d; };",
	    "struct l3", { "a", "b", "c", "d" }, { 0 } },
	{ "struct l4 { char a; struct l1 s; char b; };", "struct l4",
	    { "a", "s", "b" }, { 0 } },
	{ "struct l5 { void *p; char c; int *q[3]; };", "struct l5",
	    { "p", "c", "q" }, { 0 } },
	{ "union l6 { char a; int b; long c; char d[13]; };", "union l6",
	    { "a", "b", "c", "d" }, { 0 } },
	{ "struct l7 { unsigned a : 1; unsigned b : 3; unsigned c : 30; };",
	    "struct l7", { "a", "b", "c" }, { 1, 1, 1 } },
	{ "struct l8 { char a; int b : 5; int c : 27; char d; };",
	    "struct l8", { "a", "b", "c", "d" }, { 0, 1, 1, 0 } },
	{ "struct l9 { int a : 3; int : 0; int b : 3; };", "struct l9",
	    { "a", "b" }, { 1, 1 } },
	{ "struct l10 { char a : 4; char b : 4; char c : 1; short d : 9; };",
	    "struct l10", { "a", "b", "c", "d" }, { 1, 1, 1, 1 } },
	{ "struct l11 { long a : 33; long b : 33; int c; };", "struct l11",
	    { "a", "b", "c" }, { 1, 1, 0 } },
	{ "struct l12 { char c; union { int i; char x[5]; } u; short s; };",
	    "struct l12", { "c", "u", "s" }, { 0 } },
	{ "struct l13 { unsigned short a : 15; unsigned short b : 2; };",
	    "struct l13", { "a", "b" }, { 1, 1 } },
	{ "struct l14 { char a; long long b : 7; char c; };", "struct l14",
	    { "a", "b", "c" }, { 0, 1, 0 } },
	{ "struct l15 { int a[2][3]; char b; };", "struct l15",
	    { "a", "b" }, { 0 } },
	{ "union l16 { int a : 3; char b[6]; };", "union l16",
	    { "a", "b" }, { 1, 0 } },
};
#define NCASES (sizeof (cases) / sizeof (cases[0]))

/* Write and run the C program; parse "size align off..." per case. */
static int
gcc_layout(long want[][14])
{
	char src[] = "/tmp/dt_layout_XXXXXX";
	char exe[64], cmd[256], line[1024];
	FILE *fp, *pp;
	int fd, i = 0;

	if ((fd = mkstemp(src)) < 0 || (fp = fdopen(fd, "w")) == NULL)
		return -1;
	fprintf(fp, "#include <stdio.h>\n#include <string.h>\n"
	    "#include <stddef.h>\n");
	for (size_t c = 0; c < NCASES; c++)
		fprintf(fp, "%s\n", cases[c].lc_decl);
	fprintf(fp, "static long bitoff(const unsigned char *p, size_t n) {\n"
	    "\tfor (size_t i = 0; i < n * 8; i++)\n"
	    "\t\tif (p[i / 8] & (1 << (i %% 8))) return (long)i;\n"
	    "\treturn -1; }\nint main(void) {\n");
	for (size_t c = 0; c < NCASES; c++) {
		const layout_case_t *lc = &cases[c];

		fprintf(fp, "{ %s v; printf(\"%%zu %%zu\", sizeof (v), "
		    "_Alignof(%s));\n", lc->lc_name, lc->lc_name);
		for (int m = 0; lc->lc_members[m] != NULL; m++) {
			if (lc->lc_bitfield[m])
				fprintf(fp, "memset(&v, 0, sizeof (v)); v.%s = 1;"
				    " printf(\" %%ld\", bitoff((void *)&v, "
				    "sizeof (v)));\n", lc->lc_members[m]);
			else
				fprintf(fp, "printf(\" %%ld\", (long)offsetof(%s,"
				    " %s) * 8);\n", lc->lc_name,
				    lc->lc_members[m]);
		}
		fprintf(fp, "printf(\"\\n\"); }\n");
	}
	fprintf(fp, "return 0; }\n");
	fclose(fp);
	snprintf(exe, sizeof (exe), "%s.bin", src);
	snprintf(cmd, sizeof (cmd), "gcc -x c -o %s %s 2>&1", exe, src);
	if (system(cmd) != 0) {
		unlink(src);
		return -1;
	}
	if ((pp = popen(exe, "r")) == NULL)
		return -1;
	while (i < (int) NCASES && fgets(line, sizeof (line), pp) != NULL) {
		char *p = line, *end;
		int k = 0;

		while (k < 14) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			want[i][k++] = v;
			p = end;
		}
		i++;
	}
	pclose(pp);
	unlink(exe);
	unlink(src);
	return i == (int) NCASES ? 0 : -1;
}

int
main(void)
{
	long want[NCASES][14];
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	char prog[8192];
	size_t o = 0;
	int err;

	if (system("gcc --version >/dev/null 2>&1") != 0)
		SKIP("gcc is not installed");
	if (gcc_layout(want) != 0)
		SKIP("could not build the gcc layout program");

	if ((dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_LP64, &err)) == NULL) {
		printf("dtrace_open: %s\n", dtrace_errmsg(NULL, err));
		return 1;
	}
	for (size_t c = 0; c < NCASES; c++)
		o += snprintf(prog + o, sizeof (prog) - o, "%s\n",
		    cases[c].lc_decl);
	pgp = dtrace_program_strcompile(dtp, prog, DTRACE_PROBESPEC_NAME, 0,
	    0, NULL);
	CHECK(pgp != NULL);
	if (pgp == NULL) {
		printf("%s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtrace_close(dtp);
		return unit_done();
	}

	for (size_t c = 0; c < NCASES; c++) {
		const layout_case_t *lc = &cases[c];
		ctf_dict_t *ctfp;
		ctf_id_t type;

		CHECK(dt_type_lookup(dtp->dt_cc, lc->lc_name, &ctfp, &type) ==
		    0);
		if (dt_type_lookup(dtp->dt_cc, lc->lc_name, &ctfp, &type) != 0)
			continue;
		long end = 0;
		bool bitfields = false, sou_before = false;

		for (int m = 0; lc->lc_members[m] != NULL; m++)
			bitfields |= lc->lc_bitfield[m] != 0;
		if (bitfields)
			continue;
		printf("%s: size %ld align %ld\n", lc->lc_name,
		    (long) ctf_type_size(ctfp, type),
		    (long) dt_type_align(ctfp, type));
		CHECK_INT(dt_type_align(ctfp, type), want[c][1]);
		for (int m = 0; lc->lc_members[m] != NULL; m++) {
			ctf_membinfo_t mi;
			long align, at, mend;
			int kind;

			CHECK(ctf_member_info(ctfp, type, lc->lc_members[m],
			    &mi) == 0);
			align = dt_type_align(ctfp, mi.ctm_type);
			at = ctf_type_kind(ctfp, type) == CTF_K_UNION ? 0 :
			    (end + align - 1) / align * align;
			CHECK_INT(mi.ctm_offset, at * 8);
			/* C agrees until a struct member has lost its tail. */
			if (!sou_before)
				CHECK_INT(mi.ctm_offset, want[c][2 + m]);
			kind = ctf_type_kind(ctfp, ctf_type_resolve(ctfp,
			    mi.ctm_type));
			sou_before |= kind == CTF_K_STRUCT || kind == CTF_K_UNION;
			mend = mi.ctm_offset / 8 + ctf_type_size(ctfp,
			    mi.ctm_type);
			if (ctf_type_kind(ctfp, type) == CTF_K_UNION)
				end = mend > end ? mend : end;
			else
				end = mend;
		}
		CHECK_INT(ctf_type_size(ctfp, type), end);
		CHECK(ctf_type_size(ctfp, type) <= want[c][0]);
	}
	dtrace_program_destroy(dtp, pgp);
	dtrace_close(dtp);
	return unit_done();
}
