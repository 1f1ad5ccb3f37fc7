/*
 * An enumerator defined twice.
 * @options: -e
 */
enum e { A, A };
/* SPDX-License-Identifier: MIT */
