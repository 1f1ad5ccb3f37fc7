/* SPDX-License-Identifier: MIT */
/*
 * dt_print.c: one datum as trace() and aggregation keys print it.
 *
 * DTrace chooses the layout from the record's size, not its D type: 1, 2,
 * 4 and 8 byte records are integers printed right-aligned in 3, 5, 8 and
 * 16 columns (1 and 2 byte values as unsigned, 4 and 8 byte values as
 * signed); anything else is a string if it looks like one (printable
 * characters up to a NUL and only NULs after it) and otherwise a hex dump:
 *
 *	     0  1  2 ... f  0123456789abcdef      (each line indented)
 *	 0: 68 65 6c ... 00  hel.............
 *
 * Stacks print one frame per line after a newline, indented by the
 * stackindent option; symbols (sym(), mod(), usym(), ...) print left-
 * aligned in 50 columns.  Addresses are resolved through the symbol
 * lookup the OS backend installed (dt_symops_t); what it cannot resolve
 * prints in hex, as DTrace prints what it cannot resolve.
 */
#include <ctype.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/dt_demangle.h"
#include "common/dt_os.h"

uint64_t
dt_rec_uint(const dt_recdesc_t *rd, const void *addr)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (rd->rd_size) {
	case 1:
		memcpy(&u8, addr, 1);
		return u8;
	case 2:
		memcpy(&u16, addr, 2);
		return u16;
	case 4:
		memcpy(&u32, addr, 4);
		return u32;
	default:
		memcpy(&u64, addr, 8);
		return u64;
	}
}

int64_t
dt_rec_sint(const dt_recdesc_t *rd, const void *addr)
{
	uint64_t u = dt_rec_uint(rd, addr);

	switch (rd->rd_size) {
	case 1:
		return (int8_t) u;
	case 2:
		return (int16_t) u;
	case 4:
		return (int32_t) u;
	default:
		return (int64_t) u;
	}
}

/*
 * Lookup flags: whether a symbol carries its "+0x..." offset, and whether
 * an address known only by its object prints as "obj`0x..." (stacks, sym)
 * rather than plain hex (%a).
 */
#define DT_A2S_OFFSET  0x1
#define DT_A2S_OBJONLY 0x2

static void
dt_syminfo_str(const dt_syminfo_t *si, bool found, uint64_t addr, int flags,
    char *buf, size_t len)
{
	if (found && si->si_name != NULL) {
		const char *obj = si->si_object ? si->si_object : "";

		if ((flags & DT_A2S_OFFSET) && addr > si->si_value)
			(void) snprintf(buf, len, "%s`%s+0x%llx", obj,
			    si->si_name,
			    (unsigned long long) (addr - si->si_value));
		else
			(void) snprintf(buf, len, "%s`%s", obj, si->si_name);
	} else if (found && si->si_object != NULL && (flags & DT_A2S_OBJONLY)) {
		(void) snprintf(buf, len, "%s`0x%llx", si->si_object,
		    (unsigned long long) addr);
	} else {
		(void) snprintf(buf, len, "0x%llx", (unsigned long long) addr);
	}
}

int
dt_cons_os_ksym(void *arg, uint64_t addr, dt_syminfo_t *sip)
{
	dt_consumer_t *dc = arg;
	const char *why;

	if (dt_os_ksym(addr, &sip->si_object, &sip->si_name,
		&sip->si_value) == 0)
		return 0;
	/*
	 * When the OS can symbolise nothing at all, every kernel address is
	 * about to print in hex: say why, once.
	 */
	if (addr != 0 && !dc->dc_ksymwarned &&
	    (why = dt_os_ksym_why()) != NULL) {
		dc->dc_ksymwarned = true;
		(void) fprintf(dc->dc_errfp,
		    "dtrace: kernel addresses print in hex: %s\n", why);
	}
	return -1;
}

bool
dt_ksym(dt_consumer_t *dc, uint64_t addr, dt_syminfo_t *si)
{
	memset(si, 0, sizeof(*si));
	return dc->dc_symops.so_ksym != NULL &&
	    dc->dc_symops.so_ksym(dc->dc_symops.so_arg, addr, si) == 0;
}

int
dt_cons_os_usym(void *arg, uint64_t pid, uint64_t addr, dt_syminfo_t *sip)
{
	dt_consumer_t *dc = arg;
	const char *why;
	int rc;

	if (pid == 0 || pid > INT32_MAX)
		return -1;
	rc = dt_os_usym((int) pid, addr, &sip->si_object, &sip->si_name,
	    &sip->si_value, &sip->si_base);
	/* A JIT's symbols left unread (an unsafe perf map): say so, once. */
	if ((why = dt_os_usym_warning()) != NULL)
		(void) fprintf(dc->dc_errfp, "dtrace: %s\n", why);
	return rc;
}

