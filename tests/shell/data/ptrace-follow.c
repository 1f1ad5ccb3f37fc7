/* SPDX-License-Identifier: MIT */
/*
 * ptrace-follow.c: the program of tests/shell/ptrace-follow.sh, where the
 * ptrace engine follows processes through fork, vfork, exec and dlopen.
 *
 *	loop N		N calls of bench_fn, then one of libc's puts()
 *	fork K M	K fork children, each calling bench_fn M times
 *	vfork K PROG ARG	K vfork children, one after the other, each
 *			exec'ing "PROG loop ARG"; then bench_fn once
 *	spawn K PROG ARG	the same with fork children
 *	exec PROG ARG	bench_fn once, then exec "PROG loop ARG"
 *	dlopen LIB N	dlopen()s LIB and calls its lib_fn N times, closes
 *			it, then does it all again
 *	forkdl LIB N	the same in a fork child
 *	signals		SIGUSR2 ignored and raised (discarded); SIGUSR1
 *			blocked, raised and taken by sigwait() (cleared)
 *
 *	(with -DLIB)	the library: lib_fn(x)
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef LIB
__attribute__((noinline)) int
lib_fn(int x)
{
	return x + 1;
}
#else
__attribute__((noinline)) int
bench_fn(int x)
{
	return x * 2 + 1;
}

static long
loop(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += bench_fn((int) i);
	return s;
}

static int
children(int k, char **argv, int use_vfork)
{
	for (int i = 0; i < k; i++) {
		char *args[] = { argv[0], "loop", argv[1], NULL };
		pid_t p = use_vfork ? vfork() : fork();

		if (p == 0) {
			execv(args[0], args);
			_exit(127);
		}
		if (p < 0 || waitpid(p, NULL, 0) != p)
			return 1;
	}
	return bench_fn(0) == 1 ? 0 : 1;
}

static int
dlopen_twice(const char *lib, int n)
{
	for (int round = 0; round < 2; round++) {
		void *h = dlopen(lib, RTLD_NOW);
		int (*fn)(int);
		long s = 0;

		if (h == NULL || (fn = (int (*)(int)) dlsym(h, "lib_fn")) ==
		    NULL) {
			fprintf(stderr, "dlopen: %s\n", dlerror());
			return 1;
		}
		for (int i = 0; i < n; i++)
			s += fn(i);
		printf("lib %ld\n", s);
		(void) dlclose(h);
	}
	return 0;
}

static int
signals(void)
{
	sigset_t set;
	int sig = 0;

	(void) signal(SIGUSR2, SIG_IGN);
	(void) raise(SIGUSR2);
	(void) sigemptyset(&set);
	(void) sigaddset(&set, SIGUSR1);
	(void) sigprocmask(SIG_BLOCK, &set, NULL);
	(void) raise(SIGUSR1);
	if (sigwait(&set, &sig) != 0 || sig != SIGUSR1)
		return 1;
	printf("sigwait %d\n", sig);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "loop") == 0 && argc > 2) {
		long n = atol(argv[2]);

		(void) puts(loop(n) == n * n ? "ok" : "wrong");
		return 0;
	}
	if (strcmp(mode, "fork") == 0 && argc > 3) {
		int k = atoi(argv[2]), m = atoi(argv[3]);

		for (int i = 0; i < k; i++) {
			if (fork() == 0)
				_exit(loop(m) == (long) m * m ? 0 : 1);
		}
		while (wait(NULL) > 0)
			continue;
		return 0;
	}
	if ((strcmp(mode, "vfork") == 0 || strcmp(mode, "spawn") == 0) &&
	    argc > 4)
		return children(atoi(argv[2]), argv + 3, mode[0] == 'v');
	if (strcmp(mode, "exec") == 0 && argc > 3) {
		char *args[] = { argv[2], "loop", argv[3], NULL };

		if (bench_fn(0) != 1)
			return 1;
		execv(args[0], args);
		return 127;
	}
	if (strcmp(mode, "dlopen") == 0 && argc > 3)
		return dlopen_twice(argv[2], atoi(argv[3]));
	if (strcmp(mode, "forkdl") == 0 && argc > 3) {
		pid_t p = fork();
		int st;

		if (p == 0) {
			st = dlopen_twice(argv[2], atoi(argv[3]));
			(void) fflush(stdout);
			_exit(st);
		}
		return p > 0 && waitpid(p, &st, 0) == p && st == 0 ? 0 : 1;
	}
	if (strcmp(mode, "signals") == 0)
		return signals();
	fprintf(stderr, "usage: %s loop|fork|vfork|spawn|exec|dlopen|forkdl|"
	    "signals ...\n", argv[0]);
	return 2;
}
#endif
