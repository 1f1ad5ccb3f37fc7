/*
 * Clause-local variables.
 * @options: -e
 */
BEGIN { this->a = 1; this->b = this->a + 2; trace(this->b); }
/* SPDX-License-Identifier: MIT */
