/*
 * Stack() and ustack() as aggregation keys.
 * @options: -e
 */
BEGIN { @a[stack()] = count(); @b[ustack(5)] = count(); @c[ustack()] = count(); }
/* SPDX-License-Identifier: MIT */
