/* SPDX-License-Identifier: MIT */
/*
 * dt_os_clock.c: the clocks of dt_os.h -- timestamp (CLOCK_MONOTONIC),
 * walltimestamp (CLOCK_REALTIME) and a thread's CPU time -- from POSIX's
 * clock_gettime(), which every backend has: os/posix/ holds what
 * backends share.
 */
#include <stdint.h>
#include <time.h>

#include "common/dt_os.h"

static uint64_t
dt_os_clock(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts) != 0)
		return 0;
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

uint64_t
dt_os_thread_cputime(void)
{
	return dt_os_clock(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t
dt_os_timestamp(void)
{
	return dt_os_clock(CLOCK_MONOTONIC);
}

uint64_t
dt_os_walltimestamp(void)
{
	return dt_os_clock(CLOCK_REALTIME);
}
