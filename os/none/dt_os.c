/* SPDX-License-Identifier: MIT */
/*
 * dt_os.c: the "none" backend -- common/dt_os.h answered with POSIX alone,
 * for a build with no OS backend (configure --with-os=none).
 *
 * It offers no engine of its own and no provider: programs run on the
 * portable interpreter, whose probes are dtrace's (BEGIN, END, ERROR) and
 * profile's timers (tick-N, and profile-N on the one CPU this backend
 * knows).  There are no kernel symbols or types, no user symbols, no
 * registers and no static probes.  Processes of -c are started and waited
 * for, but nothing in them is traced.  It is the smallest complete
 * backend, the one a port starts from (os/freebsd/README.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "common/dt_os.h"

/*
 * POSIX has no thread ID a process can see: the consumer's thread is
 * known by its process's ID.
 */
uint64_t
dt_os_gettid(void)
{
	return (uint64_t) getpid();
}

/* POSIX cannot say which CPU runs the caller: every firing is on CPU 0. */
uint32_t
dt_os_getcpu(void)
{
	return 0;
}

uint32_t
dt_os_ncpus(void)
{
	return 1;
}

/* Binding to the one CPU there is succeeds; there is no other. */
int
dt_os_cpu_bind(uint32_t cpu)
{
	if (cpu != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void
dt_os_cpu_unbind(void)
{
}

/* No register layout is known without an ISA layer. */
size_t
dt_os_uregs(uint64_t *regs, size_t max)
{
	(void) regs;
	(void) max;
	return 0;
}

void
dt_os_cpuinfo(uint32_t cpu, dt_cpuinfo_t *cip)
{
	struct utsname u;

	memset(cip, 0, sizeof(*cip));
	cip->cpu_id = (int32_t) cpu;
	cip->cpu_pset = -1;
	cip->cpu_info.pi_state = DT_P_ONLINE;
	if (uname(&u) == 0)
		memcpy(cip->cpu_info.pi_processor_type, u.machine,
		    strnlen(u.machine,
			sizeof(cip->cpu_info.pi_processor_type) - 1));
}

int
dt_os_providers_init(dtrace_hdl_t *dtp)
{
	(void) dtp;
	return 0;
}

/* Only the interpreter, which the core always has. */
const dt_os_engine_t dt_os_engines[] = {{NULL, 0, NULL}};

/* No probe sites here; DTrace's own bound, a DOF probe's 8-bit count. */
const unsigned dt_os_usdt_maxargs = 255;

/* No OS names itself here; any POSIX system is a Unix. */
const char *const dt_os_cpp_defines[] = {"-D__unix", NULL};

/* No system headers to agree with: D's own typedefs as they are. */
const char *const dt_os_typedefs[][2] = {{NULL, NULL}};

/* No processor's registers are known here: uregs[] has no names. */
const char *
dt_os_regname(unsigned i, int *indexp)
{
	(void) i;
	(void) indexp;
	return NULL;
}

const int dt_os_af_inet = AF_INET;
const int dt_os_af_inet6 = AF_INET6;

/* No provider of the OS's is missing: there are none. */
const char *
dt_os_provider_hint(const char *provider)
{
	(void) provider;
	return NULL;
}

int
dt_os_ksym(
    uint64_t addr, const char **modp, const char **namep, uint64_t *valuep)
{
	(void) addr, (void) modp, (void) namep, (void) valuep;
	return -1;
}

const char *
dt_os_ksym_why(void)
{
	return "this dtrace is built with no OS backend: there are no kernel "
	       "symbols";
}

int
dt_os_usym(int pid, uint64_t addr, const char **modp, const char **namep,
    uint64_t *valuep, uint64_t *basep)
{
	(void) pid, (void) addr, (void) modp, (void) namep, (void) valuep;
	(void) basep;
	return -1;
}

void
dt_os_usym_hold(int pid)
{
	(void) pid;
}

const char *
dt_os_usym_warning(void)
{
	return NULL;
}

int
dt_os_umapping(int pid, uint64_t addr, dt_os_mapping_t *omp)
{
	(void) pid, (void) addr, (void) omp;
	return -1;
}

int
dt_os_kmapping(const char *module, dt_os_mapping_t *omp)
{
	(void) module, (void) omp;
	return -1;
}

const char *
dt_os_action_refused(int kind)
{
	switch (kind) {
	case DT_ACT_BREAKPOINT:
		return "breakpoint() is not available: this dtrace is built "
		       "with no OS backend";
	case DT_ACT_PANIC:
		return "panic() is not available: this dtrace is built with "
		       "no OS backend";
	default:
		return NULL;
	}
}

const char *
dt_os_engine_detail(dtrace_hdl_t *dtp)
{
	(void) dtp;
	return NULL;
}

int
dt_os_usdt_header(dtrace_hdl_t *dtp, FILE *fp, const char *fname)
{
	(void) fp, (void) fname;
	return dt_set_errdetail(dtp, EDT_NOTSUP,
	    "static probes (dtrace -h) "
	    "are not supported on this OS: dtrace is built with no OS "
	    "backend");
}

int
dt_os_usdt_link(
    dtrace_hdl_t *dtp, const char *ofile, int objc, char *const objv[])
{
	(void) ofile, (void) objc, (void) objv;
	return dt_set_errdetail(dtp, EDT_NOTSUP,
	    "static probes (dtrace -G) "
	    "are not supported on this OS: dtrace is built with no OS "
	    "backend");
}

int
dt_os_ktype_lookup(dtrace_hdl_t *dtp, const char *module, const char *name,
    ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	(void) dtp, (void) module, (void) name, (void) ctfpp, (void) typep;
	return -1;
}

bool
dt_os_ktype_typename(dtrace_hdl_t *dtp, const char *name)
{
	(void) dtp, (void) name;
	return false;
}

int
dt_os_kvar_lookup(dtrace_hdl_t *dtp, const char *module, const char *name,
    uint64_t *addrp, ctf_dict_t **ctfpp, ctf_id_t *typep, const char **whyp)
{
	(void) dtp, (void) module, (void) name, (void) addrp, (void) ctfpp;
	(void) typep;
	*whyp = dt_os_ksym_why();
	return -1;
}

void
dt_os_ktypes_fini(dtrace_hdl_t *dtp)
{
	(void) dtp;
}

/*
 * Processes.  Without a debugging interface a created process cannot be
 * stopped after its exec, so it is held before it: the child waits for
 * a byte on a socket pair, which dt_os_proc_resume() sends, and only
 * then executes the command.  As nothing in it is traced, starting it a
 * moment later changes nothing a program sees.
 */
#define DT_NONE_MAXPROCS 16

static struct {
	int np_pid;
	int np_go; /* the socket that lets it run, or -1 */
} dt_none_procs[DT_NONE_MAXPROCS];

static void
dt_none_err(
    char *err, size_t errlen, const char *what, const char *arg, int errnum)
{
	if (errnum != 0)
		(void) snprintf(
		    err, errlen, "%s %s: %s", what, arg, strerror(errnum));
	else
		(void) snprintf(err, errlen, "%s %s", what, arg);
}

/* The file execvp() would run for name, in *path; 0 or an errno. */
static int
dt_none_which(const char *name, char *path, size_t size)
{
	const char *dirs, *p, *end;
	int e = ENOENT;

	if (strchr(name, '/') != NULL) {
		(void) snprintf(path, size, "%s", name);
		return access(path, X_OK) == 0 ? 0 : errno;
	}
	if ((dirs = getenv("PATH")) == NULL)
		dirs = "/bin:/usr/bin";
	for (p = dirs;; p = end + 1) {
		struct stat st;

		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		/* An empty entry is the current directory. */
		(void) snprintf(path, size, "%.*s%s%s", (int) (end - p), p,
		    end == p ? "" : "/", name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(path, X_OK) == 0)
				return 0;
			e = EACCES;
		}
		if (*end == '\0')
			return e;
	}
}

int
dt_os_proc_create(char *const argv[], bool atexec, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int pfd[2], e, slot;
	pid_t pid;

	(void) atexec;
	for (slot = 0; slot < DT_NONE_MAXPROCS; slot++) {
		if (dt_none_procs[slot].np_pid == 0)
			break;
	}
	if (slot == DT_NONE_MAXPROCS) {
		dt_none_err(err, errlen, "failed to execute", argv[0], EAGAIN);
		return -1;
	}
	if ((e = dt_none_which(argv[0], path, sizeof(path))) != 0) {
		dt_none_err(err, errlen, "failed to execute", argv[0], e);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pfd) != 0) {
		dt_none_err(err, errlen, "failed to execute", argv[0], errno);
		return -1;
	}
	(void) fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
	if ((pid = fork()) < 0) {
		e = errno;
		(void) close(pfd[0]);
		(void) close(pfd[1]);
		dt_none_err(err, errlen, "failed to execute", argv[0], e);
		return -1;
	}
	if (pid == 0) {
		sigset_t ending;
		ssize_t n;
		char c;

		(void) close(pfd[1]);
		/* dtrace holds these back until tracing is on; not so here. */
		sigemptyset(&ending);
		sigaddset(&ending, SIGINT);
		sigaddset(&ending, SIGTERM);
		sigaddset(&ending, SIGHUP);
		(void) sigprocmask(SIG_UNBLOCK, &ending, NULL);
		/*
		 * A byte: resumed.  The end of the stream without one: dtrace
		 * killed it or is gone, so the command must not run.
		 */
		while ((n = read(pfd[0], &c, 1)) < 0 && errno == EINTR)
			continue;
		(void) close(pfd[0]);
		if (n != 1)
			_exit(127);
		(void) execv(path, argv);
		_exit(127);
	}
	(void) close(pfd[0]);
	dt_none_procs[slot].np_pid = pid;
	dt_none_procs[slot].np_go = pfd[1];
	return pid;
}

