/*
 * The psinfo.d library's translators on the BPF engine: curpsinfo and
 * curlwpsinfo, translated from curthread, agree with the built-in
 * variables in every system call of every process for a while.
 * @requires: btf
 * @engines: bpf
 * @options: -q
 */
syscall:::entry
/curpsinfo->pr_pid == pid && curlwpsinfo->pr_lwpid == tid &&
    curpsinfo->pr_fname == execname && curpsinfo->pr_uid == uid &&
    curpsinfo->pr_ppid == curthread->real_parent->tgid &&
    curpsinfo->pr_dmodel == 2/
{
	ok++;
}

syscall:::entry
/!(curpsinfo->pr_pid == pid && curlwpsinfo->pr_lwpid == tid &&
    curpsinfo->pr_fname == execname && curpsinfo->pr_uid == uid &&
    curpsinfo->pr_ppid == curthread->real_parent->tgid &&
    curpsinfo->pr_dmodel == 2)/
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
