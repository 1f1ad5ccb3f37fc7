/*
 * The C preprocessor with -I.
 * @options: -e -C -I .
 */
#include "cpp_include.h"
BEGIN { trace(INCLUDED); }
/* SPDX-License-Identifier: MIT */
