/*
 * denormalize() takes one argument.
 * @options: -e -x errtags
 */
BEGIN { @a = count(); denormalize(@a, 1); }
/* SPDX-License-Identifier: MIT */
