/* SPDX-License-Identifier: MIT */
/*
 * dif_asm.c: DIF disassembler and assembler.
 *
 * Both sides work from dif_op_format(), so an instruction's text has one
 * definition.  The assembler works in two passes over the lines of its
 * input: the first reads the tables, the return type and the labels (so an
 * instruction may name a variable or label defined further down), the
 * second encodes the instructions.  Literal operands ("setx 42", "sets
 * \"x\"") are appended to the tables after their explicit entries, so a
 * disassembly, which only uses explicit indices, reads back to the same
 * object.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dif/dif_asm.h"

/* Column where "!" comments start in a disassembly. */
#define DIF_DIS_COMMENT_COL 32

static const char *
dif_kind_name(uint8_t kind)
{
	return kind == DIFV_KIND_ARRAY ? "array" : "scalar";
}

static const char *
dif_scope_name(uint8_t scope)
{
	switch (scope) {
	case DIFV_SCOPE_GLOBAL:
		return "global";
	case DIFV_SCOPE_THREAD:
		return "thread";
	case DIFV_SCOPE_LOCAL:
		return "local";
	default:
		return "?";
	}
}

int
dif_type_format(const dif_type_t *t, char *buf, size_t size)
{
	return snprintf(buf, size, "%s%s%s%s %" PRIu32,
	    t->dt_kind == DIF_TYPE_STRING ? "string" :
	    t->dt_kind == DIF_TYPE_CTF ? "ctf" : "?",
	    (t->dt_flags & DIF_TF_SIGNED) ? " signed" : "",
	    (t->dt_flags & DIF_TF_POINTER) ? " pointer" : "",
	    (t->dt_flags & DIF_TF_BYREF) ? " byref" : "", t->dt_size);
}

/* Writes s as a C string literal (octal escapes for the unprintable). */
static size_t
dif_quote(const char *s, size_t len, char *buf, size_t size)
{
	size_t i, n = 0;

#define PUT(c)                                                               \
	do {                                                                 \
		if (n + 1 < size)                                            \
			buf[n] = (c);                                        \
		n++;                                                         \
	} while (0)
	PUT('"');
	for (i = 0; i < len && s[i] != '\0'; i++) {
		unsigned char c = (unsigned char) s[i];

		if (c == '"' || c == '\\') {
			PUT('\\');
			PUT(c);
		} else if (c == '\n') {
			PUT('\\');
			PUT('n');
		} else if (c == '\t') {
			PUT('\\');
			PUT('t');
		} else if (!isprint(c)) {
			PUT('\\');
			PUT('0' + ((c >> 6) & 7));
			PUT('0' + ((c >> 3) & 7));
			PUT('0' + (c & 7));
		} else {
			PUT(c);
		}
	}
	PUT('"');
#undef PUT
	if (size > 0)
		buf[n < size ? n : size - 1] = '\0';
	return n;
}

static const dif_var_t *
dif_var_find(const dif_object_t *difo, uint32_t id, int scope)
{
	uint32_t i;

	for (i = 0; i < difo->dif_varlen; i++) {
		const dif_var_t *v = &difo->dif_vartab[i];

		if (v->dv_id == id && (scope < 0 || v->dv_scope == scope))
			return v;
	}
	return NULL;
}

int
dif_op_scope(uint32_t op)
{
	switch (op) {
	case DIF_OP_LDTS: case DIF_OP_STTS: case DIF_OP_LDTAA:
	case DIF_OP_STTAA: case DIF_OP_LDTA:
		return DIFV_SCOPE_THREAD;
	case DIF_OP_LDLS: case DIF_OP_STLS:
		return DIFV_SCOPE_LOCAL;
	default:
		return DIFV_SCOPE_GLOBAL;
	}
}

static const char *
dif_varname(const dif_object_t *difo, uint32_t op, uint32_t id)
{
	const dif_var_t *v;
	const char *name;

	if ((v = dif_var_find(difo, id, dif_op_scope(op))) != NULL &&
	    (name = dif_var_tabname(difo, v)) != NULL)
		return name;
	return dif_var_name(id);
}

