/*
 * BEGIN and END fire in the dtrace process itself, as in DTrace, so
 * uregs[] there are its own user registers: a pc, a stack pointer and
 * user-mode code and stack segments.
 * @options: -q
 * @requires: os:linux isa:x86_64
 */
BEGIN
{
	printf("BEGIN pc %d sp %d cs %x ss %x\n", uregs[R_PC] != 0,
	    uregs[R_SP] != 0, uregs[R_CS], uregs[R_SS]);
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
