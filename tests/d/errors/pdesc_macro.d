/*
 * An undefined macro in a probe description.
 * @options: -e
 */
pid$nosuchmacro:::entry
{
}
/* SPDX-License-Identifier: MIT */
