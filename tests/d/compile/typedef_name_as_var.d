/*
 * A variable named like a type.
 * @options: -e
 */
int pid_t_copy;
BEGIN { pid_t_copy = 1; x = (pid_t)1; }
/* SPDX-License-Identifier: MIT */
