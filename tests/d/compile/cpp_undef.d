/*
 * The C preprocessor with -U.
 * @options: -e -C -D FOO -U FOO
 */
#ifdef __linux
BEGIN { trace(1); }
#endif
#ifndef FOO
END { }
#endif
/* SPDX-License-Identifier: MIT */
