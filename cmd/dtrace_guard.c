/* SPDX-License-Identifier: MIT */
/*
 * dtrace_guard.c: the process the user starts as dtrace is a guard, and a
 * child of it does the tracing, when processes are traced (-c, -p).
 *
 * Why: a process traced by the ptrace engine carries breakpoints (and,
 * for system calls, a seccomp filter) that only its tracer can handle.
 * When the tracer is killed outright (kill -9), the kernel detaches its
 * tracees as they are: a thread stopped at a breakpoint is handed the
 * SIGTRAP, and the next breakpoint any thread reaches is a SIGTRAP too --
 * the traced process dies, which DTrace promises never happens.  No
 * process can repair that after the fact, since it is too late the instant
 * the tracer is gone.  So the tracer is not the process signals are sent
 * to: the guard keeps the pid the user sees, passes on every signal that
 * asks dtrace to end, and when it dies itself (SIGKILL cannot be caught)
 * its child gets SIGTERM (PR_SET_PDEATHSIG) and ends as if the user had
 * sent that: breakpoints out, original text back, every thread let go,
 * the processes it created killed.  The guard exits with the child's
 * status, or of the child's signal.  The child SIGKILLed itself (by pid,
 * or by the OOM killer) cannot do that: it notes what it is in the middle
 * of changing in a traced process in memory shared with the guard, which
 * undoes it once the child has died (dtrace_proc_rescue()); what it has
 * left in place, the process mends itself
 * (os/linux/ptrace/dt_ptrace_trap.c).
 *
 * The BPF engine's uprobes are taken out of a traced process by a helper
 * process's exit, which no signal interrupts (os/linux/bpf/dt_bpf_detach.c);
 * the child waits for it, and so, once the child is killed, does the guard,
 * which is a subreaper for that: the helpers the child leaves become its
 * children, and dtrace ends when its probes are gone.
 *
 * The child may have to outlive its output: a process under the ptrace
 * engine's seccomp filter that outlives tracing needs its tracer until it
 * ends (os/linux/ptrace/dt_ptrace_linger.c).  Then the child hands its
 * status to the guard through a pipe, so that dtrace ends for the user as
 * it would have, and serves those processes on its own, detached from
 * the terminal and from every file dtrace had open.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/dtrace.h"
#include "dtrace_guard.h"

static volatile sig_atomic_t g_child;
static int g_guard;
static int g_release = -1;	/* the child's end of the status pipe */

/* The signals that end dtrace, passed on to the child. */
static const int g_ending[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
	SIGUSR2, SIGALRM };

static void
guard_pass(int sig)
{
	int e = errno;

	if (g_child > 0)
		(void) kill(g_child, sig);
	errno = e;
}

/*
 * The BPF engine's detaching helpers (os/linux/bpf/dt_bpf_detach.c,
 * DT_BPF_DETACH_COMM) the killed child left: once it is dead they are
 * ours (PR_SET_CHILD_SUBREAPER), and dtrace ends once they have, that is
 * once the child's uprobes are out of the traced processes.  Other
 * processes the child left (what a -c command started) are not waited
 * for.
 */
static void
guard_wait_helpers(void)
{
	static const char comm[] = "dtrace-detach";
	pid_t self = getpid();
	struct dirent *de;
	DIR *dir;

	if ((dir = opendir("/proc")) == NULL)
		return;
	while ((de = readdir(dir)) != NULL) {
		char path[64], buf[256], *name, *end;
		pid_t pid = (pid_t) atoi(de->d_name);
		long ppid;
		ssize_t n;
		int fd;

		if (pid <= 0)
			continue;
		(void) snprintf(path, sizeof (path), "/proc/%d/stat",
		    (int) pid);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, buf, sizeof (buf) - 1);
		(void) close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "pid (comm) state ppid ...": comm may hold anything. */
		if ((name = strchr(buf, '(')) == NULL ||
		    (end = strrchr(buf, ')')) == NULL || end < name)
			continue;
		*end = '\0';
		if (strcmp(name + 1, comm) != 0 ||
		    sscanf(end + 1, " %*c %ld", &ppid) != 1 || ppid != self)
			continue;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			continue;
	}
	(void) closedir(dir);
}

