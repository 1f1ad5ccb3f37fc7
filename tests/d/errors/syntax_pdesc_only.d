/*
 * A probe description alone in a script.
 * @options: -e
 */
BEGIN
/* SPDX-License-Identifier: MIT */
