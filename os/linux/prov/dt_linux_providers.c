/* SPDX-License-Identifier: MIT */
/*
 * dt_linux_providers.c: registering the Linux providers on a handle.
 *
 * Called once from dtrace_open() after the portable providers.  A
 * provider whose kernel mechanism is missing registers no probes (or
 * fewer), so a script naming them gets the ordinary "does not match any
 * probes" error; the feature probes say why.
 */
#include "common/dt_impl.h"
#include "os/linux/prov/dt_linux_prov.h"
#include "os/linux/ptrace/dt_ptrace.h"

int
dt_linux_providers_init(dtrace_hdl_t *dtp)
{
	if (dt_prov_syscall_init(dtp) != 0 || dt_prov_pid_init(dtp) != 0 ||
	    dt_prov_usdt_init(dtp) != 0 || dt_prov_sdt_init(dtp) != 0 ||
	    dt_prov_rawtp_init(dtp) != 0 || dt_prov_fbt_init(dtp) != 0)
		return -1;
	if (dt_prov_ionet_init(dtp) != 0)	/* io ip tcp udp lockstat */
		return -1;
	if (dt_prov_proc_init(dtp) != 0 || dt_prov_sched_init(dtp) != 0)
		return -1;
	/* After the in-kernel proc provider, which it gives way to. */
	if (dt_ptrace_providers_init(dtp) != 0)
		return -1;
	return 0;
}
