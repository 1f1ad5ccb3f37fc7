/*
 * llquantize(): fewer steps per magnitude than the factor is refused.
 * @options: -e -x errtags
 */
BEGIN { @ = llquantize(1, 10, 0, 6, 5); }
/* SPDX-License-Identifier: MIT */
