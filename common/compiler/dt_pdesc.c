/* SPDX-License-Identifier: MIT */
/*
 * dt_pdesc.c: probe description text -> dt_probedesc_t.
 *
 * A description names up to four fields, provider:module:function:name.
 * Fewer fields fill from the right end of the kind of description given:
 * for -n (and in scripts) "a:b" is function a, name b; for -f it is
 * module a, function b; for -m provider a, module b; for -P a alone is
 * the provider.  -i takes a probe ID.  Empty fields match anything, and
 * globs (* ? [...]) are kept for matching.  A backslash escapes a ':'.
 *
 * Macro variables are expanded inside descriptions, as in pid$target or
 * syscall::$1:entry: $N and $$N give the argument text, $name a macro
 * variable's value.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/probe/dt_probe.h"

/* Expand macro references in a description; NULL with *errp on error. */
static char *
dt_pdesc_expand(dt_pcb_t *pcb, const char *s, const char **errp)
{
	size_t cap = strlen(s) * 2 + 64, len = 0;
	char *out = dt_cc_zalloc(pcb, cap);

	while (*s != '\0') {
		const char *val = NULL;
		char buf[32];

		if (*s == '$') {
			const char *p = s + 1;

			if (*p == '$')
				p++;
			if (isdigit((unsigned char) *p)) {
				unsigned long i = strtoul(p, NULL, 10);

				while (isdigit((unsigned char) *p))
					p++;
				if (i < (unsigned long) pcb->pcb_sargc) {
					val = pcb->pcb_sargv[i];
					pcb->pcb_sflagv[i] = true;
				} else if (pcb->pcb_cflags & DTRACE_C_DEFARG)
					val = "";
				else {
					*errp = "Undefined macro variable in "
					    "probe description";
					return NULL;
				}
			} else if (isalpha((unsigned char) *p) || *p == '_') {
				const char *b = p;
				dt_ident_t *idp;
				char *name;

				while (isalnum((unsigned char) *p) || *p == '_')
					p++;
				name = dt_cc_strndup(pcb, b, p - b);
				idp = dt_idhash_lookup(pcb->pcb_cc->cc_macros,
				    name);
				if (idp == NULL) {
					*errp = "Undefined macro variable in "
					    "probe description";
					return NULL;
				}
				if (idp->di_data != NULL)
					val = idp->di_data;
				else {
					snprintf(buf, sizeof (buf), "%lld",
					    (long long) idp->di_value);
					val = buf;
				}
			}
			if (val != NULL) {
				size_t n = strlen(val);

				if (len + n + 1 > cap) {
					char *o = out;

					cap = (len + n + 1) * 2;
					out = dt_cc_zalloc(pcb, cap);
					memcpy(out, o, len);
				}
				memcpy(out + len, val, n);
				len += n;
				s = p;
				continue;
			}
		}
		if (len + 2 > cap) {
			char *o = out;

			cap *= 2;
			out = dt_cc_zalloc(pcb, cap);
			memcpy(out, o, len);
		}
		out[len++] = *s++;
	}
	out[len] = '\0';
	return out;
}

int
dt_pdesc_parse(dt_pcb_t *pcb, const char *spec, int pspec,
    dt_probedesc_t *pdp, const char **errp)
{
	char *fields[4] = { NULL, NULL, NULL, NULL };
	char *s, *p;
	int n = 0, last;

	memset(pdp, 0, sizeof (*pdp));
	if ((s = dt_pdesc_expand(pcb, spec, errp)) == NULL)
		return -1;

	if (pspec == DTRACE_PROBESPEC_ID) {
		char *end;
		unsigned long id = strtoul(s, &end, 10);

		if (*s == '\0' || *end != '\0' || id == 0 || id > UINT32_MAX) {
			*errp = "Invalid probe identifier";
			return -1;
		}
		pdp->pd_id = (uint32_t) id;
		return 0;
	}

	/*
	 * As in DTrace, a description that starts with a number is a probe
	 * ID.  IDs name whole probes, so they are refused where only a
	 * provider, module or function is meant, and an ID must name a probe
	 * that exists.  Digits that run on into a name ("9p", "8021q":
	 * Linux has modules so named) are a name.
	 */
	for (p = s; isdigit((unsigned char) *p); p++)
		continue;
	if (p > s && !isalpha((unsigned char) *p) && *p != '_' &&
	    pspec != DTRACE_PROBESPEC_ID) {
		static const char *const kinds[] = { "providers", "modules",
			"functions" };
		unsigned long long id;
		char *end, *msg;

		errno = 0;
		id = strtoull(s, &end, 10);
		if (pspec >= DTRACE_PROBESPEC_PROVIDER &&
		    pspec <= DTRACE_PROBESPEC_FUNC) {
			msg = dt_cc_zalloc(pcb, 128);
			snprintf(msg, 128, "probe identifier %llu not "
			    "permitted when specifying %s", id, kinds[pspec]);
			*errp = msg;
			return -2;
		}
		if (errno != 0 || id > UINT32_MAX ||
		    dt_probe_lookup_id(pcb->pcb_hdl, (uint32_t) id) == NULL) {
			msg = dt_cc_zalloc(pcb, 128);
			snprintf(msg, 128,
			    "invalid probe identifier %.*s: "
			    "Unknown probe identifier",
			    (int) (end - s), s);
			*errp = msg;
			return -2;
		}
		if (*end != '\0') {
			*errp = "Invalid probe identifier";
			return -1;
		}
		pdp->pd_id = (uint32_t) id;
		return 0;
	}

	/*
	 * A description with one field more than its kind has, the extra
	 * one empty and leading (":genunix::" given to -f), names the
	 * fields after it: DTrace reads a description from its right end
	 * and stops at the first character.
	 */
	if (pspec >= DTRACE_PROBESPEC_PROVIDER &&
	    pspec < DTRACE_PROBESPEC_NAME && *s == ':') {
		int ncolons = 0;

		for (p = s; *p != '\0'; p++) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == ':')
				ncolons++;
		}
		if (ncolons == pspec + 1)
			s++;
	}

	/* Split at unescaped colons. */
	fields[n++] = s;
	for (p = s; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0') {
			memmove(p, p + 1, strlen(p));
			continue;
		}
		if (*p == ':') {
			if (n == 4) {
				*errp = "Overspecified probe description";
				return -1;
			}
			*p = '\0';
			fields[n++] = p + 1;
		}
	}

	/* Fill from the field the description kind ends at. */
	switch (pspec) {
	case DTRACE_PROBESPEC_PROVIDER: last = 0; break;
	case DTRACE_PROBESPEC_MOD: last = 1; break;
	case DTRACE_PROBESPEC_FUNC: last = 2; break;
	default: last = 3; break;
	}
	if (n > last + 1) {
		*errp = "Overspecified probe description";
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *dst;
		int f = last - (n - 1) + i;

		switch (f) {
		case 0: dst = pdp->pd_provider; break;
		case 1: dst = pdp->pd_module; break;
		case 2: dst = pdp->pd_function; break;
		default: dst = pdp->pd_name; break;
		}
		if (strlen(fields[i]) >= DT_PROBE_FIELD_MAX) {
			*errp = "Name exceeds maximum allowed length";
			return -1;
		}
		strcpy(dst, fields[i]);
	}
	return 0;
}
