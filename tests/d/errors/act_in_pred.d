/*
 * An action in a predicate.
 * @options: -e
 */
BEGIN
/exit(0)/
{
}
/* SPDX-License-Identifier: MIT */
