/* SPDX-License-Identifier: MIT */
/*
 * task_state_old.d: task_state.d for kernels before Linux 5.14, whose
 * task_struct calls the state word "state".
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member task_struct.state
#pragma D depends_on member !task_struct.__state

typedef struct dt_task_state {
	unsigned int dts_state;	/* TASK_RUNNING 0, TASK_INTERRUPTIBLE 1, ... */
} dt_task_state_t;

translator dt_task_state_t < struct task_struct *T > {
	dts_state = T->state;
};
