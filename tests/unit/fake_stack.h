/* SPDX-License-Identifier: MIT */
/*
 * fake_stack.h: a stack of 64 words at T_BASE (defined by the includer)
 * for the unwinders' unit tests, read through dt_cfi_unwind()'s memory
 * reader: t_read() reads an aligned word inside it and fails elsewhere,
 * t_poke() writes one.
 */
#ifndef FAKE_STACK_H
#define FAKE_STACK_H

#include <stdint.h>

static uint64_t t_stack[64];

static int
t_read(void *arg, uint64_t addr, uint64_t *valp)
{
	(void) arg;
	if (addr < T_BASE || addr + 8 > T_BASE + sizeof (t_stack) ||
	    (addr - T_BASE) % 8 != 0)
		return -1;
	*valp = t_stack[(addr - T_BASE) / 8];
	return 0;
}

static inline void
t_poke(uint64_t addr, uint64_t val)
{
	t_stack[(addr - T_BASE) / 8] = val;
}

#endif /* FAKE_STACK_H */
