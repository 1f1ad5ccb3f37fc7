/*
 * A comment inside a comment.
 * @options: -e
 */
/* outer /* inner */
BEGIN { }
/* SPDX-License-Identifier: MIT */
