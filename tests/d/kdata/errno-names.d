/*
 * The error numbers have their names in D without -C, Linux's values,
 * aliases included; and PR_MODEL_* name the data models of pr_dmodel.
 * @options: -q
 * @requires: os:linux
 */
BEGIN
{
	printf("%d %d %d %d %d\n", EPERM, ENOENT, EINTR, EAGAIN, ERANGE);
	printf("%d %d %d\n", ENOSYS, ETIMEDOUT, EHWPOISON);
	printf("%d %d %d\n", EWOULDBLOCK == EAGAIN, EDEADLOCK == EDEADLK,
	    ENOTSUP == EOPNOTSUPP);
	printf("%d %d %d\n", PR_MODEL_ILP32, PR_MODEL_LP64, sizeof (PR_MODEL_LP64));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