int
dt_cons_os_umap(
    void *arg, uint64_t pid, uint64_t addr, struct dt_os_mapping *omp)
{
	(void) arg;
	if (pid == 0 || pid > INT32_MAX)
		return -1;
	return dt_os_umapping((int) pid, addr, omp);
}

int
dt_cons_os_kmap(void *arg, const char *module, struct dt_os_mapping *omp)
{
	(void) arg;
	return dt_os_kmapping(module, omp);
}

/*
 * Every user symbol printed comes through here (ustack, jstack, usym,
 * ufunc, uaddr, %A and aggregation keys of them), so C++ and Rust names
 * are made readable here, unless -x nodemangle asks for them raw.
 */
bool
dt_usym(dt_consumer_t *dc, uint64_t pid, uint64_t addr, dt_syminfo_t *si)
{
	const char *dem;

	memset(si, 0, sizeof(*si));
	if (dc->dc_symops.so_usym == NULL ||
	    dc->dc_symops.so_usym(dc->dc_symops.so_arg, pid, addr, si) != 0)
		return false;
	if ((dc->dc_dtp == NULL ||
	    dc->dc_dtp->dt_options[DT_OPT_NODEMANGLE] == DTRACEOPT_UNSET) &&
	    (dem = dt_demangle(si->si_name)) != NULL)
		si->si_name = dem;
	return true;
}

void
dt_addr2str(
    dt_consumer_t *dc, uint64_t addr, bool withoff, char *buf, size_t len)
{
	dt_syminfo_t si;
	bool found = dt_ksym(dc, addr, &si);

	dt_syminfo_str(&si, found, addr, withoff ? DT_A2S_OFFSET : 0, buf, len);
}

/*
 * -x noresolve: a user address is printed as its object and its offset in
 * that object ("libc.so.6:0x2a1f0"), without looking up symbols, for
 * tools that resolve them later.  Returns false if the option is off.
 */
static bool
dt_unoresolve(dt_consumer_t *dc, uint64_t pid, uint64_t addr, char *buf,
    size_t len)
{
	dt_syminfo_t si;

	if (dc->dc_dtp == NULL ||
	    dc->dc_dtp->dt_options[DT_OPT_NORESOLVE] == DTRACEOPT_UNSET)
		return false;
	if (dt_usym(dc, pid, addr, &si) && si.si_object != NULL &&
	    addr >= si.si_base)
		(void) snprintf(buf, len, "%s:0x%llx", si.si_object,
		    (unsigned long long) (addr - si.si_base));
	else
		(void) snprintf(buf, len, "0x%llx", (unsigned long long) addr);
	return true;
}

void
dt_uaddr2str(dt_consumer_t *dc, uint64_t pid, uint64_t addr, bool withoff,
    char *buf, size_t len)
{
	dt_syminfo_t si;
	bool found;

	if (dt_unoresolve(dc, pid, addr, buf, len))
		return;
	found = dt_usym(dc, pid, addr, &si);
	dt_syminfo_str(&si, found, addr,
	    DT_A2S_OBJONLY | (withoff ? DT_A2S_OFFSET : 0), buf, len);
}

/* The text of a sym(), mod(), usym(), umod() or uaddr() record. */
void
dt_sym2str(dt_consumer_t *dc, const dt_recdesc_t *rd, const void *addr,
    char *buf, size_t len)
{
	uint64_t w[2] = {0, 0};
	dt_syminfo_t si;
	bool found;

	memcpy(w, addr, rd->rd_size >= 16 ? 16 : 8);
	switch (rd->rd_type) {
	case DT_REC_SYM:
		found = dt_ksym(dc, w[0], &si);
		dt_syminfo_str(&si, found, w[0], DT_A2S_OBJONLY, buf, len);
		break;
	case DT_REC_MOD:
		if (dt_ksym(dc, w[0], &si) && si.si_object != NULL)
			(void) snprintf(buf, len, "%s", si.si_object);
		else
			(void) snprintf(
			    buf, len, "0x%llx", (unsigned long long) w[0]);
		break;
	case DT_REC_USYM:
		if (dt_unoresolve(dc, w[0], w[1], buf, len))
			break;
		found = dt_usym(dc, w[0], w[1], &si);
		dt_syminfo_str(&si, found, w[1], DT_A2S_OBJONLY, buf, len);
		break;
	case DT_REC_UMOD:
		if (dt_usym(dc, w[0], w[1], &si) && si.si_object != NULL)
			(void) snprintf(buf, len, "%s", si.si_object);
		else
			(void) snprintf(
			    buf, len, "0x%llx", (unsigned long long) w[1]);
		break;
	default: /* DT_REC_UADDR */
		dt_uaddr2str(dc, w[0], w[1], true, buf, len);
		break;
	}
}

