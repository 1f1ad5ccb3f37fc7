/*
 * Declarations after clauses.
 * @options: -e
 */
BEGIN { }
int later;
END { later = 1; }
/* SPDX-License-Identifier: MIT */
