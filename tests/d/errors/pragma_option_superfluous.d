/*
 * #pragma D option sets one option: words after it are refused, and a
 * pragma without an option is malformed.
 * @options: -e
 */
#pragma D option nspec=24 * 44

BEGIN
{
}
/* SPDX-License-Identifier: MIT */
