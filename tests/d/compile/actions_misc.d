/*
 * Actions that take no data.
 * @options: -e
 */
BEGIN { exit(0); }
END { printf("x"); }
ERROR { trace(arg4); }
/* SPDX-License-Identifier: MIT */
