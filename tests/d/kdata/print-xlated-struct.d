/*
 * A translated struct taken whole (*curpsinfo) is built member by member
 * in scratch memory, strings copied in at their offsets past the start
 * of the scratch space; print() and a struct assignment both take it.
 * @options: -q
 * @requires: root
 * @engines: bpf
 */
BEGIN
{
	x = *curpsinfo;
	printf("%s %d %d\n", x.pr_fname, x.pr_pid == pid, x.pr_dmodel);
	print((*curpsinfo).pr_fname);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
