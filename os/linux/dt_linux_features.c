/* SPDX-License-Identifier: MIT */
/*
 * dt_linux_features.c: kernel feature probes -- the one place where the
 * Linux backend finds out what the running kernel allows.
 *
 * Each probe tries the real thing in the smallest form: a two-instruction
 * program of the needed type, a program calling the helper, a map of the
 * type, a perf event of the kind.  Nothing is attached to a live
 * tracepoint, because detaching one costs a synchronize_rcu(); a tracepoint
 * is known to work when tracefs lists it and tracepoint programs load.
 * The whole probe takes a few milliseconds and runs once per process.
 *
 * Reasons are written for the person running dtrace: what was tried and
 * the kernel's errno, plus the usual cause when there is one (EPERM means
 * privileges; lockdown removes some helpers).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_insn.h"
#include "os/linux/dt_btf.h"
#include "os/linux/dt_linux_features.h"

#define TRACEFS_MAGIC_NR 0x74726163

static const char *const dt_lf_names[DT_LF_NFEATURES] = {
	[DT_LF_BPF] = "bpf",
	[DT_LF_PTR_LEAKS] = "ptr_leaks",
	[DT_LF_RINGBUF] = "ringbuf",
	[DT_LF_PERFBUF] = "perfbuf",
	[DT_LF_BPF_LOOP] = "bpf_loop",
	[DT_LF_BTF] = "btf",
	[DT_LF_TRACEPOINT] = "tracepoint",
	[DT_LF_RAW_TP] = "raw_tp",
	[DT_LF_RAW_TP_ATTACH] = "raw_tp_attach",
	[DT_LF_TP_BTF] = "tp_btf",
	[DT_LF_UPROBE] = "uprobe",
	[DT_LF_UPROBE_MULTI] = "uprobe_multi",
	[DT_LF_CPU_CLOCK] = "cpu_clock",
	[DT_LF_PROBE_READ_KERNEL] = "probe_read_kernel",
	[DT_LF_PROBE_READ_USER] = "probe_read_user",
	[DT_LF_GET_FUNC_IP] = "get_func_ip",
	[DT_LF_GET_STACK] = "get_stack",
	[DT_LF_TEST_RUN] = "test_run",
	[DT_LF_FENTRY] = "fentry",
	[DT_LF_KPROBE] = "kprobe",
	[DT_LF_TASK_PT_REGS] = "task_pt_regs",
	[DT_LF_MAP_IN_MAP] = "map_in_map",
	[DT_LF_GOTOL] = "gotol",
	[DT_LF_ATOMIC_FETCH] = "atomic_fetch",
	[DT_LF_BIG_KEYS] = "big_keys",
};

const char *
dt_linux_feature_name(dt_linux_feature_t f)
{
	return (unsigned) f < DT_LF_NFEATURES ? dt_lf_names[f] : "?";
}

/*
 * DTRACE_LINUX_NOFEATURE (names separated by commas) makes features the
 * kernel has look missing, so the fallbacks for older kernels can be
 * run and tested here: "bpf_loop", "ringbuf", ...
 */
static bool
dt_lf_disabled_name(const char *name)
{
	const char *env = getenv("DTRACE_LINUX_NOFEATURE");
	size_t len = strlen(name);

	while (env != NULL && *env != '\0') {
		size_t n = strcspn(env, ",");

		if (n == len && strncmp(env, name, len) == 0)
			return true;
		env += n + (env[n] == ',');
	}
	return false;
}

bool
dt_linux_nofeature(const char *name)
{
	return dt_lf_disabled_name(name);
}

static bool
dt_lf_disabled(dt_linux_feature_t f)
{
	return dt_lf_disabled_name(dt_lf_names[f]);
}

static void
dt_lf_set(dt_linux_features_t *lfp, dt_linux_feature_t f, bool ok,
    const char *fmt, ...)
{
	va_list ap;

	if (ok && dt_lf_disabled(f)) {
		lfp->lf_have[f] = false;
		snprintf(lfp->lf_why[f], DT_LF_WHYLEN, "%s: disabled by "
		    "DTRACE_LINUX_NOFEATURE", dt_lf_names[f]);
		return;
	}
	lfp->lf_have[f] = ok;
	lfp->lf_why[f][0] = '\0';
	if (ok)
		return;
	va_start(ap, fmt);
	vsnprintf(lfp->lf_why[f], DT_LF_WHYLEN, fmt, ap);
	va_end(ap);
}

/* The usual reason behind an errno from bpf(). */
static const char *
dt_lf_hint(int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return " (needs root, or CAP_BPF and CAP_PERFMON)";
	case ENOSYS:
		return " (kernel built without BPF)";
	default:
		return "";
	}
}

/* Never called: a place in our own text for the uprobe probes. */
__attribute__((noinline, used)) static void
dt_lf_uprobe_target(void)
{
	__asm__ volatile("" ::: "memory");
}

static int
dt_lf_load(enum bpf_prog_type type, const struct bpf_insn *insns, size_t n,
    enum bpf_attach_type eat)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = eat);

	return bpf_prog_load(type, "dt_probe", "GPL", insns, n, &opts);
}

/* A program that calls one helper with three zero arguments. */
static int
dt_lf_helper(enum bpf_prog_type type, int fn, bool stackbuf)
{
	struct bpf_insn p[] = {
		DT_BPF_MOV64_REG(DT_R1, DT_FP),
		DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, -8),
		DT_BPF_MOV64_IMM(DT_R2, 8),
		DT_BPF_MOV64_IMM(DT_R3, 0),
		DT_BPF_ST_MEM(BPF_DW, DT_FP, -8, 0),
		DT_BPF_CALL(fn),
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	int fd;

	/* Without a buffer, r1 stays the context (get_func_ip(ctx)). */
	if (!stackbuf)
		p[0] = p[1] = p[2] = DT_BPF_MOV64_IMM(DT_R0, 0);
	if (fn == BPF_FUNC_get_stack) {
		/* get_stack(ctx, buf, size, flags) */
		p[0] = DT_BPF_MOV64_REG(DT_R2, DT_FP);
		p[1] = DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, -8);
		p[2] = DT_BPF_MOV64_IMM(DT_R3, 8);
		p[3] = DT_BPF_MOV64_IMM(DT_R4, 0);
	}
	if ((fd = dt_lf_load(type, p, sizeof (p) / sizeof (p[0]), 0)) < 0)
		return -errno;
	(void) close(fd);
	return 0;
}

static void
dt_lf_probe_helper(dt_linux_features_t *lfp, dt_linux_feature_t f,
    const char *name, int fn, bool stackbuf)
{
	int err = dt_lf_helper(BPF_PROG_TYPE_KPROBE, fn, stackbuf);

	dt_lf_set(lfp, f, err == 0, "%s(): program load failed: %s%s", name,
	    strerror(-err), err == -EINVAL ? " (helper not in this kernel)" :
	    "");
}

