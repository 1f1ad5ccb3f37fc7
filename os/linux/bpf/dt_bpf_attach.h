/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_attach.h: attaching loaded BPF programs to kernel events.
 *
 * Every mechanism the BPF engine uses is a perf event with a program set
 * on it, or a raw tracepoint:
 *
 *	tracepoint	perf_event_open(PERF_TYPE_TRACEPOINT, tracefs id);
 *			one event (cpu 0, all tasks) runs the program on
 *			every CPU
 *	uprobe		perf_event_open(uprobe PMU, path + file offset),
 *			optionally for one process only
 *	cpu-clock	perf_event_open(PERF_COUNT_SW_CPU_CLOCK) per CPU
 *	raw tracepoint	bpf(BPF_RAW_TRACEPOINT_OPEN)
 *	kprobe		perf_event_open(kprobe PMU, function name), all
 *			CPUs and tasks, or a kretprobe
 *	fentry/fexit	bpf(BPF_RAW_TRACEPOINT_OPEN) without a name: the
 *			tracing program's own attach_btf_id says where
 *
 * Each function returns a file descriptor whose close() detaches, or -1
 * with errno set.
 */
#ifndef DT_BPF_ATTACH_H
#define DT_BPF_ATTACH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The offset of a field in a tracepoint's record, from its format file
 * ("field:pid_t child_pid;	offset:44;"), or -1 with errno.
 */
extern int dt_bpf_tp_field(const char *group, const char *event,
    const char *field);

/* The tracefs event ID of group:event, or -1 with errno. */
extern int dt_bpf_tp_id(const char *group, const char *event);

extern int dt_bpf_attach_tracepoint(int prog_fd, const char *group,
    const char *event);
extern int dt_bpf_attach_raw_tp(int prog_fd, const char *name);
extern int dt_bpf_attach_uprobe(int prog_fd, const char *path, uint64_t off,
    pid_t pid, int retprobe, uint64_t ref_ctr_off);
/*
 * The kernel's uprobe_multi link (6.6): uprobes at the n file offsets
 * offs of path, all running program prog_fd (loaded for attach type
 * DT_BPF_TRACE_UPROBE_MULTI), which reads cookies[i] at offs[i] with
 * bpf_get_attach_cookie(); in process pid only, or every process when
 * pid <= 0.  One link, placed or refused as a whole: -1 with errno.
 */
#define DT_BPF_TRACE_UPROBE_MULTI 48
extern int dt_bpf_attach_uprobe_multi(int prog_fd, const char *path,
    const uint64_t *offs, const uint64_t *cookies, uint32_t n, pid_t pid);
/*
 * A kprobe (or kretprobe) on a kernel function, "name" or "module:name";
 * with prog_fd -1, the event only (to try whether kprobes work).
 */
extern int dt_bpf_attach_kprobe(int prog_fd, const char *func, int retprobe);
/*
 * The file descriptor of the kernel's BTF object called name ("vmlinux"
 * or a module's), for attach_btf_obj_fd; -1 with errno (ENOENT).
 */
extern int dt_bpf_btf_obj_fd(const char *name);
/* A cpu-clock sampling event on one CPU, every period_ns. */
extern int dt_bpf_attach_cpu_clock(int prog_fd, int cpu, uint64_t period_ns);

/*
 * Where a function of this process lives on disk, for a uprobe: the path
 * of the mapped file and the file offset of fn.
 */
extern int dt_bpf_uprobe_locate(const void *fn, char *path, size_t pathlen,
    uint64_t *offp);

/*
 * After EMFILE: raises the process's descriptor limit, soft then hard
 * (root); 0 when there is more room, so that the call may be retried,
 * else -1 with errno EMFILE.
 */
extern int dt_bpf_more_files(void);

/* perf_event_open(2), which glibc does not wrap. */
struct perf_event_attr;
extern int dt_bpf_perf_event_open(struct perf_event_attr *attr, pid_t pid,
    int cpu, int group_fd, unsigned long flags);

#endif /* DT_BPF_ATTACH_H */
