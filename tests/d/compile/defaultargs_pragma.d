/*
 * #pragma D option defaultargs.
 * @options: -e
 */
#pragma D option defaultargs
BEGIN { trace($1 + 2); }
/* SPDX-License-Identifier: MIT */