int
dt_os_proc_grab(int pid, unsigned engines, char *err, size_t errlen)
{
	(void) engines;
	if (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH)) {
		(void) snprintf(err, errlen,
		    "failed to grab pid %d: no such "
		    "process",
		    pid);
		return -1;
	}
	if (pid == getpid()) {
		(void) snprintf(err, errlen,
		    "failed to grab pid %d: process is "
		    "dtrace itself",
		    pid);
		return -1;
	}
	return 0;
}

int
dt_os_proc_resume(int pid)
{
	for (int i = 0; i < DT_NONE_MAXPROCS; i++) {
		if (dt_none_procs[i].np_pid != pid ||
		    dt_none_procs[i].np_go < 0)
			continue;
		ssize_t n;

		/* A child killed meanwhile must not send dtrace SIGPIPE. */
		while ((n = send(dt_none_procs[i].np_go, "g", 1,
			    MSG_NOSIGNAL)) < 0 &&
		    errno == EINTR)
			continue;
		(void) close(dt_none_procs[i].np_go);
		dt_none_procs[i].np_go = -1;
		return n == 1 ? 0 : -1;
	}
	return 0;
}

static void
dt_none_forget(int pid)
{
	for (int i = 0; i < DT_NONE_MAXPROCS; i++) {
		if (dt_none_procs[i].np_pid != pid)
			continue;
		if (dt_none_procs[i].np_go >= 0)
			(void) close(dt_none_procs[i].np_go);
		dt_none_procs[i].np_pid = 0;
		dt_none_procs[i].np_go = -1;
	}
}

int
dt_os_proc_ended(int pid, bool child, int *statusp)
{
	int st;

	*statusp = -1;
	if (child) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid && (WIFEXITED(st) || WIFSIGNALED(st))) {
			*statusp = st;
			dt_none_forget(pid);
			return 1;
		}
		return r < 0 && errno == ECHILD;
	}
	return kill(pid, 0) != 0 && errno == ESRCH;
}

void
dt_os_proc_kill(int pid)
{
	int st;

	(void) kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		continue;
	dt_none_forget(pid);
}

bool
dt_os_proc_lingering(void)
{
	return false;
}

void
dt_os_proc_linger(void)
{
}

int
dt_os_proc_rescue_open(void)
{
	return 0;
}

void
dt_os_proc_rescue(void)
{
}

int
dt_os_proc_parent(int pid)
{
	return pid == getpid() ? (int) getppid() : -1;
}

int
dt_os_proc_args(int pid, char *buf, size_t size)
{
	(void) pid, (void) buf, (void) size;
	return -1;
}
