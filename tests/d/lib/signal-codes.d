/*
 * signal.d's names of the real-time signals and of si_code values, with
 * Linux's numbers: who sent a signal (SI_*, SI_LWP being tgkill()'s) and
 * why the kernel did (ILL_*, FPE_*, SEGV_*, BUS_*, TRAP_*, CLD_*,
 * POLL_*).
 * @options: -q
 * @requires: os:linux
 */
BEGIN
{
	printf("%d %d\n", SIGRTMIN, SIGRTMAX);
	printf("%d %d %d %d %d %d %d %d %d %d %d\n", SI_USER, SI_KERNEL,
	    SI_QUEUE, SI_TIMER, SI_MESGQ, SI_ASYNCIO, SI_SIGIO, SI_TKILL,
	    SI_LWP, SI_DETHREAD, SI_ASYNCNL);
	printf("%d %d %d %d %d %d %d %d %d\n", ILL_ILLOPC, ILL_ILLOPN,
	    ILL_ILLADR, ILL_ILLTRP, ILL_PRVOPC, ILL_PRVREG, ILL_COPROC,
	    ILL_BADSTK, ILL_BADIADDR);
	printf("%d %d %d %d %d %d %d %d %d %d\n", FPE_INTDIV, FPE_INTOVF,
	    FPE_FLTDIV, FPE_FLTOVF, FPE_FLTUND, FPE_FLTRES, FPE_FLTINV,
	    FPE_FLTSUB, FPE_FLTUNK, FPE_CONDTRAP);
	printf("%d %d %d %d\n", SEGV_MAPERR, SEGV_ACCERR, SEGV_BNDERR,
	    SEGV_PKUERR);
	printf("%d %d %d %d %d\n", BUS_ADRALN, BUS_ADRERR, BUS_OBJERR,
	    BUS_MCEERR_AR, BUS_MCEERR_AO);
	printf("%d %d %d %d %d\n", TRAP_BRKPT, TRAP_TRACE, TRAP_BRANCH,
	    TRAP_HWBKPT, TRAP_UNK);
	printf("%d %d %d %d %d %d\n", CLD_EXITED, CLD_KILLED, CLD_DUMPED,
	    CLD_TRAPPED, CLD_STOPPED, CLD_CONTINUED);
	printf("%d %d %d %d %d %d\n", POLL_IN, POLL_OUT, POLL_MSG, POLL_ERR,
	    POLL_PRI, POLL_HUP);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
