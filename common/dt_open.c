/* SPDX-License-Identifier: MIT */
/*
 * dt_open.c: creating and destroying a consumer handle.
 */
#include <stdlib.h>

#include "config.h"
#include "common/dt_impl.h"
#include "common/dt_metrics.h"
#include "common/consumer/dt_consumer.h"
#include "common/dt_os.h"
#include "common/dt_work.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"

const char *
dtrace_version(void)
{
	/* As DTrace, "<implementation> D <version>": the version comes last. */
	return PACKAGE_NAME "-" PACKAGE_VERSION " D " DTRACE_D_VERSION;
}

dtrace_hdl_t *
dtrace_open(int version, int flags, int *errp)
{
	dtrace_hdl_t *dtp;

	if (version > DTRACE_VERSION) {
		if (errp != NULL)
			*errp = EDT_VERSION;
		return NULL;
	}
	if ((dtp = calloc(1, sizeof (*dtp))) == NULL) {
		if (errp != NULL)
			*errp = EDT_NOMEM;
		return NULL;
	}
	dtp->dt_version = version;
	dtp->dt_oflags = flags;
	dt_options_init(dtp);
	if (dt_cc_create(dtp) != 0) {
		dt_options_fini(dtp);
		free(dtp);
		if (errp != NULL)
			*errp = EDT_NOMEM;
		return NULL;
	}

	/*
	 * The portable providers first, so BEGIN, END, ERROR are IDs 1-3,
	 * then the OS's own unless the consumer wants no backend.
	 */
	if (dt_prov_dtrace_init(dtp) != 0 || dt_prov_profile_init(dtp) != 0 ||
	    (!(flags & DTRACE_O_NODEV) && dt_os_providers_init(dtp) != 0)) {
		if (errp != NULL)
			*errp = dtp->dt_errno;
		dtrace_close(dtp);
		return NULL;
	}
	return dtp;
}

void
dtrace_close(dtrace_hdl_t *dtp)
{
	if (dtp == NULL)
		return;
	dt_metrics_stop(dtp);
	dt_consumer_destroy(dtp);
	dt_work_fini(dtp);
	dt_proc_fini(dtp);
	dt_probes_fini(dtp);
	dt_cc_write_types(dtp);
	dt_cc_destroy(dtp);
	dt_os_ktypes_fini(dtp);
	dt_options_fini(dtp);
	free(dtp->dt_outfile);
	free(dtp);
}
