/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_linger.c: the processes the ptrace engine cannot let go when
 * tracing ends -- descendants of a -c process that carry its seccomp
 * filter (dt_ptrace_sys.c) -- served until they end.
 *
 * A seccomp filter stays with a process, and is inherited by its children,
 * for good: no call removes it.  Its SECCOMP_RET_TRACE makes a probed
 * system call stop for the tracer, and with no tracer attached the kernel
 * fails the call with ENOSYS instead (Documentation/userspace-api/
 * seccomp_filter.rst; the same on 6.1 and 6.18).  SECCOMP_RET_USER_NOTIF
 * would be no better: with its listener closed the call fails with
 * ENOSYS too, and while the listener is open the call waits for an
 * answer.  No return value of a filter both stops the call for dtrace and
 * lets it run when dtrace is gone, and a filter cannot read memory that
 * could say dtrace has gone.  The -c process itself is killed when dtrace
 * ends; a descendant that outlives it (a daemon) must run on as if never
 * traced, so dtrace stays its tracer: when tracing ends its breakpoints
 * are taken out, and instead of being detached it is resumed with only
 * the options that keep the filter's stops and its new children coming to
 * us (no PTRACE_O_EXITKILL: should we die, it must not), and dtrace(1),
 * once its output is written and its status handed back, does nothing
 * but let each stop go on until no such process is left.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "os/linux/ptrace/dt_ptrace_impl.h"

static bool dt_pt_lingers;

/* The options of a thread served: the filter's stops, and its children. */
#define DT_PT_LINGER_OPTS                                                      \
	(PTRACE_O_TRACESECCOMP | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |    \
	    PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD)

int
dt_pt_linger_thread(int tid, int sig)
{
	if (ptrace(PTRACE_SETOPTIONS, tid, 0, (void *) (long)
	    DT_PT_LINGER_OPTS) != 0)
		return -1;
	dt_pt_lingers = true;
	(void) ptrace(PTRACE_CONT, tid, 0, (void *) (long) sig);
	return 0;
}

bool
dt_ptrace_lingering(void)
{
	return dt_pt_lingers;
}

void
dt_ptrace_linger(void)
{
	/* Until no child is left: every tracee is one (__WALL). */
	while (dt_pt_lingers) {
		int st, sig;
		pid_t tid = waitpid(-1, &st, __WALL);

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = WSTOPSIG(st);
		switch (st >> 16) {
		case 0:
			/* A signal for it, or the exit of a call. */
			if (sig == (SIGTRAP | 0x80))
				sig = 0;
			break;
		case PTRACE_EVENT_STOP:
			/* A group stop stays one; a new child starts. */
			if (sig == SIGSTOP || sig == SIGTSTP ||
			    sig == SIGTTIN || sig == SIGTTOU) {
				(void) ptrace(PTRACE_LISTEN, tid, 0, 0);
				continue;
			}
			sig = 0;
			break;
		default:
			/* Fork, clone, exec, seccomp: on it goes. */
			sig = 0;
			break;
		}
		(void) ptrace(PTRACE_CONT, tid, 0, (void *) (long) sig);
	}
	dt_pt_lingers = false;
}
