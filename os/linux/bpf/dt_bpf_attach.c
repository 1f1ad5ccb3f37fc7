/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_attach.c: attaching BPF programs to tracepoints, uprobes,
 * kprobes, perf cpu-clock events and raw tracepoints (see
 * dt_bpf_attach.h).
 *
 * Programs are set on perf events with PERF_EVENT_IOC_SET_BPF rather than
 * BPF links, which works on every kernel with BPF tracing; closing the
 * event's descriptor detaches.  The uprobe and kprobe PMUs' type numbers
 * are read from sysfs, as the kernel publishes them there.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <bpf/bpf.h>

#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/dt_linux_features.h"

/*
 * More descriptors, after EMFILE: the soft limit up to the hard one, or
 * when it is there already, both doubled (which root may do, up to the
 * system's fs.nr_open).  A kernel without uprobe_multi links takes a
 * perf event per uprobe site, and pid$target:::entry of a program has
 * thousands of them, beyond the usual soft limit of 1,024 and the
 * kernel's default hard one of 4,096, and a program each besides.  The
 * command of -c exists by then, and keeps the limits it was given.
 */
int
dt_bpf_more_files(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		goto none;
	if (rl.rlim_cur < rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	else if (rl.rlim_max != RLIM_INFINITY &&
	    rl.rlim_max < RLIM_INFINITY / 2)
		rl.rlim_cur = rl.rlim_max = rl.rlim_max * 2;
	else
		goto none;
	if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
		return 0;
none:
	errno = EMFILE;	/* what the caller reports */
	return -1;
}

int
dt_bpf_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
    int group_fd, unsigned long flags)
{
	for (;;) {
		int fd = (int) syscall(SYS_perf_event_open, attr, pid, cpu,
		    group_fd, flags | PERF_FLAG_FD_CLOEXEC);

		if (fd >= 0 || errno != EMFILE || dt_bpf_more_files() != 0)
			return fd;
	}
}

static int
dt_bpf_read_int(const char *path, int *valp)
{
	char buf[32];
	ssize_t n;
	int fd;

	/* (the PMU's type, read before each event is opened) */
	while ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		if (errno != EMFILE || dt_bpf_more_files() != 0)
			return -1;
	n = read(fd, buf, sizeof (buf) - 1);
	(void) close(fd);
	if (n <= 0) {
		errno = EINVAL;
		return -1;
	}
	buf[n] = '\0';
	*valp = atoi(buf);
	return 0;
}

int
dt_bpf_tp_field(const char *group, const char *event, const char *field)
{
	const char *tfs = dt_linux_tracefs();
	char path[PATH_MAX], line[512];
	size_t flen = strlen(field);
	int off = -1;
	FILE *fp;

	if (tfs == NULL) {
		errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof (path), "%s/events/%s/%s/format", tfs, group,
	    event);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (off < 0 && fgets(line, sizeof (line), fp) != NULL) {
		char *semi = strchr(line, ';'), *o;

		/* The declaration ends with the name, then ';'. */
		if (strstr(line, "field:") == NULL || semi == NULL ||
		    (size_t) (semi - line) < flen ||
		    strncmp(semi - flen, field, flen) != 0 ||
		    (semi - flen > line && (isalnum((unsigned char) semi[-flen -
		    1]) || semi[-flen - 1] == '_')) ||
		    (o = strstr(semi, "offset:")) == NULL)
			continue;
		off = atoi(o + 7);
	}
	(void) fclose(fp);
	if (off < 0)
		errno = ENOENT;
	return off;
}

int
dt_bpf_tp_id(const char *group, const char *event)
{
	const char *tfs = dt_linux_tracefs();
	char path[PATH_MAX];
	int id;

	if (tfs == NULL) {
		errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof (path), "%s/events/%s/%s/id", tfs, group, event);
	if (dt_bpf_read_int(path, &id) != 0)
		return -1;
	return id;
}

/* Sets the program on a perf event and enables it; closes it on error. */
static int
dt_bpf_perf_set(int pfd, int prog_fd)
{
	int err;

	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd) != 0 ||
	    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
		err = errno;
		(void) close(pfd);
		errno = err;
		return -1;
	}
	return pfd;
}

