/* SPDX-License-Identifier: MIT */
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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/dt_program.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_engine.h"
#include "os/linux/dt_kdwarf.h"
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

static cpu_set_t dt_os_saved_cpus;
static bool dt_os_cpus_saved;

int
dt_os_cpu_bind(uint32_t cpu)
{
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE) {
		errno = EINVAL;
		return -1;
	}
	if (!dt_os_cpus_saved) {
		if (sched_getaffinity(
			0, sizeof(dt_os_saved_cpus), &dt_os_saved_cpus) != 0)
			return -1;
		dt_os_cpus_saved = true;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

void
dt_os_cpu_unbind(void)
{
	if (dt_os_cpus_saved)
		(void) sched_setaffinity(
		    0, sizeof(dt_os_saved_cpus), &dt_os_saved_cpus);
	dt_os_cpus_saved = false;
}

/* The integer in a sysfs file, or dflt. */
static long
dt_os_sysfs_long(const char *path, long dflt)
{
	FILE *fp = fopen(path, "re");
	long v;

	if (fp == NULL)
		return dflt;
	if (fscanf(fp, "%ld", &v) != 1)
		v = dflt;
	(void) fclose(fp);
	return v;
}

/* The "cpu MHz" line of processor cpu in /proc/cpuinfo, or 0. */
static int32_t
dt_os_cpu_mhz(uint32_t cpu)
{
	FILE *fp = fopen("/proc/cpuinfo", "re");
	char line[256];
	long cur = -1;
	double mhz;
	int32_t v = 0;

	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof (line), fp) != NULL) {
		if (sscanf(line, "processor : %ld", &cur) == 1)
			continue;
		if (cur == (long) cpu &&
		    sscanf(line, "cpu MHz : %lf", &mhz) == 1) {
			v = (int32_t) mhz;
			break;
		}
	}
	(void) fclose(fp);
	return v;
}

/*
 * cpuinfo_t from sysfs: the package as the chip, the NUMA node as the
 * locality group, no processor sets.  A CPU without an "online" file
 * (the boot CPU) is online.
 */
void
dt_os_cpuinfo(uint32_t cpu, dt_cpuinfo_t *cip)
{
	char path[128];
	struct utsname u;
	DIR *dir;
	struct dirent *de;

	memset(cip, 0, sizeof (*cip));
	cip->cpu_id = (int32_t) cpu;
	cip->cpu_pset = -1;
	(void) snprintf(path, sizeof (path), "/sys/devices/system/cpu/cpu%u/"
	    "topology/physical_package_id", cpu);
	cip->cpu_chip = (int32_t) dt_os_sysfs_long(path, 0);
	(void) snprintf(path, sizeof (path), "/sys/devices/system/cpu/cpu%u",
	    cpu);
	if ((dir = opendir(path)) != NULL) {
		while ((de = readdir(dir)) != NULL) {
			if (strncmp(de->d_name, "node", 4) == 0 &&
			    isdigit((unsigned char) de->d_name[4])) {
				cip->cpu_lgrp = atoi(de->d_name + 4);
				break;
			}
		}
		(void) closedir(dir);
	}
	(void) snprintf(path, sizeof (path), "/sys/devices/system/cpu/cpu%u/"
	    "online", cpu);
	cip->cpu_info.pi_state = dt_os_sysfs_long(path, 1) != 0 ?
	    DT_P_ONLINE : DT_P_OFFLINE;
	if (uname(&u) == 0)
		memcpy(cip->cpu_info.pi_processor_type, u.machine,
		    strnlen(u.machine,
		    sizeof (cip->cpu_info.pi_processor_type) - 1));
	(void) snprintf(cip->cpu_info.pi_fputypes,
	    sizeof (cip->cpu_info.pi_fputypes), "%s", dt_isa_fputypes);
	/* The nominal clock: cpufreq's maximum, else what cpuinfo says. */
	(void) snprintf(path, sizeof (path), "/sys/devices/system/cpu/cpu%u/"
	    "cpufreq/cpuinfo_max_freq", cpu);
	cip->cpu_info.pi_clock = (int32_t) (dt_os_sysfs_long(path, 0) / 1000);
	if (cip->cpu_info.pi_clock == 0)
		cip->cpu_info.pi_clock = dt_os_cpu_mhz(cpu);
}

/*
 * uregs[] from getcontext() (the ISA's Linux part), numbered as the BPF
 * engine's table (dt_isa_layout.il_uregs), so both engines agree; what
 * a user context does not keep reads as 0, as it does there.
 */
size_t
dt_os_uregs(uint64_t *regs, size_t max)
{
	return dt_isa_linux_uregs_self(regs, max);
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
	return dt_ptrace_engine(whyp);
}

const dt_os_engine_t dt_os_engines[] = {
	{ "bpf", DT_ENGINE_F_KERNEL, dt_os_kernel_engine },
	{ "ptrace", DT_ENGINE_F_USER, dt_os_user_engine },
	{ NULL, 0, NULL }
};

/* <sys/sdt.h> has macros for sites of up to 12 arguments. */
const unsigned dt_os_usdt_maxargs = DT_USDT_MAXARGS;

