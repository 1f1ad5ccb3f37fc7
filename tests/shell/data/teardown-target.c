/* SPDX-License-Identifier: MIT */
/*
 * teardown-target.c: the process teardown-kill.sh traces, and its check
 * of a process's text.
 *
 *	teardown-target run STOPFILE
 *
 * Calls libc functions (snprintf, strtol, strlen, memcmp) in a loop,
 * checking every result, until STOPFILE exists; then prints whether the
 * results were right, how many calls a second it made in its first and
 * last second, and whether its libc's text is the file's.  A breakpoint
 * the kernel left behind makes each call through it trap: the rate falls.
 *
 *	teardown-target check PID
 *
 * Compares the executable mappings of process PID with the bytes of the
 * files they map, and prints the number of bytes that differ (a uprobe
 * is a breakpoint written into the process's copy of the page), then,
 * one a line, up to five of them: file and offset.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	(void) clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Bytes of PID's executable file mappings unlike their files'. */
static long
textdiff(const char *pid, int show)
{
	char path[64], line[4352];
	long total = 0;
	FILE *maps;
	int mem;

	(void) snprintf(path, sizeof (path), "/proc/%s/maps", pid);
	if ((maps = fopen(path, "re")) == NULL)
		return -1;
	(void) snprintf(path, sizeof (path), "/proc/%s/mem", pid);
	if ((mem = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		(void) fclose(maps);
		return -1;
	}
	while (fgets(line, sizeof (line), maps) != NULL) {
		uint64_t lo, hi, off;
		unsigned char *a, *b;
		ssize_t na, nb;
		char perms[8];
		int n = 0, fd;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64
		    " %*s %*s %n", &lo, &hi, perms, &off, &n) < 4 || n == 0 ||
		    perms[2] != 'x' || line[n] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if ((fd = open(line + n, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		a = malloc(hi - lo);
		b = malloc(hi - lo);
		if (a != NULL && b != NULL) {
			na = pread(mem, a, hi - lo, (off_t) lo);
			nb = pread(fd, b, hi - lo, (off_t) off);
			for (ssize_t i = 0; i < na && i < nb; i++) {
				if (a[i] == b[i])
					continue;
				if (show > 0) {
					show--;
					printf("%s+0x%" PRIx64 "\n", line + n,
					    off + (uint64_t) i);
				}
				total++;
			}
		}
		free(a);
		free(b);
		(void) close(fd);
	}
	(void) close(mem);
	(void) fclose(maps);
	return total;
}

static int
run(const char *stop)
{
	double tlast = now(), first = -1, last = 0;
	long calls = 0, bad = 0;
	char buf[32];

	for (long i = 0;; i++) {
		int len = snprintf(buf, sizeof (buf), "%ld", i);

		if (strtol(buf, NULL, 10) != i || (int) strlen(buf) != len ||
		    memcmp(buf, "-", 1) == 0)
			bad++;
		calls += 4;
		if (i % 4096 == 0) {
			double t = now();

			if (t - tlast < 1)
				continue;
			last = (double) calls / (t - tlast);
			if (first < 0)
				first = last;
			calls = 0;
			tlast = t;
			if (access(stop, F_OK) == 0)
				break;
		}
	}
	printf("results %s\n", bad == 0 ? "ok" : "wrong");
	printf("calls/s %.0f %.0f\n", first, last);
	printf("text %s\n", textdiff("self", 0) == 0 ? "ok" : "changed");
	return 0;
}

int
main(int argc, char **argv)
{
	long d;

	if (argc == 3 && strcmp(argv[1], "run") == 0)
		return run(argv[2]);
	if (argc != 3 || strcmp(argv[1], "check") != 0)
		return 2;
	if ((d = textdiff(argv[2], 0)) < 0)
		return 1;
	printf("%ld\n", d);
	(void) textdiff(argv[2], 5);
	return 0;
}
