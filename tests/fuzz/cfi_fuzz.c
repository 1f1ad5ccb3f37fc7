/* SPDX-License-Identifier: MIT */
/*
 * cfi_fuzz.c: libFuzzer target for the unwind-table reader,
 * os/linux/dt_cfi.c.
 *
 * An input is an ELF file, or a flags byte and the bytes of one section
 * (bit 0: .debug_frame rather than .eh_frame; bit 1: an arm64 file
 * rather than an x86-64 one; bit 2: the bytes as both sections), made
 * into an ELF file by fz_elf().  The file's rows are read as a library's
 * (dt_cfi_load()) and as a process's mapping of it (dt_cfi_maps()), and
 * what every table promises is checked: rows sorted by address, each
 * with a rule the unwinders know, each found by its own address.  A walk
 * over a stack made of the input's bytes follows the rows, as both
 * engines' walks do.  Build and run with tests/fuzz/build.sh (README.md).
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/dt_cfi.h"
#include "tests/fuzz/fuzz_elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz_stack {
	const uint8_t *data;
	size_t size;
} fz_stack_t;

/* The stack's words are the input's, from address 0x10000. */
static int
fz_read(void *arg, uint64_t addr, uint64_t *valp)
{
	const fz_stack_t *st = arg;

	if (addr < 0x10000 || addr - 0x10000 > st->size ||
	    st->size - (addr - 0x10000) < 8)
		return -1;
	memcpy(valp, st->data + (addr - 0x10000), 8);
	return 0;
}

static void
fz_check(const dt_cfi_table_t *ct, const uint8_t *data, size_t size)
{
	fz_stack_t st = { data, size };
	dt_cfi_regs_t regs;
	uint64_t pcs[32];

	for (size_t i = 0; i < ct->ct_nrows; i++) {
		const dt_cfi_row_t *r = &ct->ct_rows[i];

		if (i > 0 && r->cr_pc <= ct->ct_rows[i - 1].cr_pc)
			abort();	/* not sorted, or two rows at one pc */
		if (r->cr_cfa_reg != DT_CFI_STOP && r->cr_cfa_reg !=
		    DT_CFI_FP && r->cr_cfa_reg != DT_CFI_SP)
			abort();
		if (dt_cfi_find(ct, r->cr_pc) != r)
			abort();
	}
	for (size_t i = 0; i < ct->ct_nrows && i < 8; i++) {
		regs.cx_pc = ct->ct_rows[i].cr_pc;
		regs.cx_sp = 0x10000;
		regs.cx_fp = 0x10000 + 8 * i;
		regs.cx_lr = ct->ct_rows[ct->ct_nrows - 1 - i].cr_pc;
		if (dt_cfi_unwind(ct, &regs, fz_read, &st, pcs, 32) > 32)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], maps[128];
	dt_cfi_table_t ct;
	int fd;

	if (fz_is_elf(data, size)) {
		fd = fz_file(data, size);
	} else if (size > 0) {
		fz_sec_t s[2] = {
			{ ".eh_frame", SHT_PROGBITS, 0x1000, data + 1,
			    size - 1, 0, 0 },
			{ ".debug_frame", SHT_PROGBITS, 0, data + 1, size - 1,
			    0, 0 },
		};

		fd = fz_elf(data[0] & 2 ? EM_AARCH64 : EM_X86_64, ET_DYN,
		    data[0] & 4 ? s : data[0] & 1 ? &s[1] : s,
		    data[0] & 4 ? 2 : 1);
	} else {
		return 0;
	}
	if (fd < 0)
		return 0;
	fz_path(fd, path, sizeof (path));

	if (dt_cfi_load(path, &ct) == 0) {
		fz_check(&ct, data, size);
		dt_cfi_free(&ct);
	}
	(void) snprintf(maps, sizeof (maps),
	    "7f0000000000-7f0000100000 r-xp 00000000 00:00 0 %s\n", path);
	if (dt_cfi_maps(maps, &ct) == 0) {
		if (ct.ct_nrows == 0 || ct.ct_rows[0].cr_pc != 0)
			abort();	/* row 0, the frame-pointer rule */
		fz_check(&ct, data, size);
		dt_cfi_free(&ct);
	}
	(void) close(fd);
	return 0;
}
