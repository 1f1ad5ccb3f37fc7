/* SPDX-License-Identifier: MIT */
/* Included by cpp_include.d. */
#define INCLUDED 7
