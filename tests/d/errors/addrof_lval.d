/*
 * Taking the address of a constant.
 * @options: -e
 */
BEGIN { y = &1; }
/* SPDX-License-Identifier: MIT */
