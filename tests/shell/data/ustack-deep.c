/* SPDX-License-Identifier: MIT */
/*
 * ustack-deep.c: a user stack deeper than the kernel's default stack
 * limit (127 frames), for ustackdepth-deep.sh: deep(N) recurses N times,
 * then makes getppid() calls until killed.
 */
#include <stdlib.h>
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) static void
deep(int n)
{
	if (n > 0) {
		deep(n - 1);
		sink++; /* not a tail call: every level keeps its frame */
		return;
	}
	for (;;) {
		(void) getppid();
		usleep(1000);
	}
}

int
main(int argc, char **argv)
{
	deep(argc > 1 ? atoi(argv[1]) : 200);
	return 0;
}
