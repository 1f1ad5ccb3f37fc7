/*
 * lquantize(): base equal to limit leaves no bucket.
 * @options: -e -x errtags
 */
BEGIN { @ = lquantize(1, 10, 10); }
/* SPDX-License-Identifier: MIT */
