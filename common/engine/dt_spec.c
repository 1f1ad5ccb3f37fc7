/* SPDX-License-Identifier: MIT */
/*
 * dt_spec.c: DTrace's speculation state machine (see dt_spec.h), with
 * atomic operations throughout: the BPF engine's programs change the same
 * words concurrently, on every CPU, while the consumer cleans them.
 */
#include "common/engine/dt_spec.h"

static bool
dt_spec_cas(dt_spec_t *sp, uint64_t *oldp, uint64_t new)
{
	return __atomic_compare_exchange_n(&sp->sp_state, oldp, new, false,
	    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

uint32_t
dt_spec_alloc(dt_spec_t *specs, uint32_t nspec, bool *busyp)
{
	*busyp = false;
	for (uint32_t i = 0; i < nspec; i++) {
		uint64_t old = DT_SPEC_INACTIVE;

		if (dt_spec_cas(&specs[i], &old, DT_SPEC_ACTIVE)) {
			__atomic_store_n(&specs[i].sp_bytes, 0,
			    __ATOMIC_SEQ_CST);
			return i + 1;
		}
		if ((old & DT_SPEC_STATEMASK) == DT_SPEC_BUSY)
			*busyp = true;
	}
	return 0;
}

dt_spec_verdict_t
dt_spec_speculate(dt_spec_t *specs, uint32_t nspec, uint64_t id,
    uint32_t cpu, uint64_t size, uint64_t specsize)
{
	uint64_t mine = ((uint64_t) cpu << DT_SPEC_CPUSHIFT) |
	    DT_SPEC_ACTIVEONE;
	dt_spec_t *sp;
	uint64_t old;

	if (id == 0)
		return DT_SPEC_DROP;
	if (id > nspec)
		return DT_SPEC_ILLOP;
	sp = &specs[id - 1];
	old = __atomic_load_n(&sp->sp_state, __ATOMIC_SEQ_CST);
	switch (old & DT_SPEC_STATEMASK) {
	case DT_SPEC_ACTIVE:
		/* Losing the race to another CPU makes it "many". */
		if (!dt_spec_cas(sp, &old, mine) && old != mine)
			(void) dt_spec_cas(sp, &old, DT_SPEC_ACTIVEMANY);
		break;
	case DT_SPEC_ACTIVEONE:
		if (old != mine)
			(void) dt_spec_cas(sp, &old, DT_SPEC_ACTIVEMANY);
		break;
	case DT_SPEC_ACTIVEMANY:
		break;
	default:
		return DT_SPEC_DROP;
	}
	if (__atomic_add_fetch(&sp->sp_bytes, size, __ATOMIC_SEQ_CST) >
	    specsize)
		return DT_SPEC_FULL;
	return DT_SPEC_OK;
}

/*
 * The state after commit() (or discard()) on cpu: free when the data, if
 * any, is all on this CPU; busy when some may be elsewhere.  A discard()
 * of a speculation nothing was speculated into is busy too, as DTrace.
 */
static bool
dt_spec_end(dt_spec_t *specs, uint32_t nspec, uint64_t id, uint32_t cpu,
    bool commit)
{
	uint64_t mine = ((uint64_t) cpu << DT_SPEC_CPUSHIFT) |
	    DT_SPEC_ACTIVEONE;
	dt_spec_t *sp;
	uint64_t old, new;

	if (id == 0)
		return true;
	if (id > nspec)
		return false;
	sp = &specs[id - 1];
	old = __atomic_load_n(&sp->sp_state, __ATOMIC_SEQ_CST);
	do {
		switch (old & DT_SPEC_STATEMASK) {
		case DT_SPEC_ACTIVE:
			new = commit ? DT_SPEC_INACTIVE : DT_SPEC_BUSY;
			break;
		case DT_SPEC_ACTIVEONE:
			new = old == mine ? DT_SPEC_INACTIVE : DT_SPEC_BUSY;
			break;
		case DT_SPEC_ACTIVEMANY:
			new = DT_SPEC_BUSY;
			break;
		default:
			return true;
		}
	} while (!dt_spec_cas(sp, &old, new));
	return true;
}

bool
dt_spec_commit(dt_spec_t *specs, uint32_t nspec, uint64_t id, uint32_t cpu)
{
	return dt_spec_end(specs, nspec, id, cpu, true);
}

bool
dt_spec_discard(dt_spec_t *specs, uint32_t nspec, uint64_t id, uint32_t cpu)
{
	return dt_spec_end(specs, nspec, id, cpu, false);
}

void
dt_spec_clean(dt_spec_t *specs, uint32_t nspec)
{
	for (uint32_t i = 0; i < nspec; i++) {
		uint64_t old = DT_SPEC_BUSY;

		(void) dt_spec_cas(&specs[i], &old, DT_SPEC_INACTIVE);
	}
}

bool
dt_spec_busy(const dt_spec_t *specs, uint32_t nspec)
{
	for (uint32_t i = 0; i < nspec; i++) {
		if ((__atomic_load_n(&specs[i].sp_state, __ATOMIC_SEQ_CST) &
		    DT_SPEC_STATEMASK) == DT_SPEC_BUSY)
			return true;
	}
	return false;
}
