/*
 * An unknown macro variable.
 * @options: -e
 */
BEGIN { trace($nosuch); }
/* SPDX-License-Identifier: MIT */
