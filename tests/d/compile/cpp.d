/*
 * The C preprocessor with -C and -D.
 * @options: -e -C -D EXTRA=1
 */
#define VALUE 42
#ifdef EXTRA
BEGIN { trace(VALUE + EXTRA); }
#endif
/* comment */
/* SPDX-License-Identifier: MIT */
