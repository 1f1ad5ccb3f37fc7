/* SPDX-License-Identifier: MIT */
/*
 * dt_program.c: the names of actions and aggregating functions, as D
 * spells them, for everything that prints a dt_program_t (dtrace -S, JSON
 * output, messages), and which actions the consumer carries out (shared
 * by code generation, which records their firings, and the consumer).
 */
#include "common/dt_program.h"

static const char *const dt_action_names[] = {
	[DT_ACT_DIFEXPR] = "expression",
	[DT_ACT_TRACE] = "trace",
	[DT_ACT_TRACEMEM] = "tracemem",
	[DT_ACT_PRINTF] = "printf",
	[DT_ACT_PRINTA] = "printa",
	[DT_ACT_PRINT] = "print",
	[DT_ACT_PRINTM] = "printm",
	[DT_ACT_STACK] = "stack",
	[DT_ACT_USTACK] = "ustack",
	[DT_ACT_JSTACK] = "jstack",
	[DT_ACT_SYM] = "sym",
	[DT_ACT_MOD] = "mod",
	[DT_ACT_USYM] = "usym",
	[DT_ACT_UMOD] = "umod",
	[DT_ACT_UADDR] = "uaddr",
	[DT_ACT_EXIT] = "exit",
	[DT_ACT_SPECULATE] = "speculate",
	[DT_ACT_COMMIT] = "commit",
	[DT_ACT_DISCARD] = "discard",
	[DT_ACT_STOP] = "stop",
	[DT_ACT_RAISE] = "raise",
	[DT_ACT_SYSTEM] = "system",
	[DT_ACT_FREOPEN] = "freopen",
	[DT_ACT_FTRUNCATE] = "ftruncate",
	[DT_ACT_SETOPT] = "setopt",
	[DT_ACT_CLEAR] = "clear",
	[DT_ACT_NORMALIZE] = "normalize",
	[DT_ACT_DENORMALIZE] = "denormalize",
	[DT_ACT_TRUNC] = "trunc",
	[DT_ACT_BREAKPOINT] = "breakpoint",
	[DT_ACT_PANIC] = "panic",
	[DT_ACT_CHILL] = "chill",
	[DT_ACT_COPYOUT] = "copyout",
	[DT_ACT_COPYOUTSTR] = "copyoutstr",
	[DT_ACT_AGGREGATE] = "aggregate",
};

static const char *const dt_agg_names[] = {
	[DT_AGG_COUNT] = "count",
	[DT_AGG_SUM] = "sum",
	[DT_AGG_AVG] = "avg",
	[DT_AGG_MIN] = "min",
	[DT_AGG_MAX] = "max",
	[DT_AGG_STDDEV] = "stddev",
	[DT_AGG_QUANTIZE] = "quantize",
	[DT_AGG_LQUANTIZE] = "lquantize",
	[DT_AGG_LLQUANTIZE] = "llquantize",
};

const char *
dt_action_name(dt_actkind_t kind)
{
	if ((unsigned) kind < sizeof (dt_action_names) /
	    sizeof (dt_action_names[0]) && dt_action_names[kind] != NULL)
		return dt_action_names[kind];
	return "action";
}

const char *
dt_aggkind_name(dt_aggkind_t kind)
{
	if ((unsigned) kind < sizeof (dt_agg_names) / sizeof (dt_agg_names[0]))
		return dt_agg_names[kind];
	return "aggregation";
}

bool
dt_action_consumed(dt_actkind_t kind)
{
	switch (kind) {
	case DT_ACT_DIFEXPR: case DT_ACT_AGGREGATE: case DT_ACT_STOP:
	case DT_ACT_RAISE: case DT_ACT_BREAKPOINT: case DT_ACT_PANIC:
	case DT_ACT_CHILL: case DT_ACT_COPYOUT: case DT_ACT_COPYOUTSTR:
	case DT_ACT_SPECULATE: case DT_ACT_COMMIT: case DT_ACT_DISCARD:
		return false;
	default:
		return true;
	}
}
