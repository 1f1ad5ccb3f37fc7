/* SPDX-License-Identifier: MIT */
/*
 * kdwarf_fuzz.c: libFuzzer target for the kernel DWARF reader,
 * os/linux/dt_kdwarf.c, which reads a vmlinux's .debug_info.
 *
 * An input is an ELF file, or three little-endian 16-bit lengths and
 * the bytes of .debug_abbrev, .debug_str and .debug_line_str of those
 * lengths followed by .debug_info (the rest), which fz_elf() makes into
 * an ELF file, so mutations reach the unit, abbreviation and entry
 * parsers.  What the reader promises is checked: every chain it indexes
 * is one dt_kdwarf.h describes, ending with a named type.  Build and run
 * with tests/fuzz/build.sh (README.md).
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/dt_kdwarf.h"
#include "tests/fuzz/fuzz_elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether chain ends with one of the leaf words dt_kdwarf.h names. */
static int
fz_chain_ok(const char *c)
{
	static const char *const leaf[] = { "struct ", "union ", "enum ",
		"typedef ", "int ", "void", "func" };

	if (*c == '=' && (c = strchr(c, ' ')) != NULL)
		c++;
	while (c != NULL && (strncmp(c, "* ", 2) == 0 || c[0] == '[' ||
	    strncmp(c, "const ", 6) == 0 || strncmp(c, "volatile ", 9) == 0))
		c = strchr(c, ' ') + 1;
	if (c == NULL)
		return 0;
	for (size_t i = 0; i < sizeof (leaf) / sizeof (leaf[0]); i++)
		if (strncmp(c, leaf[i], strlen(leaf[i])) == 0)
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], why[256];
	dt_kdwarf_t *kd;
	int fd;

	if (fz_is_elf(data, size)) {
		fd = fz_file(data, size);
	} else if (size >= 6) {
		size_t len[3], off = 6;
		fz_sec_t s[4];

		for (int i = 0; i < 3; i++) {
			len[i] = (size_t) data[2 * i] | (size_t) data[2 * i + 1]
			    << 8;
			if (len[i] > size - off)
				len[i] = size - off;
			off += len[i];
		}
		memset(s, 0, sizeof (s));
		s[0].name = ".debug_abbrev";
		s[0].data = data + 6;
		s[0].size = len[0];
		s[1].name = ".debug_str";
		s[1].data = data + 6 + len[0];
		s[1].size = len[1];
		s[2].name = ".debug_line_str";
		s[2].data = data + 6 + len[0] + len[1];
		s[2].size = len[2];
		s[3].name = ".debug_info";
		s[3].data = data + off;
		s[3].size = size - off;
		for (int i = 0; i < 4; i++)
			s[i].type = SHT_PROGBITS;
		fd = fz_elf(EM_X86_64, ET_EXEC, s, 4);
	} else {
		return 0;
	}
	if (fd < 0)
		return 0;
	fz_path(fd, path, sizeof (path));
	if ((kd = dt_kdwarf_open(path, NULL, why, sizeof (why))) != NULL) {
		/* Every variable the seeds name, and a few others. */
		static const char *const names[] = { "kd_max_pfn", "kd_cad",
			"kd_banner", "kd_table", "kd_grid", "kd_handler",
			"a", "x", "" };

		for (size_t i = 0; i < sizeof (names) / sizeof (names[0]);
		    i++) {
			const char *c = dt_kdwarf_var(kd, names[i]);

			if (c != NULL && !fz_chain_ok(c))
				abort();
		}
		dt_kdwarf_close(kd);
	}
	(void) close(fd);
	return 0;
}
