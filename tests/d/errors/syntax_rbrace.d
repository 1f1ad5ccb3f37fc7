/*
 * A stray closing brace between clauses.
 * @options: -e
 */
BEGIN { }
}
/* SPDX-License-Identifier: MIT */
