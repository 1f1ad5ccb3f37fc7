/*
 * copyin() takes its buffer from the same scratch as alloca(): a
 * constant size beyond scratchsize is a compile-time error too.
 * @options: -e
 */
#pragma D option scratchsize=64

BEGIN
{
	p = copyin(0, 65);
}
/* SPDX-License-Identifier: MIT */
