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
 * show up.  Build and run with tests/fuzz/build.sh (see README.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_impl.h"
#include "common/dt_os.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The target links the compiler without an OS backend: no provider is
 * ever missing for a reason the OS could explain.
 */
const char *
dt_os_provider_hint(const char *provider)
{
	(void) provider;
	return NULL;
}

/*
 * Nor any kernel type or symbol, nor process: every identifier D does not
 * know stays one, and each backquoted name is unknown.  (The runtime
 * lookups are linked in with the consumer's formatting code but never run
 * while compiling.)
 */
bool
dt_os_ktype_typename(dtrace_hdl_t *dtp, const char *name)
{
	(void) dtp;
	(void) name;
	return false;
}

int
dt_os_ktype_lookup(dtrace_hdl_t *dtp, const char *module, const char *name,
    ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	(void) dtp, (void) module, (void) name, (void) ctfpp, (void) typep;
	return -1;
}

int
dt_os_kvar_lookup(dtrace_hdl_t *dtp, const char *module, const char *name,
    uint64_t *addrp, ctf_dict_t **ctfpp, ctf_id_t *typep, const char **whyp)
{
	(void) dtp, (void) module, (void) name, (void) addrp, (void) ctfpp;
	(void) typep;
	*whyp = NULL;
	return -1;
}

int
dt_os_ksym(uint64_t addr, const char **modp, const char **namep,
    uint64_t *valuep)
{
	(void) addr, (void) modp, (void) namep, (void) valuep;
	return -1;
}

const char *
dt_os_ksym_why(void)
{
	return NULL;
}

int
dt_os_usym(int pid, uint64_t addr, const char **modp, const char **namep,
    uint64_t *valuep, uint64_t *basep)
{
	(void) pid, (void) addr, (void) modp, (void) namep, (void) valuep;
	(void) basep;
	return -1;
}

int
dt_os_proc_parent(int pid)
{
	(void) pid;
	return -1;
}

int
dt_proc_target(const dtrace_hdl_t *dtp)
{
	(void) dtp;
	return 0;
}

/* Nor a network: the metrics endpoint is linked in, never started. */
int
dt_os_net_listen(const char *spec, char *bound, size_t boundlen, char *err,
    size_t errlen)
{
	(void) spec, (void) bound, (void) boundlen;
	snprintf(err, errlen, "no network in the fuzz target");
	return -1;
}

int
dt_os_net_accept(int lfd, int timeout_ms)
{
	(void) lfd, (void) timeout_ms;
	return -1;
}

long
dt_os_net_recv(int fd, void *buf, size_t len, int timeout_ms)
{
	(void) fd, (void) buf, (void) len, (void) timeout_ms;
	return -1;
}

int
dt_os_net_send(int fd, const void *buf, size_t len)
{
	(void) fd, (void) buf, (void) len;
	return -1;
}

void
dt_os_net_close(int fd)
{
	(void) fd;
}

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
