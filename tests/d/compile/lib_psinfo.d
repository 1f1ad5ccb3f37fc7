/*
 * The psinfo.d library: a program may depend on it by name, and its
 * translators give curpsinfo and curlwpsinfo, and xlate of any task.
 * @requires: btf os:linux
 * @options: -e
 */
#pragma D depends_on library psinfo.d

syscall::openat:entry
{
	trace(curpsinfo->pr_pid);
	trace(curpsinfo->pr_ppid);
	trace(curpsinfo->pr_fname);
	trace(curpsinfo->pr_psargs);
	trace(curlwpsinfo->pr_lwpid);
	trace(xlate<psinfo_t *>(curthread->real_parent)->pr_pid);
	trace(xlate<lwpsinfo_t>(curthread).pr_pri);
}
/* SPDX-License-Identifier: MIT */