static void
dt_lf_probe_bpf(dt_linux_features_t *lfp)
{
	static const struct bpf_insn ret0[] = {
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	int fd = dt_lf_load(BPF_PROG_TYPE_TRACEPOINT, ret0, 2, 0);
	int err = errno;

	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_BPF, fd >= 0,
	    "loading a tracepoint program failed: %s%s", strerror(err),
	    dt_lf_hint(err));
}

/* Storing a map value's address in the map: the translator's base trick. */
static void
dt_lf_probe_ptr_leaks(dt_linux_features_t *lfp)
{
	int mfd, fd, err;
	dt_bpf_buf_t b;

	if ((mfd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_probe", 4, 16, 1,
	    NULL)) < 0) {
		err = errno;
		dt_lf_set(lfp, DT_LF_PTR_LEAKS, false,
		    "creating an array map failed: %s%s", strerror(err),
		    dt_lf_hint(err));
		return;
	}
	dt_bpf_buf_init(&b);
	dt_bpf_emit(&b, DT_BPF_ST_MEM(BPF_W, DT_FP, -4, 0));
	dt_bpf_emit_map_fd(&b, DT_R1, mfd);
	dt_bpf_emit(&b, DT_BPF_MOV64_REG(DT_R2, DT_FP));
	dt_bpf_emit(&b, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, -4));
	dt_bpf_emit(&b, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
	dt_bpf_emit(&b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 1));
	dt_bpf_emit(&b, DT_BPF_STX_MEM(BPF_DW, DT_R0, DT_R0, 0));
	dt_bpf_emit(&b, DT_BPF_MOV64_IMM(DT_R0, 0));
	dt_bpf_emit(&b, DT_BPF_EXIT());
	fd = b.b_err ? -1 : dt_lf_load(BPF_PROG_TYPE_TRACEPOINT, b.b_insns,
	    b.b_len, 0);
	err = errno;
	dt_bpf_buf_fini(&b);
	(void) close(mfd);
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_PTR_LEAKS, fd >= 0,
	    "storing map addresses in maps refused: %s (needs CAP_PERFMON)",
	    strerror(err));
}

static void
dt_lf_probe_maps(dt_linux_features_t *lfp)
{
	int fd, err;

	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "dt_probe", 0, 0,
	    (uint32_t) sysconf(_SC_PAGESIZE) * 4, NULL);
	err = errno;
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_RINGBUF, fd >= 0,
	    "ring buffer maps: bpf(BPF_MAP_CREATE) failed: %s%s",
	    strerror(err), dt_lf_hint(err));

	fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "dt_probe", 4, 4,
	    1, NULL);
	err = errno;
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_PERFBUF, fd >= 0,
	    "perf event array maps: bpf(BPF_MAP_CREATE) failed: %s%s",
	    strerror(err), dt_lf_hint(err));

	/*
	 * Keys longer than the BPF stack: Linux 5.10 refuses them (E2BIG),
	 * and an aggregation keyed by a few strings needs them.
	 */
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "dt_probe",
	    DT_LF_SMALL_KEY + 8, 8, 1, NULL);
	err = errno;
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_BIG_KEYS, fd >= 0, "hash map keys over %d "
	    "bytes: bpf(BPF_MAP_CREATE) failed: %s%s", DT_LF_SMALL_KEY,
	    strerror(err), dt_lf_hint(err));
}

/*
 * A program with subprograms (bpf_loop()'s callback) must describe its
 * functions in BTF: two static functions returning long.
 */
int
dt_linux_btf_funcs(uint32_t nfuncs, const uint32_t *insn_offs,
    int *btf_fdp, struct bpf_func_info **fip, void **btfp)
{
	struct btf *btf = btf__new_empty();
	struct bpf_func_info *fi;
	int i64, proto, fn = 0;

	if (btf == NULL)
		return -1;
	i64 = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	proto = btf__add_func_proto(btf, i64);
	(void) btf__add_func_param(btf, "a", i64);
	(void) btf__add_func_param(btf, "b", i64);
	if (i64 < 0 || proto < 0 ||
	    (fi = calloc(nfuncs, sizeof (*fi))) == NULL) {
		btf__free(btf);
		return -1;
	}
	for (uint32_t i = 0; i < nfuncs; i++) {
		char name[32];

		snprintf(name, sizeof (name), "dt_f%u", (unsigned) i);
		if ((fn = btf__add_func(btf, name, BTF_FUNC_STATIC, proto)) < 0)
			break;
		fi[i].insn_off = insn_offs[i];
		fi[i].type_id = (uint32_t) fn;
	}
	if (fn < 0 || btf__load_into_kernel(btf) != 0) {
		free(fi);
		btf__free(btf);
		return -1;
	}
	*btf_fdp = btf__fd(btf);
	*fip = fi;
	*btfp = btf;
	return 0;
}

/*
 * The byte offset of member name in the struct type id, or -1.  Members
 * of anonymous structs and unions inside it count as its own, as in C
 * (mm_struct keeps nearly all of its members in one).
 */
static int64_t
dt_lf_member_off(const struct btf *btf, int32_t id, const char *name,
    int32_t *typep)
{
	const struct btf_type *t = btf__type_by_id(btf, (uint32_t) id);
	const struct btf_member *m;

	if (t == NULL || !btf_is_composite(t))
		return -1;
	m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);
		int64_t inner;

		if (n != NULL && strcmp(n, name) == 0) {
			if (typep != NULL)
				*typep = (int32_t) m->type;
			return (int64_t) (btf_member_bit_offset(t, i) / 8);
		}
		if ((n == NULL || *n == '\0') && (inner = dt_lf_member_off(btf,
		    btf__resolve_type(btf, m->type), name, typep)) >= 0)
			return (int64_t) (btf_member_bit_offset(t, i) / 8) +
			    inner;
	}
	return -1;
}

/* The kernel's BTF, or NULL with why it cannot be had in why. */
static struct btf *
dt_lf_vmlinux_btf(char *why, size_t len)
{
	struct btf *btf = btf__load_vmlinux_btf();

	if (btf == NULL)
		snprintf(why, len, "kernel BTF (/sys/kernel/btf/vmlinux) "
		    "cannot be read");
	return btf;
}

