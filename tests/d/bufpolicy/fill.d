/*
 * Under the fill policy a CPU's buffer takes bufsize bytes in all: each
 * record here is 24 bytes, so 3 fit in 72 and the rest are dropped;
 * tracing then stops, and END still gets its say.
 * @options: -q -x bufpolicy=fill -b 72
 * @cpu: 0
 * @status: 0
 */
BEGIN { printf("%d\n", 1); }
BEGIN { printf("%d\n", 2); }
BEGIN { printf("%d\n", 3); }
BEGIN { printf("%d\n", 4); }
BEGIN { printf("%d\n", 5); }

END
{
	printf("end\n");
}
/* SPDX-License-Identifier: MIT */
