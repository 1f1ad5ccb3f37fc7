/* SPDX-License-Identifier: MIT */
/*
 * usdt_args_test.c: decoding the argument operands of USDT notes
 * (dt_usdt_parse_args(), os/linux/prov/dt_prov_usdt.c) into where each
 * argument lives, its size and its signedness.
 */
#include "os/linux/prov/dt_linux_prov.h"
#include "tests/unit/unit.h"

static void
check_arg(const dt_usdt_arg_t *ua, int kind, int size, bool sgn, int reg,
    int shift, int64_t val)
{
	CHECK_INT(ua->ua_kind, kind);
	if (kind == DT_USDT_ARG_NONE)
		return;
	CHECK_INT(ua->ua_size, size);
	CHECK_INT(ua->ua_signed, sgn);
	if (kind != DT_USDT_ARG_CONST) {
		CHECK_INT(ua->ua_reg, reg);
		CHECK_INT(ua->ua_shift, shift);
	}
	if (kind != DT_USDT_ARG_REG)
		CHECK_INT(ua->ua_val, val);
}

int
main(void)
{
	dt_usdt_args_t a;

	/* a bracketed operand with a space is one operand (arm64's) */
	dt_usdt_parse_args("-4@[x0, 8]   8@[sp, -16] 1@$1", &a);
	CHECK_INT(a.ua_nargs, 3);
#if defined(__x86_64__)
	check_arg(&a.ua_args[0], DT_USDT_ARG_NONE, 0, false, 0, 0, 0);
	check_arg(&a.ua_args[2], DT_USDT_ARG_CONST, 1, false, 0, 0, 1);

	/* registers, as gcc writes them at -O2 */
	dt_usdt_parse_args("-4@%edi 8@%rax -8@$5 -8@%rsi", &a);
	CHECK_INT(a.ua_nargs, 4);
	check_arg(&a.ua_args[0], DT_USDT_ARG_REG, 4, true, 112, 0, 0);
	check_arg(&a.ua_args[1], DT_USDT_ARG_REG, 8, false, 80, 0, 0);
	check_arg(&a.ua_args[2], DT_USDT_ARG_CONST, 8, true, 0, 0, 5);
	check_arg(&a.ua_args[3], DT_USDT_ARG_REG, 8, true, 104, 0, 0);

	/* memory operands, as at -O0; a negative constant */
	dt_usdt_parse_args("-4@-20(%rbp)  8@(%rsp) 2@0x10(%r12) -4@$-7", &a);
	CHECK_INT(a.ua_nargs, 4);
	check_arg(&a.ua_args[0], DT_USDT_ARG_MEM, 4, true, 32, 0, -20);
	check_arg(&a.ua_args[1], DT_USDT_ARG_MEM, 8, false, 152, 0, 0);
	check_arg(&a.ua_args[2], DT_USDT_ARG_MEM, 2, false, 24, 0, 16);
	check_arg(&a.ua_args[3], DT_USDT_ARG_CONST, 4, true, 0, 0, -7);

	/* byte registers; a narrower register bounds the size */
	dt_usdt_parse_args("1@%ah -1@%r9b 8@%ax", &a);
	CHECK_INT(a.ua_nargs, 3);
	check_arg(&a.ua_args[0], DT_USDT_ARG_REG, 1, false, 80, 8, 0);
	check_arg(&a.ua_args[1], DT_USDT_ARG_REG, 1, true, 64, 0, 0);
	check_arg(&a.ua_args[2], DT_USDT_ARG_REG, 2, false, 80, 0, 0);

	/* what is not decoded: the argument is there, and 0 */
	dt_usdt_parse_args("4@counter(%rip) 8@(%rax,%rbx,8) 3@%eax 8@%xmm0 "
	    "4@%nosuch", &a);
	CHECK_INT(a.ua_nargs, 5);
	for (int i = 0; i < 5; i++)
		check_arg(&a.ua_args[i], DT_USDT_ARG_NONE, 0, false, 0, 0, 0);

	/* no size prefix (old notes): 8 bytes; empty; too many */
	dt_usdt_parse_args("%rdi", &a);
	CHECK_INT(a.ua_nargs, 1);
	check_arg(&a.ua_args[0], DT_USDT_ARG_REG, 8, false, 112, 0, 0);
	dt_usdt_parse_args("", &a);
	CHECK_INT(a.ua_nargs, 0);
	dt_usdt_parse_args("1@$1 1@$2 1@$3 1@$4 1@$5 1@$6 1@$7 1@$8 1@$9 "
	    "1@$10 1@$11 1@$12 1@$13", &a);
	CHECK_INT(a.ua_nargs, DT_USDT_MAXARGS);
	check_arg(&a.ua_args[11], DT_USDT_ARG_CONST, 1, false, 0, 0, 12);
	return unit_done();
#elif defined(__aarch64__)
	/* pt_regs offsets: x<n> at 8n, sp at 248 */
	check_arg(&a.ua_args[0], DT_USDT_ARG_MEM, 4, true, 0, 0, 8);
	check_arg(&a.ua_args[1], DT_USDT_ARG_MEM, 8, false, 248, 0, -16);
	check_arg(&a.ua_args[2], DT_USDT_ARG_NONE, 0, false, 0, 0, 0);

	/* registers, a w register bounds the size, constants */
	dt_usdt_parse_args("8@x1 -8@w2 -4@[sp, 12] 4@#5 -4@#-7 8@x29", &a);
	CHECK_INT(a.ua_nargs, 6);
	check_arg(&a.ua_args[0], DT_USDT_ARG_REG, 8, false, 8, 0, 0);
	check_arg(&a.ua_args[1], DT_USDT_ARG_REG, 4, true, 16, 0, 0);
	check_arg(&a.ua_args[2], DT_USDT_ARG_MEM, 4, true, 248, 0, 12);
	check_arg(&a.ua_args[3], DT_USDT_ARG_CONST, 4, false, 0, 0, 5);
	check_arg(&a.ua_args[4], DT_USDT_ARG_CONST, 4, true, 0, 0, -7);
	check_arg(&a.ua_args[5], DT_USDT_ARG_REG, 8, false, 232, 0, 0);
	return unit_done();
#else
	SKIP("USDT operands are decoded on x86-64 and aarch64 only");
#endif
}
