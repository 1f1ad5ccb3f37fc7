/*
 * An unknown control directive.
 * @options: -e
 */
#frobnicate
BEGIN { }
/* SPDX-License-Identifier: MIT */
