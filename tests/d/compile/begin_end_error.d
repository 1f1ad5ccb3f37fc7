/*
 * The dtrace provider's probes.
 * @options: -e
 */
BEGIN { }
END { }
ERROR { }
/* SPDX-License-Identifier: MIT */
