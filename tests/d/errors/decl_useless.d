/*
 * A declaration that declares nothing.
 * @options: -e
 */
int;
/* SPDX-License-Identifier: MIT */
