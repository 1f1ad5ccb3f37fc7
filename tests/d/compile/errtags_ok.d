/*
 * -x errtags does not change a valid program.
 * @options: -e -x errtags
 */
BEGIN { }
/* SPDX-License-Identifier: MIT */
