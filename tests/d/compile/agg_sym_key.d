/*
 * Sym(), func(), usym() as aggregation keys.
 * @options: -e
 */
BEGIN { @a[sym(arg0)] = count(); @b[func(caller)] = count(); @c[usym(arg1), umod(arg1)] = count(); @d[mod(arg0)] = count(); @e[uaddr(arg0)] = count(); @f[ufunc(arg0)] = count(); }
/* SPDX-License-Identifier: MIT */