int
dif_disasm_instr(const dif_object_t *difo, uint32_t pc, char *buf,
    size_t size)
{
	dif_instr_t in = difo->dif_buf[pc];
	uint32_t op = DIF_INSTR_OP(in);
	const char *name = dif_op_name(op);
	unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
	unsigned rd = DIF_INSTR_RD(in);
	char text[96], comment[256];
	const char *s;
	uint32_t x;

	comment[0] = '\0';
	switch (dif_op_format(op)) {
	case DIF_FMT_NONE:
		snprintf(text, sizeof (text), "%s", name);
		break;
	case DIF_FMT_R1R2RD:
	case DIF_FMT_COPYS:
		snprintf(text, sizeof (text), "%-4s %%r%u, %%r%u, %%r%u", name,
		    r1, r2, rd);
		break;
	case DIF_FMT_R1RD:
		snprintf(text, sizeof (text), "%-4s %%r%u, %%r%u", name, r1,
		    rd);
		break;
	case DIF_FMT_R1R2:
		snprintf(text, sizeof (text), "%-4s %%r%u, %%r%u", name, r1,
		    r2);
		break;
	case DIF_FMT_R1:
		snprintf(text, sizeof (text), "%-4s %%r%u", name, r1);
		break;
	case DIF_FMT_BRANCH:
		snprintf(text, sizeof (text), "%-4s %u", name,
		    (unsigned) DIF_INSTR_LABEL(in));
		break;
	case DIF_FMT_LOAD:
		snprintf(text, sizeof (text), "%-4s [%%r%u], %%r%u", name, r1,
		    rd);
		break;
	case DIF_FMT_STORE:
		snprintf(text, sizeof (text), "%-4s %%r%u, [%%r%u]", name, r1,
		    rd);
		break;
	case DIF_FMT_SETX:
		x = DIF_INSTR_INTEGER(in);
		snprintf(text, sizeof (text), "%-4s DT_INTEGER[%u], %%r%u",
		    name, (unsigned) x, rd);
		if (x < difo->dif_intlen)
			snprintf(comment, sizeof (comment), "0x%" PRIx64,
			    (uint64_t) difo->dif_inttab[x]);
		break;
	case DIF_FMT_SETS:
		x = DIF_INSTR_STRING(in);
		snprintf(text, sizeof (text), "%-4s DT_STRING[%u], %%r%u",
		    name, (unsigned) x, rd);
		if (x < difo->dif_strlen)
			dif_quote(difo->dif_strtab + x, difo->dif_strlen - x,
			    comment, sizeof (comment));
		break;
	case DIF_FMT_LDV:
		x = DIF_INSTR_VAR(in);
		snprintf(text, sizeof (text), "%-4s DT_VAR(%u), %%r%u", name,
		    (unsigned) x, rd);
		if ((s = dif_varname(difo, op, x)) != NULL)
			snprintf(comment, sizeof (comment), "%s", s);
		break;
	case DIF_FMT_STV:
		x = DIF_INSTR_VAR(in);
		snprintf(text, sizeof (text), "%-4s %%r%u, DT_VAR(%u)", name,
		    rd, (unsigned) x);
		if ((s = dif_varname(difo, op, x)) != NULL)
			snprintf(comment, sizeof (comment), "%s", s);
		break;
	case DIF_FMT_LDA:
		snprintf(text, sizeof (text), "%-4s DT_VAR(%u), %%r%u, %%r%u",
		    name, r1, r2, rd);
		if ((s = dif_varname(difo, op, r1)) != NULL)
			snprintf(comment, sizeof (comment), "%s", s);
		break;
	case DIF_FMT_CALL:
		x = DIF_INSTR_SUBR(in);
		snprintf(text, sizeof (text), "%-4s DIF_SUBR(%u), %%r%u", name,
		    (unsigned) x, rd);
		if ((s = dif_subr_name(x)) != NULL)
			snprintf(comment, sizeof (comment), "%s", s);
		break;
	case DIF_FMT_PUSHTR:
		snprintf(text, sizeof (text), "%-4s DT_TYPE(%u), %%r%u, %%r%u",
		    name, r1, rd, r2);
		snprintf(comment, sizeof (comment), "%s",
		    r1 == DIF_TYPE_STRING ? "string" : "ctf");
		break;
	case DIF_FMT_PUSHTV:
		snprintf(text, sizeof (text), "%-4s DT_TYPE(%u), %%r%u", name,
		    r1, rd);
		snprintf(comment, sizeof (comment), "%s",
		    r1 == DIF_TYPE_STRING ? "string" : "ctf");
		break;
	case DIF_FMT_RET:
		snprintf(text, sizeof (text), "%-4s %%r%u", name, rd);
		break;
	case DIF_FMT_XLATE:
		snprintf(text, sizeof (text), "%-4s DT_XLREF[%u], %%r%u", name,
		    (unsigned) DIF_INSTR_XLREF(in), rd);
		break;
	default:
		snprintf(text, sizeof (text), "(illegal opcode %u)", op);
		break;
	}
	if (comment[0] != '\0')
		return snprintf(buf, size, "%-*s ! %s", DIF_DIS_COMMENT_COL,
		    text, comment);
	return snprintf(buf, size, "%s", text);
}

