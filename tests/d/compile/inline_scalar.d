/*
 * Inline constants.
 * @options: -e
 */
inline int NINE = 9;
inline string NAME = "dtrace";
inline int TEN = NINE + 1;
BEGIN { trace(TEN); trace(NAME); }
/* SPDX-License-Identifier: MIT */
