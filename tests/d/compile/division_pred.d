/*
 * Division inside a predicate.
 * @options: -e
 */
BEGIN
/ 10 / 2 == 5 /
{
}
/* SPDX-License-Identifier: MIT */
