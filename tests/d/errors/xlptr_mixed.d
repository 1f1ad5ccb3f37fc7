/*
 * A variable holding a translated pointer may hold only that translation
 * (or 0): its members are translated wherever it is used.
 * @options: -e
 */
typedef struct out { int o_v; } out_t;
translator out_t < int I > { o_v = I; };

BEGIN
{
	this->t = xlate<out_t *>(1);
	this->t = (out_t *)alloca(sizeof (out_t));
}
/* SPDX-License-Identifier: MIT */
