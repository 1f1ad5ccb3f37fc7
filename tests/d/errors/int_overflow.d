/*
 * An integer constant larger than 64 bits.
 * @options: -e
 */
BEGIN { x = 123456789012345678901234567890; }
/* SPDX-License-Identifier: MIT */