const dt_linux_task_offs_t *
dt_linux_task_offs(void)
{
	static dt_linux_task_offs_t lt;
	static bool done;
	struct btf *btf;
	int32_t task, se = 0, mms;
	int64_t rp, tg, seo, rt, mm, as, ae;

	if (done)
		return &lt;
	done = true;
	if ((btf = dt_lf_vmlinux_btf(lt.lt_why, sizeof (lt.lt_why))) == NULL)
		return &lt;
	task = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	rp = dt_lf_member_off(btf, task, "real_parent", NULL);
	tg = dt_lf_member_off(btf, task, "tgid", NULL);
	seo = dt_lf_member_off(btf, task, "se", &se);
	rt = seo < 0 ? -1 : dt_lf_member_off(btf, btf__resolve_type(btf,
	    (uint32_t) se), "sum_exec_runtime", NULL);
	mm = dt_lf_member_off(btf, task, "mm", NULL);
	mms = btf__find_by_name_kind(btf, "mm_struct", BTF_KIND_STRUCT);
	as = dt_lf_member_off(btf, mms, "arg_start", NULL);
	ae = dt_lf_member_off(btf, mms, "arg_end", NULL);
	btf__free(btf);
	if (task < 0 || rp < 0 || tg < 0 || rt < 0 || mm < 0 || as < 0 ||
	    ae < 0) {
		snprintf(lt.lt_why, sizeof (lt.lt_why), "kernel BTF has no "
		    "task_struct real_parent, tgid, se.sum_exec_runtime or mm, "
		    "or no mm_struct arg_start or arg_end");
		return &lt;
	}
	lt.lt_mm = (uint32_t) mm;
	lt.lt_arg_start = (uint32_t) as;
	lt.lt_arg_end = (uint32_t) ae;
	lt.lt_real_parent = (uint32_t) rp;
	lt.lt_tgid = (uint32_t) tg;
	lt.lt_exec_runtime = (uint32_t) (seo + rt);
	lt.lt_ok = true;
	return &lt;
}

/* The offset of the member path (a.b.c) of struct sname, or -1. */
static int64_t
dt_lf_path_off(const struct btf *btf, const char *sname, const char *path)
{
	int32_t id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	char buf[64], *name, *next;
	int64_t off = 0, o;

	snprintf(buf, sizeof (buf), "%s", path);
	for (name = buf; id >= 0 && name != NULL; name = next) {
		if ((next = strchr(name, '.')) != NULL)
			*next++ = '\0';
		if ((o = dt_lf_member_off(btf, id, name, &id)) < 0)
			return -1;
		off += o;
		id = btf__resolve_type(btf, (uint32_t) id);
	}
	return id < 0 ? -1 : off;
}

const dt_linux_path_offs_t *
dt_linux_path_offs(void)
{
	static dt_linux_path_offs_t lp;
	static bool done;
	static const struct {
		const char *sname, *path;
		size_t off;
	} m[] = {
#define DT_LP(s, p, f) { s, p, offsetof(dt_linux_path_offs_t, f) }
		DT_LP("task_struct", "fs", lp_fs),
		DT_LP("fs_struct", "pwd.mnt", lp_pwd_mnt),
		DT_LP("fs_struct", "pwd.dentry", lp_pwd_dentry),
		DT_LP("dentry", "d_parent", lp_d_parent),
		DT_LP("dentry", "d_name.name", lp_d_name),
		DT_LP("vfsmount", "mnt_root", lp_mnt_root),
		DT_LP("mount", "mnt", lp_mount_mnt),
		DT_LP("mount", "mnt_parent", lp_mnt_parent),
		DT_LP("mount", "mnt_mountpoint", lp_mnt_mountpoint),
		DT_LP("path", "mnt", lp_path_mnt),
		DT_LP("path", "dentry", lp_path_dentry),
#undef DT_LP
	};
	struct btf *btf;

	if (done)
		return &lp;
	done = true;
	if ((btf = dt_lf_vmlinux_btf(lp.lp_why, sizeof (lp.lp_why))) == NULL)
		return &lp;
	for (size_t i = 0; i < sizeof (m) / sizeof (m[0]); i++) {
		int64_t off = dt_lf_path_off(btf, m[i].sname, m[i].path);

		if (off < 0) {
			snprintf(lp.lp_why, sizeof (lp.lp_why), "kernel BTF "
			    "has no struct %s member %s", m[i].sname,
			    m[i].path);
			btf__free(btf);
			return &lp;
		}
		*(uint32_t *) ((char *) &lp + m[i].off) = (uint32_t) off;
	}
	btf__free(btf);
	lp.lp_ok = true;
	return &lp;
}

void
dt_linux_btf_funcs_free(struct bpf_func_info *fi, void *btf)
{
	free(fi);
	btf__free(btf);
}

static void
dt_lf_probe_loop(dt_linux_features_t *lfp)
{
	/* bpf_loop(1, callback, NULL, 0) with a callback returning 0. */
	const struct bpf_insn p[] = {
		DT_BPF_MOV64_IMM(DT_R1, 1),
		DT_BPF_LD_IMM64_LO(DT_R2, BPF_PSEUDO_FUNC, 6),
		DT_BPF_LD_IMM64_HI(0),
		DT_BPF_MOV64_IMM(DT_R3, 0),
		DT_BPF_MOV64_IMM(DT_R4, 0),
		DT_BPF_CALL(BPF_FUNC_loop),
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	static const uint32_t offs[] = { 0, 8 };
	struct bpf_func_info *fi;
	void *btf;
	int btf_fd, fd, err;

	if (dt_linux_btf_funcs(2, offs, &btf_fd, &fi, &btf) != 0) {
		dt_lf_set(lfp, DT_LF_BPF_LOOP, false,
		    "bpf_loop(): cannot load BTF for its callback: %s",
		    strerror(errno));
		return;
	}
	{
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .prog_btf_fd = (uint32_t) btf_fd, .func_info = fi,
		    .func_info_cnt = 2,
		    .func_info_rec_size = sizeof (struct bpf_func_info));

		fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dt_probe", "GPL", p,
		    sizeof (p) / sizeof (p[0]), &opts);
		err = errno;
	}
	dt_linux_btf_funcs_free(fi, btf);
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_BPF_LOOP, fd >= 0,
	    "bpf_loop(): program load failed: %s", strerror(err));
}

/*
 * BEGIN and END run through BPF_PROG_TEST_RUN of raw tracepoint
 * programs: synchronous, in our own task, and free of the ~100 ms a
 * uprobe costs to attach and again to detach here.
 */
