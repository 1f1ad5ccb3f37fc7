/*
 * Kernel memory on the BPF engine: curthread's members, read through
 * bpf_probe_read_kernel, agree with the built-in variables in every
 * system call of every process for a while.
 * @requires: btf
 * @engines: bpf
 * @options: -q
 */
syscall:::entry
/curthread->tgid == pid && curthread->pid == tid &&
    stringof(curthread->comm) == execname &&
    curthread->group_leader->tgid == pid/
{
	ok++;
}

syscall:::entry
/curthread->tgid != pid || curthread->pid != tid ||
    stringof(curthread->comm) != execname ||
    curthread->group_leader->tgid != pid/
{
	bad++;
}

syscall:::entry
/ok + bad >= 200/
{
	exit(0);
}

END
{
	printf("%s\n", bad == 0 && ok >= 200 ? "agree" : "disagree");
}
/* SPDX-License-Identifier: MIT */
