/* SPDX-License-Identifier: MIT */
/*
 * dt_cc_run.c: run a compile on a stack sized for the deepest program the
 * compiler accepts.
 *
 * The cooker and the code generator walk expressions recursively.  A
 * chain of left-associative operators (a generated predicate
 * "pid == 1 || pid == 2 || ... ") is as deep as it is long, and the
 * caller's stack (8 MB by default, less on other threads, and frames are
 * larger under sanitizers) holds only a few thousand levels.  So each
 * compile runs on a thread of its own whose stack has room for
 * DT_CC_MAXDEPTH levels, and the parser refuses deeper expressions with
 * an error (dt_node.c): any program either compiles or gets one error
 * line.  The stack is address space only: pages are used as deep as a
 * program actually goes, and given back when the thread ends.
 */
#include <pthread.h>
#include <signal.h>

#include "common/compiler/dt_cc.h"

/*
 * Stack bytes per level of expression: a compile of a 99,000-operator
 * chain peaks at about 2 KB a level in a plain build and 4 KB in a
 * sanitizer build (nodes included), so this leaves room for growth.
 */
#define DT_CC_STACK_PER_LEVEL 8192
/* Room for what the compile uses besides the expression walks. */
#define DT_CC_STACK_BASE (16UL << 20)
/*
 * Without a thread of our own (one could not be made), the caller's stack
 * must do: only shallow expressions are accepted.
 */
#define DT_CC_MAXDEPTH_INLINE 1000

typedef struct dt_cc_job {
	void (*j_fn)(void *);
	void *j_arg;
} dt_cc_job_t;

static void *
dt_cc_job(void *arg)
{
	dt_cc_job_t *job = arg;

	job->j_fn(job->j_arg);
	return NULL;
}

void
dt_cc_run(dt_cc_t *cc, void (*fn)(void *), void *arg)
{
	dt_cc_job_t job = {fn, arg};
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t tid;
	int err;

	if (pthread_attr_init(&attr) != 0)
		goto inline_run;
	err = pthread_attr_setstacksize(&attr,
	    DT_CC_STACK_BASE + (size_t) DT_CC_MAXDEPTH * DT_CC_STACK_PER_LEVEL);
	/*
	 * Signals stay with the caller's thread, which waits for the
	 * compile: its handlers (dtrace(1)'s SIGINT) see what they expect.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (err == 0)
		err = pthread_create(&tid, &attr, dt_cc_job, &job);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err == 0) {
		cc->cc_maxdepth = DT_CC_MAXDEPTH;
		pthread_join(tid, NULL);
		return;
	}
inline_run:
	cc->cc_maxdepth = DT_CC_MAXDEPTH_INLINE;
	fn(arg);
}
