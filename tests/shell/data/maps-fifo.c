/* SPDX-License-Identifier: MIT */
/*
 * maps-fifo.c: the program of tests/shell/maps-fifo.sh, and with -DLIB
 * its library.  maps-fifo DIR SECONDS loads DIR/libspin.so, then puts a
 * FIFO in the library's place, as any user can in a directory of his
 * own: /proc/<pid>/maps still names the path (" (deleted)"), and a
 * tracer reading the library's symbols or unwind tables by that name
 * opens the FIFO.  It writes its pid to DIR/pid, waits for DIR/go, and
 * runs the library's loop for SECONDS.
 */
#ifdef LIB
long
lib_spin(long n)
{
	volatile long x = 0;

	for (long i = 0; i < n; i++)
		x += i;
	return x;
}
#else
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	(void) clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	char lib[4096], path[4096];
	struct timespec ms = {0, 1000000};
	long (*fn)(long);
	double end;
	void *h;
	FILE *fp;

	if (argc != 3) {
		(void) fprintf(stderr, "usage: maps-fifo DIR SECONDS\n");
		return 2;
	}
	(void) snprintf(lib, sizeof(lib), "%s/libspin.so", argv[1]);
	if ((h = dlopen(lib, RTLD_NOW)) == NULL ||
	    (fn = (long (*)(long)) dlsym(h, "lib_spin")) == NULL) {
		(void) fprintf(stderr, "maps-fifo: %s\n", dlerror());
		return 2;
	}
	if (unlink(lib) != 0 || mkfifo(lib, 0644) != 0) {
		perror(lib);
		return 2;
	}
	(void) snprintf(path, sizeof(path), "%s/pid", argv[1]);
	if ((fp = fopen(path, "w")) == NULL) {
		perror(path);
		return 2;
	}
	(void) fprintf(fp, "%d\n", (int) getpid());
	(void) fclose(fp);
	(void) snprintf(path, sizeof(path), "%s/go", argv[1]);
	while (access(path, F_OK) != 0)
		(void) nanosleep(&ms, NULL);
	end = now() + atof(argv[2]);
	while (now() < end)
		(void) fn(1000000);
	return 0;
}
#endif
