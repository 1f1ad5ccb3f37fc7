/*
 * Thread-local variables.
 * @options: -e
 * @requires: os:linux
 */
syscall::read:entry { self->ts = timestamp; }
syscall::read:return /self->ts/ { trace(timestamp - self->ts); self->ts = 0; }
/* SPDX-License-Identifier: MIT */
