/* SPDX-License-Identifier: MIT */
/*
 * dt_proc.c: process control on Linux -- the processes of -c and -p.
 *
 * A created process (-c) stops itself (SIGSTOP) between fork and exec, is
 * seized there (PTRACE_SEIZE, so that the ptrace engine can later stop
 * its threads with PTRACE_INTERRUPT) and continued to its exec, then run
 * to the entry point of its executable (an int3 there, removed when hit),
 * where the dynamic linker has mapped every library the program needs:
 * probes in those libraries (pid123:libc.so.6:...) can then be resolved
 * before the program runs a single instruction of its own.
 * dt_os_proc_resume() detaches, and the process runs; it stays our child,
 * so its exit status is ours to collect.  It dies with dtrace, however
 * dtrace ends: PTRACE_O_EXITKILL while it is attached, its parent-death
 * signal (SIGKILL, set before its exec) after.  When the ptrace engine keeps a
 * process attached (os/linux/ptrace/), resuming it only continues it, and
 * its end is what the engine saw: waiting for it here would take the
 * engine's ptrace stops.
 *
 * A grabbed process (-p) is only checked: that it exists, is not a zombie
 * or a kernel thread, and that we may trace it (a PTRACE_SEIZE, at once
 * undone; as root, a process another tracer holds, such as a debugger,
 * is taken as it is).  Probes are placed without stopping it; its end is
 * noticed through /proc.
 *
 * The only instruction-set dependence is the breakpoint at the entry
 * point (int3, and the program counter one byte past it after the trap).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <elf.h>

#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "isa/dt_isa.h"
#include "os/linux/ptrace/dt_ptrace.h"

static void
dt_proc_err(char *err, size_t errlen, const char *fmt, const char *arg,
    int errnum)
{
	char msg[256];

	(void) snprintf(msg, sizeof (msg), fmt, arg);
	if (errnum != 0)
		(void) snprintf(err, errlen, "%s: %s", msg, strerror(errnum));
	else
		(void) snprintf(err, errlen, "%s", msg);
}

/* AT_ENTRY of a process, from /proc/<pid>/auxv, or 0. */
uint64_t
dt_linux_proc_entry(int pid)
{
	char path[64];
	Elf64_auxv_t av;
	uint64_t entry = 0;
	int fd;

	(void) snprintf(path, sizeof (path), "/proc/%d/auxv", (int) pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	while (read(fd, &av, sizeof (av)) == sizeof (av) &&
	    av.a_type != AT_NULL) {
		if (av.a_type == AT_ENTRY) {
			entry = av.a_un.a_val;
			break;
		}
	}
	(void) close(fd);
	return entry;
}

/*
 * Wait for the traced child to stop with SIGTRAP or at its exec, passing
 * on any other signal.  Returns 0, or -1 when it ended (with *statusp set).
 */
static int
dt_proc_wait_trap(pid_t pid, int *statusp)
{
	for (;;) {
		int st;

		if (waitpid(pid, &st, 0) != pid) {
			if (errno == EINTR)
				continue;
			*statusp = 0;
			return -1;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			*statusp = st;
			return -1;
		}
		/* A trap, or the exec; not a PTRACE_EVENT_STOP. */
		if (WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP &&
		    ((st >> 16) == 0 || (st >> 16) == PTRACE_EVENT_EXEC))
			return 0;
		/* Event stops (st >> 16) carry no signal to pass on. */
		if (WIFSTOPPED(st))
			(void) ptrace(PTRACE_CONT, pid, 0, (st >> 16) != 0 ? 0 :
			    (void *) (long) WSTOPSIG(st));
	}
}

/*
 * The registers of stopped thread pid as struct pt_regs lays them out
 * (the NT_PRSTATUS set starts so on every ISA): get, or set when set.
 */
static int
dt_proc_regs(pid_t pid, uint64_t *regs, size_t size, bool set)
{
	struct iovec iov = { .iov_base = regs, .iov_len = size };

	return ptrace(set ? PTRACE_SETREGSET : PTRACE_GETREGSET, pid,
	    (void *) NT_PRSTATUS, &iov);
}

/*
 * Run a process stopped at its exec to the entry point of its program,
 * through a breakpoint there (the ISA's trap instruction).
 */
static int
dt_proc_run_to_entry(pid_t pid, char *err, size_t errlen, const char *name)
{
	uint64_t entry = dt_linux_proc_entry(pid);
	const dt_isa_trap_t *tr = &dt_isa_trap;
	size_t pcw = (size_t) dt_isa_layout.il_pc / 8;
	uint64_t regs[64];
	long word, trap;
	int st;

	if (entry == 0) {
		dt_proc_err(err, errlen, "failed to find the entry point of "
		    "%s", name, 0);
		return -1;
	}
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *) entry, 0);
	trap = word;
	memcpy(&trap, tr->it_insn, tr->it_len);
	if (errno != 0 || ptrace(PTRACE_POKETEXT, pid, (void *) entry,
	    (void *) trap) != 0) {
		dt_proc_err(err, errlen, "failed to control %s", name, errno);
		return -1;
	}
	if (ptrace(PTRACE_CONT, pid, 0, 0) != 0 ||
	    dt_proc_wait_trap(pid, &st) != 0) {
		dt_proc_err(err, errlen, "%s ended before reaching its entry "
		    "point", name, 0);
		return -1;
	}
	if (dt_proc_regs(pid, regs, sizeof (regs), false) != 0 ||
	    regs[pcw] != entry + tr->it_pcadj) {
		dt_proc_err(err, errlen, "%s stopped away from its entry point",
		    name, 0);
		return -1;
	}
	regs[pcw] = entry;
	if (ptrace(PTRACE_POKETEXT, pid, (void *) entry, (void *) word) != 0 ||
	    dt_proc_regs(pid, regs, sizeof (regs), true) != 0) {
		dt_proc_err(err, errlen, "failed to control %s", name, errno);
		return -1;
	}
	return 0;
}

