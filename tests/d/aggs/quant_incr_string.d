/*
 * quantize(): the increment must be a scalar.
 * @options: -e -x errtags
 */
BEGIN { @ = quantize(1, ""); }
/* SPDX-License-Identifier: MIT */
