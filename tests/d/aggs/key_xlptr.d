/*
 * A translated pointer is no aggregation key.
 * @options: -e -x errtags
 * @requires: os:linux
 */
BEGIN { @a[curpsinfo] = count(); }
/* SPDX-License-Identifier: MIT */
