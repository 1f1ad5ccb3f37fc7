/*
 * Printa() of something that is not an aggregation.
 * @options: -e
 */
BEGIN { printa(1); }
/* SPDX-License-Identifier: MIT */
