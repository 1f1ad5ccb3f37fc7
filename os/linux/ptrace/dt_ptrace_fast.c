/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_fast.c: pid entry probes that only count, counted inside the
 * traced process -- no breakpoint, no ptrace stop per firing.
 *
 * A breakpoint costs a ptrace stop per hit (about 10 µs).  When every
 * clause of every probe at a pid entry site is a plain count (@ = count()
 * or @[probefunc] = count(), no predicate: dt_interp_countonly()), the
 * firing needs no clause run in dtrace at all, only a number.  Where the
 * ISA has such a jump (dt_isa_ptrace.ip_jmplen; dt_isa_ptrace_tramp()
 * builds the trampolines: on x86-64 as below, on arm64 a b over one
 * instruction to a trampoline that counts with registers it saves on
 * the stack, isa/aarch64/a64_ptrace_ops.c), such a site is patched with
 * a jump (on x86-64 a 5-byte jmp rel32) into a trampoline of its own in
 * a page mapped near it in the target:
 *
 *	site:	jmp tramp			(5 bytes over the first
 *						 instructions; the rest of
 *						 them is never reached)
 *	tramp:	lock incq counter(%rip)		(a 64-bit counter per site,
 *						 in a read-write page)
 *		<the displaced instructions>	(copied, RIP-relative
 *						 operands fixed up)
 *		jmp site + len			(the first instruction not
 *						 displaced)
 *
 * The code page is mapped read-execute, the counters read-write (two
 * injected system calls: mmap with a hint below the site, so that rel32
 * reaches, and mprotect).  The flags the lock incq changes are dead at a
 * function's entry (the ABI preserves none across a call) and no stack is
 * used, so the red zone is safe.
 *
 * A site is patched only when it can be done safely, and otherwise keeps
 * its breakpoint:
 *  - its probes are entry probes and counts only, -x followfork is not
 *    set (a fork child's copy of the counters would not be read);
 *  - the instructions covering the 5 bytes are ordinary ones (no branch,
 *    call, return, system call or int3) whose RIP-relative operands reach
 *    from the trampoline;
 *  - no other probe site lies in them, and no branch of the function (its
 *    symbol's extent, every instruction decoded) lands inside them but at
 *    the start: the bytes after the jmp are never run again;
 *  - every thread of the process is stopped, and none has %rip inside
 *    them (a thread at a breakpoint being handled has %rip at its site).
 *
 * dtrace reads the counters (through /proc/<pid>/mem) whenever the wait
 * for ptrace stops returns, at each aggregation snapshot, when a thread
 * of the process exits (its memory is still there), just after a firing
 * that called exit() (as counted before it: the thread is still stopped
 * there) and at the end, and
 * hands the increase to the interpreter (dt_interp_count()), which adds it
 * to the counts as that many firings would: the output is the same as
 * with breakpoints.  At detach the 5 bytes are written back with every
 * thread stopped; the trampoline stays mapped, since a thread may be in
 * it and jumps back to the original code.  A fork child (without
 * followfork) gets its 5 bytes back as it would its breakpoint.  If
 * dtrace is killed with SIGKILL, the patched process runs on unharmed:
 * the trampolines stay valid and only count, and the next dtrace to trace
 * it writes the 5 bytes back (dt_pt_trap_mend()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "os/linux/dt_elfsym.h"
#include "os/linux/ptrace/dt_ptrace_impl.h"

#define DT_PT_TRAMP	 64	/* bytes of one trampoline */
#define DT_PT_FUNC_MAX	 (1 << 20) /* bytes of a function decoded */

/* Could the probes at site s be counted in the process? */
static bool
dt_pt_fast_probes(dtrace_hdl_t *dtp, const dt_pt_site_t *s)
{
	if (s->ps_nfires == 0 || s->ps_rtld)
		return false;
	for (uint32_t i = 0; i < s->ps_nfires; i++) {
		if (s->ps_fires[i].pf_kind != DT_PID_ENTRY ||
		    !dt_interp_countonly(dtp, s->ps_fires[i].pf_id))
			return false;
	}
	return true;
}

/*
 * The size of the function at addr, from the symbols of the file it is
 * in, or 0.  The file's symbols are kept in *cache between calls.
 */
static uint64_t
dt_pt_func_size(const dt_pt_site_t *s, uint64_t base, dt_elfsyms_t *cache,
    const char **cpath)
{
	uint64_t size = 0, off = s->ps_addr - base;

	if (*cpath == NULL || strcmp(*cpath, s->ps_path) != 0) {
		if (*cpath != NULL)
			dt_elfsym_free(cache);
		*cpath = NULL;
		if (dt_elfsym_load(s->ps_path, cache) != 0)
			return 0;
		*cpath = s->ps_path;
	}
	for (size_t i = 0; i < cache->ess_nsyms; i++) {
		const dt_elfsym_t *es = &cache->ess_syms[i];

		if (es->es_size > size &&
		    dt_elfsym_fileoff(cache, es->es_addr) == (int64_t) off)
			size = es->es_size;
	}
	return size;
}

/*
 * Is every thread of pp stopped (t is, being handled), with none inside
 * [addr + 1, addr + len)?
 */
static bool
dt_pt_threads_clear(const dt_ptrace_t *pt, const dt_pt_proc_t *pp,
    const dt_pt_thread_t *cur, uint64_t addr, size_t len)
{
	for (size_t i = 0; i < pt->pt_nthreads; i++) {
		const dt_pt_thread_t *t = &pt->pt_threads[i];
		dt_isa_ptregs_t r;
		uint64_t pc;

		if (t->pt_proc->pp_mm != pp)
			continue;
		if ((t != cur && !t->pt_stopped) ||
		    dt_isa_ptrace_getregs(t->pt_tid, &r) != 0)
			return false;
		pc = DT_ISA_PTREG(&r, dt_isa_layout.il_pc);
		if (pc > addr && pc < addr + len)
			return false;
	}
	return true;
}

/* Run mmap(hint, len, prot) in pp: the address, or 0. */
static uint64_t
dt_pt_inject_map(dt_pt_proc_t *pp, dt_pt_thread_t *t, uint64_t hint,
    size_t len, int prot)
{
	uint64_t a[6] = { hint, len, (uint64_t) prot,
		MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t) -1, 0 };
	int64_t ret = dt_pt_inject_syscall(pp, t, SYS_mmap, a);

	return ret > 0 ? (uint64_t) ret : 0;
}

/*
 * Could site s be patched?  What does not depend on its instructions:
 * they are checked as its trampoline is built.
 */
static bool
dt_pt_fast_candidate(dtrace_hdl_t *dtp, const dt_ptrace_t *pt,
    const dt_pt_proc_t *pp, const dt_pt_site_t *s)
{
	if (pt->pt_follow || pp->pp_mm != pp || s->ps_path == NULL ||
	    !s->ps_decoded || s->ps_armed || s->ps_bad || s->ps_fast ||
	    !dt_pt_fast_probes(dtp, s))
		return false;
	return true;
}

void
dt_pt_fast_place(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_proc_t *pp,
    dt_pt_thread_t *t)
{
	size_t ncand = 0, ncode, nctr, k = 0;
	uint64_t lo = UINT64_MAX, area, ctrs;
	dt_elfsyms_t syms = { 0 };
	const char *spath = NULL;
	uint8_t *code = NULL, *p;

	/* The ISA has no such jump: every site keeps its breakpoint. */
	if (DT_PT_JMPLEN == 0)
		return;
	for (size_t i = 0; i < pp->pp_nsites; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];

		if (!dt_pt_fast_candidate(dtp, pt, pp, s))
			continue;
		ncand++;
		if (s->ps_addr < lo)
			lo = s->ps_addr;
	}
	if (ncand == 0 || !dt_pt_threads_clear(pt, pp, t, 0, 0))
		return;
	ncode = (ncand * DT_PT_TRAMP + 4095) & ~(size_t) 4095;
	nctr = (ncand * 8 + 4095) & ~(size_t) 4095;
	/* Below the lowest site: rel32 must reach it. */
	lo &= ~(uint64_t) 4095;
	if ((area = dt_pt_inject_map(pp, t, lo > (64 << 20) ? lo - (64 << 20) :
	    0, ncode + nctr, PROT_READ | PROT_WRITE)) == 0)
		return;
	ctrs = area + ncode;
	{
		uint64_t a[6] = { area, ncode, PROT_READ | PROT_EXEC };

		if (dt_pt_inject_syscall(pp, t, SYS_mprotect, a) != 0)
			return;	/* left unused */
	}
	for (size_t i = 0; i < pp->pp_nsites && k < ncand; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];
		uint64_t base, size, tramp = area + k * DT_PT_TRAMP;
		uint64_t ctr = ctrs + k * 8;
		uint8_t buf[DT_PT_TRAMP], jmp[DT_PT_JMPMAX];
		size_t n, len;

		if (!dt_pt_fast_candidate(dtp, pt, pp, s))
			continue;
		k++;
		if (dt_isa_ptrace_jmp(s->ps_addr, tramp, jmp) != 0 ||
		    (base = s->ps_base) == 0 ||
		    (size = dt_pt_func_size(s, base, &syms, &spath)) <
		    DT_PT_JMPLEN || size > DT_PT_FUNC_MAX ||
		    (p = realloc(code, size + DT_ISA_MAX_INSN_LEN)) == NULL)
			continue;
		code = p;
		if (dt_pt_text_read(pp, s->ps_addr, code, size) != 0)
			continue;
		/* Our own breakpoints in it read as what they replaced. */
		memset(code + size, 0, DT_ISA_MAX_INSN_LEN);
		for (size_t j = 0; j < pp->pp_nsites; j++) {
			const dt_pt_site_t *o = &pp->pp_sites[j];

			if (o->ps_armed && o->ps_addr >= s->ps_addr &&
			    o->ps_addr < s->ps_addr + size)
				memcpy(code + (o->ps_addr - s->ps_addr),
				    o->ps_insn, DT_PT_BRKLEN);
			if (o->ps_fast && o->ps_addr >= s->ps_addr &&
			    o->ps_addr + DT_PT_JMPLEN <= s->ps_addr + size)
				memcpy(code + (o->ps_addr - s->ps_addr),
				    o->ps_insn, DT_PT_JMPLEN);
		}
		if ((n = dt_isa_ptrace_tramp(s->ps_addr, code, (size_t) size +
		    DT_ISA_MAX_INSN_LEN, tramp, ctr, buf, sizeof (buf),
		    &len)) == 0 ||
		    len > size || (s + 1 < pp->pp_sites + pp->pp_nsites &&
		    s[1].ps_addr < s->ps_addr + len) ||
		    dt_isa_ptrace_lands(code, s->ps_addr, size, len) ||
		    !dt_pt_threads_clear(pt, pp, t, s->ps_addr, len) ||
		    dt_pt_text_write(pp, tramp, buf, n) != 0)
			continue;
		/* Noted, so that a tracer after us can undo it, should we die. */
		(void) dt_pt_trap_note(pp, t, s->ps_addr, s->ps_insn,
		    DT_PT_JMPLEN);
		if (dt_pt_text_write(pp, s->ps_addr, jmp, DT_PT_JMPLEN) != 0)
			continue;
		s->ps_fast = true;
		s->ps_flen = (uint8_t) len;
		s->ps_counter = ctr;
		s->ps_seen = 0;
	}
	free(code);
	if (spath != NULL)
		dt_elfsym_free(&syms);
}

