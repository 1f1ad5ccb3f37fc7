/*
 * trace() of a translated pointer, as DTrace refuses it.
 * @options: -e
 */
typedef struct out { int o_v; } out_t;
translator out_t < int I > { o_v = I; };

BEGIN
{
	trace(xlate<out_t *>(1));
}
/* SPDX-License-Identifier: MIT */