int
guard_pid(void)
{
	return g_guard;
}

void
guard_fork(void)
{
	struct sigaction sa;
	sigset_t all, old;
	pid_t parent = getpid(), pid;
	unsigned char status;
	int st, pfd[2];
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC) != 0)
		return;
	/* What the child is changing in a process, for us to undo. */
	(void) dtrace_proc_rescue_open();
	/*
	 * Signals wait until the handlers are in place, so that none sent
	 * to the guard at once is lost.
	 */
	sigfillset(&all);
	(void) sigprocmask(SIG_BLOCK, &all, &old);
	/* What the child leaves is ours to wait for (guard_wait_helpers). */
	(void) prctl(PR_SET_CHILD_SUBREAPER, 1);
	if ((pid = fork()) < 0) {
		(void) prctl(PR_SET_CHILD_SUBREAPER, 0);
		(void) sigprocmask(SIG_SETMASK, &old, NULL);
		(void) close(pfd[0]);
		(void) close(pfd[1]);
		return;
	}
	if (pid == 0) {
		(void) close(pfd[0]);
		g_release = pfd[1];
		/*
		 * The signals that end dtrace wait until tracing is on
		 * (run_programs() lets them in): one passed on while the
		 * child grabs a process or injects a system call into it
		 * would otherwise end it there, with the process half
		 * changed.
		 */
		sigaddset(&old, SIGINT);
		sigaddset(&old, SIGTERM);
		sigaddset(&old, SIGHUP);
		(void) sigprocmask(SIG_SETMASK, &old, NULL);
		/* The guard may have died before the death signal was set. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 ||
		    getppid() != parent)
			(void) raise(SIGTERM);
		g_guard = (int) parent;
		return;
	}
	g_child = pid;
	memset(&sa, 0, sizeof (sa));
	sa.sa_handler = guard_pass;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof (g_ending) / sizeof (g_ending[0]); i++)
		(void) sigaction(g_ending[i], &sa, NULL);
	(void) signal(SIGPIPE, SIG_IGN);
	(void) sigprocmask(SIG_SETMASK, &old, NULL);
	(void) close(pfd[1]);

	/* The child's status, handed over; or the pipe closes as it ends. */
	while ((n = read(pfd[0], &status, 1)) < 0 && errno == EINTR)
		continue;
	if (n == 1)
		_exit(status);
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			_exit(1);
	}
	/* Killed in the middle of changing a process: undone. */
	dtrace_proc_rescue();
	guard_wait_helpers();
	/* _exit: the output buffers are the child's to flush, not ours. */
	if (WIFEXITED(st))
		_exit(WEXITSTATUS(st));
	if (WIFSIGNALED(st)) {
		struct rlimit none = { 0, 0 };
		int sig = WTERMSIG(st);

		/* End as the child did, without a second core file. */
		(void) setrlimit(RLIMIT_CORE, &none);
		(void) signal(sig, SIG_DFL);
		sigemptyset(&all);
		sigaddset(&all, sig);
		(void) sigprocmask(SIG_UNBLOCK, &all, NULL);
		(void) raise(sig);
		_exit(128 + sig);
	}
	_exit(1);
}

void
guard_linger(int status)
{
	unsigned char b = (unsigned char) status;
	int fd;

	(void) fflush(NULL);
	if (g_release >= 0) {
		/* No longer the guard's: it is going. */
		(void) prctl(PR_SET_PDEATHSIG, 0);
		(void) !write(g_release, &b, 1);
		(void) close(g_release);
		g_release = -1;
		(void) setsid();
		(void) chdir("/");
		if ((fd = open("/dev/null", O_RDWR)) >= 0) {
			(void) dup2(fd, 0);
			(void) dup2(fd, 1);
			(void) dup2(fd, 2);
		}
		/* Nothing dtrace had open (pipes, the -o file) stays open. */
		(void) syscall(SYS_close_range, 3, ~0U, 0);
	}
	dtrace_proc_linger();
}
