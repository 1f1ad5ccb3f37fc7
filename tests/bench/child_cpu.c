/* SPDX-License-Identifier: MIT */
/*
 * child_cpu.c: child_cpu FILE CMD [ARG...] runs CMD, waits for it, and
 * writes to FILE "<CPU us> <peak RSS KB>": the user and system time of
 * CMD and the children it waited for, in microseconds (/usr/bin/time
 * shows CPU time only to 10 ms), and its peak resident set.  Exits with
 * CMD's status.  The benchmarks compile it for their CPU figures.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	int st;
	pid_t p;
	FILE *f;

	if (argc < 3 || (p = fork()) < 0)
		return 2;
	if (p == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (wait4(p, &st, 0, &ru) < 0 || (f = fopen(argv[1], "w")) == NULL)
		return 2;
	fprintf(f, "%lld %ld\n",
	    (long long) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
		ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
	    ru.ru_maxrss);
	(void) fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
