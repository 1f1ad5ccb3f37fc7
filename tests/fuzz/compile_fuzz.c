/* SPDX-License-Identifier: MIT */
/*
 * compile_fuzz.c: libFuzzer target for the D compiler front end.
 *
 * Each input is compiled as a D program twice: as a script (with line
 * numbers, the way -s compiles) and as a -n probe specifier, with two
 * macro arguments so $1/$2 paths are reached, and with -Z (the handle has
 * no providers, so no description matches) so that code generation runs
 * on every program that checks.  A fresh compiler state is
 * made for every input so that leaks and state carried between compiles
 * show up.  The OS is os/none's (no kernel types or symbols, no process,
 * no network), as in the --with-os=none build, so that every identifier
 * D does not know stays one.  Build and run with tests/fuzz/build.sh
 * (see README.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *av[] = { "fuzz.d", "1", "x", NULL };
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	char *text;
	FILE *fp;

	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	if ((dtp = calloc(1, sizeof (*dtp))) == NULL) {
		free(text);
		return 0;
	}
	dtp->dt_oflags = DTRACE_O_LP64;
	dt_options_init(dtp);
	if (dt_cc_create(dtp) != 0)
		abort();

	if ((fp = fmemopen(text, size, "r")) != NULL) {
		pgp = dtrace_program_fcompile(dtp, fp,
		    DTRACE_C_ARGREF | DTRACE_C_ZDEFS, 3, av);
		if (pgp != NULL)
			dtrace_program_destroy(dtp, pgp);
		fclose(fp);
	}
	pgp = dtrace_program_strcompile(dtp, text, DTRACE_PROBESPEC_NAME,
	    DTRACE_C_ARGREF | DTRACE_C_ETAGS | DTRACE_C_ZDEFS, 3, av);
	if (pgp != NULL)
		dtrace_program_destroy(dtp, pgp);

	dt_cc_destroy(dtp);
	dt_options_fini(dtp);
	free(dtp);
	free(text);
	return 0;
}