static void
dt_lf_probe_test_run(dt_linux_features_t *lfp)
{
	static const struct bpf_insn p[] = {
		DT_BPF_MOV64_IMM(DT_R0, 7),
		DT_BPF_EXIT(),
	};
	uint64_t args[2] = { 0, 0 };
	int fd, rc, err;

	if ((fd = dt_lf_load(BPF_PROG_TYPE_RAW_TRACEPOINT, p, 2, 0)) < 0) {
		err = errno;
		dt_lf_set(lfp, DT_LF_TEST_RUN, false,
		    "raw tracepoint programs: load failed: %s", strerror(err));
		return;
	}
	{
		LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args,
		    .ctx_size_in = sizeof (args));

		rc = bpf_prog_test_run_opts(fd, &opts);
		err = errno;
		if (rc == 0 && opts.retval != 7) {
			rc = -1;
			err = EINVAL;
		}
	}
	(void) close(fd);
	dt_lf_set(lfp, DT_LF_TEST_RUN, rc == 0,
	    "running raw tracepoint programs (BPF_PROG_TEST_RUN): %s",
	    strerror(err));
}

/* Kernel BTF is there: the file reads and starts with the BTF magic. */
static void
dt_lf_probe_btf(dt_linux_features_t *lfp)
{
	static const struct bpf_insn ret0[] = {
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	uint16_t magic = 0;
	int fd, err;

	if ((fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC)) >= 0) {
		if (read(fd, &magic, sizeof (magic)) != sizeof (magic))
			magic = 0;
		(void) close(fd);
	}
	err = errno;
	dt_lf_set(lfp, DT_LF_BTF, magic == 0xeb9f,
	    "kernel BTF (/sys/kernel/btf/vmlinux) unreadable: %s",
	    fd < 0 ? strerror(err) : "bad magic");

	fd = dt_lf_load(BPF_PROG_TYPE_RAW_TRACEPOINT, ret0, 2, 0);
	err = errno;
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_RAW_TP, fd >= 0,
	    "raw tracepoint programs: load failed: %s", strerror(err));
}

/*
 * Attaching a raw_tp program to a raw tracepoint (sched_process_fork,
 * which every kernel with raw tracepoints has), as the rawtp provider
 * and raw-tracepoint kernel events do.
 */
static void
dt_lf_probe_raw_tp_attach(dt_linux_features_t *lfp)
{
	static const struct bpf_insn ret0[] = {
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	int fd, lfd = -1, err;

	if (!lfp->lf_have[DT_LF_RAW_TP]) {
		dt_lf_set(lfp, DT_LF_RAW_TP_ATTACH, false, "%s",
		    lfp->lf_why[DT_LF_RAW_TP]);
		return;
	}
	if ((fd = dt_lf_load(BPF_PROG_TYPE_RAW_TRACEPOINT, ret0, 2, 0)) >= 0)
		lfd = bpf_raw_tracepoint_open("sched_process_fork", fd);
	err = errno;
	if (lfd >= 0)
		(void) close(lfd);
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_RAW_TP_ATTACH, lfd >= 0,
	    "raw tracepoints: bpf(BPF_RAW_TRACEPOINT_OPEN) failed: %s",
	    strerror(err));
}

/*
 * Load a tracing program of attach type eat (what: "tp_btf", "fentry")
 * for the kernel BTF type name of kind; tp_btf and fentry need a type ID
 * from the parsed kernel BTF (~0.1 s to parse).  True if the kernel
 * takes it; else why says what failed.
 */
static bool
dt_lf_tracing(const dt_linux_features_t *lfp, const char *what,
    enum bpf_attach_type eat, const char *name, int kind, char *why,
    size_t len)
{
	static const struct bpf_insn ret0[] = {
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	struct btf *btf;
	int id, fd;

	if (!lfp->lf_have[DT_LF_BTF] ||
	    (btf = btf__load_vmlinux_btf()) == NULL) {
		snprintf(why, len, "%s needs kernel BTF, which cannot be read",
		    what);
		return false;
	}
	id = btf__find_by_name_kind(btf, name, kind);
	btf__free(btf);
	if (id < 0) {
		snprintf(why, len, "%s: no %s in kernel BTF", what, name);
		return false;
	}
	{
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = eat,
		    .attach_btf_id = (uint32_t) id);

		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "dt_probe", "GPL",
		    ret0, 2, &opts);
	}
	if (fd < 0) {
		snprintf(why, len, "the kernel refuses %s programs (%s)", what,
		    strerror(errno));
		return false;
	}
	(void) close(fd);
	return true;
}

static void
dt_lf_probe_tp_btf(dt_linux_features_t *lfp)
{
	char why[DT_LF_WHYLEN];
	bool ok = dt_lf_tracing(lfp, "tp_btf", BPF_TRACE_RAW_TP,
	    "btf_trace_sys_enter", BTF_KIND_TYPEDEF, why, sizeof (why));

	dt_lf_set(lfp, DT_LF_TP_BTF, ok, "%s", why);
}

/*
 * The fbt provider's two mechanisms.  fentry: a tracing program loaded
 * for a function every kernel has (vfs_read); some kernels refuse it
 * before the verifier runs (EPERM).  kprobes: a kprobe perf event on the
 * same function, opened and closed without a program (the kprobe PMU is
 * missing where the kernel has no kprobes).
 */
static void
dt_lf_probe_fbt(dt_linux_features_t *lfp)
{
	char why[DT_LF_WHYLEN];
	bool ok = dt_lf_tracing(lfp, "fentry", BPF_TRACE_FENTRY, "vfs_read",
	    BTF_KIND_FUNC, why, sizeof (why));
	int fd, err;

	dt_lf_set(lfp, DT_LF_FENTRY, ok, "%s", why);
	fd = dt_bpf_attach_kprobe(-1, "vfs_read", 0);
	err = errno;
	if (fd >= 0)
		(void) close(fd);
	if (fd < 0 && err == ENOENT)
		dt_lf_set(lfp, DT_LF_KPROBE, false, "the kernel has no kprobes "
		    "(no kprobe PMU in /sys/bus/event_source/devices)");
	else
		dt_lf_set(lfp, DT_LF_KPROBE, fd >= 0,
		    "the kernel refuses kprobes (%s)", strerror(err));
}

static void
dt_lf_probe_tracefs(dt_linux_features_t *lfp)
{
	const char *tfs = dt_linux_tracefs();

	if (tfs == NULL) {
		dt_lf_set(lfp, DT_LF_TRACEPOINT, false,
		    "tracefs is not mounted and could not be mounted");
		return;
	}
	snprintf(lfp->lf_tracefs, sizeof (lfp->lf_tracefs), "%s", tfs);
	if (dt_bpf_tp_id("raw_syscalls", "sys_enter") < 0) {
		dt_lf_set(lfp, DT_LF_TRACEPOINT, false,
		    "%s/events/raw_syscalls/sys_enter/id: %s", tfs,
		    strerror(errno));
		return;
	}
	dt_lf_set(lfp, DT_LF_TRACEPOINT, lfp->lf_have[DT_LF_BPF], "%s",
	    "tracepoint programs cannot be loaded");
}

