/*
 * A string passes as copyout()'s void * buffer; its second argument is
 * a uintptr_t address, which a string is not.
 * @options: -e -w
 */
BEGIN
{
	copyout("buffer", "address", 6);
}
/* SPDX-License-Identifier: MIT */
