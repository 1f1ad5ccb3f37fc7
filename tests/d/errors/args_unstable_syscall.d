/*
 * The syscall provider's arguments are Private: several probes matched
 * by one description do not promise one set of types.
 * @options: -e
 * @requires: root os:linux
 */
syscall:::entry { trace(args[0]); }
/* SPDX-License-Identifier: MIT */
