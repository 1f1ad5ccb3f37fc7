/*
 * Other pragmas and ident.
 * @options: -e
 */
#pragma D depends_on provider syscall
#pragma D depends_on module vmlinux
#pragma ident "@(#)test 1.0"
#pragma D binding "1.0" x
#pragma weak foo
inline int x = 1;
#pragma D attributes Evolving/Evolving/Common x
#pragma D attributes Stable/Stable/Common provider syscall
BEGIN { }
/* SPDX-License-Identifier: MIT */
