/*
 * #line directives.
 * @options: -e
 */
#line 100
BEGIN { }
# 5 "<stdin>"
END { }
/* SPDX-License-Identifier: MIT */
