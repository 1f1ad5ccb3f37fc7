/* SPDX-License-Identifier: MIT */
/*
 * isa_ptregs_test.c: the ISA's struct pt_regs layout (isa/dt_isa.h, the
 * Linux part) against the running kernel's: every member the ISA names
 * is where the kernel's BTF puts it, every register the layout and
 * uregs[] use is one of those members, and the members a returning
 * system call's number and first argument are read from exist.  Skips
 * without kernel BTF, or when the kernel is another ISA's (qemu-user).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dt_isa.h"
#include "os/linux/dt_linux_features.h"
#include "tests/unit/unit.h"

/* Is the word at offset off one of the members the ISA names? */
static int
covered(int16_t off)
{
	for (const dt_isa_member_t *m = dt_isa_linux_ptregs; m->im_path; m++) {
		if (off >= m->im_off && off < m->im_off + 8 * m->im_words &&
		    (off - m->im_off) % 8 == 0)
			return 1;
	}
	printf("offset %d is not a named pt_regs member\n", off);
	return 0;
}

int
main(void)
{
	const dt_isa_layout_t *il = &dt_isa_layout;
	const char *paths[64];
	uint32_t offs[64];
	char arch[64];
	int n = 0;
	FILE *fp;

	/* Under qemu-user the kernel, and its BTF, are another ISA's. */
	if ((fp = fopen("/proc/sys/kernel/arch", "r")) != NULL) {
		if (fgets(arch, sizeof(arch), fp) != NULL) {
			arch[strcspn(arch, "\n")] = '\0';
			if (strcmp(arch, dt_isa_name) != 0) {
				printf(
				    "the kernel is %s's, not %s's (an emulator "
				    "such as qemu-user)\n",
				    arch, dt_isa_name);
				exit(77);
			}
		}
		fclose(fp);
	}
	for (const dt_isa_member_t *m = dt_isa_linux_ptregs; m->im_path; m++)
		paths[n++] = m->im_path;
	paths[n++] = dt_isa_linux_sysnr_member;
	paths[n++] = dt_isa_linux_sysarg0_member;
	if (dt_linux_btf_offsets(paths, offs, n) != 0)
		SKIP("the kernel has no BTF (/sys/kernel/btf/vmlinux)");

	for (int i = 0; dt_isa_linux_ptregs[i].im_path != NULL; i++) {
		if (offs[i] != (uint32_t) dt_isa_linux_ptregs[i].im_off)
			printf("%s\n", paths[i]);
		CHECK_INT(offs[i], (uint32_t) dt_isa_linux_ptregs[i].im_off);
	}
	CHECK(offs[n - 2] != UINT32_MAX);
	CHECK(offs[n - 1] != UINT32_MAX);

	CHECK(covered(il->il_pc));
	CHECK(covered(il->il_sp));
	CHECK(covered(il->il_fp));
	CHECK(il->il_lr < 0 || covered(il->il_lr));
	CHECK(covered(il->il_flags));
	CHECK(covered(il->il_ret));
	CHECK(covered(il->il_mode));
	for (int i = 0; i < il->il_nargs; i++)
		CHECK(covered(il->il_args[i]));
	for (int i = 0; i < il->il_nuregs; i++)
		CHECK(il->il_uregs[i] < 0 || covered(il->il_uregs[i]));
	return unit_done();
}
