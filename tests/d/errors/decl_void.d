/*
 * A void variable.
 * @options: -e
 */
void x;
/* SPDX-License-Identifier: MIT */
