/*
 * #pragma D attributes with a bad stability.
 * @options: -e
 */
#pragma D attributes Bogus/Evolving/Common x
BEGIN { }
/* SPDX-License-Identifier: MIT */