static void
dt_lf_probe_uprobes(dt_linux_features_t *lfp)
{
	static const struct bpf_insn ret0[] = {
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	char path[PATH_MAX];
	uint64_t off, attr[16], offs[1], paddr;
	int fd, pfd, lfd, err;

	if (dt_bpf_uprobe_locate((const void *) dt_lf_uprobe_target, path,
	    sizeof (path), &off) != 0) {
		dt_lf_set(lfp, DT_LF_UPROBE, false,
		    "cannot find our own text in /proc/self/maps");
		dt_lf_set(lfp, DT_LF_UPROBE_MULTI, false, "%s",
		    lfp->lf_why[DT_LF_UPROBE]);
		return;
	}
	fd = dt_lf_load(BPF_PROG_TYPE_KPROBE, ret0, 2, 0);
	err = errno;
	if (fd < 0) {
		dt_lf_set(lfp, DT_LF_UPROBE, false,
		    "kprobe/uprobe programs: load failed: %s", strerror(err));
	} else {
		pfd = dt_bpf_attach_uprobe(fd, path, off, getpid(), 0, 0);
		err = errno;
		dt_lf_set(lfp, DT_LF_UPROBE, pfd >= 0,
		    "uprobe perf event on %s: %s", path, strerror(err));
		if (pfd >= 0)
			(void) close(pfd);
		(void) close(fd);
	}

	/*
	 * uprobe_multi: a link on the same place, through bpf(2) directly
	 * since our libbpf predates it.  The attr layout is the kernel's
	 * link_create: prog_fd, target_fd, attach_type, flags, then path,
	 * offsets, ref_ctr_offsets, cookies, cnt, flags, pid.
	 */
	fd = dt_lf_load(BPF_PROG_TYPE_KPROBE, ret0, 2,
	    (enum bpf_attach_type) DT_BPF_TRACE_UPROBE_MULTI);
	if (fd < 0) {
		err = errno;
		dt_lf_set(lfp, DT_LF_UPROBE_MULTI, false,
		    "uprobe_multi programs: load failed: %s", strerror(err));
		return;
	}
	memset(attr, 0, sizeof (attr));
	offs[0] = off;
	paddr = (uint64_t) (uintptr_t) path;
	attr[0] = (uint64_t) (uint32_t) fd;
	attr[1] = DT_BPF_TRACE_UPROBE_MULTI;
	attr[2] = paddr;
	attr[3] = (uint64_t) (uintptr_t) offs;
	attr[6] = 1 | ((uint64_t) 0 << 32);
	attr[7] = (uint64_t) (uint32_t) getpid();
	lfd = (int) syscall(SYS_bpf, BPF_LINK_CREATE, attr, sizeof (attr));
	err = errno;
	dt_lf_set(lfp, DT_LF_UPROBE_MULTI, lfd >= 0,
	    "uprobe_multi link: %s", strerror(err));
	if (lfd >= 0)
		(void) close(lfd);
	(void) close(fd);
}

static void
dt_lf_probe_cpu_clock(dt_linux_features_t *lfp)
{
	int pfd = dt_bpf_attach_cpu_clock(-1, 0, 1000000000ULL);
	int err = errno;

	if (pfd >= 0)
		(void) close(pfd);
	dt_lf_set(lfp, DT_LF_CPU_CLOCK, pfd >= 0,
	    "perf cpu-clock event: %s%s", strerror(err),
	    err == EACCES ? " (kernel.perf_event_paranoid)" : "");
}

/*
 * Whether the kernel loads the tracepoint program p of n instructions;
 * *errp is the load's errno when not.
 */
static bool
dt_lf_loads(const struct bpf_insn *p, size_t n, int *errp)
{
	int fd = dt_lf_load(BPF_PROG_TYPE_TRACEPOINT, p, n, 0);

	*errp = errno;
	if (fd < 0)
		return false;
	(void) close(fd);
	return true;
}

/*
 * The current task's saved user registers, read in a tracepoint program:
 * how user stacks and uregs[] are found outside uprobes (kernel 5.15).
 * The pointer is typed by the kernel's BTF, so loads through it are
 * checked by the verifier, not copied by a helper.
 */
static void
dt_lf_probe_task_pt_regs(dt_linux_features_t *lfp)
{
	static const struct bpf_insn p[] = {
		DT_BPF_CALL(BPF_FUNC_get_current_task_btf),
		DT_BPF_MOV64_REG(DT_R1, DT_R0),
		DT_BPF_CALL(BPF_FUNC_task_pt_regs),
		DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R0, 0),
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	int err;
	bool ok = dt_lf_loads(p, sizeof (p) / sizeof (p[0]), &err);

	dt_lf_set(lfp, DT_LF_TASK_PT_REGS, ok,
	    "bpf_task_pt_regs(): program load failed: %s%s", strerror(err),
	    err == EINVAL ? " (helper not in this kernel, or no BTF)" : "");
}

/*
 * A hash map whose values are array maps of any length (BPF_F_INNER_MAP,
 * kernel 5.10), looked up from a program: the user stack unwind rows of
 * each traced process, replaced whole when the process changes.  The
 * inner maps are mmap'able, as the engine fills them.
 */
static void
dt_lf_probe_map_in_map(dt_linux_features_t *lfp)
{
	LIBBPF_OPTS(bpf_map_create_opts, iopts,
	    .map_flags = BPF_F_INNER_MAP | BPF_F_MMAPABLE);
	LIBBPF_OPTS(bpf_map_create_opts, oopts);
	int ifd, ofd = -1, fd = -1, err, key = 0;
	dt_bpf_buf_t b;

	if ((ifd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_probe", 4, 16, 1,
	    &iopts)) >= 0) {
		oopts.inner_map_fd = (uint32_t) ifd;
		ofd = bpf_map_create(BPF_MAP_TYPE_HASH_OF_MAPS, "dt_probe", 4,
		    4, 1, &oopts);
		(void) close(ifd);
	}
	/* An inner map of another length goes in. */
	if (ofd >= 0 && ((ifd = bpf_map_create(BPF_MAP_TYPE_ARRAY,
	    "dt_probe", 4, 16, 3, &iopts)) < 0 ||
	    bpf_map_update_elem(ofd, &key, &ifd, BPF_ANY) != 0)) {
		(void) close(ofd);
		ofd = -1;
	}
	if (ifd >= 0)
		(void) close(ifd);
	if (ofd < 0) {
		err = errno;
		dt_lf_set(lfp, DT_LF_MAP_IN_MAP, false, "hash of array maps "
		    "of any length: %s%s", strerror(err), dt_lf_hint(err));
		return;
	}
	dt_bpf_buf_init(&b);
	for (int i = 0; i < 2; i++) {
		dt_bpf_emit(&b, DT_BPF_ST_MEM(BPF_W, DT_FP, -4, 0));
		if (i == 0)
			dt_bpf_emit_map_fd(&b, DT_R1, ofd);
		else
			dt_bpf_emit(&b, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		dt_bpf_emit(&b, DT_BPF_MOV64_REG(DT_R2, DT_FP));
		dt_bpf_emit(&b, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, -4));
		dt_bpf_emit(&b, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
		dt_bpf_emit(&b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0,
		    i == 0 ? 7 : 1));
	}
	dt_bpf_emit(&b, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R0, 8));
	dt_bpf_emit(&b, DT_BPF_MOV64_IMM(DT_R0, 0));
	dt_bpf_emit(&b, DT_BPF_EXIT());
	fd = b.b_err ? -1 : dt_lf_load(BPF_PROG_TYPE_TRACEPOINT, b.b_insns,
	    b.b_len, 0);
	err = errno;
	dt_bpf_buf_fini(&b);
	(void) close(ofd);
	if (fd >= 0)
		(void) close(fd);
	dt_lf_set(lfp, DT_LF_MAP_IN_MAP, fd >= 0, "looking up an array map "
	    "in a hash of maps: program load failed: %s", strerror(err));
}

