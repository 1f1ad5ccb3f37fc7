/*
 * After . or ->, a D keyword is a member name: the kernel's struct cgroup
 * has a member called self, and a comment may stand between the operator
 * and the name.
 * @options: -q
 * @requires: os:linux
 */
BEGIN
{
	printf("%d\n", sizeof (((struct cgroup *)0)->self) ==
	    sizeof (struct cgroup_subsys_state));
	printf("%d\n", sizeof (((struct cgroup *)0)-> /* x */ self.
	    /* y */ cgroup) == sizeof (void *));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
