/*
 * An if condition that is a string.
 * @options: -e
 */
BEGIN { if ("a") { trace(1); } }
/* SPDX-License-Identifier: MIT */
