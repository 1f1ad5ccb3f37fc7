/* SPDX-License-Identifier: MIT */
/*
 * psinfo.d: DTrace's process and thread views, psinfo_t and lwpsinfo_t
 * (their types are built into the compiler), translated from the Linux
 * kernel's struct task_struct; curpsinfo and curlwpsinfo for the current
 * thread.
 *
 * On Linux a process is a thread group: pr_pid is the group's ID (the
 * tgid), pr_lwpid the thread's own (its pid).  Kernel threads have no mm:
 * their sizes and argument addresses are 0.  pr_psargs is the current
 * process's command line (execargs), so it is right for curpsinfo and
 * for the thread a probe fired in.
 */
#pragma D depends_on module vmlinux
/* What kernels name differently: one file of each pair is loaded. */
#pragma D depends_on library task_state.d
#pragma D depends_on library task_state_old.d
#pragma D depends_on library task_cpu.d
#pragma D depends_on library task_cpu_old.d

/* A scheduling priority (sched:::change-pri's new one), as DTrace types it. */
typedef short pri_t;

/* pr_dmodel: the data model of a process, as DTrace names them. */
inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;

translator psinfo_t < struct task_struct *T > {
	pr_nlwp = T->signal->nr_threads;
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	pr_pgid = T->signal->pids[2]->numbers[0].nr;	/* PIDTYPE_PGID */
	pr_sid = T->signal->pids[3]->numbers[0].nr;	/* PIDTYPE_SID */
	pr_uid = T->cred->uid.val;
	pr_euid = T->cred->euid.val;
	pr_gid = T->cred->gid.val;
	pr_egid = T->cred->egid.val;
	pr_addr = (uintptr_t)T;
	pr_size = T->mm != 0 ? T->mm->total_vm * 4 : 0;	/* Kbytes */
	/* The controlling terminal's device, (dev_t)-1 for none. */
	pr_ttydev = T->signal->tty == NULL ? (dev_t)-1 :
	    (dev_t)T->signal->tty->driver->major << 20 |
	    (T->signal->tty->driver->minor_start + T->signal->tty->index);
	pr_fname = stringof(T->comm);
	pr_psargs = execargs;
	pr_argv = T->mm != 0 ? T->mm->arg_start : 0;
	pr_envp = T->mm != 0 ? T->mm->env_start : 0;
	/* A 32-bit process's address space ends below 4G. */
	pr_dmodel = T->mm != 0 && T->mm->task_size <= 0x100000000 ?
	    PR_MODEL_ILP32 : PR_MODEL_LP64;
	pr_taskid = 0;
	pr_projid = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = 0;
};

/*
 * pr_state: a thread's state, as DTrace names them, with pr_sname's
 * letter for each.  Linux's task states map onto them: a runnable task is
 * SONPROC while a CPU runs it, else SRUN; any sleep is SSLEEP; stopped or
 * traced is SSTOP; a task that has exited is SZOMB.
 */
inline char SSLEEP = 1;
inline char SRUN = 2;
inline char SZOMB = 3;
inline char SSTOP = 4;
inline char SIDL = 5;
inline char SONPROC = 6;
inline char SWAIT = 7;

/*
 * pr_flag: a thread's flags, DTrace's bits.  Linux sets those that mean
 * something of a task: stopped (by a signal, or for its tracer: that is
 * PR_ISTOP, an event of interest), asleep interruptibly, a CPU's idle
 * thread, a kernel thread (PR_ISSYS), traced by ptrace(2).  The others
 * name states of Solaris's /proc and threads library that Linux does not
 * have; they are never set.
 */