bool
dt_pt_fast_covers(const dt_pt_proc_t *pp, const dt_pt_site_t *s)
{
	for (size_t i = (size_t) (s - pp->pp_sites); i > 0; i--) {
		const dt_pt_site_t *o = &pp->pp_sites[i - 1];

		if (o->ps_addr + DT_ISA_MAX_INSN_LEN <= s->ps_addr)
			break;
		if (o->ps_fast && s->ps_addr < o->ps_addr + o->ps_flen)
			return true;
	}
	return false;
}

void
dt_pt_fast_collect(dtrace_hdl_t *dtp, dt_pt_proc_t *pp, bool before_exit)
{
	if (pp->pp_gone || pp->pp_mm != pp || pp->pp_memfd < 0)
		return;
	for (size_t i = 0; i < pp->pp_nsites; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];
		uint64_t v;

		if (!s->ps_fast ||
		    dt_pt_text_read(pp, s->ps_counter, &v, sizeof (v)) != 0 ||
		    v == s->ps_seen)
			continue;
		for (uint32_t f = 0; f < s->ps_nfires; f++)
			dt_interp_count(dtp, s->ps_fires[f].pf_id,
			    v - s->ps_seen, before_exit);
		s->ps_seen = v;
	}
}

void
dt_pt_fast_collect_all(dtrace_hdl_t *dtp, dt_ptrace_t *pt, bool before_exit)
{
	for (size_t p = 0; p < pt->pt_nprocs; p++)
		dt_pt_fast_collect(dtp, pt->pt_procs[p], before_exit);
}
