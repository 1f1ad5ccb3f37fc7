/*
 * An aggregation buffer that cannot hold one entry of an aggregation
 * (here 8 bytes against count()'s ID and value) is refused when tracing
 * starts, not left to drop every update.
 * @options: -q -x aggsize=8
 * @status: 1
 */
BEGIN { @ = count(); exit(0); }
/* SPDX-License-Identifier: MIT */
