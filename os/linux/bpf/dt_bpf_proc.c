/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_proc.c: what the translator reads of the current process from
 * the kernel's task_struct (offsets from BTF, dt_linux_task_offs()): its
 * command line (execargs), working directory (cwd) and ancestry
 * (progenyof()); and d_path(), which walks a file's path as cwd's.
 */
#include <stdbool.h>
#include <stdint.h>

#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_linux_features.h"

/*
 * execargs: the current process's command line, from its mm's
 * arg_start..arg_end (user memory of the current task, so
 * bpf_probe_read_user), at most strsize - 1 bytes, the NULs between
 * arguments turned into spaces as in DTrace's pr_psargs.  A task
 * without an mm (a kernel thread) or whose arguments cannot be read
 * (paged out) has "".  The string is built in its own scratch slot, so
 * execname's does not clobber it.  Leaves its address in r1.
 */
void
dt_bpf_cg_execargs(dt_bpf_cg_t *cg)
{
	const dt_linux_task_offs_t *lt = dt_linux_task_offs();
	uint32_t ss = cg->cg_lay->bl_strsize, off = cg->cg_lay->bl_argsbuf_off;
	uint32_t lempty = dt_bpf_label_new(cg->cg_b);
	uint32_t lend = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	if (!lt->lt_ok) {
		dt_bpf_cg_error(cg, "built-in variable execargs is not "
		    "supported by the bpf engine here: %s", lt->lt_why);
		return;
	}
	/*
	 * Zeroed first: a char array it is copied into whole (psinfo_t's
	 * pr_psargs) must show no bytes of an earlier, longer command line
	 * after the NUL.
	 */
	dt_bpf_cg_zero(cg, off, ss & ~7U);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	dt_bpf_cg_kread(cg, lt->lt_mm, 8);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lempty);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T2));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	dt_bpf_cg_kread(cg, lt->lt_arg_start, 8);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T2));
	dt_bpf_cg_kread(cg, lt->lt_arg_end, 8);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R3));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLE, DT_R1, 0, 0),
	    lempty);
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R1, (int32_t) ss - 1, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, (int32_t) ss - 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0, 0, 0),
	    lempty);
	/*
	 * A NUL after the n bytes read; the NULs before the last of them
	 * become spaces (the last is the command line's own NUL, or a
	 * byte where it was cut).
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R1, (int32_t) ss - 1, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R2, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R1, (int16_t) off, 0));
	dt_bpf_loop_begin(cg, &lp, DT_R1, ss, 1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGE, DT_R1, DT_R2, 0),
	    lp.lp_done);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R2, (int16_t) off));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 0, 0),
	    lp.lp_next);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R2, (int16_t) off, ' '));
	dt_bpf_loop_end(cg, &lp);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lend);
	dt_bpf_label_here(cg->cg_b, lempty);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R7, (int16_t) off, 0));
	dt_bpf_label_here(cg->cg_b, lend);
	dt_bpf_cg_saddr(cg, DT_R1, off);
}

/*
 * cwd and d_path(): a path walked up to the root as the kernel's d_path()
 * walks it: a dentry's name, then its parent, and at the root of a
 * mount the dentry it is mounted on in the parent mount, until the root
 * of the root mount.  The walk keeps up to DT_BPF_CWD_NAMES name
 * addresses in DT_BPF_CWD_STEPS unrolled steps (a mount crossed takes
 * one), as its loop body calls helpers; then the names are read into
 * the text from the top down, each after a '/', bounded by strsize.
 * Offsets come from the kernel's BTF (dt_linux_path_offs()).
 */
#define DT_BPF_CWD_STEPS 40

/*
 * T1 = the parent (the pointer at off) of the object whose address is
 * in scratch at slot; to lend at the top, where it is its own parent,
 * or when it cannot be read.
 */
static void
dt_bpf_cg_cwd_up(dt_bpf_cg_t *cg, int16_t slot, uint32_t off, uint32_t lend)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, slot));
	dt_bpf_cg_kread(cg, off, 8);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, slot));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R1, DT_R2, 0),
	    lend);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), lend);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
}

/*
 * The walk's state in scratch (cwd's part, bl_cwd_off): the dentry, the
 * vfsmount, its struct mount, the count of names, the names.
 */
#define DT_CWD_DENT(base)	((int16_t) (base))
#define DT_CWD_VMNT(base)	((int16_t) ((base) + 8))
#define DT_CWD_MNT(base)	((int16_t) ((base) + 16))
#define DT_CWD_CNT(base)	((int16_t) ((base) + 24))
#define DT_CWD_NAMES(base)	((int16_t) ((base) + 32))

