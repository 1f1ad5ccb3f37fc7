/* SPDX-License-Identifier: MIT */
/*
 * ptrace-sys.c: a target for the ptrace engine's syscall and proc
 * providers (tests/shell/ptrace-syscall.sh).
 *
 *	calls N		getppid() N times, writes to /dev/null, a failing
 *			open, then a thread and a forked child that make
 *			calls of their own
 *	exec		a child that fails to exec, then execs "true"
 *	wait FILE	getppid() every millisecond until FILE exists
 *	patch		write(-1, buf) then prints buf (copyout target)
 *	signal N	getppid() N times with a SIGUSR1 handler; prints
 *			the signals handled
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void *
thread(void *arg)
{
	for (int i = 0; i < 100; i++)
		(void) getppid();
	return arg;
}

static void
onusr1(int sig)
{
	(void) sig;
	handled++;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? atol(argv[2]) : 0;
	char buf[32] = "original";

	if (strcmp(mode, "calls") == 0) {
		pthread_t t;
		pid_t p;
		int fd = open("/dev/null", O_WRONLY);

		for (long i = 0; i < n; i++)
			(void) getppid();
		for (int i = 0; i < 5; i++)
			(void) !write(fd, "x", 1);
		(void) close(fd);
		(void) open("/nonexistent/file", O_RDONLY);
		(void) pthread_create(&t, NULL, thread, NULL);
		(void) pthread_join(t, NULL);
		if ((p = fork()) == 0) {
			for (int i = 0; i < 7; i++)
				(void) getppid();
			_exit(3);
		}
		(void) waitpid(p, NULL, 0);
	} else if (strcmp(mode, "exec") == 0) {
		pid_t p = fork();

		if (p == 0) {
			(void) execl("/nonexistent", "x", (char *) NULL);
			(void) execl("/bin/true", "true", (char *) NULL);
			_exit(9);
		}
		(void) waitpid(p, NULL, 0);
	} else if (strcmp(mode, "wait") == 0 && argc > 2) {
		while (access(argv[2], F_OK) != 0) {
			(void) getppid();
			(void) usleep(1000);
		}
	} else if (strcmp(mode, "patch") == 0) {
		(void) !write(-1, buf, sizeof (buf));
		printf("%s\n", buf);
	} else if (strcmp(mode, "signal") == 0) {
		(void) signal(SIGUSR1, onusr1);
		for (long i = 0; i < n; i++)
			(void) getppid();
		printf("handled %d\n", (int) handled);
	}
	return 0;
}
