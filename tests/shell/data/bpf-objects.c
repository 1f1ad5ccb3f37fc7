/* SPDX-License-Identifier: MIT */
/*
 * bpf-objects.c: prints the ID of every BPF program, map and link the
 * kernel holds (BPF_*_GET_NEXT_ID), one "prog_id: N" (map_id, link_id) a
 * line as /proc/<pid>/fdinfo names them, so that a test can say none was
 * left behind without bpftool.  Needs CAP_SYS_ADMIN; exits 77 when it may
 * not ask.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/syscall.h>

/* Print the IDs of one kind: 0, or -1 if the kernel refuses. */
static int
list(int cmd, const char *kind)
{
	union bpf_attr attr;
	unsigned id = 0;

	for (;;) {
		memset(&attr, 0, sizeof (attr));
		attr.start_id = id;
		if (syscall(SYS_bpf, cmd, &attr, sizeof (attr)) != 0)
			return errno == ENOENT ? 0 : -1;
		id = attr.next_id;
		printf("%s_id: %u\n", kind, id);
	}
}

int
main(void)
{
	if (list(BPF_PROG_GET_NEXT_ID, "prog") != 0 ||
	    list(BPF_MAP_GET_NEXT_ID, "map") != 0) {
		perror("bpf");
		return 77;
	}
	/* A kernel without links says EINVAL: it has none. */
	(void) list(BPF_LINK_GET_NEXT_ID, "link");
	return 0;
}
