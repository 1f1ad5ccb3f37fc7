/*
 * Probe names that look like keywords.
 * @options: -e -Z
 */
fbt::int:entry { }
fbt::struct_*:entry { }
/* SPDX-License-Identifier: MIT */
