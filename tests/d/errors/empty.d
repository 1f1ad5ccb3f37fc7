/*
 * A script with nothing in it.
 * @options: -e
 */
/* SPDX-License-Identifier: MIT */
