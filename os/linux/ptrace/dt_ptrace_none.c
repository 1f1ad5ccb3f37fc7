/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_none.c: the ptrace engine's entry points where it is not
 * built (its breakpoints and registers are x86-64's): it keeps no
 * process and adds no provider, and dt_os_user_engine() says why there
 * is no user-space engine.
 */

#include <stddef.h>

#include "os/linux/ptrace/dt_ptrace.h"

const struct dt_engine_ops *
dt_ptrace_engine(const char **whyp)
{
	*whyp = "breakpoints are implemented for x86-64 only";
	return NULL;
}

bool
dt_ptrace_keeps(int pid)
{
	(void) pid;
	return false;
}

int
dt_ptrace_resume(int pid)
{
	(void) pid;
	return -1;
}

int
dt_ptrace_ended(int pid, int *statusp)
{
	(void) pid;
	(void) statusp;
	return -1;
}

int
dt_ptrace_providers_init(dtrace_hdl_t *dtp)
{
	(void) dtp;
	return 0;
}

/* No engine, so no process lingers under its seccomp filter. */
bool
dt_ptrace_lingering(void)
{
	return false;
}

void
dt_ptrace_linger(void)
{
}

/* No engine, so nothing is ever injected. */
int
dt_ptrace_rescue_open(void)
{
	return 0;
}

void
dt_ptrace_rescue(void)
{
}
