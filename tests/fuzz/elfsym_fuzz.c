/* SPDX-License-Identifier: MIT */
/*
 * elfsym_fuzz.c: libFuzzer target for the ELF symbol reader,
 * os/linux/dt_elfsym.c.
 *
 * An input is an ELF file, or a flags byte (bit 0: the table is .dynsym
 * rather than .symtab; bit 1: a build-ID note made of the input's bytes
 * too), a count of symbols, that many Elf64_Sym and the bytes of their
 * string table, which fz_elf() makes into an ELF file.  What the reader
 * promises is checked: symbols sorted by address, each named, each
 * address of a symbol given a file offset inside its segment or none.
 * Build and run with tests/fuzz/build.sh (README.md).
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/dt_elfsym.h"
#include "tests/fuzz/fuzz_elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dt_elfsyms_t ess;
	char path[64];
	int fd;

	if (fz_is_elf(data, size)) {
		fd = fz_file(data, size);
	} else if (size >= 2) {
		size_t n = data[1], rest = size - 2;

		if (n > rest / sizeof (Elf64_Sym))
			n = rest / sizeof (Elf64_Sym);
		fz_sec_t s[3] = {
			{ data[0] & 1 ? ".dynsym" : ".symtab",
			    data[0] & 1 ? SHT_DYNSYM : SHT_SYMTAB, 0x1000,
			    data + 2, n * sizeof (Elf64_Sym), 2,
			    sizeof (Elf64_Sym) },
			{ data[0] & 1 ? ".dynstr" : ".strtab", SHT_STRTAB, 0,
			    data + 2 + n * sizeof (Elf64_Sym),
			    rest - n * sizeof (Elf64_Sym), 0, 0 },
			{ ".note.gnu.build-id", SHT_NOTE, 0, data + 2, rest, 0,
			    0 },
		};

		fd = fz_elf(EM_X86_64, ET_DYN, s, data[0] & 2 ? 3 : 2);
	} else {
		return 0;
	}
	if (fd < 0)
		return 0;
	fz_path(fd, path, sizeof (path));

	if (dt_elfsym_load(path, &ess) == 0) {
		for (size_t i = 0; i < ess.ess_nsyms; i++) {
			const dt_elfsym_t *es = &ess.ess_syms[i];
			int64_t off;

			if (es->es_name == NULL || es->es_name[0] == '\0' ||
			    es->es_size == 0 || es->es_rank > 2)
				abort();
			if (i > 0 && es->es_addr < ess.ess_syms[i - 1].es_addr)
				abort();
			off = dt_elfsym_fileoff(&ess, es->es_addr);
			if (off < -1)
				abort();
		}
		dt_elfsym_free(&ess);
	}
	(void) close(fd);
	return 0;
}