/*
 * What DTrace counts as printable in a string: isprint() or isspace() in
 * the C locale, plus backspace and bell, which terminals do act on.
 */
static bool
dt_isprintable(unsigned char c)
{
	return (c < 0x80 && (isprint(c) || isspace(c))) || c == '\b' ||
	    c == '\a';
}

int
dt_print_bytes(dt_consumer_t *dc, FILE *fp, const void *addr, size_t n,
    int width, bool quiet, bool forceraw)
{
	const unsigned char *c = addr;
	size_t i, j;

	if (n == 0)
		return 0;
	if (forceraw ||
	    dc->dc_dtp->dt_options[DT_OPT_RAWBYTES] != DTRACEOPT_UNSET)
		goto raw;

	for (i = 0; i < n; i++) {
		if (dt_isprintable(c[i]))
			continue;
		if (c[i] == '\0' && i > 0) {
			/* A string only if nothing but NULs follows. */
			for (j = i + 1; j < n; j++) {
				if (c[j] != '\0')
					break;
			}
			if (j != n)
				break;
			if (quiet)
				return fprintf(fp, "%s", (const char *) c) < 0
				    ? -1
				    : 0;
			return fprintf(fp, " %s%*s", width < 0 ? " " : "",
				   width, (const char *) c) < 0
			    ? -1
			    : 0;
		}
		break;
	}
	if (i == n) {
		/* All printable, no NUL: a string that fills the record. */
		return fprintf(
			   fp, "  %-*.*s", width, (int) n, (const char *) c) < 0
		    ? -1
		    : 0;
	}

raw:
	(void) fprintf(fp, "\n%5s      ", "");
	for (i = 0; i < 16; i++)
		(void) fprintf(fp, "  %c", "0123456789abcdef"[i]);
	(void) fprintf(fp, "  0123456789abcdef\n");
	for (i = 0; i < n; i += 16) {
		(void) fprintf(fp, "%5s%5zx:", "", i);
		for (j = i; j < i + 16 && j < n; j++)
			(void) fprintf(fp, " %02x", c[j]);
		for (; j % 16 != 0; j++)
			(void) fputs("   ", fp);
		(void) fputs("  ", fp);
		for (j = i; j < i + 16 && j < n; j++)
			(void) fputc(c[j] < ' ' || c[j] > '~' ? '.' : c[j], fp);
		if (fputc('\n', fp) == EOF)
			return -1;
	}
	return 0;
}

static int
dt_stack_indent(dt_consumer_t *dc)
{
	dtrace_optval_t v = dc->dc_dtp->dt_options[DT_OPT_STACKINDENT];

	return v == DTRACEOPT_UNSET ? 14 : (int) v;
}

int
dt_print_stack(dt_consumer_t *dc, FILE *fp, const char *format,
    const void *addr, uint64_t depth, int indent)
{
	const unsigned char *p = addr;
	char buf[1024];

	if (format == NULL)
		format = "%s";
	if (fputc('\n', fp) == EOF)
		return -1;
	for (uint64_t i = 0; i < depth; i++) {
		uint64_t pc;

		memcpy(&pc, p + i * 8, 8);
		if (pc == 0)
			break;
		{
			dt_syminfo_t si;
			bool found = dt_ksym(dc, pc, &si);

			dt_syminfo_str(&si, found, pc,
			    DT_A2S_OFFSET | DT_A2S_OBJONLY, buf, sizeof(buf));
		}
		(void) fprintf(fp, "%*s", indent, "");
		(void) fprintf(fp, format, buf);
		if (fputc('\n', fp) == EOF)
			return -1;
	}
	return 0;
}

int
dt_print_ustack(dt_consumer_t *dc, FILE *fp, const char *format,
    const void *addr, uint64_t depth, int indent)
{
	const unsigned char *p = addr;
	char buf[1024];
	uint64_t pid;

	if (format == NULL)
		format = "%s";
	memcpy(&pid, p, 8);
	if (fputc('\n', fp) == EOF)
		return -1;
	for (uint64_t i = 0; i < depth; i++) {
		uint64_t pc;

		memcpy(&pc, p + 8 + i * 8, 8);
		if (pc == 0)
			break;
		dt_uaddr2str(dc, pid, pc, true, buf, sizeof(buf));
		(void) fprintf(fp, "%*s", indent, "");
		(void) fprintf(fp, format, buf);
		if (fputc('\n', fp) == EOF)
			return -1;
	}
	return 0;
}

/*
 * fprintf(fp, " %*lld", width, v) or, unsigned, " %*llu": what a printa()
 * of a big aggregation writes for most of its fields, made without
 * parsing a format each time.
 */
