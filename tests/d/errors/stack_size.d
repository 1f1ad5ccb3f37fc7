/*
 * Stack() with a size that is not a constant.
 * @options: -e
 */
BEGIN { stack(arg0); }
/* SPDX-License-Identifier: MIT */
