/*
 * lwpsinfo_t's pr_nice has no translation from a Linux task, as it has
 * none in DTrace: naming it is an error.
 * @options: -e
 * @requires: os:linux
 */
BEGIN
{
	trace(curlwpsinfo->pr_nice);
}
/* SPDX-License-Identifier: MIT */
