/*
 * '/' right after a probe description opens the predicate, even after
 * a ':' (a field that starts with '/' is a path only when a ':' ends it:
 * pid*:/usr/bin/bash::entry).
 * @options: -e
 * @requires: os:linux
 */
syscall::read:entry/pid == 1/
{
}

syscall::write:/pid == 2/
{
}

syscall::open*:/pid == 3 && arg0 != 0/
{
}
/* SPDX-License-Identifier: MIT */
