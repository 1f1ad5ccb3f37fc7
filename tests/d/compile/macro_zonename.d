/*
 * String macro variables.
 * @options: -e
 */
BEGIN { trace($zonename); }
/* SPDX-License-Identifier: MIT */