/*
 * gotol (BPF_JMP32 | BPF_JA, the offset in imm): what lets a program jump
 * past the 32767 instructions a 16-bit offset reaches (dt_bpf_relax.c).
 * Older kernels refuse the opcode.
 */
static void
dt_lf_probe_gotol(dt_linux_features_t *lfp)
{
	static const struct bpf_insn p[] = {
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_GOTOL(0),
		DT_BPF_EXIT(),
	};
	int err;
	bool ok = dt_lf_loads(p, 3, &err);

	dt_lf_set(lfp, DT_LF_GOTOL, ok, "a program with gotol: load "
	    "failed: %s%s", strerror(err), err == EINVAL ?
	    " (gotol needs Linux 6.4)" : dt_lf_hint(err));
}

/*
 * The atomic operations that give back the old value: fetch-add, xchg
 * and cmpxchg (BPF_ATOMIC with BPF_FETCH), which came together in 5.12.
 * Before, BPF_STX | BPF_XADD adds and returns nothing ("BPF_STX uses
 * reserved fields"); the code generator then takes another way.
 */
static void
dt_lf_probe_atomic_fetch(dt_linux_features_t *lfp)
{
	static const struct bpf_insn p[] = {
		DT_BPF_ST_MEM(BPF_DW, DT_FP, -8, 0),
		DT_BPF_MOV64_IMM(DT_R1, 1),
		DT_BPF_INSN(BPF_STX | BPF_DW | 0xc0, DT_FP, DT_R1, -8,
		    BPF_ADD | 0x01),
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_MOV64_IMM(DT_R2, 2),
		DT_BPF_INSN(BPF_STX | BPF_DW | 0xc0, DT_FP, DT_R2, -8,
		    0xf0 | 0x01),
		DT_BPF_MOV64_IMM(DT_R0, 0),
		DT_BPF_EXIT(),
	};
	int err;
	bool ok = dt_lf_loads(p, sizeof (p) / sizeof (p[0]), &err);

	dt_lf_set(lfp, DT_LF_ATOMIC_FETCH, ok, "a program with atomic "
	    "fetch-add and compare-and-exchange: load failed: %s%s",
	    strerror(err), err == EINVAL ? " (they need Linux 5.12)" :
	    dt_lf_hint(err));
}

/* The cheap probes: a few program loads and map creations. */
static void
dt_lf_probe_core(dt_linux_features_t *lfp)
{
	int n;

	n = libbpf_num_possible_cpus();
	lfp->lf_ncpus = n > 0 ? n : 1;
	dt_lf_probe_bpf(lfp);
	dt_lf_probe_ptr_leaks(lfp);
	dt_lf_probe_maps(lfp);
	dt_lf_probe_loop(lfp);
	dt_lf_probe_btf(lfp);
	dt_lf_probe_test_run(lfp);
	dt_lf_probe_tracefs(lfp);
	dt_lf_probe_cpu_clock(lfp);
	dt_lf_probe_helper(lfp, DT_LF_PROBE_READ_KERNEL,
	    "bpf_probe_read_kernel", BPF_FUNC_probe_read_kernel, true);
	if (lfp->lf_have[DT_LF_PROBE_READ_KERNEL])
		dt_lf_probe_helper(lfp, DT_LF_PROBE_READ_KERNEL,
		    "bpf_probe_read_kernel_str", BPF_FUNC_probe_read_kernel_str,
		    true);
	dt_lf_probe_helper(lfp, DT_LF_PROBE_READ_USER, "bpf_probe_read_user",
	    BPF_FUNC_probe_read_user, true);
	if (lfp->lf_have[DT_LF_PROBE_READ_USER])
		dt_lf_probe_helper(lfp, DT_LF_PROBE_READ_USER,
		    "bpf_probe_read_user_str", BPF_FUNC_probe_read_user_str,
		    true);
	dt_lf_probe_helper(lfp, DT_LF_GET_FUNC_IP, "bpf_get_func_ip",
	    BPF_FUNC_get_func_ip, false);
	dt_lf_probe_helper(lfp, DT_LF_GET_STACK, "bpf_get_stack",
	    BPF_FUNC_get_stack, true);
	dt_lf_probe_task_pt_regs(lfp);
	dt_lf_probe_map_in_map(lfp);
	dt_lf_probe_gotol(lfp);
	dt_lf_probe_atomic_fetch(lfp);
}

void
dt_linux_features_probe(dt_linux_features_t *lfp)
{
	memset(lfp, 0, sizeof (*lfp));
	dt_lf_probe_core(lfp);
	dt_lf_probe_tp_btf(lfp);
	dt_lf_probe_raw_tp_attach(lfp);
	dt_lf_probe_uprobes(lfp);
	dt_lf_probe_fbt(lfp);
}

/*
 * The cache.  Four groups are probed apart and only when asked for:
 * uprobes (placing and removing one costs about 0.2 s on some kernels),
 * tp_btf (parsing kernel BTF, about 0.1 s), attaching a raw tracepoint,
 * and fbt's fentry and kprobes (BTF again, and a kprobe to place).  A
 * script that uses none should not pay for them at start-up.
 */
