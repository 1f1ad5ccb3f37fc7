/*
 * dt_os.c: Linux answers to common/dt_os.h.
 *
 * timestamp is CLOCK_MONOTONIC, the clock bpf_ktime_get_ns() reads, so
 * that both engines' timestamps are comparable.  The in-kernel engine is
 * the BPF engine, usable when the feature probes say BPF programs load.
 * Kernel symbols come from /proc/kallsyms (dt_ksyms.c), read once, on the
 * first address to symbolise, so that runs which print none never pay for
 * reading some hundred thousand lines.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/dt_os.h"
#include "os/linux/bpf/dt_bpf_engine.h"
#include "os/linux/dt_ksyms.h"
#include "os/linux/dt_linux_features.h"
#include "os/linux/prov/dt_linux_prov.h"
#include "os/linux/ptrace/dt_ptrace.h"

uint64_t
dt_os_gettid(void)
{
	return (uint64_t) gettid();
}

uint32_t
dt_os_getcpu(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (uint32_t) cpu;
}

uint32_t
dt_os_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n < 1 ? 1 : (uint32_t) n;
}

static uint64_t
dt_os_clock(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts) != 0)
		return 0;
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

uint64_t
dt_os_thread_cputime(void)
{
	return dt_os_clock(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t
dt_os_timestamp(void)
{
	return dt_os_clock(CLOCK_MONOTONIC);
}

uint64_t
dt_os_walltimestamp(void)
{
	return dt_os_clock(CLOCK_REALTIME);
}

int
dt_os_providers_init(dtrace_hdl_t *dtp)
{
	return dt_linux_providers_init(dtp);
}

const struct dt_engine_ops *
dt_os_kernel_engine(const char **whyp)
{
	if (!dt_linux_feature(DT_LF_BPF)) {
		*whyp = dt_linux_feature_why(DT_LF_BPF);
		return NULL;
	}
	return &dt_bpf_engine_ops;
}

const struct dt_engine_ops *
dt_os_user_engine(const char **whyp)
{
#if defined(__x86_64__)
	*whyp = "";
	return &dt_ptrace_engine_ops;
#else
	*whyp = "breakpoints are implemented for x86-64 only";
	return NULL;
#endif
}

const char *
dt_os_provider_hint(const char *provider)
{
	/*
	 * Providers whose probes exist only through the BPF engine (pid
	 * probes run on the ptrace engine too).
	 */
	static const char *const kernel[] = { "syscall", "sdt", "rawtp",
		"fbt", "proc", "sched", "io", "ip", "tcp", "udp", "lockstat",
		"usdt" };
	static char hint[256];

	if (dt_linux_feature(DT_LF_BPF))
		return NULL;
	for (size_t i = 0; i < sizeof (kernel) / sizeof (kernel[0]); i++) {
		size_t n = strlen(kernel[i]);

		/* pid and usdt providers carry a process ID: pid123. */
		if (strncmp(provider, kernel[i], n) != 0 ||
		    (provider[n] != '\0' &&
			(strcmp(kernel[i], "pid") != 0 || provider[n] < '0' ||
			    provider[n] > '9')))
			continue;
		snprintf(hint, sizeof (hint), "%s probes need the BPF engine, "
		    "which is not available: %s", kernel[i],
		    dt_linux_feature_why(DT_LF_BPF));
		return hint;
	}
	return NULL;
}

const char *
dt_os_engine_detail(dtrace_hdl_t *dtp)
{
	return dt_bpf_engine_detail(dtp);
}

static pthread_once_t dt_os_ksyms_once = PTHREAD_ONCE_INIT;
static dt_ksyms_t *dt_os_ksyms;
static char dt_os_ksyms_why[256];

static void
dt_os_ksyms_init(void)
{
	static const char path[] = "/proc/kallsyms";

	if ((dt_os_ksyms = dt_ksyms_load(path)) == NULL)
		snprintf(dt_os_ksyms_why, sizeof (dt_os_ksyms_why),
		    "cannot read %s: %s", path, strerror(errno));
	else if (dt_ksyms_restricted(dt_os_ksyms))
		snprintf(dt_os_ksyms_why, sizeof (dt_os_ksyms_why),
		    "%s shows every address as zero (kernel.kptr_restrict, "
		    "or no CAP_SYSLOG)", path);
}

const dt_ksyms_t *
dt_linux_ksyms(void)
{
	(void) pthread_once(&dt_os_ksyms_once, dt_os_ksyms_init);
	return dt_os_ksyms;
}

int
dt_os_ksym(uint64_t addr, const char **modp, const char **namep,
    uint64_t *valuep)
{
	(void) pthread_once(&dt_os_ksyms_once, dt_os_ksyms_init);
	if (dt_os_ksyms == NULL)
		return -1;
	return dt_ksyms_lookup(dt_os_ksyms, addr, modp, namep, valuep);
}

const char *
dt_os_ksym_why(void)
{
	(void) pthread_once(&dt_os_ksyms_once, dt_os_ksyms_init);
	return dt_os_ksyms_why[0] != '\0' ? dt_os_ksyms_why : NULL;
}
