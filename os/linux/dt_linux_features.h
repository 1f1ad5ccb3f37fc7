/* SPDX-License-Identifier: MIT */
/*
 * dt_linux_features.h: what the running kernel can do for tracing, found
 * by trying each thing once (DESIGN invariant 4: never from the version).
 *
 * Probes run on first use and the answers are cached for the process:
 * the kernel does not change under us, and every handle wants the same
 * facts.  Each feature is a boolean; for each one missing,
 * lf_why[] holds one human line saying what failed ("ring buffer maps:
 * bpf(BPF_MAP_CREATE) failed: Invalid argument"), which dtrace(1) prints
 * when a probe needs the feature.
 *
 * The distro quirks that go with the features live here too: where
 * tracefs is (mounting it when nobody has).
 */
#ifndef DT_LINUX_FEATURES_H
#define DT_LINUX_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

typedef enum dt_linux_feature {
	DT_LF_BPF,		/* load tracing programs (CAP_BPF+PERFMON) */
	DT_LF_PTR_LEAKS,	/* map pointers stored as numbers (PERFMON) */
	DT_LF_RINGBUF,		/* BPF_MAP_TYPE_RINGBUF */
	DT_LF_PERFBUF,		/* BPF_MAP_TYPE_PERF_EVENT_ARRAY */
	DT_LF_BPF_LOOP,		/* the bpf_loop() helper */
	DT_LF_BTF,		/* /sys/kernel/btf/vmlinux */
	DT_LF_TRACEPOINT,	/* perf tracepoint events through tracefs */
	DT_LF_RAW_TP,		/* BPF_PROG_TYPE_RAW_TRACEPOINT */
	DT_LF_RAW_TP_ATTACH,	/* bpf(BPF_RAW_TRACEPOINT_OPEN) */
	DT_LF_TP_BTF,		/* BTF-typed raw tracepoints (tp_btf) */
	DT_LF_UPROBE,		/* uprobe perf events */
	DT_LF_UPROBE_MULTI,	/* BPF_TRACE_UPROBE_MULTI links */
	DT_LF_CPU_CLOCK,	/* perf cpu-clock sampling events */
	DT_LF_PROBE_READ_KERNEL, /* bpf_probe_read_kernel(_str) */
	DT_LF_PROBE_READ_USER,	/* bpf_probe_read_user(_str) */
	DT_LF_GET_FUNC_IP,	/* bpf_get_func_ip() in uprobes */
	DT_LF_GET_STACK,	/* bpf_get_stack() */
	DT_LF_TEST_RUN,		/* test runs of raw_tp programs */
	DT_LF_FENTRY,		/* fentry/fexit tracing programs (BTF) */
	DT_LF_KPROBE,		/* kprobe/kretprobe perf events */
	DT_LF_TASK_PT_REGS,	/* bpf_task_pt_regs(bpf_get_current_task_btf()) */
	DT_LF_MAP_IN_MAP,	/* hash of maps, inner arrays of any length */
	DT_LF_GOTOL,		/* jumps with a 32-bit offset (Linux 6.4) */
	DT_LF_ATOMIC_FETCH,	/* atomic fetch-add, xchg, cmpxchg (5.12) */
	DT_LF_BIG_KEYS,		/* hash map keys over 512 bytes */
	DT_LF_NFEATURES
} dt_linux_feature_t;

#define DT_LF_WHYLEN 160

/* The longest hash map key a kernel without DT_LF_BIG_KEYS takes. */
#define DT_LF_SMALL_KEY 512

typedef struct dt_linux_features {
	bool lf_have[DT_LF_NFEATURES];
	char lf_why[DT_LF_NFEATURES][DT_LF_WHYLEN]; /* "" when present */
	char lf_tracefs[64];	/* tracefs mount point, or "" */
	int lf_ncpus;		/* possible CPUs */
} dt_linux_features_t;

/* Every feature of the running kernel, probed once per process. */
extern const dt_linux_features_t *dt_linux_features(void);
/* The number of possible CPUs (the core probes only: cheap). */
extern int dt_linux_ncpus(void);

/*
 * Whether one feature is there, and if not why (""). These probe only
 * what they need: the uprobe features are probed on first use.
 */
extern bool dt_linux_feature(dt_linux_feature_t f);
extern const char *dt_linux_feature_why(dt_linux_feature_t f);

/* Probe again into *lfp (for tests); dt_linux_features() caches this. */
extern void dt_linux_features_probe(dt_linux_features_t *lfp);

/* The feature's name, for messages and tests: "ringbuf", "bpf_loop"... */
extern const char *dt_linux_feature_name(dt_linux_feature_t f);

/*
 * The tracefs mount point ("/sys/kernel/tracing"), mounting tracefs there
 * when it is not mounted anywhere; NULL when there is none.
 */