/*
 * r1 holds a vfsmount: it becomes the walk's, with its struct mount; the
 * count of names starts at 0.
 */
static void
dt_bpf_cg_pathwalk_mnt(dt_bpf_cg_t *cg)
{
	const dt_linux_path_offs_t *lp = dt_linux_path_offs();
	uint32_t base = cg->cg_lay->bl_cwd_off;

	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_CWD_VMNT(base)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1,
	    (int32_t) lp->lp_mount_mnt));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_CWD_MNT(base)));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_CWD_CNT(base), 0));
}

/*
 * The walk from the dentry and vfsmount in the state, and the text at
 * scratch offset text (at least strsize + 8 bytes): its length goes to
 * T3.  lempty, when not 0, is where code that found nothing to walk
 * jumps to: the text is "/" as for the root.  A walk cut short (more
 * names or mounts than it keeps) starts with "/..." when mark is set;
 * cwd shows its deepest names as they are.
 */
static void
dt_bpf_cg_pathwalk(dt_bpf_cg_t *cg, int16_t text, uint32_t lempty, bool mark)
{
	const dt_linux_path_offs_t *lp = dt_linux_path_offs();
	uint32_t ss = cg->cg_lay->bl_strsize, base = cg->cg_lay->bl_cwd_off;
	int16_t dent = DT_CWD_DENT(base), vmnt = DT_CWD_VMNT(base);
	int16_t mnt = DT_CWD_MNT(base), cnt = DT_CWD_CNT(base);
	int16_t names = DT_CWD_NAMES(base);
	uint32_t lend = dt_bpf_label_new(cg->cg_b);
	uint32_t lcut = dt_bpf_label_new(cg->cg_b);
	uint32_t ltext = dt_bpf_label_new(cg->cg_b);
	uint32_t lroot = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	for (int step = 0; step < DT_BPF_CWD_STEPS; step++) {
		uint32_t lname = dt_bpf_label_new(cg->cg_b);
		uint32_t lnext = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, vmnt));
		dt_bpf_cg_kread(cg, lp->lp_mnt_root, 8);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, dent));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R1, DT_R2,
		    0), lname);
		/* The root of a mount: on to where it is mounted. */
		dt_bpf_cg_cwd_up(cg, mnt, lp->lp_mnt_parent, lend);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, mnt));
		dt_bpf_cg_kread(cg, lp->lp_mnt_mountpoint, 8);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, dent));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, mnt));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) lp->lp_mount_mnt));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, vmnt));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
		/* A directory: its name, then its parent. */
		dt_bpf_label_here(cg->cg_b, lname);
		dt_bpf_cg_cwd_up(cg, dent, lp->lp_d_parent, lend);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, cnt));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
		    DT_BPF_CWD_NAMES, 0), lcut);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, dent));
		dt_bpf_cg_kread(cg, lp->lp_d_name, 8);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, cnt));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2,
		    DT_BPF_CWD_NAMES - 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R2, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R2, DT_R1, names));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, cnt));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, cnt));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, dent));
		dt_bpf_label_here(cg->cg_b, lnext);
	}

	/* Out of steps or of names: cut short. */
	dt_bpf_label_here(cg->cg_b, lcut);
	if (mark) {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, text, 0x2e2e2e2f));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R7, text + 4, 0));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T3, 4));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ltext);
	}
	/* The text: "/name" for each name from the top; "/" for none. */
	dt_bpf_label_here(cg->cg_b, lend);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T3, 0));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, cnt));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), lroot);
	dt_bpf_label_here(cg->cg_b, ltext);
	for (int k = DT_BPF_CWD_NAMES - 1; k >= 0; k--) {
		uint32_t lskip = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, cnt));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JLE, DT_R1, k, 0),
		    lskip);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T3));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R1,
		    (int32_t) ss - 2, 0), lskip);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R2, text, '/'));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R2, text + 1, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
		/* read at most strsize - pos bytes, the NUL included */
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) ss));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, text));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7,
		    (int16_t) (names + 8 * k)));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel_str));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R0, 1,
		    0), lskip);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R0, 1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R0));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
		dt_bpf_label_here(cg->cg_b, lskip);
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	if (lempty != 0)
		dt_bpf_label_here(cg->cg_b, lempty);
	dt_bpf_label_here(cg->cg_b, lroot);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_H, DT_R7, text, '/'));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T3, 1));
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * cwd: the current task's working directory, fs->pwd walked up; its
 * text in cwd's own slot, whose address is left in r1.
 */
