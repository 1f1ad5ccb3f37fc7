/*
 * clear() of an aggregating function call: clear()'s argument error
 * comes before count()'s context error.
 * @options: -e -x errtags
 */
BEGIN { clear(count()); }
/* SPDX-License-Identifier: MIT */
