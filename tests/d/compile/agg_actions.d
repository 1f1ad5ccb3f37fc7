/*
 * Clear(), trunc(), normalize() and denormalize().
 * @options: -e
 */
BEGIN { @a[1] = count(); clear(@a); trunc(@a); trunc(@a, 5); normalize(@a, 1000); denormalize(@a); }
/* SPDX-License-Identifier: MIT */
