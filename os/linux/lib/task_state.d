/* SPDX-License-Identifier: MIT */
/*
 * task_state.d: what psinfo.d's lwpsinfo_t reads of a thread that kernels
 * have renamed -- its state word (__state since Linux 5.14, state before:
 * task_state_old.d).  Exactly one of the two files is loaded, chosen by
 * the kernel's own types (dt_lib.c).
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member task_struct.__state

typedef struct dt_task_state {
	unsigned int dts_state;	/* TASK_RUNNING 0, TASK_INTERRUPTIBLE 1, ... */
} dt_task_state_t;

translator dt_task_state_t < struct task_struct *T > {
	dts_state = T->__state;
};
