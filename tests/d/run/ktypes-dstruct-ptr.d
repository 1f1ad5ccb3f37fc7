/*
 * D structs may point at kernel structs: each member is a pointer to the
 * kernel's tag, completed when dereferenced, not a copy of the kernel's
 * definition in D's types.  Such a copy held everything the kernel struct
 * holds by value, clashed with D's own struct list_head, and then hid
 * the kernel's struct task_struct from curthread.
 * @requires: btf
 * @engines: bpf
 * @options: -q
 */
struct list_head {
	int lh_d_own;
};

struct holder {
	struct task_struct *h_task;
	const struct sock *h_sock;
};

struct other {
	struct sock **o_sockp;
	struct task_struct *o_task;
};

BEGIN
{
	this->h = (struct holder *)alloca(sizeof (struct holder));
	this->h->h_task = curthread;
	this->o = (struct other *)alloca(sizeof (struct other));
	this->o->o_task = this->h->h_task->group_leader;
	printf("%d %d\n", this->h->h_task->pid == tid,
	    this->o->o_task->tgid == pid);
	printf("%d %d\n", sizeof (struct holder), sizeof (struct other));
	printf("%d\n", sizeof (*this->h->h_sock) == sizeof (struct sock));
	printf("%d\n", curthread->tgid == pid);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
