/* SPDX-License-Identifier: MIT */
/*
 * dt_spec.h: the engine side of speculative tracing, shared by every
 * engine so that they agree on when a speculation is free, busy or full.
 *
 * A consumer has nspec speculations, IDs 1..nspec.  Each is two 64-bit
 * words (dt_spec_t): its state and the bytes speculated into it since
 * speculation() handed it out.  The interpreter keeps the array in its
 * own memory; the BPF engine keeps it in the state map, where the
 * programs move it between states with compare-and-exchange and the
 * consumer process cleans it through the mmap'ed map with the functions
 * below -- so the encoding is part of the contract:
 *
 *	state & 0xff	DT_SPEC_INACTIVE   free for speculation()
 *			DT_SPEC_ACTIVE     handed out, nothing speculated
 *			DT_SPEC_ACTIVEONE  data speculated on one CPU,
 *					   state >> 8
 *			DT_SPEC_ACTIVEMANY data speculated on several CPUs
 *			DT_SPEC_BUSY       committed or discarded, but with
 *					   data on other CPUs than the one
 *					   that did it (or, discarded, with
 *					   none): not reused until cleaned
 *					   (dt_spec_clean), within cleanrate
 *
 * This is DTrace's state machine: a speculation committed or discarded
 * on the only CPU it was used on is free at once; otherwise it is busy
 * until cleaned, and speculation() failing then counts as "available
 * buffer(s) still busy" rather than "no speculative buffer available".
 * The engines drop the records of a clause whose speculate() names ID 0
 * or a speculation that is not active; they write the others to the
 * principal buffer as usual, and the consumer holds them per ID until
 * the COMMIT record (printed) or DISCARD record (dropped).  specsize
 * bounds the bytes (record headers included) of one speculation, summed
 * over CPUs; a clause that would pass it is dropped and counted as a
 * speculative drop.
 */
#ifndef DT_SPEC_H
#define DT_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#define DT_SPEC_INACTIVE   0
#define DT_SPEC_ACTIVE	   1
#define DT_SPEC_ACTIVEONE  2
#define DT_SPEC_ACTIVEMANY 3
#define DT_SPEC_BUSY	   4
#define DT_SPEC_STATEMASK  0xffu
#define DT_SPEC_CPUSHIFT   8

typedef struct dt_spec {
	uint64_t sp_state;
	uint64_t sp_bytes;
} dt_spec_t;

/* What dt_spec_speculate() decided for a clause. */
typedef enum dt_spec_verdict {
	DT_SPEC_OK,	/* record it */
	DT_SPEC_DROP,	/* ID 0 or not active: drop silently */
	DT_SPEC_FULL,	/* over specsize: drop, a speculative drop */
	DT_SPEC_ILLOP,	/* ID above nspec: an "illegal operation" fault */
} dt_spec_verdict_t;

/*
 * speculation(): a free ID, or 0 with *busyp telling which failure to
 * count (true: every speculation active or busy, at least one busy).
 */
extern uint32_t dt_spec_alloc(dt_spec_t *specs, uint32_t nspec, bool *busyp);
/* speculate(id) by a clause of size bytes on cpu. */
extern dt_spec_verdict_t dt_spec_speculate(dt_spec_t *specs, uint32_t nspec,
    uint64_t id, uint32_t cpu, uint64_t size, uint64_t specsize);
/*
 * commit(id) / discard(id) on cpu.  Returns false for an ID above nspec
 * (an "illegal operation" fault), true otherwise (ID 0 and inactive IDs
 * do nothing).
 */
extern bool dt_spec_commit(dt_spec_t *specs, uint32_t nspec, uint64_t id,
    uint32_t cpu);
extern bool dt_spec_discard(dt_spec_t *specs, uint32_t nspec, uint64_t id,
    uint32_t cpu);
/*
 * Free the busy speculations.  Engines do it within cleanrate of the
 * commit or discard, as DTrace's cleaner does.
 */
extern void dt_spec_clean(dt_spec_t *specs, uint32_t nspec);
extern bool dt_spec_busy(const dt_spec_t *specs, uint32_t nspec);

#endif /* DT_SPEC_H */
