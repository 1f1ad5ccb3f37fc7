/*
 * #pragma D depends_on with no name.
 * @options: -e
 */
#pragma D depends_on module
BEGIN { }
/* SPDX-License-Identifier: MIT */