void
dt_bpf_cg_cwd(dt_bpf_cg_t *cg)
{
	const dt_linux_path_offs_t *lp = dt_linux_path_offs();
	uint32_t base = cg->cg_lay->bl_cwd_off;
	int16_t text = (int16_t) (base + DT_BPF_CWD_TEXT);
	uint32_t lempty = dt_bpf_label_new(cg->cg_b);

	if (!lp->lp_ok) {
		dt_bpf_cg_error(cg, "built-in variable cwd is not supported "
		    "by the bpf engine here: %s", lp->lp_why);
		return;
	}
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	dt_bpf_cg_kread(cg, lp->lp_fs, 8);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lempty);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	dt_bpf_cg_kread(cg, lp->lp_pwd_dentry, 8);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_CWD_DENT(base)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T1));
	dt_bpf_cg_kread(cg, lp->lp_pwd_mnt, 8);
	dt_bpf_cg_pathwalk_mnt(cg);
	dt_bpf_cg_pathwalk(cg, text, lempty, false);
	dt_bpf_cg_saddr(cg, DT_R1, (uint32_t) text);
}

/*
 * d_path(path [, mount]): the path of a struct path (a file's f_path),
 * or, when mount is given and not 0, of the mount point of the mount it
 * is on; built in work buffer 0, its length in T3, for the caller to
 * copy into a string of its own.  A NULL path is a bad address, as
 * reading it would be.
 */
void
dt_bpf_cg_dpath(dt_bpf_cg_t *cg, int nargs)
{
	const dt_linux_path_offs_t *lp = dt_linux_path_offs();
	uint32_t base = cg->cg_lay->bl_cwd_off;

	if (!lp->lp_ok) {
		dt_bpf_cg_error(cg, "d_path() is not supported by the bpf "
		    "engine here: %s", lp->lp_why);
		return;
	}
	DT_LDTUP(cg, DT_R3, 0);
	dt_bpf_cg_fault_if(cg, BPF_JEQ, DT_R3, 0, DIF_FLT_BADADDR, DT_R3);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
	dt_bpf_cg_kread(cg, lp->lp_path_dentry, 8);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_CWD_DENT(base)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T4));
	dt_bpf_cg_kread(cg, lp->lp_path_mnt, 8);
	dt_bpf_cg_pathwalk_mnt(cg);
	if (nargs > 1) {
		uint32_t lfile = dt_bpf_label_new(cg->cg_b);

		/* The mount's root: the walk crosses to its mount point. */
		DT_LDTUP(cg, DT_R1, 1);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
		    lfile);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7,
		    DT_CWD_VMNT(base)));
		dt_bpf_cg_kread(cg, lp->lp_mnt_root, 8);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_CWD_DENT(base)));
		dt_bpf_label_here(cg->cg_b, lfile);
	}
	dt_bpf_cg_pathwalk(cg, (int16_t) DT_WORK(cg, 0), 0, true);
}

/*
 * progenyof(pid): the current process is pid or descends from it.  The
 * real_parent chain is followed up to DT_BPF_PROGENY_DEPTH generations
 * (unrolled: the verifier sees straight code), stopping at init.  Without
 * task_struct offsets from BTF only the process itself is known, as in
 * the interpreter engine.
 */
#define DT_BPF_PROGENY_DEPTH 16

void
dt_bpf_cg_progenyof(dt_bpf_cg_t *cg, unsigned rd)
{
	const dt_linux_task_offs_t *lt = dt_linux_task_offs();
	uint32_t lyes = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
	DT_LDTUP(cg, DT_R2, 0);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R0, DT_R2, 0),
	    lyes);
	if (lt->lt_ok) {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T1));
		for (int i = 0; i < DT_BPF_PROGENY_DEPTH; i++) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP,
			    DT_FP_T1));
			dt_bpf_cg_kread(cg, lt->lt_real_parent, 8);
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ,
			    DT_R1, 0, 0), ldone);
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1,
			    DT_FP_T1));
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
			dt_bpf_cg_kread(cg, lt->lt_tgid, 4);
			DT_LDTUP(cg, DT_R2, 0);
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ,
			    DT_R1, DT_R2, 0), lyes);
			/* init and the idle task end every chain. */
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JLE,
			    DT_R1, 1, 0), ldone);
		}
	}
	dt_bpf_label_here(cg->cg_b, ldone);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	DT_EMIT(cg, DT_BPF_JA(1));
	dt_bpf_label_here(cg->cg_b, lyes);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}
