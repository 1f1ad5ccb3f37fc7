/*
 * A string macro argument that was not given.
 * @options: -e
 */
BEGIN { trace($$2); }
/* SPDX-License-Identifier: MIT */