extern const char *dt_linux_tracefs(void);

/*
 * BTF describing nfuncs static functions starting at insn_offs[], loaded
 * into the kernel, for programs with subprograms (bpf_loop callbacks):
 * sets the BTF descriptor and the func_info array to pass to the load;
 * free both with dt_linux_btf_funcs_free() after loading.
 */
struct bpf_func_info;
extern int dt_linux_btf_funcs(uint32_t nfuncs, const uint32_t *insn_offs,
    int *btf_fdp, struct bpf_func_info **fip, void **btfp);
extern void dt_linux_btf_funcs_free(struct bpf_func_info *fi, void *btf);

/*
 * Byte offsets of the kernel's task_struct (and mm_struct) members that
 * D built-ins read (ppid, vtimestamp, execargs), found once in the
 * kernel's BTF by name, never hard-coded: they differ between kernel
 * builds.  lt_ok is false (with lt_why) when BTF is missing or lacks a
 * member.
 */
typedef struct dt_linux_task_offs {
	bool lt_ok;
	uint32_t lt_real_parent;	/* task_struct.real_parent */
	uint32_t lt_tgid;		/* task_struct.tgid */
	uint32_t lt_exec_runtime;	/* task_struct.se.sum_exec_runtime */
	uint32_t lt_mm;			/* task_struct.mm */
	uint32_t lt_arg_start;		/* mm_struct.arg_start */
	uint32_t lt_arg_end;		/* mm_struct.arg_end */
	char lt_why[DT_LF_WHYLEN];
} dt_linux_task_offs_t;

extern const dt_linux_task_offs_t *dt_linux_task_offs(void);

/*
 * Whether the kernel declares each of n tracepoints (raw tracepoints
 * included, which have no tracefs event), from its BTF: have[i] for
 * names[i] ("sched_exit_tp").  0, or -1 (no kernel BTF: all false).
 */
extern int dt_linux_tps_declared(const char *const *names, bool *have,
    int n);

/*
 * The byte offsets of n kernel struct members, each named by a path from
 * the struct through nested members ("task_struct.exit_code",
 * "k_sigaction.sa.sa_handler"), from the kernel's BTF (parsed for the
 * call, about 0.1 s): offs[i], or UINT32_MAX where the kernel has no such
 * member.  0, or -1 when there is no kernel BTF.
 */
extern int dt_linux_btf_offsets(const char *const *paths, uint32_t *offs,
    int n);

/*
 * Whether DTRACE_LINUX_NOFEATURE names this way of doing a thing that is
 * not a kernel feature of its own (e.g. "agg_slots"), so that the other
 * way can be run and tested here too.
 */
extern bool dt_linux_nofeature(const char *name);

/*
 * The offset of task_struct.comm when a program may load it straight
 * through bpf_get_current_task_btf(), as two 8-byte words (found once in
 * the kernel's BTF, and tried); -1 when not, or when the names
 * "task_comm" in DTRACE_LINUX_NOFEATURE.
 */
extern int dt_linux_task_comm(void);

/*
 * As dt_linux_task_offs(), for the walk from a task's working
 * directory up to the root (cwd): the dentries' parents and names, and
 * at the root of a mount, the mount it sits on (struct mount holds the
 * vfsmount of the path).
 */
typedef struct dt_linux_path_offs {
	bool lp_ok;
	uint32_t lp_fs;			/* task_struct.fs */
	uint32_t lp_pwd_mnt;		/* fs_struct.pwd.mnt */
	uint32_t lp_pwd_dentry;		/* fs_struct.pwd.dentry */
	uint32_t lp_d_parent;		/* dentry.d_parent */
	uint32_t lp_d_name;		/* dentry.d_name.name */
	uint32_t lp_mnt_root;		/* vfsmount.mnt_root */
	uint32_t lp_mount_mnt;		/* mount.mnt (the vfsmount) */
	uint32_t lp_mnt_parent;		/* mount.mnt_parent */
	uint32_t lp_mnt_mountpoint;	/* mount.mnt_mountpoint */
	uint32_t lp_path_mnt;		/* path.mnt (d_path()'s argument) */
	uint32_t lp_path_dentry;	/* path.dentry */
	char lp_why[DT_LF_WHYLEN];
} dt_linux_path_offs_t;

extern const dt_linux_path_offs_t *dt_linux_path_offs(void);

/*
 * Linux's engines, as dt_os_engines lists them (dt_os.c): the BPF engine
 * when the features above let BPF programs load, and the ptrace engine
 * where it is built; NULL with *whyp saying why not.
 */
struct dt_engine_ops;
extern const struct dt_engine_ops *dt_os_kernel_engine(const char **whyp);
extern const struct dt_engine_ops *dt_os_user_engine(const char **whyp);

#endif /* DT_LINUX_FEATURES_H */
