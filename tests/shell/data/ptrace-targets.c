/* SPDX-License-Identifier: MIT */
/*
 * ptrace-targets.c: the -p targets of tests/shell/ptrace-targets.sh, each
 * a program the ptrace engine must leave as it found it, which checks
 * every result it gets and says "ok" at the end only if all were right.
 *
 *   threads N STOP   N threads asleep in system calls while the test
 *                    attaches and detaches: raw futex waits, nanosleep
 *                    (each must sleep its whole time and return 0), a
 *                    pthread_cond_wait, and main in pthread_join; one
 *                    thread calls work() for the probes.  A result such
 *                    as -512 (the kernel's ERESTARTSYS) or an early wake
 *                    fails it.  Ends once the file STOP exists.
 *   blocked STOP     every thread blocks every signal, calling work().
 *   seccomp STOP     under a seccomp filter that kills the process for
 *                    mprotect(2) and refuses rt_sigaction(2), calling
 *                    work().
 *   catch G C T      not a target: waits (up to 1 s) for a thread of
 *                    process T to be in mmap(2), mprotect(2) or
 *                    rt_sigaction(2), as when dtrace injects one, and
 *                    SIGKILLs the guard G and the tracer C at that moment.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *stop_path;
static volatile int done;
static int futex_word;
static volatile int bad;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile uint64_t total;

__attribute__((noinline)) uint64_t
work(uint64_t x)
{
	total += x;
	__asm__ volatile("" ::: "memory");
	return total;
}

static void
fail(const char *what, long rv, int err)
{
	fprintf(stderr, "FAIL: %s returned %ld (errno %d)\n", what, rv, err);
	bad = 1;
}

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Sleep ms in one nanosleep: 0 and the whole time, or a failure noted. */
static void
nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	int64_t t0 = now_ns();
	long rv = syscall(SYS_nanosleep, &ts, NULL);

	if (rv != 0)
		fail("nanosleep", rv, errno);
	else if (now_ns() - t0 < ms * 1000000 - 1000000)
		fail("nanosleep (woke early)", (long) (now_ns() - t0), 0);
}

static void *
futex_waiter(void *arg)
{
	(void) arg;
	while (!done) {
		long rv = syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE,
		    0, NULL, NULL, 0);

		if (rv != 0 && errno != EAGAIN)
			fail("futex wait", rv, errno);
	}
	return NULL;
}

static void *
sleeper(void *arg)
{
	(void) arg;
	while (!done)
		nap(40);
	return NULL;
}

static void *
cond_waiter(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&mu);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void *
worker(void *arg)
{
	uint64_t n = 0;

	(void) arg;
	while (!done) {
		for (int i = 0; i < 100; i++)
			work(++n);
		nap(2);
	}
	if (total != n * (n + 1) / 2)
		fail("work's sum", (long) total, 0);
	return NULL;
}

/* Until STOP exists; then everyone wakes and ends. */
static void *
stopper(void *arg)
{
	(void) arg;
	while (access(stop_path, F_OK) != 0)
		nap(10);
	done = 1;
	__atomic_store_n(&futex_word, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 1 << 30, NULL,
	    NULL, 0);
	pthread_mutex_lock(&mu);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int
threads(int n)
{
	pthread_t *t = calloc((size_t) n + 2, sizeof (*t));
	void *(*fn[])(void *) = { futex_waiter, sleeper, cond_waiter };
	int rc;

	if (pthread_create(&t[0], NULL, stopper, NULL) != 0 ||
	    pthread_create(&t[1], NULL, worker, NULL) != 0)
		return 1;
	for (int i = 0; i < n; i++) {
		if (pthread_create(&t[i + 2], NULL, fn[i % 3], NULL) != 0)
			return 1;
	}
	/* main waits in pthread_join, a futex wait of glibc's own. */
	for (int i = 0; i < n + 2; i++) {
		if ((rc = pthread_join(t[i], NULL)) != 0)
			fail("pthread_join", rc, 0);
	}
	if (bad)
		return 1;
	printf("ok %d threads\n", n);
	return 0;
}

static int
sandbox(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigaction, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof (f) / sizeof (f[0]), f };

	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0;
}

/* work() until STOP exists, single-threaded. */
static int
loop(const char *what)
{
	uint64_t n = 0;

	while (access(stop_path, F_OK) != 0) {
		for (int i = 0; i < 100; i++)
			work(++n);
		nap(2);
	}
	if (bad || total != n * (n + 1) / 2)
		return 1;
	printf("ok %s\n", what);
	return 0;
}

/* Each thread's /proc/T/task/<tid>/syscall read until one is in a call. */
static int
catch(int g, int c, int t)
{
	char path[128], buf[64], want[3][16];
	int fds[512], n = 0;
	struct dirent *de;
	DIR *d;
	int64_t end = now_ns() + 1000000000;

	(void) snprintf(want[0], sizeof (want[0]), "%d ", SYS_mmap);
	(void) snprintf(want[1], sizeof (want[1]), "%d ", SYS_mprotect);
	(void) snprintf(want[2], sizeof (want[2]), "%d ", SYS_rt_sigaction);
	(void) snprintf(path, sizeof (path), "/proc/%d/task", t);
	if ((d = opendir(path)) == NULL)
		return 1;
	while ((de = readdir(d)) != NULL && n < 512) {
		if (atoi(de->d_name) <= 0)
			continue;
		(void) snprintf(path, sizeof (path), "/proc/%d/task/%d/syscall",
		    t, atoi(de->d_name));
		if ((fds[n] = open(path, O_RDONLY)) >= 0)
			n++;
	}
	(void) closedir(d);
	while (now_ns() < end) {
		for (int i = 0; i < n; i++) {
			ssize_t k = pread(fds[i], buf, sizeof (buf) - 1, 0);

			if (k <= 0)
				continue;
			buf[k] = '\0';
			for (int w = 0; w < 3; w++) {
				if (strncmp(buf, want[w], strlen(want[w])) != 0)
					continue;
				(void) kill(c, SIGKILL);
				(void) kill(g, SIGKILL);
				return 0;
			}
		}
	}
	return 1;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "threads") == 0) {
		stop_path = argv[3];
		return threads(atoi(argv[2]));
	}
	if (argc == 3 && strcmp(argv[1], "blocked") == 0) {
		sigset_t all;

		stop_path = argv[2];
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, NULL);
		return loop("blocked");
	}
	if (argc == 3 && strcmp(argv[1], "seccomp") == 0) {
		stop_path = argv[2];
		if (sandbox() != 0) {
			perror("seccomp");
			return 2;
		}
		return loop("seccomp");
	}
	if (argc == 5 && strcmp(argv[1], "catch") == 0)
		return catch(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: %s threads N STOP | blocked STOP | "
	    "seccomp STOP | catch G C T\n", argv[0]);
	return 2;
}
