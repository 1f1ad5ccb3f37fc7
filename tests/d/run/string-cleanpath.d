/*
 * cleanpath() and strtok() give the same strings on both engines:
 * "//", "/./", "/../" and their trailing forms, names that only start
 * with dots, ".." above the root; tokens between runs of delimiters,
 * strtok(NULL, ...) going on in the next clause of the same firing
 * (with other delimiters), and the end of the tokens.
 * A small strsize keeps what the BPF verifier walks small where the
 * kernel has no bpf_loop().
 * @options: -q -x strsize=64
 * @status: 0
 */
BEGIN
{
	printf("[%s] [%s] [%s] [%s]\n", cleanpath("/foo/bar/../baz"),
	    cleanpath("/foo//bar/./baz/"), cleanpath("/a/b/../../c"),
	    cleanpath("/foo/."));
	printf("[%s] [%s] [%s] [%s]\n", cleanpath("/foo/.."),
	    cleanpath("/../a"), cleanpath("/a/.b/..c/...d/.e."),
	    cleanpath(""));
	printf("[%s] [%s] [%s]\n", cleanpath("a/b/./c/.."),
	    cleanpath("///x//y/../../.."), cleanpath("/usr/lib/../../etc/."));
}

BEGIN
{
	printf("[%s]", strtok(",,alpha,,beta;gamma,delta", ","));
	printf(" [%s]", strtok((char *)0, ";"));
}

BEGIN
{
	printf(" [%s]", strtok((char *)0, ","));
	printf(" [%s]\n", strtok((char *)0, ",;"));
	printf("%d %d\n", strtok((char *)0, ",") == (char *)0,
	    strtok(",,,", ",") == (char *)0);
	printf("[%s] [%s]\n", strtok("a b", " "), strtok("x", " "));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
