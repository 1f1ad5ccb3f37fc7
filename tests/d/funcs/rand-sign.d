/*
 * rand() is an int all of whose 32 bits are random, its sign too, as
 * DTrace's: of 32 values some are negative and some are not (each way
 * wrong once in 2^31 runs).
 * @options: -q
 */
BEGIN
{
	n = (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0) +
	    (rand() < 0);
	printf("%s\n", n > 0 && n < 32 ? "mixed" : "one-sided");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
