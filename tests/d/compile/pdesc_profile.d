/*
 * Profile probes whose names contain dashes.
 * @options: -e
 */
profile-97 { }
tick-1sec { }
profile:::profile-1001hz { }
/* SPDX-License-Identifier: MIT */
