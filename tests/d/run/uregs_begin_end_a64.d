/*
 * arm64's uregs_begin_end.d: BEGIN and END fire in the dtrace process
 * itself, as in DTrace, so uregs[] there are its own user registers: a
 * pc, a stack pointer, and PSTATE in user mode (EL0t: M[3:0] is 0).
 * @options: -q
 * @requires: os:linux isa:aarch64
 */
BEGIN
{
	printf("BEGIN pc %d sp %d el0 %d\n", uregs[R_PC] != 0,
	    uregs[R_SP] != 0, (uregs[R_PSTATE] & 0xf) == 0);
	exit(0);
}

END
{
	printf("END pc %d sp %d\n", uregs[R_PC] != 0, uregs[R_SP] != 0);
}

ERROR
{
	printf("uregs[] faulted\n");
}
/* SPDX-License-Identifier: MIT */
