/*
 * Every built-in variable.
 * @options: -e
 * @requires: os:linux
 */
BEGIN
{
	a = arg0 + arg1 + arg2 + arg3 + arg4 + arg5 + arg6 + arg7 + arg8 + arg9;
	b = timestamp + vtimestamp + walltimestamp;
	c = pid + ppid + tid + uid + gid;
	d = execname; e = probeprov; f = probemod; g = probefunc; h = probename;
	i = cpu; j = errno; k = stackdepth; l = ustackdepth;
	m = caller; n = ucaller; o = epid; p = id; q = ipl;
	r = curthread; s = curcpu; t = curpsinfo; u = curlwpsinfo;
	v = cwd; w = root; x = zonename; y = execargs;
	z = uregs[0] + regs[1];
}
/* SPDX-License-Identifier: MIT */
