/*
 * A constant alloca() size beyond scratchsize can never succeed: an
 * error at compile time.
 * @options: -e -x scratchsize=1024
 */
BEGIN
{
	p = alloca(1025);
}
/* SPDX-License-Identifier: MIT */
