/*
 * A probe description with five fields.
 * @options: -e
 */
a:b:c:d:e
{
}
/* SPDX-License-Identifier: MIT */
