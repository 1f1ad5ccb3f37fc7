/*
 * A member the kernel's struct does not have.
 * @requires: btf
 * @options: -e
 */
BEGIN
{
	trace(curthread->no_such_member);
}
