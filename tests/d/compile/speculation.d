/*
 * Speculations in their proper order.
 * @options: -e
 * @requires: os:linux
 */
BEGIN { self->spec = speculation(); }
syscall::read:entry /self->spec/ { speculate(self->spec); trace(arg0); }
syscall::read:return /self->spec/ { commit(self->spec); }
syscall::write:return /self->spec/ { discard(self->spec); }
/* SPDX-License-Identifier: MIT */
