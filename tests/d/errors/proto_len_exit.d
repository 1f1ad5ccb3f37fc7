/*
 * Exit() without its status.
 * @options: -e
 */
BEGIN { exit(); }
/* SPDX-License-Identifier: MIT */