void
dif_disasm_code(FILE *fp, const dif_object_t *difo)
{
	char buf[512];
	uint32_t i;

	fprintf(fp, "OFF OPCODE      INSTRUCTION\n");
	for (i = 0; i < difo->dif_len; i++) {
		dif_disasm_instr(difo, i, buf, sizeof (buf));
		fprintf(fp, "%02u: %08x    %s\n", (unsigned) i,
		    (unsigned) difo->dif_buf[i], buf);
	}
	if (difo->dif_intlen > 0) {
		fprintf(fp, "\nINTEGER TABLE\n");
		for (i = 0; i < difo->dif_intlen; i++)
			fprintf(fp, "[%u] %" PRId64 "\n", (unsigned) i,
			    difo->dif_inttab[i]);
	}
	if (difo->dif_strlen > 0) {
		fprintf(fp, "\nSTRING TABLE\n");
		for (i = 0; i < difo->dif_strlen;) {
			size_t n = strnlen(difo->dif_strtab + i,
			    difo->dif_strlen - i);

			dif_quote(difo->dif_strtab + i, n, buf, sizeof (buf));
			fprintf(fp, "[%u] %s\n", (unsigned) i, buf);
			i += n + 1;
		}
	}
}

void
dif_disasm(FILE *fp, const dif_object_t *difo)
{
	char tbuf[64];
	uint32_t i;

	dif_disasm_code(fp, difo);
	if (difo->dif_varlen > 0) {
		fprintf(fp, "\nVARIABLE TABLE\n");
		fprintf(fp, "%-16s %-6s %-6s %-6s %-4s %s\n", "NAME", "ID",
		    "KIND", "SCOPE", "FLAG", "TYPE");
		for (i = 0; i < difo->dif_varlen; i++) {
			const dif_var_t *v = &difo->dif_vartab[i];
			const char *name = dif_var_tabname(difo, v);

			dif_type_format(&v->dv_type, tbuf, sizeof (tbuf));
			fprintf(fp, "%-16s %-6u %-6s %-6s %c%c   %s\n",
			    name ? name : "?", (unsigned) v->dv_id,
			    dif_kind_name(v->dv_kind),
			    dif_scope_name(v->dv_scope),
			    (v->dv_flags & DIFV_F_REF) ? 'r' : '-',
			    (v->dv_flags & DIFV_F_MOD) ? 'w' : '-', tbuf);
		}
	}
	dif_type_format(&difo->dif_rtype, tbuf, sizeof (tbuf));
	fprintf(fp, "\nRETURN %s\n", tbuf);
}

/*
 * The assembler.
 */

typedef struct dif_label {
	char *dl_name;
	uint32_t dl_pc;
} dif_label_t;

typedef struct dif_asm {
	char *da_err;
	size_t da_errlen;
	int da_line;
	bool da_failed;
	/* The object being built. */
	dif_instr_t *da_buf;
	uint32_t da_len, da_bufcap;
	int64_t *da_ints;
	uint32_t da_nints, da_intcap;
	char *da_strs;
	uint32_t da_strlen, da_strcap;
	dif_var_t *da_vars;
	uint32_t da_nvars, da_varcap;
	dif_type_t da_rtype;
	dif_label_t *da_labels;
	uint32_t da_nlabels, da_labelcap;
} dif_asm_t;

static void
dif_asm_error(dif_asm_t *da, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (da->da_failed)
		return;
	da->da_failed = true;
	n = snprintf(da->da_err, da->da_errlen, "line %d: ", da->da_line);
	if (n < 0 || (size_t) n >= da->da_errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(da->da_err + n, da->da_errlen - n, fmt, ap);
	va_end(ap);
}

/* Grows *p (of elements of size sz) to hold at least need elements. */
static bool
dif_asm_grow(dif_asm_t *da, void **p, uint32_t *cap, uint32_t need,
    size_t sz)
{
	uint32_t ncap;
	void *np;

	if (need <= *cap)
		return true;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	if ((np = realloc(*p, (size_t) ncap * sz)) == NULL) {
		dif_asm_error(da, "out of memory");
		return false;
	}
	*p = np;
	*cap = ncap;
	return true;
}

static const char *
dif_skipws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Parses a C-style string literal at *sp into buf; advances *sp. */
static bool
dif_parse_string(dif_asm_t *da, const char **sp, char *buf, size_t size,
    size_t *lenp)
{
	const char *s = *sp;
	size_t n = 0;

	if (*s != '"') {
		dif_asm_error(da, "expected a string literal");
		return false;
	}
	for (s++; *s != '"'; s++) {
		int c = (unsigned char) *s;

		if (c == '\0' || c == '\n') {
			dif_asm_error(da, "unterminated string literal");
			return false;
		}
		if (c == '\\') {
			s++;
			switch (*s) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case '\\':
			case '"':
				c = *s;
				break;
			default:
				if (s[0] >= '0' && s[0] <= '7' && s[1] >= '0' &&
				    s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
					c = (s[0] - '0') * 64 +
					    (s[1] - '0') * 8 + (s[2] - '0');
					s += 2;
					break;
				}
				dif_asm_error(da, "invalid escape in string");
				return false;
			}
			if (c == 0) {
				dif_asm_error(da, "NUL inside a string");
				return false;
			}
		}
		if (n + 1 >= size) {
			dif_asm_error(da, "string literal too long");
			return false;
		}
		buf[n++] = (char) c;
	}
	buf[n] = '\0';
	*lenp = n;
	*sp = s + 1;
	return true;
}