static dt_linux_features_t dt_lf_cache;
static pthread_once_t dt_lf_once = PTHREAD_ONCE_INIT;
static pthread_once_t dt_lf_uonce = PTHREAD_ONCE_INIT;
static pthread_once_t dt_lf_bonce = PTHREAD_ONCE_INIT;
static pthread_once_t dt_lf_ronce = PTHREAD_ONCE_INIT;
static pthread_once_t dt_lf_fonce = PTHREAD_ONCE_INIT;
/*
 * Whether BPF is usable at all, alone: the providers ask it when they
 * are registered (dt_ktab.c), before any program needs the rest.
 */
static pthread_once_t dt_lf_ponce = PTHREAD_ONCE_INIT;

static int
dt_lf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* Errors reach the user through our own messages. */
	(void) level;
	(void) fmt;
	(void) ap;
	return 0;
}

static void
dt_lf_init(void)
{
	libbpf_set_print(dt_lf_quiet);
	dt_lf_probe_core(&dt_lf_cache);
}

static void
dt_lf_pinit(void)
{
	libbpf_set_print(dt_lf_quiet);
	dt_lf_probe_bpf(&dt_lf_cache);
}

static void
dt_lf_uinit(void)
{
	dt_lf_probe_uprobes(&dt_lf_cache);
}

static void
dt_lf_binit(void)
{
	dt_lf_probe_tp_btf(&dt_lf_cache);
}

static void
dt_lf_rinit(void)
{
	dt_lf_probe_raw_tp_attach(&dt_lf_cache);
}

static void
dt_lf_finit(void)
{
	dt_lf_probe_fbt(&dt_lf_cache);
}

const dt_linux_features_t *
dt_linux_features(void)
{
	(void) pthread_once(&dt_lf_once, dt_lf_init);
	(void) pthread_once(&dt_lf_uonce, dt_lf_uinit);
	(void) pthread_once(&dt_lf_bonce, dt_lf_binit);
	(void) pthread_once(&dt_lf_ronce, dt_lf_rinit);
	(void) pthread_once(&dt_lf_fonce, dt_lf_finit);
	return &dt_lf_cache;
}

/* The possible CPUs, without the probes that are made only on demand. */
int
dt_linux_ncpus(void)
{
	(void) pthread_once(&dt_lf_once, dt_lf_init);
	return dt_lf_cache.lf_ncpus;
}

bool
dt_linux_feature(dt_linux_feature_t f)
{
	if (f == DT_LF_BPF) {
		(void) pthread_once(&dt_lf_ponce, dt_lf_pinit);
		return dt_lf_cache.lf_have[f];
	}
	(void) pthread_once(&dt_lf_once, dt_lf_init);
	if (f == DT_LF_UPROBE || f == DT_LF_UPROBE_MULTI)
		(void) pthread_once(&dt_lf_uonce, dt_lf_uinit);
	if (f == DT_LF_TP_BTF)
		(void) pthread_once(&dt_lf_bonce, dt_lf_binit);
	if (f == DT_LF_RAW_TP_ATTACH)
		(void) pthread_once(&dt_lf_ronce, dt_lf_rinit);
	if (f == DT_LF_FENTRY || f == DT_LF_KPROBE)
		(void) pthread_once(&dt_lf_fonce, dt_lf_finit);
	return (unsigned) f < DT_LF_NFEATURES && dt_lf_cache.lf_have[f];
}

const char *
dt_linux_feature_why(dt_linux_feature_t f)
{
	(void) dt_linux_feature(f);
	return (unsigned) f < DT_LF_NFEATURES ? dt_lf_cache.lf_why[f] : "";
}

static bool
dt_lf_is_tracefs(const char *path)
{
	struct statfs sfs;
	char probe[PATH_MAX];

	if (statfs(path, &sfs) != 0 || (unsigned long) sfs.f_type !=
	    TRACEFS_MAGIC_NR)
		return false;
	snprintf(probe, sizeof (probe), "%s/events", path);
	return access(probe, R_OK) == 0;
}

/*
 * Where tracefs is, once found: providers ask for every event they look
 * at, and a statfs() each time cost more than the lookups themselves.
 */
static const char *dt_lf_tracefs;

static const char *
dt_lf_tracefs_found(const char *path)
{
	__atomic_store_n(&dt_lf_tracefs, path, __ATOMIC_RELEASE);
	return path;
}

const char *
dt_linux_tracefs(void)
{
	static const char *const where[] = { "/sys/kernel/tracing",
		"/sys/kernel/debug/tracing" };
	const char *found = __atomic_load_n(&dt_lf_tracefs, __ATOMIC_ACQUIRE);

	if (found != NULL)
		return found;
	for (size_t i = 0; i < sizeof (where) / sizeof (where[0]); i++) {
		if (dt_lf_is_tracefs(where[i]))
			return dt_lf_tracefs_found(where[i]);
	}
	/*
	 * Nobody mounted it (minimal VMs, containers): mount it where the
	 * kernel expects it.  A second mount of tracefs is harmless.
	 */
	(void) mkdir(where[0], 0700);
	if (mount("nodev", where[0], "tracefs", 0, NULL) == 0 &&
	    dt_lf_is_tracefs(where[0]))
		return dt_lf_tracefs_found(where[0]);
	return NULL;
}

/*
 * Tracepoints without a tracefs event (DECLARE_TRACE: sched_exit_tp,
 * sched_entry_tp) can be reached only as raw tracepoints, and tracefs
 * does not list them; the kernel's BTF does, as btf_trace_<name>.  Only
 * the BTF string section is read and searched (about 1.5 ms for 2 MB),
 * not the whole of BTF parsed (about 0.1 s), since the sched and proc
 * providers ask each time they list their probes.
 */
