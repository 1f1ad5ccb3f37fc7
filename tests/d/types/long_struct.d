/*
 * long and signed apply to integers only; DTrace checks them when the
 * struct's body opens.
 * @options: -e
 */
long struct s
{
	int i;
};
/* SPDX-License-Identifier: MIT */
