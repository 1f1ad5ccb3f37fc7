/*
 * Casts between scalar types.
 * @options: -e
 */
BEGIN { a = (int)arg0; b = (unsigned char)300; c = (void *)arg0; d = (uint64_t)curthread; e = (struct task_struct *)arg0; (void)1; }
/* SPDX-License-Identifier: MIT */