int
dt_os_proc_create(char *const argv[], bool atexec, char *err, size_t errlen)
{
	int pfd[2], e, st, rc;
	pid_t parent = getpid(), pid;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC) != 0) {
		dt_proc_err(err, errlen, "failed to execute %s", argv[0], errno);
		return -1;
	}
	if ((pid = fork()) < 0) {
		e = errno;
		(void) close(pfd[0]);
		(void) close(pfd[1]);
		dt_proc_err(err, errlen, "failed to execute %s", argv[0], e);
		return -1;
	}
	if (pid == 0) {
		(void) close(pfd[0]);
		/*
		 * What dtrace creates ends with it, however it ends: the
		 * ptrace engine's PTRACE_O_EXITKILL is gone once it lets
		 * the process go, and the BPF engine never holds it.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 ||
		    getppid() != parent)
			_exit(127);
		/*
		 * dtrace holds back the signals that end it until tracing is
		 * on (dtrace_guard.c); the command gets them as usual.
		 */
		{
			sigset_t ending;

			sigemptyset(&ending);
			sigaddset(&ending, SIGINT);
			sigaddset(&ending, SIGTERM);
			sigaddset(&ending, SIGHUP);
			(void) sigprocmask(SIG_UNBLOCK, &ending, NULL);
		}
		/* Wait to be seized; the parent continues us. */
		(void) raise(SIGSTOP);
		(void) execvp(argv[0], argv);
		e = errno;
		(void) !write(pfd[1], &e, sizeof (e));
		_exit(127);
	}
	(void) close(pfd[1]);
	while (waitpid(pid, &st, WUNTRACED) < 0 && errno == EINTR)
		continue;
	if (!WIFSTOPPED(st) || ptrace(PTRACE_SEIZE, pid, 0, (void *) (long)
	    (PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC)) != 0) {
		e = errno;
		(void) close(pfd[0]);
		dt_os_proc_kill(pid);
		dt_proc_err(err, errlen, "failed to control %s", argv[0], e);
		return -1;
	}
	(void) kill(pid, SIGCONT);
	/* Its exec is a SIGTRAP event stop; a failed exec, an exit. */
	rc = dt_proc_wait_trap(pid, &st);
	/* The pipe closes at a successful exec; otherwise it says why not. */
	while ((n = read(pfd[0], &e, sizeof (e))) < 0 && errno == EINTR)
		continue;
	(void) close(pfd[0]);
	if (n == (ssize_t) sizeof (e)) {
		if (rc == 0)
			dt_os_proc_kill(pid);
		dt_proc_err(err, errlen, "failed to execute %s", argv[0], e);
		return -1;
	}
	if (rc != 0) {
		dt_proc_err(err, errlen, "%s ended at its exec", argv[0], 0);
		return -1;
	}
	if (!atexec && dt_proc_run_to_entry(pid, err, errlen, argv[0]) != 0) {
		dt_os_proc_kill(pid);
		return -1;
	}
	return pid;
}

/* The state letter of /proc/<pid>/stat, or 0 if there is no such process. */
static char
dt_proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	(void) snprintf(path, sizeof (path), "/proc/%d/stat", (int) pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof (buf) - 1);
	(void) close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* pid (comm) S ...: comm may hold anything, so find its last ')'. */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return 0;
	return p[2];
}

/*
 * A field of /proc/<pid>/status ("PPid:", "Tgid:"...), or -1: here, not
 * in the ptrace engine, which not every ISA builds.
 */
long
dt_pt_status_field(int pid, const char *field)
{
	char path[64], line[256];
	size_t n = strlen(field);
	long v = -1;
	FILE *fp;

	(void) snprintf(path, sizeof (path), "/proc/%d/status", pid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof (line), fp) != NULL) {
		if (strncmp(line, field, n) == 0) {
			v = strtol(line + n, NULL, 10);
			break;
		}
	}
	(void) fclose(fp);
	return v;
}

