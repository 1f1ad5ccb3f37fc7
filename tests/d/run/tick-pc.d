/*
 * A profile probe's arg0 is the kernel PC and arg1 the user PC where the
 * firing interrupted: exactly one of them is set, whichever engine runs
 * the timer.
 * @options: -q
 */
tick-100
{
	printf("%s\n", (arg0 != 0) != (arg1 != 0) ? "one PC" : "wrong");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
