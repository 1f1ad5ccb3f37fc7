/*
 * Reading a thread-local nothing has assigned.
 * @options: -e
 */
BEGIN { trace(self->x); }
/* SPDX-License-Identifier: MIT */
