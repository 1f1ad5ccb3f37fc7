/*
 * Members of curpsinfo and curlwpsinfo.
 * @options: -e
 * @requires: os:linux
 */
BEGIN { trace(curpsinfo->pr_pid); trace(curpsinfo->pr_psargs); trace(curlwpsinfo->pr_lwpid); trace(curcpu->cpu_id); }
/* SPDX-License-Identifier: MIT */
