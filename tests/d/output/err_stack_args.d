/*
 * Stack() takes at most the number of frames.
 * @options: -e
 */
BEGIN { stack(1, 2); }
/* SPDX-License-Identifier: MIT */
