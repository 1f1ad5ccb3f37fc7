/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_detach.c: detaching the BPF engine's links (uprobe_multi links,
 * perf events carrying a program) in a way no signal can stop halfway.
 *
 * The kernel takes a link's uprobes out when the last reference to the
 * link goes, in the context of the task that drops it, writing each
 * site's original instruction back through get_user_pages_remote(); that
 * gives up with -EINTR as soon as the task has a fatal signal pending,
 * and uprobe_unregister() then leaves the breakpoint where it is ("failed
 * to unregister, leaking uprobe", once a site).  A dtrace SIGKILLed in
 * the close() of a link of thousands of sites (pid$target:libc::entry)
 * thus left every site after the one the kill met trapping into the
 * kernel at each call for the rest of the traced process's life.  A
 * reference dropped by a process as it exits is released safely: an
 * exiting task has no fatal signal left pending (it took the one that
 * killed it, and later ones are dropped), so every site is restored.
 *
 * So dtrace never drops the last reference to a link with close(): a
 * process forked for the purpose holds the links (its inherited
 * descriptors), dtrace closes its own (which only drops a count), and the
 * helper's exit releases them.  dtrace waits for it, so that when it
 * ends, its probes are gone.  Killed meanwhile, dtrace leaves the helper
 * to finish: its pipe closes, and it exits all the same.  The helper
 * blocks every signal, so only SIGKILL ends it early, which is what it
 * is for; only a SIGKILL to it before dtrace has closed its own
 * descriptors and another to dtrace inside one of those closes could
 * still interrupt a detach.  The guard of -c and -p (cmd/dtrace_guard.c)
 * knows the helpers by their name, DT_BPF_DETACH_COMM, and waits for
 * those its killed child left before it ends.
 *
 * Links go in batches, a helper each, so that the progress line
 * (dt_bpf_progress.c) still counts them where each takes a while:
 * without uprobe_multi, a perf event per site at an eighth of a second
 * each.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/linux/bpf/dt_bpf_engine_impl.h"

/* Links a helper releases: a fork per batch costs little beside them. */
#define DT_BPF_DETACH_BATCH 64

/*
 * The helper's name (the thread's comm, as /proc/PID/comm shows it); the
 * guard looks for it (cmd/dtrace_guard.c).
 */
#define DT_BPF_DETACH_COMM "dtrace-detach"

/*
 * Releases links fds[0, n) in the exit of a helper process; -1 (errno
 * set) when none could be made, the links still ours.
 */
static int
dt_bpf_detach_batch(const int *fds, uint32_t n)
{
	char name[16] = "", b;
	sigset_t all, old;
	int pfd[2], st;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) != 0)
		return -1;
	/*
	 * The helper is named and blocks every signal from its first
	 * instruction: this thread takes the name and the mask for the
	 * fork, so that a guard looking at once finds it named.
	 */
	(void) prctl(PR_GET_NAME, name);
	(void) prctl(PR_SET_NAME, DT_BPF_DETACH_COMM);
	sigfillset(&all);
	(void) pthread_sigmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		/* Until dtrace is done with its copies, or is gone. */
		(void) close(pfd[1]);
		while (read(pfd[0], &b, 1) < 0 && errno == EINTR)
			continue;
		_exit(0);
	}
	(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
	(void) prctl(PR_SET_NAME, name);
	(void) close(pfd[0]);
	if (pid < 0) {
		(void) close(pfd[1]);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		(void) close(fds[i]);	/* the helper holds them still */
	(void) close(pfd[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		continue;
	return 0;
}

/* Links fds[0, n) released, with the progress line when pg is set. */
static void
dt_bpf_release_links(const int *fds, uint32_t n, dt_bpf_progress_t *pg)
{
	for (uint32_t i = 0; i < n; i += DT_BPF_DETACH_BATCH) {
		uint32_t k =
		    n - i < DT_BPF_DETACH_BATCH ? n - i : DT_BPF_DETACH_BATCH;

		/*
		 * No process to be had (a limit on them): closed here, as
		 * the one way left.
		 */
		if (dt_bpf_detach_batch(&fds[i], k) != 0) {
			for (uint32_t j = 0; j < k; j++)
				(void) close(fds[i + j]);
		}
		if (pg != NULL)
			dt_bpf_progress(pg, "detaching", i + k);
	}
}

void
dt_bpf_close_links(const int *fds, uint32_t n)
{
	dt_bpf_progress_t pg;

	dt_bpf_progress_start(&pg, n, "links detached");
	dt_bpf_release_links(fds, n, &pg);
	dt_bpf_progress_end(&pg, true);
}

void
dt_bpf_close_links_quietly(const int *fds, uint32_t n)
{
	dt_bpf_release_links(fds, n, NULL);
}
