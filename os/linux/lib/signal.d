/* SPDX-License-Identifier: MIT */
/*
 * signal.d: the names of signals and of SIGCHLD codes, as DTrace's
 * signal.d gives them to D programs (proc:::signal-send's args[2],
 * proc:::exit's args[0]), and siginfo_t, proc:::signal-handle's args[1],
 * translated from the kernel's struct kernel_siginfo.
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

inline int CLD_EXITED = 1;
inline int CLD_KILLED = 2;
inline int CLD_DUMPED = 3;
inline int CLD_TRAPPED = 4;
inline int CLD_STOPPED = 5;
inline int CLD_CONTINUED = 6;

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
