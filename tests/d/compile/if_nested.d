/*
 * Nested if statements and actions inside them.
 * @options: -e
 */
BEGIN { if (1) { if (2) { @a = count(); printf("x"); } } }
/* SPDX-License-Identifier: MIT */
