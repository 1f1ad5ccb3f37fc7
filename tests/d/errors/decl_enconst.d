/*
 * An enumerator whose value is not a constant.
 * @options: -e
 */
enum e { A = x };
/* SPDX-License-Identifier: MIT */
