/*
 * #pragma D attributes with no identifier.
 * @options: -e
 */
#pragma D attributes Evolving/Evolving/Common
BEGIN { }
/* SPDX-License-Identifier: MIT */