/* Parses an identifier (letters, digits, '_', '.', '`') into buf. */
static bool
dif_parse_ident(const char **sp, char *buf, size_t size)
{
	const char *s = *sp;
	size_t n = 0;

	if (!isalpha((unsigned char) *s) && *s != '_' && *s != '.')
		return false;
	while (isalnum((unsigned char) *s) || *s == '_' || *s == '.' ||
	    *s == '`') {
		if (n + 1 < size)
			buf[n++] = *s;
		s++;
	}
	buf[n] = '\0';
	*sp = s;
	return true;
}

static bool
dif_parse_num(dif_asm_t *da, const char **sp, int64_t *valp)
{
	const char *s = *sp;
	char *end;
	bool neg = false;
	uint64_t u;

	if (*s == '#')
		s++;
	if (*s == '-') {
		neg = true;
		s++;
	}
	if (!isdigit((unsigned char) *s)) {
		dif_asm_error(da, "expected a number");
		return false;
	}
	errno = 0;
	u = strtoull(s, &end, 0);
	if (errno != 0) {
		dif_asm_error(da, "number out of range");
		return false;
	}
	*valp = neg ? (int64_t) (0 - u) : (int64_t) u;
	*sp = end;
	return true;
}

static bool
dif_expect(dif_asm_t *da, const char **sp, char c)
{
	const char *s = dif_skipws(*sp);

	if (*s != c) {
		dif_asm_error(da, "expected '%c'", c);
		return false;
	}
	*sp = s + 1;
	return true;
}

static bool
dif_parse_reg(dif_asm_t *da, const char **sp, unsigned *regp)
{
	const char *s = dif_skipws(*sp);
	unsigned long r;
	char *end;

	if (s[0] != '%' || s[1] != 'r' || !isdigit((unsigned char) s[2])) {
		dif_asm_error(da, "expected a register (%%r0..%%r%d)",
		    DIF_DIR_NREGS - 1);
		return false;
	}
	r = strtoul(s + 2, &end, 10);
	if (r > DIF_REGISTER_MAX) {
		dif_asm_error(da, "register %%r%lu does not fit an instruction",
		    r);
		return false;
	}
	*regp = (unsigned) r;
	*sp = end;
	return true;
}

/* "[%rN]" */
static bool
dif_parse_mem(dif_asm_t *da, const char **sp, unsigned *regp)
{
	return dif_expect(da, sp, '[') && dif_parse_reg(da, sp, regp) &&
	    dif_expect(da, sp, ']');
}

/* "NAME[n]" or "NAME(n)" as the disassembler prints table references. */
static bool
dif_parse_ref(const char **sp, const char *prefix, char open, int64_t *valp)
{
	const char *s = dif_skipws(*sp);
	size_t n = strlen(prefix);
	char close = open == '[' ? ']' : ')';
	char *end;

	if (strncmp(s, prefix, n) != 0 || s[n] != open)
		return false;
	errno = 0;
	*valp = (int64_t) strtoull(s + n + 1, &end, 0);
	if (errno != 0 || end == s + n + 1 || *end != close)
		return false;
	*sp = end + 1;
	return true;
}

static uint32_t
dif_asm_addint(dif_asm_t *da, int64_t v)
{
	uint32_t i;

	for (i = 0; i < da->da_nints; i++)
		if (da->da_ints[i] == v)
			return i;
	if (!dif_asm_grow(da, (void **) &da->da_ints, &da->da_intcap,
	    da->da_nints + 1, sizeof (int64_t)))
		return 0;
	da->da_ints[da->da_nints] = v;
	return da->da_nints++;
}

/* Returns the offset of s in the string table, appending it if absent. */
static uint32_t
dif_asm_addstr(dif_asm_t *da, const char *s, size_t len)
{
	uint32_t i, off;

	for (i = 0; i < da->da_strlen;) {
		size_t n = strnlen(da->da_strs + i, da->da_strlen - i);

		if (n == len && memcmp(da->da_strs + i, s, len) == 0)
			return i;
		i += n + 1;
	}
	if (!dif_asm_grow(da, (void **) &da->da_strs, &da->da_strcap,
	    da->da_strlen + len + 1, 1))
		return 0;
	off = da->da_strlen;
	memcpy(da->da_strs + off, s, len);
	da->da_strs[off + len] = '\0';
	da->da_strlen += len + 1;
	return off;
}

