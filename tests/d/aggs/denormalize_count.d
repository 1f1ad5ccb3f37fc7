/*
 * denormalize() reports its errors as normalize() does.
 * @options: -e -x errtags
 */
BEGIN { denormalize(count()); }
/* SPDX-License-Identifier: MIT */
