/*
 * An enumerator's value must be an integer constant.
 * @options: -e
 */
enum e { A = "x" };
/* SPDX-License-Identifier: MIT */