static bool
dif_parse_type(dif_asm_t *da, const char **sp, dif_type_t *t)
{
	char word[32];
	int64_t size;

	memset(t, 0, sizeof (*t));
	*sp = dif_skipws(*sp);
	if (!dif_parse_ident(sp, word, sizeof (word))) {
		dif_asm_error(da, "expected a type (ctf or string)");
		return false;
	}
	if (strcmp(word, "ctf") == 0) {
		t->dt_kind = DIF_TYPE_CTF;
	} else if (strcmp(word, "string") == 0) {
		t->dt_kind = DIF_TYPE_STRING;
	} else {
		dif_asm_error(da, "unknown type kind \"%s\"", word);
		return false;
	}
	for (;;) {
		*sp = dif_skipws(*sp);
		if (!dif_parse_ident(sp, word, sizeof (word)))
			break;
		if (strcmp(word, "signed") == 0) {
			t->dt_flags |= DIF_TF_SIGNED;
		} else if (strcmp(word, "pointer") == 0) {
			t->dt_flags |= DIF_TF_POINTER;
		} else if (strcmp(word, "byref") == 0) {
			t->dt_flags |= DIF_TF_BYREF;
		} else {
			dif_asm_error(da, "unknown type flag \"%s\"", word);
			return false;
		}
	}
	if (!dif_parse_num(da, sp, &size))
		return false;
	if (size < 0 || size > UINT32_MAX) {
		dif_asm_error(da, "type size out of range");
		return false;
	}
	t->dt_size = (uint32_t) size;
	return true;
}

static bool
dif_at_end(dif_asm_t *da, const char *s)
{
	s = dif_skipws(s);
	if (*s != '\0') {
		dif_asm_error(da, "unexpected \"%s\"", s);
		return false;
	}
	return true;
}

/* A row of the variable table: NAME ID KIND SCOPE FLAG TYPE */
static void
dif_asm_var(dif_asm_t *da, const char *s)
{
	char name[256], word[32];
	dif_var_t v;
	int64_t id;

	memset(&v, 0, sizeof (v));
	if (!dif_parse_ident(&s, name, sizeof (name))) {
		dif_asm_error(da, "expected a variable name");
		return;
	}
	s = dif_skipws(s);
	if (!dif_parse_num(da, &s, &id))
		return;
	if (id < 0 || id > DIF_VARIABLE_MAX) {
		dif_asm_error(da, "variable ID out of range");
		return;
	}
	v.dv_id = (uint32_t) id;
	s = dif_skipws(s);
	if (!dif_parse_ident(&s, word, sizeof (word)) ||
	    (strcmp(word, "scalar") != 0 && strcmp(word, "array") != 0)) {
		dif_asm_error(da, "expected scalar or array");
		return;
	}
	v.dv_kind = word[0] == 's' ? DIFV_KIND_SCALAR : DIFV_KIND_ARRAY;
	s = dif_skipws(s);
	if (!dif_parse_ident(&s, word, sizeof (word))) {
		dif_asm_error(da, "expected a scope");
		return;
	}
	if (strcmp(word, "global") == 0) {
		v.dv_scope = DIFV_SCOPE_GLOBAL;
	} else if (strcmp(word, "thread") == 0) {
		v.dv_scope = DIFV_SCOPE_THREAD;
	} else if (strcmp(word, "local") == 0) {
		v.dv_scope = DIFV_SCOPE_LOCAL;
	} else {
		dif_asm_error(da, "expected global, thread or local");
		return;
	}
	s = dif_skipws(s);
	if ((s[0] != 'r' && s[0] != '-') || (s[1] != 'w' && s[1] != '-')) {
		dif_asm_error(da, "expected flags (r- -w rw --)");
		return;
	}
	v.dv_flags = (s[0] == 'r' ? DIFV_F_REF : 0) |
	    (s[1] == 'w' ? DIFV_F_MOD : 0);
	s += 2;
	if (!dif_parse_type(da, &s, &v.dv_type) || !dif_at_end(da, s))
		return;
	v.dv_name = dif_asm_addstr(da, name, strlen(name));
	if (!dif_asm_grow(da, (void **) &da->da_vars, &da->da_varcap,
	    da->da_nvars + 1, sizeof (dif_var_t)))
		return;
	da->da_vars[da->da_nvars++] = v;
}

/* A variable operand: DT_VAR(n), a table name or a built-in name. */
static bool
dif_parse_var(dif_asm_t *da, const char **sp, uint32_t op, int64_t *idp)
{
	const char *s = dif_skipws(*sp);
	char name[256];
	uint32_t i;
	int id;

	if (dif_parse_ref(&s, "DT_VAR", '(', idp)) {
		*sp = s;
		return true;
	}
	if (!dif_parse_ident(&s, name, sizeof (name))) {
		dif_asm_error(da, "expected a variable");
		return false;
	}
	for (i = 0; i < da->da_nvars; i++) {
		const dif_var_t *v = &da->da_vars[i];

		if (v->dv_scope == dif_op_scope(op) &&
		    strcmp(da->da_strs + v->dv_name, name) == 0) {
			*idp = v->dv_id;
			*sp = s;
			return true;
		}
	}
	if ((id = dif_var_lookup(name)) < 0) {
		dif_asm_error(da, "unknown variable \"%s\"", name);
		return false;
	}
	*idp = id;
	*sp = s;
	return true;
}

