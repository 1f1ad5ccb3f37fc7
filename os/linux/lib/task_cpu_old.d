/* SPDX-License-Identifier: MIT */
/*
 * task_cpu_old.d: task_cpu.d for kernels whose thread_info has no cpu
 * (before Linux 5.16 on x86): task_struct's own.
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member task_struct.cpu
#pragma D depends_on member !thread_info.cpu

typedef struct dt_task_cpu {
	unsigned int dtc_cpu;
} dt_task_cpu_t;

translator dt_task_cpu_t < struct task_struct *T > {
	dtc_cpu = T->cpu;
};
