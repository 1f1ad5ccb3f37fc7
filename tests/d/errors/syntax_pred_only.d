/*
 * A predicate with no action list.
 * @options: -e
 */
BEGIN
/1/
/* SPDX-License-Identifier: MIT */