static bool
dif_parse_label(dif_asm_t *da, const char **sp, int64_t *pcp)
{
	const char *s = dif_skipws(*sp);
	char name[128];
	uint32_t i;

	if (isdigit((unsigned char) *s))
		return dif_parse_num(da, sp, pcp);
	if (!dif_parse_ident(&s, name, sizeof (name))) {
		dif_asm_error(da, "expected a branch target");
		return false;
	}
	for (i = 0; i < da->da_nlabels; i++) {
		if (strcmp(da->da_labels[i].dl_name, name) == 0) {
			*pcp = da->da_labels[i].dl_pc;
			*sp = s;
			return true;
		}
	}
	dif_asm_error(da, "undefined label \"%s\"", name);
	return false;
}

static bool
dif_parse_tuptype(dif_asm_t *da, const char **sp, int64_t *tp)
{
	const char *s = dif_skipws(*sp);
	char word[32];

	if (dif_parse_ref(&s, "DT_TYPE", '(', tp)) {
		*sp = s;
		return true;
	}
	if (dif_parse_ident(&s, word, sizeof (word))) {
		if (strcmp(word, "ctf") == 0 || strcmp(word, "string") == 0) {
			*tp = word[0] == 'c' ? DIF_TYPE_CTF : DIF_TYPE_STRING;
			*sp = s;
			return true;
		}
	}
	dif_asm_error(da, "expected a tuple type (ctf or string)");
	return false;
}

static bool
dif_fits(dif_asm_t *da, int64_t v, int64_t max, const char *what)
{
	if (v < 0 || v > max) {
		dif_asm_error(da, "%s %" PRId64 " does not fit an instruction",
		    what, v);
		return false;
	}
	return true;
}

