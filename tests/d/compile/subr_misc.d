/*
 * Other subroutines.
 * @options: -e
 */
BEGIN { a = rand(); b = progenyof(1); c = speculation(); d = getmajor(1); e = getminor(1); f = ddi_pathname((void *)0, 0); g = getf(0); }
/* SPDX-License-Identifier: MIT */
