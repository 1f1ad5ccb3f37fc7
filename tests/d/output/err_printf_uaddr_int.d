/*
 * Printf() %A of a plain integer needs -c or -p to say whose address it
 * is; without them only usym(), uaddr() and friends will do.
 * @options: -e
 */
BEGIN { printf("%A\n", 0x400000); }
/* SPDX-License-Identifier: MIT */
