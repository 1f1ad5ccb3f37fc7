/*
 * Thread-locals cleared with 0.
 * @options: -e
 */
BEGIN { self->p = curthread; self->p = 0; self->s = 0; }
/* SPDX-License-Identifier: MIT */
