/*
 * dtrace -S lists each object's variables with DTrace's columns: the ID
 * in hex, the offset in the scope's layout (declaration order, each
 * variable aligned to its type, structs to 8, thread-locals at 0, none
 * for built-ins and arrays), kind, scope, the instructions that use it,
 * r/w flags and the type in DTrace's words.  Built-ins the code reads are
 * listed too.
 * @options: -S -e
 * @status: 0
 */
char dummy;
int var;
struct { short u, v; } sv;
this char ldummy;
this short lvar[5];
self char tdummy;
self long tvar;

BEGIN
{
	var = 1;
	sv.u = 2;
	this->lvar[3] = 3;
	self->tvar = 4;
	s = execname;
	t = s;
	a[pid] = 5;
}
/* SPDX-License-Identifier: MIT */
