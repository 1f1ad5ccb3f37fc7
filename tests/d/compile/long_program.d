/*
 * A larger program in the style of the guides.
 * @options: -e -x defaultargs
 * @args: 0
 * @requires: os:linux
 */
#pragma D option quiet

syscall::read:entry,
syscall::write:entry
/pid == $1 || $1 == 0/
{
	self->start = vtimestamp;
}

syscall::read:return,
syscall::write:return
/self->start/
{
	this->elapsed = vtimestamp - self->start;
	@time[probefunc] = quantize(this->elapsed);
	@calls[probefunc, execname] = count();
	@bytes[probefunc] = sum(arg0 > 0 ? arg0 : 0);
	self->start = 0;
}

tick-10s
{
	printa("%-10s %@d\n", @calls);
	trunc(@calls, 10);
	clear(@bytes);
}

END
{
	printa(@time);
}
/* SPDX-License-Identifier: MIT */
