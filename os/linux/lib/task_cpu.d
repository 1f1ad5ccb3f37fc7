/* SPDX-License-Identifier: MIT */
/*
 * task_cpu.d: the CPU a thread last ran on, for psinfo.d's lwpsinfo_t:
 * in its thread_info since Linux 5.16 (x86), in task_struct itself
 * before (task_cpu_old.d).  One of the two files is loaded, chosen by the
 * kernel's own types (dt_lib.c).
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member thread_info.cpu

typedef struct dt_task_cpu {
	unsigned int dtc_cpu;
} dt_task_cpu_t;

translator dt_task_cpu_t < struct task_struct *T > {
	dtc_cpu = T->thread_info.cpu;
};
