/* SPDX-License-Identifier: MIT */
/*
 * ptrace-target.c: a program for the ptrace engine's tests
 * (tests/shell/ptrace-engine.sh).  Its output depends only on its
 * arguments, so a traced run can be compared with an untraced one.
 *
 *	loop N		N calls of bench_fn
 *	threads N	four threads, N calls of bench_fn each
 *	mix N		recursion, qsort calling back into the program,
 *			string functions, a fork whose child calls bench_fn
 *			N times; exits with status 7
 *	wait FILE	calls bench_fn every millisecond until FILE exists
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int
bench_fn(int x)
{
	return x * 2 + 1;
}

__attribute__((noinline)) static long
fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int
cmp(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;

	return (x > y) - (x < y);
}

static long
loop(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += bench_fn((int) i);
	return s;
}

static void *
worker(void *arg)
{
	return (void *) loop((long) arg);
}

static int
mix(long n)
{
	static const char *const words[] = { "pear", "apple", "fig",
		"banana", "cherry" };
	int v[100], st;
	char buf[256] = "";
	pid_t pid;

	printf("fib %ld\n", fib(15));
	for (int i = 0; i < 100; i++)
		v[i] = (i * 37) % 101;
	qsort(v, 100, sizeof (v[0]), cmp);
	printf("sorted %d %d %d\n", v[0], v[50], v[99]);
	for (int i = 0; i < 5; i++) {
		strcat(buf, words[i]);
		printf("%s %zu %d %s\n", words[i], strlen(words[i]),
		    strcmp(words[i], "fig") > 0, strchr(words[i], 'a') ?
		    strchr(words[i], 'a') : "-");
	}
	printf("%s\n", buf);
	fflush(stdout);
	if ((pid = fork()) == 0)
		_exit(loop(n) == n * n ? 3 : 4);
	(void) waitpid(pid, &st, 0);
	printf("child %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 7;
}

int
main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 10;

	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "loop") == 0) {
		printf("%ld\n", loop(n));
	} else if (strcmp(argv[1], "threads") == 0) {
		pthread_t t[4];
		long s = 0;
		void *r;

		for (int i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, worker, (void *) n);
		for (int i = 0; i < 4; i++) {
			pthread_join(t[i], &r);
			s += (long) r;
		}
		printf("%ld\n", s);
	} else if (strcmp(argv[1], "mix") == 0) {
		return mix(n);
	} else if (strcmp(argv[1], "wait") == 0) {
		static volatile int sink;

		while (access(argv[2], F_OK) != 0) {
			sink = bench_fn(sink & 1);
			usleep(1000);
		}
	}
	return 0;
}
