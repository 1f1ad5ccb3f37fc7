/* SPDX-License-Identifier: MIT */
/*
 * fbt-helper.c: the workload of the kernel lab's fbt tests
 * (tests/klab/fbt-guest.sh), compiled on the host and run in the guest.
 *
 *	fbt-helper PATH N	open(PATH, O_WRONLY | O_APPEND) N times and
 *				(PATH should not exist: each open fails
 *				with ENOENT), stat itself once (through
 *				the 9p module the guest's files are on),
 *				map 7 pages of itself from file offset
 *				0x3000 (do_mmap: 8 or 9 arguments, some
 *				passed on the stack), then print
 *				"kprobes: K", the lines of the kernel's
 *				kprobe list naming do_sys_openat2 (-1 when
 *				the list cannot be read), so the test sees
 *				which mechanism traced the calls
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char line[512];
	struct stat st;
	long n, k = 0;
	FILE *fp;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: fbt-helper PATH N\n");
		return 2;
	}
	n = atol(argv[2]);
	for (long i = 0; i < n; i++) {
		if ((fd = open(argv[1], O_WRONLY | O_APPEND)) >= 0)
			(void) close(fd);
	}
	(void) stat(argv[0], &st);
	if ((fd = open(argv[0], O_RDONLY)) >= 0) {
		void *p = mmap(NULL, 0x7000, PROT_READ, MAP_PRIVATE, fd,
		    0x3000);

		if (p != MAP_FAILED)
			(void) munmap(p, 0x7000);
		(void) close(fd);
	}
	if ((fp = fopen("/sys/kernel/debug/kprobes/list", "r")) == NULL) {
		k = -1;
	} else {
		while (fgets(line, sizeof (line), fp) != NULL)
			k += strstr(line, "do_sys_openat2") != NULL;
		(void) fclose(fp);
	}
	printf("kprobes: %ld\n", k);
	return 0;
}
