/*
 * An aggregation named alone as a statement.
 * @options: -e
 */
BEGIN { @a = count(); @a; }
/* SPDX-License-Identifier: MIT */
