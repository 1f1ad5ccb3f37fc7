/* SPDX-License-Identifier: MIT */
/*
 * bpf_features_test.c: the kernel feature probes of os/linux.
 *
 * Prints every feature found or missing (with its reason), then checks
 * that the answers agree with each other and with what the kernel
 * plainly offers: as root, BPF, ring buffers and perf buffers must be
 * there, a feature is either present or explained, and probing twice
 * gives the same answer.
 */
#include <unistd.h>

#include "os/linux/dt_linux_features.h"
#include "tests/unit/unit.h"

int
main(void)
{
	const dt_linux_features_t *lfp = dt_linux_features();
	dt_linux_features_t again;

	for (int f = 0; f < DT_LF_NFEATURES; f++) {
		printf("%-18s %s%s%s\n", dt_linux_feature_name(f),
		    lfp->lf_have[f] ? "yes" : "no",
		    lfp->lf_have[f] ? "" : ": ", lfp->lf_why[f]);
		/* Present, or missing with a reason. */
		CHECK(lfp->lf_have[f] == (lfp->lf_why[f][0] == '\0'));
	}
	printf("tracefs            %s\n", lfp->lf_tracefs);
	printf("possible CPUs      %d\n", lfp->lf_ncpus);
	CHECK(lfp->lf_ncpus >= 1);

	if (geteuid() != 0)
		SKIP("not root: BPF features cannot be checked");
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0)
		CHECK(lfp->lf_have[DT_LF_BTF]);
	/* No bpf(2) at all: a kernel without it, or qemu-user. */
	if (!lfp->lf_have[DT_LF_BPF] &&
	    strstr(lfp->lf_why[DT_LF_BPF], "without BPF") != NULL)
		SKIP("bpf(2) does not exist here (a kernel without BPF, or an "
		     "emulator such as qemu-user)");
	CHECK(lfp->lf_have[DT_LF_BPF]);
	if (!lfp->lf_have[DT_LF_BPF])
		return unit_done();
	CHECK(lfp->lf_have[DT_LF_PTR_LEAKS]);
	CHECK(lfp->lf_have[DT_LF_PERFBUF]);
	CHECK(lfp->lf_have[DT_LF_PROBE_READ_KERNEL]);
	/* Features that depend on others. */
	if (lfp->lf_have[DT_LF_TP_BTF])
		CHECK(lfp->lf_have[DT_LF_BTF]);
	if (lfp->lf_have[DT_LF_UPROBE_MULTI])
		CHECK(lfp->lf_have[DT_LF_UPROBE]);
	if (lfp->lf_have[DT_LF_TRACEPOINT])
		CHECK(lfp->lf_tracefs[0] == '/');

	dt_linux_features_probe(&again);
	for (int f = 0; f < DT_LF_NFEATURES; f++)
		CHECK_INT(again.lf_have[f], lfp->lf_have[f]);
	return unit_done();
}
