/*
 * Reading a clause-local nothing has assigned.
 * @options: -e
 */
BEGIN { trace(this->x); }
/* SPDX-License-Identifier: MIT */
