/*
 * A predicate with an unclosed parenthesis.
 * @options: -e
 */
BEGIN
/(1/
{
}
/* SPDX-License-Identifier: MIT */
