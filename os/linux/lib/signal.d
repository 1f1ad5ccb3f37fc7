/* SPDX-License-Identifier: MIT */
/*
 * signal.d: the names of signals and of their si_code values, as
 * DTrace's library gives them to D programs (proc:::signal-send's
 * args[2], proc:::exit's args[0], siginfo_t's si_code), and siginfo_t,
 * proc:::signal-handle's args[1], translated from the kernel's struct
 * kernel_siginfo.
 *
 * The numbers are Linux's generic ones (asm-generic/signal.h: x86, arm
 * and most architectures); the members of siginfo_t are those of
 * DTrace's, read from the union the kernel keeps them in: si_pid and
 * si_uid as kill() fills them, si_status as a child's end does, si_addr
 * as a fault does -- which of them means something depends on si_code,
 * as in C.
 */
#pragma D depends_on module vmlinux

inline int SIGHUP = 1;
inline int SIGINT = 2;
inline int SIGQUIT = 3;
inline int SIGILL = 4;
inline int SIGTRAP = 5;
inline int SIGABRT = 6;
inline int SIGIOT = 6;
inline int SIGBUS = 7;
inline int SIGFPE = 8;
inline int SIGKILL = 9;
inline int SIGUSR1 = 10;
inline int SIGSEGV = 11;
inline int SIGUSR2 = 12;
inline int SIGPIPE = 13;
inline int SIGALRM = 14;
inline int SIGTERM = 15;
inline int SIGSTKFLT = 16;
inline int SIGCHLD = 17;
inline int SIGCLD = 17;
inline int SIGCONT = 18;
inline int SIGSTOP = 19;
inline int SIGTSTP = 20;
inline int SIGTTIN = 21;
inline int SIGTTOU = 22;
inline int SIGURG = 23;
inline int SIGXCPU = 24;
inline int SIGXFSZ = 25;
inline int SIGVTALRM = 26;
inline int SIGPROF = 27;
inline int SIGWINCH = 28;
inline int SIGIO = 29;
inline int SIGPOLL = 29;
inline int SIGPWR = 30;
inline int SIGSYS = 31;

/*
 * The real-time signals, as the kernel numbers them.  The C library
 * keeps the first two or three for itself (glibc's threads take 32 and
 * 33), so a program's SIGRTMIN (sysconf, __libc_current_sigrtmin()) is
 * usually 34 where the kernel's, which probes see, is 32.
 */
inline int SIGRTMIN = 32;
inline int SIGRTMAX = 64;

/*
 * si_code: who sent a signal (values of 0 and below: a process), or, for
 * a signal the kernel raises (values above 0), why -- as each signal's
 * own codes (ILL_ for SIGILL, ...).  Linux's numbers.
 */
inline int SI_USER = 0;		/* kill(), raise() */
inline int SI_KERNEL = 0x80;	/* the kernel, for no reason given below */
inline int SI_QUEUE = -1;	/* sigqueue() */
inline int SI_TIMER = -2;	/* a POSIX timer expired */
inline int SI_MESGQ = -3;	/* a message arrived on an empty queue */
inline int SI_ASYNCIO = -4;	/* asynchronous I/O completed */
inline int SI_SIGIO = -5;	/* queued SIGIO */
inline int SI_TKILL = -6;	/* tkill(), tgkill(): to one thread */
inline int SI_LWP = -6;		/* DTrace's name: sent to one thread */
inline int SI_DETHREAD = -7;	/* execve() ending the other threads */
inline int SI_ASYNCNL = -60;	/* the C library's getaddrinfo_a() */

inline int ILL_ILLOPC = 1;
inline int ILL_ILLOPN = 2;
inline int ILL_ILLADR = 3;
inline int ILL_ILLTRP = 4;
inline int ILL_PRVOPC = 5;
inline int ILL_PRVREG = 6;
inline int ILL_COPROC = 7;
inline int ILL_BADSTK = 8;
inline int ILL_BADIADDR = 9;

inline int FPE_INTDIV = 1;
inline int FPE_INTOVF = 2;
inline int FPE_FLTDIV = 3;
inline int FPE_FLTOVF = 4;
inline int FPE_FLTUND = 5;
inline int FPE_FLTRES = 6;
inline int FPE_FLTINV = 7;
inline int FPE_FLTSUB = 8;
inline int FPE_FLTUNK = 14;
inline int FPE_CONDTRAP = 15;

inline int SEGV_MAPERR = 1;
inline int SEGV_ACCERR = 2;
inline int SEGV_BNDERR = 3;
inline int SEGV_PKUERR = 4;

inline int BUS_ADRALN = 1;
inline int BUS_ADRERR = 2;
inline int BUS_OBJERR = 3;
inline int BUS_MCEERR_AR = 4;
inline int BUS_MCEERR_AO = 5;

inline int TRAP_BRKPT = 1;
inline int TRAP_TRACE = 2;
inline int TRAP_BRANCH = 3;
inline int TRAP_HWBKPT = 4;
inline int TRAP_UNK = 5;

inline int CLD_EXITED = 1;
inline int CLD_KILLED = 2;
inline int CLD_DUMPED = 3;
inline int CLD_TRAPPED = 4;
inline int CLD_STOPPED = 5;
inline int CLD_CONTINUED = 6;

inline int POLL_IN = 1;
inline int POLL_OUT = 2;
inline int POLL_MSG = 3;
inline int POLL_ERR = 4;
inline int POLL_PRI = 5;
inline int POLL_HUP = 6;

typedef struct siginfo {
	int si_signo;
	int si_code;
	int si_errno;
	pid_t si_pid;
	uid_t si_uid;
	int si_status;
	uintptr_t si_addr;
	long si_band;
} siginfo_t;

translator siginfo_t < struct kernel_siginfo *S > {
	si_signo = S->si_signo;
	si_code = S->si_code;
	si_errno = S->si_errno;
	si_pid = S->_sifields._kill._pid;
	si_uid = S->_sifields._kill._uid;
	si_status = S->_sifields._sigchld._status;
	si_addr = (uintptr_t)S->_sifields._sigfault._addr;
	si_band = S->_sifields._sigpoll._band;
};
