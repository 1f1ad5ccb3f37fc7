/*
 * BEGIN fires on dtrace's own behalf, not in kernel code: stack() has no
 * frames (a newline, and nothing for each missing frame), stackdepth and
 * caller are 0, and a stack key is an empty stack, on either engine.
 * @cpu: 0
 */
BEGIN
{
	stack();
	trace(stackdepth);
	trace(caller);
	printf("\n[%a] [%k]\n", caller, stack(2));
	@s[stack()] = count();
	@t[stack(3), stackdepth] = sum(2);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
