/*
 * An aggregation buffer just large enough for one entry of count()
 * (its ID and its value, 16 bytes) holds it without a drop.
 * @options: -q -x aggsize=16
 */
BEGIN { @ = count(); exit(0); }
/* SPDX-License-Identifier: MIT */
