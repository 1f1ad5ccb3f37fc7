/*
 * The uregs[] aliases are illumos's amd64 numbers (its regs.d): R_PC is
 * R_EIP, R_SP R_UESP, R_FP R_EBP, R_PS R_EFL, R_R0 R_EAX and R_R1 R_EBX.
 * (A build without an OS backend has no R_* names.)
 * @options: -q
 * @requires: os:linux isa:x86_64
 */
BEGIN
{
	printf("%d %d %d %d %d %d\n", R_PC == R_EIP, R_SP == R_UESP,
	    R_FP == R_EBP, R_PS == R_EFL, R_R0 == R_EAX, R_R1 == R_EBX);
	printf("%d %d %d\n", R_R0, R_R1, R_PC);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
