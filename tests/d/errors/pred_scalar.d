/*
 * A predicate that is a string: reported at the line the clause ends on,
 * as DTrace checks the predicate once the clause is read.
 * @options: -e
 */
BEGIN
/"abc"/
{
}
/* SPDX-License-Identifier: MIT */