/* What GCC predefines on Linux, for D programs' #ifdef. */
const char *const dt_os_cpp_defines[] = { "-D__linux", "-D__unix", NULL };

/* The C library's types that differ by processor. */
const char *const dt_os_typedefs[][2] = {
	{ "nlink_t", dt_isa_linux_nlink_t },
	{ NULL, NULL }
};

/* The ISA's names (dt_isa_regnames[], ended by a NULL name). */
const char *
dt_os_regname(unsigned i, int *indexp)
{
	for (unsigned j = 0; j < i; j++) {
		if (dt_isa_regnames[j].ri_name == NULL)
			return NULL;
	}
	if (dt_isa_regnames[i].ri_name != NULL)
		*indexp = dt_isa_regnames[i].ri_index;
	return dt_isa_regnames[i].ri_name;
}

/* Linux's address families (<linux/socket.h>), as lib/net.d names them. */
const int dt_os_af_inet = 2;
const int dt_os_af_inet6 = 10;

const char *
dt_os_action_refused(int kind)
{
	/*
	 * illumos enters the kernel debugger (kmdb) or panics the system;
	 * Linux has no debugger for DTrace to enter, and no BPF helper nor
	 * user-space request that panics the kernel (nor should there be).
	 */
	switch (kind) {
	case DT_ACT_BREAKPOINT:
		return "breakpoint() is not available on Linux: there is no "
		    "kernel debugger to enter";
	case DT_ACT_PANIC:
		return "panic() is not available on Linux: tracing cannot "
		    "panic the kernel";
	default:
		return NULL;
	}
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
	static char hint[512];
	const char *why;

	if (dt_linux_feature(DT_LF_BPF)) {
		/* fbt needs fentry or kprobes besides. */
		if (strcmp(provider, "fbt") != 0 ||
		    (why = dt_prov_fbt_why()) == NULL)
			return NULL;
		snprintf(hint, sizeof (hint), "fbt probes unavailable: %s",
		    why);
		return hint;
	}
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

/*
 * Kernel objects for profiles, named as perf names them: the kernel
 * "[kernel.kallsyms]" and a module "[name]", each spanning its code as
 * kallsyms shows it and with the build ID the kernel shows of it
 * (/sys/kernel/notes, /sys/module/NAME/notes/.note.gnu.build-id).  Read
 * once per module.
 */
typedef struct dt_os_kmap {
	struct dt_os_kmap *km_next;
	char *km_module;
	char *km_path;
	dt_os_mapping_t km_map;
} dt_os_kmap_t;

static pthread_mutex_t dt_os_kmaps_lock = PTHREAD_MUTEX_INITIALIZER;
static dt_os_kmap_t *dt_os_kmaps;

static dt_os_kmap_t *
dt_os_kmap_read(const char *module)
{
	dt_os_kmap_t *km = calloc(1, sizeof (*km));
	const dt_ksyms_t *kt = dt_linux_ksyms();
	bool kernel = strcmp(module, "vmlinux") == 0;
	char notes[4096], path[PATH_MAX];
	ssize_t n = -1;
	int fd;

	if (km == NULL || (km->km_module = strdup(module)) == NULL ||
	    asprintf(&km->km_path, kernel ? "[kernel.kallsyms]" : "[%s]",
	    module) < 0) {
		if (km != NULL)
			free(km->km_module);
		free(km);
		return NULL;
	}
	km->km_map.om_path = km->km_path;
	if (kt != NULL && !dt_ksyms_restricted(kt) &&
	    dt_ksyms_text_range(kt, module, &km->km_map.om_start,
	    &km->km_map.om_limit) != 0)
		km->km_map.om_start = km->km_map.om_limit = 0;
	if (kernel) {
		(void) snprintf(path, sizeof (path), "/sys/kernel/notes");
	} else if (strchr(module, '/') == NULL) {
		(void) snprintf(path, sizeof (path),
		    "/sys/module/%s/notes/.note.gnu.build-id", module);
	} else {
		path[0] = '\0';
	}
	if (path[0] != '\0' && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, notes, sizeof (notes));
		(void) close(fd);
	}
	if (n <= 0 || dt_kdwarf_build_id(notes, (size_t) n,
	    km->km_map.om_buildid, sizeof (km->km_map.om_buildid)) != 0)
		km->km_map.om_buildid[0] = '\0';
	return km;
}

int
dt_os_kmapping(const char *module, dt_os_mapping_t *omp)
{
	dt_os_kmap_t *km;

	if (module == NULL)
		return -1;
	(void) pthread_mutex_lock(&dt_os_kmaps_lock);
	for (km = dt_os_kmaps; km != NULL; km = km->km_next) {
		if (strcmp(km->km_module, module) == 0)
			break;
	}
	if (km == NULL && (km = dt_os_kmap_read(module)) != NULL) {
		km->km_next = dt_os_kmaps;
		dt_os_kmaps = km;
	}
	if (km != NULL)
		*omp = km->km_map;
	(void) pthread_mutex_unlock(&dt_os_kmaps_lock);
	return km != NULL ? 0 : -1;
}