static const char dt_digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

size_t
dt_fmt_int(char *dst, int width, uint64_t v, bool sign)
{
	char buf[DT_FMT_INT_MAX], *p = buf + sizeof(buf);
	bool neg = sign && (int64_t) v < 0;
	uint64_t u = neg ? -v : v;
	size_t len;

	/* Two digits a division: a printa() of 100k keys makes millions. */
	while (u >= 100) {
		const char *d = dt_digits2 + (u % 100) * 2;

		u /= 100;
		*--p = d[1];
		*--p = d[0];
	}
	if (u >= 10) {
		*--p = dt_digits2[u * 2 + 1];
		*--p = dt_digits2[u * 2];
	} else {
		*--p = (char) ('0' + u);
	}
	if (neg)
		*--p = '-';
	while (buf + sizeof(buf) - p < width)
		*--p = ' ';
	*--p = ' ';
	len = (size_t) (buf + sizeof(buf) - p);
	memcpy(dst, p, len);
	return len;
}

int
dt_print_int(FILE *fp, int width, uint64_t v, bool sign)
{
	char buf[DT_FMT_INT_MAX];
	size_t len;

	if (width > DT_FMT_INT_MAX - 1)
		return fprintf(fp, sign ? " %*lld" : " %*llu", width,
			   (long long) v) < 0
		    ? -1
		    : 0;
	len = dt_fmt_int(buf, width, v, sign);
	return fwrite(buf, 1, len, fp) == len ? 0 : -1;
}

/*
 * An integer as the default layouts print it (trace() without -q, and
 * aggregation keys): by size, as DTrace -- 1 and 2 byte values read
 * unsigned, 4 byte values as int, 8 byte values as long long -- right-
 * aligned in 3, 5, 8 or 16 columns after a space.  Into dst (room for
 * DT_FMT_INT_MAX bytes); 0 when rd does not print as an integer.
 */
size_t
dt_fmt_intrec(char *dst, const dt_recdesc_t *rd, const void *addr)
{
	switch (rd->rd_type) {
	case DT_REC_NONE:
	case DT_REC_STACK:
	case DT_REC_USTACK:
	case DT_REC_SYM:
	case DT_REC_MOD:
	case DT_REC_USYM:
	case DT_REC_UMOD:
	case DT_REC_UADDR:
		return 0;
	default:
		break;
	}
	switch (rd->rd_size) {
	case 8:
		return dt_fmt_int(dst, 16, dt_rec_uint(rd, addr), true);
	case 4:
		return dt_fmt_int(dst, 8,
		    (uint64_t) (int64_t) (int32_t) dt_rec_uint(rd, addr), true);
	case 2:
		return dt_fmt_int(dst, 5, dt_rec_uint(rd, addr), true);
	case 1:
		return dt_fmt_int(dst, 3, dt_rec_uint(rd, addr), true);
	default:
		return 0;
	}
}

int
dt_print_datum(dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd,
    const void *addr, bool quiet, bool aggkey)
{
	char buf[1024];
	uint64_t u;
	int n;

	switch (rd->rd_type) {
	case DT_REC_NONE:
		return 0;
	case DT_REC_STACK:
		return dt_print_stack(
		    dc, fp, NULL, addr, rd->rd_arg, dt_stack_indent(dc));
	case DT_REC_USTACK:
		return dt_print_ustack(
		    dc, fp, NULL, addr, rd->rd_arg, dt_stack_indent(dc));
	case DT_REC_SYM:
	case DT_REC_MOD:
	case DT_REC_USYM:
	case DT_REC_UMOD:
	case DT_REC_UADDR:
		dt_sym2str(dc, rd, addr, buf, sizeof(buf));
		return fprintf(fp, "  %-50s", buf) < 0 ? -1 : 0;
	default:
		break;
	}

	if (!(quiet && !aggkey)) {
		char ibuf[DT_FMT_INT_MAX];
		size_t len = dt_fmt_intrec(ibuf, rd, addr);

		if (len > 0)
			return fwrite(ibuf, 1, len, fp) == len ? 0 : -1;
	}
	switch (rd->rd_size) {
	case 8:
		memcpy(&u, addr, 8);
		n = fprintf(fp, "%lld", (long long) u);
		break;
	case 4:
		n = fprintf(fp, "%d", (int) (int32_t) dt_rec_uint(rd, addr));
		break;
	case 2:
	case 1:
		n = fprintf(fp, "%d", (int) dt_rec_uint(rd, addr));
		break;
	default:
		return dt_print_bytes(dc, fp, addr, rd->rd_size,
		    aggkey ? -50 : -33, quiet && !aggkey, false);
	}
	return n < 0 ? -1 : 0;
}
