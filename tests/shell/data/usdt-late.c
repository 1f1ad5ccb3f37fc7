/* SPDX-License-Identifier: MIT */
/*
 * usdt-late.c: the programs of tests/shell/usdt-late.sh, one per macro:
 *
 *	LIB	a library whose lib_work(n) passes n times over the USDT
 *		probe latelib:tick
 *	MAIN	main N LIB: dlopen()s LIB, then calls lib_work(N)
 *	LOOP	loop N: passes N times over latebin:tick
 *	FORK	fork PROG K N: K children, one after the other, each exec'ing
 *		"PROG N"
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(LIB)
void
lib_work(int n)
{
	for (int i = 0; i < n; i++)
		DTRACE_PROBE1(latelib, tick, i);
}
#elif defined(MAIN)
int
main(int argc, char **argv)
{
	void *h;
	void (*fn)(int);

	if (argc < 3 || (h = dlopen(argv[2], RTLD_NOW)) == NULL ||
	    (fn = (void (*)(int)) dlsym(h, "lib_work")) == NULL) {
		fprintf(stderr, "usage: main N LIB (%s)\n", dlerror());
		return 1;
	}
	fn(atoi(argv[1]));
	return 0;
}
#elif defined(LOOP)
int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;

	for (int i = 0; i < n; i++)
		DTRACE_PROBE1(latebin, tick, i);
	return 0;
}
#elif defined(FORK)
int
main(int argc, char **argv)
{
	int k = argc > 3 ? atoi(argv[2]) : 0;

	for (int i = 0; i < k; i++) {
		pid_t p = fork();

		if (p == 0) {
			execl(argv[1], argv[1], argv[3], (char *) NULL);
			_exit(127);
		}
		if (p < 0 || waitpid(p, NULL, 0) != p)
			return 1;
	}
	return 0;
}
#endif
