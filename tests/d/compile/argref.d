/*
 * -x argref permits unused arguments.
 * @options: -e -x argref
 * @args: unused
 */
BEGIN { }
/* SPDX-License-Identifier: MIT */