static void
dif_asm_instr(dif_asm_t *da, const char *s)
{
	char name[32], str[4096];
	unsigned r1 = 0, r2 = 0, rd = 0;
	int64_t x = 0, t = 0;
	dif_instr_t in = 0;
	uint32_t op;
	size_t len;
	int subr;

	if (!dif_parse_ident(&s, name, sizeof (name))) {
		dif_asm_error(da, "expected an opcode");
		return;
	}
	for (op = 1; op <= DIF_OP_MAX; op++)
		if (dif_op_name(op) != NULL && strcmp(dif_op_name(op), name) == 0)
			break;
	if (op > DIF_OP_MAX) {
		dif_asm_error(da, "unknown opcode \"%s\"", name);
		return;
	}
	s = dif_skipws(s);
	switch (dif_op_format(op)) {
	case DIF_FMT_NONE:
		in = DIF_INSTR_FMT(op, 0, 0, 0);
		break;
	case DIF_FMT_R1R2RD:
	case DIF_FMT_COPYS:
		if (!dif_parse_reg(da, &s, &r1) || !dif_expect(da, &s, ',') ||
		    !dif_parse_reg(da, &s, &r2) || !dif_expect(da, &s, ',') ||
		    !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_FMT(op, r1, r2, rd);
		break;
	case DIF_FMT_R1RD:
		if (!dif_parse_reg(da, &s, &r1) || !dif_expect(da, &s, ',') ||
		    !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_FMT(op, r1, 0, rd);
		break;
	case DIF_FMT_R1R2:
		if (!dif_parse_reg(da, &s, &r1) || !dif_expect(da, &s, ',') ||
		    !dif_parse_reg(da, &s, &r2))
			return;
		in = DIF_INSTR_FMT(op, r1, r2, 0);
		break;
	case DIF_FMT_R1:
		if (!dif_parse_reg(da, &s, &r1))
			return;
		in = DIF_INSTR_FMT(op, r1, 0, 0);
		break;
	case DIF_FMT_BRANCH:
		if (!dif_parse_label(da, &s, &x) ||
		    !dif_fits(da, x, DIF_LABEL_MAX, "branch target"))
			return;
		in = DIF_INSTR_BRANCH(op, x);
		break;
	case DIF_FMT_LOAD:
		if (!dif_parse_mem(da, &s, &r1) || !dif_expect(da, &s, ',') ||
		    !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_LOAD(op, r1, rd);
		break;
	case DIF_FMT_STORE:
		if (!dif_parse_reg(da, &s, &r1) || !dif_expect(da, &s, ',') ||
		    !dif_parse_mem(da, &s, &rd))
			return;
		in = DIF_INSTR_STORE(op, r1, rd);
		break;
	case DIF_FMT_SETX:
		if (!dif_parse_ref(&s, "DT_INTEGER", '[', &x)) {
			if (!dif_parse_num(da, &s, &x))
				return;
			x = dif_asm_addint(da, x);
		}
		if (!dif_fits(da, x, DIF_INTOFF_MAX, "integer index") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_SETX(x, rd);
		break;
	case DIF_FMT_SETS:
		if (!dif_parse_ref(&s, "DT_STRING", '[', &x)) {
			if (!dif_parse_string(da, &s, str, sizeof (str), &len))
				return;
			x = dif_asm_addstr(da, str, len);
		}
		if (!dif_fits(da, x, DIF_STROFF_MAX, "string offset") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_SETS(x, rd);
		break;
	case DIF_FMT_LDV:
		if (!dif_parse_var(da, &s, op, &x) ||
		    !dif_fits(da, x, DIF_VARIABLE_MAX, "variable") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_LDV(op, x, rd);
		break;
	case DIF_FMT_STV:
		if (!dif_parse_reg(da, &s, &rd) || !dif_expect(da, &s, ',') ||
		    !dif_parse_var(da, &s, op, &x) ||
		    !dif_fits(da, x, DIF_VARIABLE_MAX, "variable"))
			return;
		in = DIF_INSTR_STV(op, x, rd);
		break;
	case DIF_FMT_LDA:
		if (!dif_parse_var(da, &s, op, &x) ||
		    !dif_fits(da, x, DIF_VAR_ARRAY_MAX, "array variable") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &r2) ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_LDA(op, x, r2, rd);
		break;
	case DIF_FMT_CALL:
		if (!dif_parse_ref(&s, "DIF_SUBR", '(', &x)) {
			if (!dif_parse_ident(&s, str, sizeof (str))) {
				dif_asm_error(da, "expected a subroutine");
				return;
			}
			if ((subr = dif_subr_lookup(str)) < 0) {
				dif_asm_error(da, "unknown subroutine \"%s\"",
				    str);
				return;
			}
			x = subr;
		}
		if (!dif_fits(da, x, DIF_SUBROUTINE_MAX, "subroutine") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_CALL(x, rd);
		break;
	case DIF_FMT_PUSHTR:
		if (!dif_parse_tuptype(da, &s, &t) ||
		    !dif_fits(da, t, 0xff, "tuple type") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd) ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &r2))
			return;
		in = DIF_INSTR_PUSHTS(op, t, r2, rd);
		break;
	case DIF_FMT_PUSHTV:
		if (!dif_parse_tuptype(da, &s, &t) ||
		    !dif_fits(da, t, 0xff, "tuple type") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_PUSHTS(op, t, 0, rd);
		break;
	case DIF_FMT_RET:
		if (!dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_RET(rd);
		break;
	case DIF_FMT_XLATE:
		if (!dif_parse_ref(&s, "DT_XLREF", '[', &x)) {
			dif_asm_error(da, "expected DT_XLREF[n]");
			return;
		}
		if (!dif_fits(da, x, 0xffff, "translator reference") ||
		    !dif_expect(da, &s, ',') || !dif_parse_reg(da, &s, &rd))
			return;
		in = DIF_INSTR_XLATE(op, x, rd);
		break;
	default:
		dif_asm_error(da, "unknown opcode \"%s\"", name);
		return;
	}
	if (!dif_at_end(da, s))
		return;
	if (!dif_asm_grow(da, (void **) &da->da_buf, &da->da_bufcap,
	    da->da_len + 1, sizeof (dif_instr_t)))
		return;
	da->da_buf[da->da_len++] = in;
}

/* Strips a "!" comment (outside string literals) and trailing blanks. */
static void
dif_strip(char *line)
{
	bool quoted = false;
	char *p;
	size_t n;

	for (p = line; *p != '\0'; p++) {
		if (quoted && *p == '\\' && p[1] != '\0') {
			p++;
		} else if (*p == '"') {
			quoted = !quoted;
		} else if (*p == '!' && !quoted) {
			*p = '\0';
			break;
		}
	}
	n = strlen(line);
	while (n > 0 && isspace((unsigned char) line[n - 1]))
		line[--n] = '\0';
}

/* Skips the "NN: XXXXXXXX" columns of a disassembly line. */
static const char *
dif_skip_offset(const char *s)
{
	const char *p = s;
	int i;

	while (isdigit((unsigned char) *p))
		p++;
	if (p == s || *p != ':')
		return s;
	p = dif_skipws(p + 1);
	for (i = 0; i < 8 && isxdigit((unsigned char) p[i]); i++)
		continue;
	if (i == 8 && (p[8] == ' ' || p[8] == '\t'))
		p += 8;
	return dif_skipws(p);
}

/* A line "NAME:" alone, defining a label. */
static bool
dif_is_label(const char *s, char *name, size_t size)
{
	const char *p = s;

	if (!dif_parse_ident(&p, name, size))
		return false;
	return p[0] == ':' && *dif_skipws(p + 1) == '\0';
}

enum dif_section { SEC_CODE, SEC_INT, SEC_STR, SEC_VAR };

dif_object_t *
dif_asm(const char *text, char *errbuf, size_t errlen)
{
	dif_asm_t da;
	dif_object_t *difo = NULL;
	char **lines = NULL, *copy, *p, name[128], str[4096];
	size_t nlines = 0, cap = 0, i, len;
	enum dif_section sec = SEC_CODE;
	uint32_t pc = 0;
	int64_t idx;

	memset(&da, 0, sizeof (da));
	da.da_err = errbuf;
	da.da_errlen = errlen;
	if (errlen > 0)
		errbuf[0] = '\0';
	da.da_rtype.dt_kind = DIF_TYPE_CTF;
	da.da_rtype.dt_size = 8;
	if ((copy = strdup(text)) == NULL) {
		dif_asm_error(&da, "out of memory");
		return NULL;
	}
	for (p = copy; p != NULL;) {
		char *nl = strchr(p, '\n');

		if (nl != NULL)
			*nl++ = '\0';
		if (nlines == cap) {
			char **nl2;

			cap = cap ? cap * 2 : 64;
			if ((nl2 = realloc(lines, cap * sizeof (*lines))) ==
			    NULL) {
				dif_asm_error(&da, "out of memory");
				goto out;
			}
			lines = nl2;
		}
		lines[nlines++] = p;
		p = nl;
	}

	/* Pass 1: tables, return type and labels. */
	for (i = 0; i < nlines && !da.da_failed; i++) {
		const char *s;

		da.da_line = (int) i + 1;
		dif_strip(lines[i]);
		s = dif_skipws(lines[i]);
		if (*s == '\0' || strncmp(s, "OFF ", 4) == 0)
			continue;
		if (strcmp(s, "INTEGER TABLE") == 0) {
			sec = SEC_INT;
		} else if (strcmp(s, "STRING TABLE") == 0) {
			sec = SEC_STR;
		} else if (strcmp(s, "VARIABLE TABLE") == 0) {
			sec = SEC_VAR;
		} else if (strncmp(s, "RETURN ", 7) == 0) {
			s += 7;
			if (dif_parse_type(&da, &s, &da.da_rtype))
				(void) dif_at_end(&da, s);
		} else if (sec == SEC_INT) {
			if (!dif_parse_ref(&s, "", '[', &idx) ||
			    idx != da.da_nints) {
				dif_asm_error(&da, "expected [%u] in the "
				    "integer table", (unsigned) da.da_nints);
				break;
			}
			s = dif_skipws(s);
			if (!dif_parse_num(&da, &s, &idx) || !dif_at_end(&da, s))
				break;
			if (dif_asm_grow(&da, (void **) &da.da_ints,
			    &da.da_intcap, da.da_nints + 1, sizeof (int64_t)))
				da.da_ints[da.da_nints++] = idx;
		} else if (sec == SEC_STR) {
			if (!dif_parse_ref(&s, "", '[', &idx) ||
			    idx != da.da_strlen) {
				dif_asm_error(&da, "expected [%u] in the "
				    "string table", (unsigned) da.da_strlen);
				break;
			}
			s = dif_skipws(s);
			if (!dif_parse_string(&da, &s, str, sizeof (str),
			    &len) || !dif_at_end(&da, s))
				break;
			if (dif_asm_grow(&da, (void **) &da.da_strs,
			    &da.da_strcap, da.da_strlen + len + 1, 1)) {
				memcpy(da.da_strs + da.da_strlen, str, len + 1);
				da.da_strlen += len + 1;
			}
		} else if (sec == SEC_VAR) {
			if (strncmp(s, "NAME ", 5) != 0)
				dif_asm_var(&da, s);
		} else if (dif_is_label(s, name, sizeof (name))) {
			if (!dif_asm_grow(&da, (void **) &da.da_labels,
			    &da.da_labelcap, da.da_nlabels + 1,
			    sizeof (dif_label_t)))
				break;
			if ((da.da_labels[da.da_nlabels].dl_name =
			    strdup(name)) == NULL) {
				dif_asm_error(&da, "out of memory");
				break;
			}
			da.da_labels[da.da_nlabels++].dl_pc = pc;
			lines[i][0] = '\0';
		} else {
			pc++;
		}
	}

	/* Pass 2: instructions, now that every name is known. */
	sec = SEC_CODE;
	for (i = 0; i < nlines && !da.da_failed; i++) {
		const char *s = dif_skipws(lines[i]);

		da.da_line = (int) i + 1;
		if (*s == '\0' || strncmp(s, "OFF ", 4) == 0 ||
		    strncmp(s, "RETURN ", 7) == 0)
			continue;
		if (strcmp(s, "INTEGER TABLE") == 0 ||
		    strcmp(s, "STRING TABLE") == 0 ||
		    strcmp(s, "VARIABLE TABLE") == 0)
			sec = SEC_INT;
		if (sec != SEC_CODE)
			continue;
		dif_asm_instr(&da, dif_skip_offset(s));
	}
	if (!da.da_failed) {
		difo = dif_object_create(da.da_buf, da.da_len, da.da_ints,
		    da.da_nints, da.da_strs, da.da_strlen, da.da_vars,
		    da.da_nvars, &da.da_rtype);
		if (difo == NULL)
			dif_asm_error(&da, "out of memory");
	}
out:
	for (i = 0; i < da.da_nlabels; i++)
		free(da.da_labels[i].dl_name);
	free(da.da_labels);
	free(da.da_buf);
	free(da.da_ints);
	free(da.da_strs);
	free(da.da_vars);
	free(lines);
	free(copy);
	return difo;
}
