/*
 * An unknown option.
 * @options: -e
 */
#pragma D option nosuchoption
BEGIN { }
/* SPDX-License-Identifier: MIT */
