/*
 * A probe description that is only a provider.
 * @options: -e
 * @requires: os:linux
 */
syscall::: { }
/* SPDX-License-Identifier: MIT */
