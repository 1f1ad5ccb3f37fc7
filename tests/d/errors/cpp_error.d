/*
 * With -C, an error of the preprocessor is reported by cpp at the
 * program's line, without a column or a quote of the text, and then by
 * dtrace without a line of its own.
 * @options: -C -e
 */
#else
BEGIN
{
}
/* SPDX-License-Identifier: MIT */