/*
 * Detach from a seized, running process: only a stopped tracee can be
 * detached, so stop it first (PTRACE_INTERRUPT); a signal that arrives
 * meanwhile is passed on at the detach.
 */
static void
dt_proc_release(pid_t pid)
{
	int st, sig = 0;

	(void) ptrace(PTRACE_INTERRUPT, pid, 0, 0);
	for (;;) {
		if (waitpid(pid, &st, __WALL) != pid) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (!WIFSTOPPED(st))
			return;
		if ((st >> 16) == PTRACE_EVENT_STOP)
			break;
		if ((st >> 16) == 0)
			sig = WSTOPSIG(st);
		(void) ptrace(PTRACE_CONT, pid, 0, 0);
	}
	(void) ptrace(PTRACE_DETACH, pid, 0, (void *) (long) sig);
}

int
dt_os_proc_grab(int pid, unsigned engines, char *err, size_t errlen)
{
	char path[64], exe[16], pidstr[16];
	char state;

	(void) snprintf(pidstr, sizeof (pidstr), "%d", pid);
	if (pid <= 0 || (state = dt_proc_state(pid)) == 0) {
		dt_proc_err(err, errlen, "failed to grab pid %s: no such "
		    "process", pidstr, 0);
		return -1;
	}
	if (state == 'Z' || state == 'X') {
		dt_proc_err(err, errlen, "failed to grab pid %s: process is a "
		    "zombie", pidstr, 0);
		return -1;
	}
	if (pid == getpid()) {
		dt_proc_err(err, errlen, "failed to grab pid %s: process is "
		    "dtrace itself", pidstr, 0);
		return -1;
	}
	(void) snprintf(path, sizeof (path), "/proc/%d/exe", pid);
	if (readlink(path, exe, sizeof (exe)) < 0 && errno == ENOENT) {
		dt_proc_err(err, errlen, "failed to grab pid %s: system "
		    "process", pidstr, 0);
		return -1;
	}
	if (ptrace(PTRACE_SEIZE, pid, 0, 0) != 0) {
		int e = errno;
		long tracer = dt_pt_status_field(pid, "TracerPid:");

		/*
		 * Only one tracer at a time: a process under a debugger is
		 * grabbed as it is, as root, when the bpf engine may trace
		 * it: its uprobes need no tracer (and it then never stops
		 * the process: the debugger would take the stop for its
		 * own).  Otherwise, name the tracer there is.
		 */
		if (e == EPERM && tracer > 0) {
			if (geteuid() == 0 && (engines & DT_ENGINE_F_KERNEL))
				return 0;
			(void) snprintf(err, errlen, "failed to grab pid %s: "
			    "process is traced by pid %ld", pidstr, tracer);
			return -1;
		}
		dt_proc_err(err, errlen, "failed to grab pid %s", pidstr,
		    e == EPERM ? EACCES : e);
		return -1;
	}
	dt_proc_release(pid);
	return 0;
}

int
dt_os_proc_resume(int pid)
{
	if (dt_ptrace_keeps(pid))
		return dt_ptrace_resume(pid);
	return ptrace(PTRACE_DETACH, pid, 0, 0) == 0 ? 0 : -1;
}

int
dt_os_proc_ended(int pid, bool child, int *statusp)
{
	int st;
	char state;

	*statusp = -1;
	if (dt_ptrace_keeps(pid))
		return dt_ptrace_ended(pid, statusp);
	if (child) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid && (WIFEXITED(st) || WIFSIGNALED(st))) {
			*statusp = st;
			return 1;
		}
		return r < 0 && errno == ECHILD;
	}
	state = dt_proc_state(pid);
	return state == 0 || state == 'Z' || state == 'X';
}

int
dt_os_proc_parent(int pid)
{
	char path[64], buf[512], *p;
	int fd, ppid = -1;
	ssize_t n;

	(void) snprintf(path, sizeof (path), "/proc/%d/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof (buf) - 1);
	(void) close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* pid (comm) S ppid ...: comm may hold anything; find its last ')'. */
	if ((p = strrchr(buf, ')')) == NULL || sscanf(p + 1, " %*c %d",
	    &ppid) != 1)
		return -1;
	return ppid;
}

int
dt_os_proc_args(int pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	if (size == 0)
		return -1;
	(void) snprintf(path, sizeof (path), "/proc/%d/cmdline", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, size - 1);
	(void) close(fd);
	if (n < 0)
		return -1;
	/* The arguments' NULs become spaces; the last one ends them. */
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	return 0;
}

void
dt_os_proc_kill(int pid)
{
	int st;

	(void) kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		continue;
}

bool
dt_os_proc_lingering(void)
{
	return dt_ptrace_lingering();
}

void
dt_os_proc_linger(void)
{
	dt_ptrace_linger();
}

int
dt_os_proc_rescue_open(void)
{
	return dt_ptrace_rescue_open();
}

void
dt_os_proc_rescue(void)
{
	dt_ptrace_rescue();
}