int
dt_linux_tps_declared(const char *const *names, bool *have, int n)
{
	struct btf_header h;
	char *strs = NULL;
	size_t got = 0;
	int fd;

	for (int i = 0; i < n; i++)
		have[i] = false;
	if ((fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (read(fd, &h, sizeof (h)) != (ssize_t) sizeof (h) ||
	    h.magic != BTF_MAGIC || (strs = malloc((size_t) h.str_len +
	    2)) == NULL) {
		(void) close(fd);
		return -1;
	}
	/* NUL on both sides, so every name is found between two NULs. */
	strs[0] = '\0';
	while (got < h.str_len) {
		ssize_t r = pread(fd, strs + 1 + got, h.str_len - got,
		    (off_t) (h.hdr_len + h.str_off + got));

		if (r <= 0)
			break;
		got += (size_t) r;
	}
	(void) close(fd);
	strs[1 + got] = '\0';
	for (int i = 0; i < n; i++) {
		char key[128];
		int len = snprintf(key + 1, sizeof (key) - 1, "btf_trace_%s",
		    names[i]);

		key[0] = '\0';
		if (len > 0 && (size_t) len < sizeof (key) - 1)
			have[i] = memmem(strs, got + 2, key, (size_t) len +
			    2) != NULL;
	}
	free(strs);
	return 0;
}

/*
 * The start of BTF's string section, read once: the names of the first
 * types, task_struct's members among them, are there, so that checking
 * them costs no read each.
 */
typedef struct dt_lf_btfstrs {
	int bs_fd;
	const struct btf_header *bs_h;
	char *bs_buf;
	size_t bs_len;
	bool bs_read;
} dt_lf_btfstrs_t;

#define DT_LF_BTFSTRS (64u << 10)

/* Is the BTF string at name_off name? */
static bool
dt_lf_btf_named(dt_lf_btfstrs_t *bs, uint32_t name_off, const char *name)
{
	const struct btf_header *h = bs->bs_h;
	size_t len = strlen(name) + 1;
	char buf[64];

	if (name_off == 0 || len > sizeof (buf) || name_off + len > h->str_len)
		return false;
	if (!bs->bs_read) {
		size_t want = h->str_len < DT_LF_BTFSTRS ? h->str_len :
		    DT_LF_BTFSTRS;

		bs->bs_read = true;
		if ((bs->bs_buf = malloc(want)) != NULL) {
			while (bs->bs_len < want) {
				ssize_t r = pread(bs->bs_fd,
				    bs->bs_buf + bs->bs_len, want - bs->bs_len,
				    (off_t) (h->hdr_len + h->str_off +
				    bs->bs_len));

				if (r <= 0)
					break;
				bs->bs_len += (size_t) r;
			}
		}
	}
	if (name_off + len <= bs->bs_len)
		return memcmp(bs->bs_buf + name_off, name, len) == 0;
	return pread(bs->bs_fd, buf, len, (off_t) (h->hdr_len + h->str_off +
	    name_off)) == (ssize_t) len && memcmp(buf, name, len) == 0;
}

/*
 * The byte offset of task_struct.comm in the kernel's BTF, or -1.  BTF
 * is read piecewise, not whole (reading all of it takes 10 ms or more):
 * the type section in growing pieces from its start, where task_struct
 * is among the first few hundred types, and the start of the string
 * section, where their names are.
 */
static int64_t
dt_lf_btf_comm_off(void)
{
	struct btf_header h;
	dt_lf_btfstrs_t bs = { .bs_h = &h };
	unsigned char *buf = NULL;
	size_t len = 64 << 10;
	int64_t off = -1;
	int fd;

	if ((fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	bs.bs_fd = fd;
	if (read(fd, &h, sizeof (h)) != (ssize_t) sizeof (h) ||
	    h.magic != BTF_MAGIC)
		goto out;
	for (;;) {
		size_t want = len < h.type_len ? len : h.type_len;
		size_t got = 0, pos = 0;
		unsigned char *nb = realloc(buf, want ? want : 1);

		if (nb == NULL)
			goto out;
		buf = nb;
		while (got < want) {
			ssize_t r = pread(fd, buf + got, want - got,
			    (off_t) (h.hdr_len + h.type_off + got));

			if (r <= 0)
				goto out;
			got += (size_t) r;
		}
		while (pos + sizeof (struct btf_type) <= got) {
			const struct btf_type *t =
			    (const struct btf_type *) (buf + pos);
			long extra = dt_btf_extra(t);
			const struct btf_member *m = btf_members(t);

			if (extra < 0)
				goto out;	/* a kind we cannot step over */
			if (pos + sizeof (*t) + (size_t) extra > got)
				break;		/* the rest is in the next piece */
			pos += sizeof (*t) + (size_t) extra;
			if (btf_kind(t) != BTF_KIND_STRUCT || t->size == 0 ||
			    !dt_lf_btf_named(&bs, t->name_off, "task_struct"))
				continue;
			for (int i = 0; i < btf_vlen(t); i++, m++) {
				uint32_t bits = btf_kflag(t) ?
				    BTF_MEMBER_BIT_OFFSET(m->offset) :
				    m->offset;

				if (dt_lf_btf_named(&bs, m->name_off, "comm") &&
				    bits % 8 == 0)
					off = bits / 8;
			}
			goto out;
		}
		if (want == h.type_len)
			goto out;
		len *= 4;
	}
out:
	free(buf);
	free(bs.bs_buf);
	(void) close(fd);
	return off;
}

static int dt_lf_comm = -1;
static pthread_once_t dt_lf_conce = PTHREAD_ONCE_INIT;

/* comm read straight from the task: tried once, in a tracepoint program. */
static void
dt_lf_comm_init(void)
{
	int64_t off;
	int fd;

	if (dt_lf_disabled_name("task_comm") ||
	    !dt_linux_feature(DT_LF_TASK_PT_REGS) ||
	    (off = dt_lf_btf_comm_off()) < 0 || off % 8 != 0 ||
	    off + 16 > INT16_MAX)
		return;
	{
		const struct bpf_insn p[] = {
			DT_BPF_CALL(BPF_FUNC_get_current_task_btf),
			DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0, (int16_t) off),
			DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0,
			    (int16_t) (off + 8)),
			DT_BPF_MOV64_IMM(DT_R0, 0),
			DT_BPF_EXIT(),
		};

		fd = dt_lf_load(BPF_PROG_TYPE_TRACEPOINT, p,
		    sizeof (p) / sizeof (p[0]), 0);
	}
	if (fd >= 0) {
		(void) close(fd);
		dt_lf_comm = (int) off;
	}
}

int
dt_linux_task_comm(void)
{
	(void) pthread_once(&dt_lf_conce, dt_lf_comm_init);
	return dt_lf_comm;
}

int
dt_linux_btf_offsets(const char *const *paths, uint32_t *offs, int n)
{
	struct btf *btf;

	for (int i = 0; i < n; i++)
		offs[i] = UINT32_MAX;
	if ((btf = btf__load_vmlinux_btf()) == NULL)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *p = paths[i], *dot = strchr(p, '.');
		char name[64];
		int32_t cur, next;
		int64_t total = 0, o;

		if (dot == NULL || dot - p >= (ptrdiff_t) sizeof (name))
			continue;
		snprintf(name, sizeof (name), "%.*s", (int) (dot - p), p);
		cur = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
		/* "k_sigaction.sa.sa_handler": member by member. */
		for (p = dot + 1; cur > 0; p = dot + 1) {
			dot = strchr(p, '.');
			snprintf(name, sizeof (name), "%.*s", dot != NULL ?
			    (int) (dot - p) : (int) strlen(p), p);
			if ((o = dt_lf_member_off(btf, cur, name, &next)) < 0)
				break;
			total += o;
			if (dot == NULL) {
				offs[i] = (uint32_t) total;
				break;
			}
			cur = btf__resolve_type(btf, (uint32_t) next);
		}
	}
	btf__free(btf);
	return 0;
}
