/*
 * Args[] outside a clause.
 * @options: -e
 */
inline int64_t a = args[0];
/* SPDX-License-Identifier: MIT */
