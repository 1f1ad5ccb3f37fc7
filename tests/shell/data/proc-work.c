/* SPDX-License-Identifier: MIT */
/*
 * proc-work.c: a workload for the proc and sched providers' tests
 * (tests/shell/proc-provider.sh, sched-provider.sh) whose process events
 * are known exactly.
 *
 *	proc PATH	three children that exit with status 10, 11, 12; a
 *			child that execs /bin/true with arguments "alpha
 *			beta"; a child whose exec of PATH (which must not
 *			exist) fails, then exits with status 7; a child
 *			killed by SIGTERM; two threads; SIGUSR2 raised to a
 *			handler (its address printed as "handler 0x..."),
 *			SIGUSR1 raised while blocked and taken by
 *			sigwait(), SIGURG raised while ignored
 *	sleep N		N sleeps of a millisecond, then burns CPU for
 *			about 0.3 s
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void
handler(int sig)
{
	got = sig;
}

static void *
thread(void *arg)
{
	return arg;
}

static void
reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		continue;
}

static int
proc(const char *missing)
{
	char *argv_true[] = { "true", "alpha", "beta", NULL };
	char *argv_missing[] = { "missing", NULL };
	pthread_t t[2];
	sigset_t set;
	pid_t pid;
	int sig;

	for (int i = 0; i < 3; i++) {
		if ((pid = fork()) == 0)
			_exit(10 + i);
		reap(pid);
	}
	if ((pid = fork()) == 0) {
		/*
		 * The path in a page the child has touched: a probe at the
		 * system call's entry (kernels without sched_prepare_exec)
		 * can read no page that is not in, and a fork does not
		 * bring in the program's read-only data.
		 */
		char true_path[] = "/bin/true";

		execv(true_path, argv_true);
		_exit(1);
	}
	reap(pid);
	if ((pid = fork()) == 0) {
		execv(missing, argv_missing);
		_exit(7);
	}
	reap(pid);
	if ((pid = fork()) == 0) {
		for (;;)
			pause();
	}
	(void) kill(pid, SIGTERM);
	reap(pid);
	for (int i = 0; i < 2; i++)
		(void) pthread_create(&t[i], NULL, thread, NULL);
	for (int i = 0; i < 2; i++)
		(void) pthread_join(t[i], NULL);

	(void) signal(SIGUSR2, handler);
	printf("handler %p\n", (void *) handler);
	fflush(stdout);
	(void) raise(SIGUSR2);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	(void) sigprocmask(SIG_BLOCK, &set, NULL);
	(void) raise(SIGUSR1);
	(void) sigwait(&set, &sig);
	(void) signal(SIGURG, SIG_IGN);
	(void) raise(SIGURG);
	return got == SIGUSR2 && sig == SIGUSR1 ? 0 : 1;
}

static int
sleeper(int n)
{
	struct timespec ms = { 0, 1000000 }, t0, t;
	volatile unsigned long x = 0;

	for (int i = 0; i < n; i++)
		(void) nanosleep(&ms, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long) i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
	    (t.tv_nsec - t0.tv_nsec) < 300000000L);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "proc") == 0)
		return proc(argv[2]);
	if (argc == 3 && strcmp(argv[1], "sleep") == 0)
		return sleeper(atoi(argv[2]));
	fprintf(stderr, "usage: proc-work proc PATH | sleep N\n");
	return 2;
}
