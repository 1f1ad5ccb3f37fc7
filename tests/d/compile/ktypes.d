/*
 * Kernel types from BTF: curthread is a struct task_struct pointer whose
 * members type-check and generate loads; casts, sizeof, offsetof,
 * stringof, module scoping and kernel typedefs.
 * @requires: btf os:linux
 * @options: -e
 */
struct task_struct *t;

syscall::openat:entry
{
	trace(curthread->comm);
	trace(stringof(curthread->comm));
	trace(curthread->real_parent->tgid);
	trace(curthread->mm->arg_start);
	t = curthread->group_leader;
	trace(t->pid);
	trace(((struct file *)arg0)->f_path.dentry->d_name.name);
	trace(((struct vmlinux`file *)arg0)->f_flags);
	trace(sizeof (struct task_struct));
	trace(sizeof (*curthread));
	trace(offsetof(struct task_struct, comm));
	trace((u64)arg1 + (vmlinux`u32)arg2);
	trace(curthread == t);
	self->parent = curthread->real_parent;
	trace(self->parent->comm);
}
/* SPDX-License-Identifier: MIT */