inline int PR_STOPPED = 0x00000001;
inline int PR_ISTOP = 0x00000002;
inline int PR_DSTOP = 0x00000004;
inline int PR_STEP = 0x00000008;
inline int PR_ASLEEP = 0x00000010;
inline int PR_PCINVAL = 0x00000020;
inline int PR_ASLWP = 0x00000040;
inline int PR_AGENT = 0x00000080;
inline int PR_DETACH = 0x00000100;
inline int PR_DAEMON = 0x00000200;
inline int PR_IDLE = 0x00000400;
inline int PR_ISSYS = 0x00001000;
inline int PR_VFORKP = 0x00002000;
inline int PR_ORPHAN = 0x00004000;
inline int PR_NOSIGCHLD = 0x00008000;
inline int PR_WAITPID = 0x00010000;
inline int PR_FORK = 0x00100000;
inline int PR_RLC = 0x00200000;
inline int PR_KLC = 0x00400000;
inline int PR_ASYNC = 0x00800000;
inline int PR_MSACCT = 0x01000000;
inline int PR_BPTADJ = 0x02000000;
inline int PR_PTRACE = 0x04000000;
inline int PR_MSFORK = 0x08000000;

translator lwpsinfo_t < struct task_struct *T > {
	/*
	 * The state word's __TASK_STOPPED (4) and __TASK_TRACED (8),
	 * TASK_INTERRUPTIBLE (1); PF_IDLE (0x2) and PF_KTHREAD (0x200000)
	 * of task_struct's flags.
	 */
	pr_flag = ((xlate <dt_task_state_t> (T).dts_state & 0xc) != 0 ?
	    PR_STOPPED : 0) |
	    ((xlate <dt_task_state_t> (T).dts_state & 0x8) != 0 ?
	    PR_ISTOP : 0) |
	    ((xlate <dt_task_state_t> (T).dts_state & 0x1) != 0 ?
	    PR_ASLEEP : 0) |
	    ((T->flags & 0x2) != 0 ? PR_IDLE : 0) |
	    ((T->flags & 0x200000) != 0 ? PR_ISSYS : 0) |
	    (T->ptrace != 0 ? PR_PTRACE : 0);
	pr_lwpid = T->pid;
	pr_addr = (uintptr_t)T;
	pr_state = T->exit_state != 0 ? SZOMB :
	    (xlate <dt_task_state_t> (T).dts_state & 0xc) != 0 ? SSTOP :
	    /* __TASK_STOPPED, TRACED */
	    xlate <dt_task_state_t> (T).dts_state != 0 ? SSLEEP :
	    T->on_cpu ? SONPROC : SRUN;
	pr_sname = T->exit_state != 0 ? 'Z' :
	    (xlate <dt_task_state_t> (T).dts_state & 0xc) != 0 ? 'T' :
	    xlate <dt_task_state_t> (T).dts_state != 0 ? 'S' :
	    T->on_cpu ? 'O' : 'R';
	pr_pri = T->prio;
	/* The scheduling policy as ps(1)'s class column names it. */
	pr_clname = T->policy == 0 ? "TS" : T->policy == 1 ? "FF" :
	    T->policy == 2 ? "RR" : T->policy == 3 ? "B" :
	    T->policy == 5 ? "IDL" : T->policy == 6 ? "DLN" : "?";
	pr_name = stringof(T->comm);
	pr_onpro = xlate <dt_task_cpu_t> (T).dtc_cpu;
	pr_bindpro = -1;
	pr_bindpset = -1;
};

inline psinfo_t *curpsinfo = xlate<psinfo_t *>(curthread);
inline lwpsinfo_t *curlwpsinfo = xlate<lwpsinfo_t *>(curthread);

/*
 * A CPU named by its number (sched:::enqueue and dequeue: the CPU whose
 * run queue it is): the native argument's value is the number, and the
 * translation is that CPU's entry in the table curcpu points into (one
 * cpuinfo_t per CPU, in CPU order).
 */
typedef struct dt_cpu {
	uint8_t dc_id;		/* stands for the CPU number */
} dt_cpu_t;

translator cpuinfo_t < dt_cpu_t *C > {
	cpu_id = (processorid_t)(uintptr_t)C;
	cpu_pset = (curcpu + ((int)(uintptr_t)C - curcpu->cpu_id))->cpu_pset;
	cpu_chip = (curcpu + ((int)(uintptr_t)C - curcpu->cpu_id))->cpu_chip;
	cpu_lgrp = (curcpu + ((int)(uintptr_t)C - curcpu->cpu_id))->cpu_lgrp;
	cpu_info = (curcpu + ((int)(uintptr_t)C - curcpu->cpu_id))->cpu_info;
};
