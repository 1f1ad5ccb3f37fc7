/*
 * An associative array cannot keep a translated pointer's translation.
 * @options: -e
 */
typedef struct out { int o_v; } out_t;
translator out_t < int I > { o_v = I; };

BEGIN
{
	a[1] = xlate<out_t *>(1);
}
/* SPDX-License-Identifier: MIT */