int
dt_bpf_attach_tracepoint(int prog_fd, const char *group, const char *event)
{
	struct perf_event_attr attr;
	int id, pfd;

	if ((id = dt_bpf_tp_id(group, event)) < 0)
		return -1;
	memset(&attr, 0, sizeof (attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof (attr);
	attr.config = (uint64_t) id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	if ((pfd = dt_bpf_perf_event_open(&attr, -1, 0, -1, 0)) < 0)
		return -1;
	return dt_bpf_perf_set(pfd, prog_fd);
}

int
dt_bpf_attach_raw_tp(int prog_fd, const char *name)
{
	return bpf_raw_tracepoint_open(name, prog_fd);
}

/*
 * An event of a dynamic PMU (uprobe, kprobe: its type number is in
 * sysfs) with the program set on it; with prog_fd -1, the event only.
 * Bit 0 of config asks for a return probe (format/retprobe).
 */
static int
dt_bpf_attach_pmu(const char *pmu, uint64_t config, uint64_t config1,
    uint64_t config2, pid_t pid, int cpu, int prog_fd)
{
	struct perf_event_attr attr;
	char path[PATH_MAX];
	int type, pfd;

	snprintf(path, sizeof (path), "/sys/bus/event_source/devices/%s/type",
	    pmu);
	if (dt_bpf_read_int(path, &type) != 0)
		return -1;
	memset(&attr, 0, sizeof (attr));
	attr.type = (uint32_t) type;
	attr.size = sizeof (attr);
	attr.config = config;
	attr.config1 = config1;
	attr.config2 = config2;
	attr.sample_period = 1;
	attr.disabled = 1;
	if ((pfd = dt_bpf_perf_event_open(&attr, pid, cpu, -1, 0)) < 0)
		return -1;
	if (prog_fd < 0)
		return pfd;
	return dt_bpf_perf_set(pfd, prog_fd);
}

int
dt_bpf_attach_uprobe(int prog_fd, const char *path, uint64_t off, pid_t pid,
    int retprobe, uint64_t ref_ctr_off)
{
	/*
	 * Bits 32-63 of config: the file offset of a USDT semaphore, which
	 * the kernel counts up while the uprobe is in place
	 * (format/ref_ctr_offset).
	 */
	return dt_bpf_attach_pmu("uprobe", (retprobe ? 1 : 0) |
	    ref_ctr_off << 32, (uint64_t) (uintptr_t) path, off,
	    pid > 0 ? pid : -1, pid > 0 ? -1 : 0, prog_fd);
}

int
dt_bpf_attach_uprobe_multi(int prog_fd, const char *path,
    const uint64_t *offs, const uint64_t *cookies, uint32_t n, pid_t pid)
{
	/*
	 * Through bpf(2) directly, since Debian 12's libbpf predates the
	 * link.  The attr is the kernel's link_create: prog_fd, target_fd,
	 * attach_type, flags, then path, offsets, ref_ctr_offsets, cookies,
	 * cnt, flags, pid.
	 */
	uint64_t attr[16];

	memset(attr, 0, sizeof (attr));
	attr[0] = (uint64_t) (uint32_t) prog_fd;
	attr[1] = DT_BPF_TRACE_UPROBE_MULTI;
	attr[2] = (uint64_t) (uintptr_t) path;
	attr[3] = (uint64_t) (uintptr_t) offs;
	attr[5] = (uint64_t) (uintptr_t) cookies;
	attr[6] = n;
	attr[7] = pid > 0 ? (uint64_t) (uint32_t) pid : 0;
	return (int) syscall(SYS_bpf, BPF_LINK_CREATE, attr, sizeof (attr));
}

int
dt_bpf_attach_kprobe(int prog_fd, const char *func, int retprobe)
{
	return dt_bpf_attach_pmu("kprobe", retprobe ? 1 : 0,
	    (uint64_t) (uintptr_t) func, 0, -1, 0, prog_fd);
}

int
dt_bpf_btf_obj_fd(const char *name)
{
	uint32_t id = 0;

	while (bpf_btf_get_next_id(id, &id) == 0) {
		struct bpf_btf_info info;
		uint32_t len = sizeof (info);
		char buf[64];
		int fd;

		if ((fd = bpf_btf_get_fd_by_id(id)) < 0)
			continue;
		memset(&info, 0, sizeof (info));
		info.name = (uint64_t) (uintptr_t) buf;
		info.name_len = sizeof (buf);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 &&
		    info.kernel_btf && strcmp(buf, name) == 0)
			return fd;
		(void) close(fd);
	}
	errno = ENOENT;
	return -1;
}

int
dt_bpf_attach_cpu_clock(int prog_fd, int cpu, uint64_t period_ns)
{
	struct perf_event_attr attr;
	int pfd;

	memset(&attr, 0, sizeof (attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof (attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = period_ns;
	attr.disabled = 1;
	if ((pfd = dt_bpf_perf_event_open(&attr, -1, cpu, -1, 0)) < 0)
		return -1;
	if (prog_fd < 0)
		return pfd;
	return dt_bpf_perf_set(pfd, prog_fd);
}

int
dt_bpf_uprobe_locate(const void *fn, char *path, size_t pathlen,
    uint64_t *offp)
{
	uint64_t addr = (uint64_t) (uintptr_t) fn;
	char line[PATH_MAX + 128];
	FILE *fp;

	if ((fp = fopen("/proc/self/maps", "re")) == NULL)
		return -1;
	while (fgets(line, sizeof (line), fp) != NULL) {
		uint64_t lo, hi, pgoff;
		char perms[8];
		int n = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64
		    " %*s %*s %n", &lo, &hi, perms, &pgoff, &n) < 4 || n == 0)
			continue;
		if (addr < lo || addr >= hi || perms[2] != 'x')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (line[n] != '/' || strlen(line + n) >= pathlen)
			break;
		strcpy(path, line + n);
		*offp = addr - lo + pgoff;
		(void) fclose(fp);
		return 0;
	}
	(void) fclose(fp);
	errno = ENOENT;
	return -1;
}
