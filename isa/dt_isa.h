/* SPDX-License-Identifier: MIT */
/*
 * dt_isa.h: the one interface every instruction-set directory isa/<cpu>/
 * implements, and the only isa/ header the rest of the tree includes.
 *
 * What depends on the processor and not on the OS or the engine:
 *
 *  - the pid provider's probe sites in a function: entry, every
 *    instruction offset, return sites (dt_isa_sites_scan());
 *  - the conditions of conditional tail calls: on the flags register
 *    (dt_isa_cond_holds()) or on one register (dt_isa_cond_reg());
 *  - the uregs[] names D programs use (dt_isa_regnames[]), which the
 *    compiler's prelude declares;
 *  - the breakpoint instruction (dt_isa_trap) and the FPU type curcpu
 *    names;
 *  - USDT argument strings (<sys/sdt.h> writes them in the ISA's
 *    assembler syntax; the registers come out as pt_regs offsets);
 *  - for an engine that runs displaced instructions itself (ptrace), the
 *    instruction decoder and emulator, whose types the ISA's own header
 *    below supplies as dt_isa_insn_t, dt_isa_regs_t, ...
 *
 * What depends on both the processor and Linux -- struct pt_regs (the
 * layout below: what a uprobe's, kprobe's or perf event's BPF program
 * receives, as offsets: pc, sp, flags, argument and return registers,
 * uregs[]), the ptrace register set, the C library's ucontext_t,
 * the system calls an ISA has beyond the common table, the pt_regs
 * members a system call's number and first argument are in -- is in
 * the ISA directory's *_linux.c file, in the last part of this header.
 * A port to another OS implements that part for its own kernel.
 *
 * The members are in the ISA directory's own *_isa.c file; isa/<cpu>/README.md
 * says what each ISA covers.  Nothing outside isa/ names a processor:
 * the build chooses the directory (configure's isa_dir), and every
 * difference between processors is a member of this interface.
 */

#ifndef ISA_DT_ISA_H
#define ISA_DT_ISA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ISA's name as uname(2) gives it: "x86_64", "aarch64". */
extern const char dt_isa_name[];

/*
 * Probe sites.
 */
typedef enum dt_isa_site_kind {
	DT_ISA_SITE_ENTRY,
	DT_ISA_SITE_OFFSET,
	DT_ISA_SITE_RETURN
} dt_isa_site_kind_t;

/*
 * dt_isa_site_t.cond of a return site: DT_ISA_COND_ALWAYS when it always
 * leaves the function; DT_ISA_COND_UNTESTED when it leaves on a condition
 * no engine tests yet (no return probe there); otherwise cond - 1 is the
 * condition the engine tests (dt_bpf_cg_ucond(), the ptrace engine), in
 * the ISA's own numbering.
 */
#define DT_ISA_COND_ALWAYS   0
#define DT_ISA_COND_UNTESTED 0xffff

typedef struct dt_isa_site {
	uint32_t off;	   /* of the instruction in the function */
	uint8_t kind;	   /* dt_isa_site_kind_t */
	uint8_t tailcall;  /* a return site by a branch out */
	uint16_t cond;	   /* see above */
	uint8_t probeable; /* a probe may be placed here */
	/*
	 * The caller's return address is still where the call left it (on
	 * top of the stack, or in the link register) and the frame pointer
	 * is the caller's: the function has no frame of its own here.  Set
	 * at the entry, at offset 0, at return sites, and at every offset of
	 * a function that never makes a frame (arm64: a leaf that leaves
	 * x29 and x30 alone), so a walk by frame pointers can add the caller.
	 */
	uint8_t atcall;
	const char *reason; /* why not, NULL if probeable */
} dt_isa_site_t;

/*
 * sites[] is by offset; at one offset entry comes before offset, before
 * return.  A function refused whole has no sites and refused says why.
 */
typedef struct dt_isa_sites {
	uint64_t addr;
	size_t size;
	size_t nsites;
	dt_isa_site_t *sites;
	const char *refused;
} dt_isa_sites_t;

#define DT_ISA_SITES_OK	     0
#define DT_ISA_SITES_REFUSED 1
#define DT_ISA_SITES_ENOMEM  (-1)

/*
 * The sites of the function whose size bytes of code live at addr in the
 * traced process.  out is always initialized: dt_isa_sites_free() it.
 */
extern int dt_isa_sites_scan(
    const uint8_t *code, size_t size, uint64_t addr, dt_isa_sites_t *out);
extern void dt_isa_sites_free(dt_isa_sites_t *s);

/*
 * Whether the kernel's uprobe, which single-steps the probed instruction
 * out of line, would run the instruction at code (avail bytes) wrongly
 * although it accepts it: such a site is skipped by the BPF engine.
 */
extern int dt_isa_uprobe_unsafe(const uint8_t *code, size_t avail);

/*
 * Whether the kernel is expected to refuse a uprobe on the instruction at
 * code (avail bytes) when it places one: a guess by the kernel's rules,
 * which the BPF engine uses to try such sites alone, so that one refusal
 * does not fail, and split again and again, a link of thousands of sites.
 * What the kernel then says is what counts, so a wrong guess costs time,
 * never a probe.
 */
extern int dt_isa_uprobe_doubtful(const uint8_t *code, size_t avail);

/*
 * Whether condition cond (a return site's cond - 1, in the ISA's own
 * numbering) holds with the flags register at flags.  The BPF engine
 * turns it into a truth table over the flag bits il_condbits[] names.
 */
extern int dt_isa_cond_holds(unsigned cond, uint64_t flags);

/*
 * A condition on one register rather than on the flags (arm64's
 * cbz/cbnz, tbz/tbnz): it holds when uregs[dr_reg] & dr_mask is zero
 * (dr_zero) or is not (!dr_zero).  dt_isa_cond_reg() gives 1 and fills
 * *rc when condition cond (as for dt_isa_cond_holds()) is one, 0 when it
 * is on the flags.
 */
typedef struct dt_isa_regcond {
	unsigned dr_reg; /* uregs[] index, as dt_isa_layout.il_uregs[] */
	uint64_t dr_mask;
	int dr_zero;
} dt_isa_regcond_t;

extern int dt_isa_cond_reg(unsigned cond, dt_isa_regcond_t *rc);

/*
 * uregs[] names for the D prelude: "R_PC" is uregs[ri_index].  Each ISA
 * has its own (illumos's amd64 numbering on x86-64; R_X0..R_X30, R_SP,
 * R_PC, R_PSTATE on arm64), and every one has DTrace's common aliases
 * R_PC, R_SP, R_FP, R_PS, R_R0 and R_R1.  Ends with a NULL name.
 */
typedef struct dt_isa_regname {
	const char *ri_name;
	int ri_index;
} dt_isa_regname_t;

extern const dt_isa_regname_t dt_isa_regnames[];

/* curcpu->cpu_info.pi_fputypes: "i387 compatible", or "". */
extern const char dt_isa_fputypes[];

/* The ELF e_machine of the ISA's objects (dtrace -G writes one). */
extern const uint16_t dt_isa_elf_machine;

/*
 * The breakpoint instruction a debugger plants (int3, brk #0), and how
 * far past its address the pc is when it has trapped (1, 0).
 */
typedef struct dt_isa_trap {
	uint8_t it_insn[4];
	uint8_t it_len;
	uint8_t it_pcadj;
} dt_isa_trap_t;

extern const dt_isa_trap_t dt_isa_trap;

/*
 * Linux: registers as byte offsets in struct pt_regs (what a uprobe,
 * kprobe or perf event program receives, and on both ISAs the start of
 * the ptrace NT_PRSTATUS register set too); -1 where the ISA has no
 * such register (it reads as 0).  Defined in isa/<cpu>/<cpu>_linux.c.
 */
#define DT_ISA_MAXARGREGS  8
#define DT_ISA_MAXCONDBITS 5

typedef struct dt_isa_layout {
	int16_t il_pc;
	int16_t il_sp;
	int16_t il_fp;	  /* the frame pointer: rbp, x29 */
	int16_t il_lr;	  /* the return address at a function's entry */
			  /* (x30), or -1: the word at sp (x86-64) */
	int16_t il_flags; /* rflags, pstate */
	int16_t il_ret;	  /* the return value: rax, x0 */
	int16_t il_args[DT_ISA_MAXARGREGS]; /* the integer arguments */
	uint8_t il_nargs;		    /* of il_args[] */
	uint8_t il_stackargs;	 /* past those: the words from sp + this */
				 /* at a function's entry */
	int16_t il_nuregs;	 /* entries of il_uregs[] */
	const int16_t *il_uregs; /* uregs[i]: the D prelude's numbering */
	/* The registers came from user mode when (word at il_mode) & */
	/* il_modemask == il_modeuser (cs's privilege level, pstate's EL). */
	int16_t il_mode;
	uint16_t il_modemask;
	uint16_t il_modeuser;
	/* The flag bits conditions test, by bit number in il_flags. */
	uint8_t il_ncondbits;
	uint8_t il_condbits[DT_ISA_MAXCONDBITS];
} dt_isa_layout_t;

extern const dt_isa_layout_t dt_isa_layout;

/*
 * Linux: uregs[] of the calling thread from getcontext() (and what it
 * does not save), as il_uregs numbers them; what is not kept reads as 0.
 * Returns the number of entries filled, at most max.
 */
extern size_t dt_isa_linux_uregs_self(uint64_t *regs, size_t max);

/*
 * Linux: system calls this ISA has beyond the numbers of the C library's
 * headers and the numbers shared by every ISA (x86-64's uprobe
 * trampolines).  Ends with a NULL name.
 */
typedef struct dt_isa_syscall {
	const char *is_name;
	int is_nr;
} dt_isa_syscall_t;

extern const dt_isa_syscall_t dt_isa_linux_syscalls[];

/*
 * Linux: the struct pt_regs members ("pt_regs.orig_ax") that hold, as a
 * system call returns, its number and its first argument (the return
 * value has taken the argument's register on some ISAs).  Their offsets
 * are the kernel's to say (BTF).
 */
extern const char dt_isa_linux_sysnr_member[];

/* Linux: the C library's nlink_t on this ISA, as a D base type name. */
extern const char dt_isa_linux_nlink_t[];
extern const char dt_isa_linux_sysarg0_member[];

/*
 * Linux: every struct pt_regs word the layout above uses, by the member
 * path the kernel's BTF names it with ("pt_regs.ip") and the offset the
 * layout gives it, so that the layout can be checked against the
 * running kernel (tests/unit/isa_ptregs_test.c).  Ends with a NULL path.
 */
typedef struct dt_isa_member {
	const char *im_path;
	int16_t im_off;
	uint8_t im_words; /* words: 1, or an array's length */
} dt_isa_member_t;

extern const dt_isa_member_t dt_isa_linux_ptregs[];

/*
 * USDT operands.  A note's argument string is "[-]N@operand" per
 * argument; the caller takes the size apart and passes the operand.
 */
typedef enum dt_isa_opkind {
	DT_ISA_OP_NONE,	 /* not understood: the argument is 0 */
	DT_ISA_OP_CONST, /* io_val */
	DT_ISA_OP_REG,	 /* the register at io_reg */
	DT_ISA_OP_MEM,	 /* user memory at the register + io_val */
} dt_isa_opkind_t;

typedef struct dt_isa_operand {
	uint8_t io_kind;    /* dt_isa_opkind_t */
	uint8_t io_regsize; /* DT_ISA_OP_REG: bytes the register name */
			    /* holds (a narrower one cuts the value) */
	uint8_t io_shift;   /* bits below the value in it (%ah: 8) */
	int16_t io_reg;	    /* pt_regs offset of the register */
	int64_t io_val;	    /* the constant or the displacement */
} dt_isa_operand_t;

extern void dt_isa_usdt_operand(const char *s, dt_isa_operand_t *op);

#ifdef __cplusplus
}
#endif

/* The instruction-level part: the ISA's own types under dt_isa_ names. */
#if defined(__x86_64__)
#include "isa/x86_64/x86_isa.h"
#elif defined(__aarch64__)
#include "isa/aarch64/a64_isa.h"
#else
#error "no isa/ directory for this processor"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Linux, for the ptrace engine (os/linux/ptrace/): what it does to a
 * traced thread that depends on the processor.  Defined in the ISA
 * directory's *_ptrace.c (ptrace(2), the injected signal handler's code)
 * and *_linux.c (the rest, pure C).
 *
 * The registers: the ptrace NT_PRSTATUS register set, which starts in
 * struct pt_regs order (so dt_isa_layout's offsets index it), and what
 * else the ISA keeps for a thread (arm64: the system call number, its own
 * register set), as DT_ISA_PTREGS_WORDS words.
 */
typedef struct dt_isa_ptregs {
	uint64_t pr_w[DT_ISA_PTREGS_WORDS];
} dt_isa_ptregs_t;

/* A register of r by its pt_regs offset (dt_isa_layout, below). */
#define DT_ISA_PTREG(r, off) ((r)->pr_w[(off) / 8])

/*
 * Thread tid's registers, stopped: 0, or -1 with errno set.  getregs
 * reads what a stop's handling needs, in one system call where it can
 * (arm64: not the system call number's own register set, whose word
 * it marks unread); getregs_all reads everything, for a thread whose
 * registers are saved to be put back whole (an injected system call).
 * setregs writes what was read.
 */
extern int dt_isa_ptrace_getregs(int tid, dt_isa_ptregs_t *r);
extern int dt_isa_ptrace_getregs_all(int tid, dt_isa_ptregs_t *r);
extern int dt_isa_ptrace_setregs(int tid, const dt_isa_ptregs_t *r);

#define DT_ISA_INJSPIN 8 /* bytes of ip_injspin and ip_injtrap */
/* The most bytes an injected system call's code takes (injback too). */
#define DT_ISA_INJLEN 32
#define DT_ISA_INJBLK 128 /* the most bytes injback keeps on the stack */

typedef struct dt_isa_ptrace {
	/*
	 * The breakpoint the engine writes: an instruction that faults with
	 * the pc left at it (x86-64: 0xce, invalid in 64-bit mode; arm64:
	 * brk #0), the signal and si_code it stops the thread with.
	 */
	uint8_t ip_brk[4];
	uint8_t ip_brklen;
	uint8_t ip_brksig;
	int16_t ip_brkcode;
	/*
	 * An injected system call: the call, then a jump to itself (while a
	 * guard may have to undo it) or a breakpoint; the pc once the call
	 * has returned is the start + ip_sysdone.
	 */
	uint8_t ip_injspin[DT_ISA_INJSPIN];
	uint8_t ip_injtrap[DT_ISA_INJSPIN];
	uint8_t ip_sysdone;
	int16_t ip_sysnr;      /* the register the number is put in */
	int16_t ip_sysargs[6]; /* and the arguments */
	int16_t ip_sysret;     /* the register the result comes in */
	/* The word whose -1 keeps an interrupted call from restarting. */
	int16_t ip_norestart;
	/* The word with the number at a system call stop. */
	int16_t ip_stopnr;
	/* seccomp_data.arch of the ISA's native calls (AUDIT_ARCH_*). */
	uint32_t ip_auditarch;
	/*
	 * The jump a counting site is patched with (dt_ptrace_fast.c): its
	 * length, 0 where sites are never patched so; and how it is known:
	 * its byte ip_jmpop_at, masked with ip_jmpop_mask, is ip_jmpop.
	 */
	uint8_t ip_jmplen;
	uint8_t ip_jmpop;
	uint8_t ip_jmpop_at;
	uint8_t ip_jmpop_mask;
} dt_isa_ptrace_t;

extern const dt_isa_ptrace_t dt_isa_ptrace;

/*
 * An injected system call whose thread goes back to where it was by
 * itself, should the tracer and the guard that undoes what it leaves
 * (os/linux/ptrace/dt_ptrace_rescue.c) both be killed while the call
 * runs: the call, then code that loads the registers the call and its
 * setting up changed from a block on the thread's stack, below what its
 * program may use (x86-64's red zone), and jumps to where the thread was
 * -- back into its interrupted system call, restarted as the kernel
 * would have with no signal (ERESTART*: the pc on its system call
 * instruction again, the number put back; restart_syscall for
 * ERESTART_RESTARTBLOCK).  From the thread's registers saved, and r set
 * for the call: writes the code to code (DT_ISA_INJLEN at most), the
 * block to blk (*blklen bytes, DT_ISA_INJBLK at most), to be written at
 * *blkaddr, and points r's stack there.  Returns the code's length, or
 * 0 where the ISA has no such code (ip_injspin is used then).
 */
extern size_t dt_isa_ptrace_injback(const dt_isa_ptregs_t *saved,
    dt_isa_ptregs_t *r, uint8_t *code, uint8_t *blk, size_t *blklen,
    uint64_t *blkaddr);

/*
 * Decode the instruction at addr (n bytes of it at code, zeros past them)
 * and say how a probe there runs it: 0, or -1 if it is not understood.
 */
extern int dt_isa_ptrace_decode(const uint8_t *code, size_t n, uint64_t addr,
    dt_isa_insn_t *in, dt_isa_strategy_t *strat);

/*
 * Run instruction in (DT_ISA_STRAT_EMULATE) on r, whose pc is at it.
 * 0, or -1 with r unchanged (a memory read failed: the thread faults).
 */
extern int dt_isa_ptrace_emulate(
    const dt_isa_insn_t *in, dt_isa_ptregs_t *r, const dt_isa_memops_t *mem);

/*
 * The out-of-line copy of instruction in (DT_ISA_STRAT_OOL; its bytes at
 * insn) to be placed at at: the code in buf (size bytes, DT_PT_SLOT),
 * its length in *lenp, and in *privatep whether it must be private to a
 * thread and written at each hit (it borrows a register it saves in the
 * copy, or holds data read through mem that may change).  0, or -1.
 * Where the copy ends: a jump back to the next instruction, or a trap
 * that dt_isa_ptrace_ool_return() recognizes.
 */
extern int dt_isa_ptrace_ool(const dt_isa_insn_t *in, const uint8_t *insn,
    uint64_t at, const dt_isa_memops_t *mem, uint8_t *buf, size_t size,
    size_t *lenp, int *privatep);

/*
 * A thread stopped by a breakpoint at pc, where the bytes code (n of
 * them) are: if it is the trap ending an out-of-line copy, 1 with the
 * address it goes on at in *resumep; else 0.
 */
extern int dt_isa_ptrace_ool_return(
    const uint8_t *code, size_t n, uint64_t *resumep);

/*
 * A thread stopped at pc (code: n bytes there) as tracing ends: if it is
 * inside an out-of-line copy that ends in a trap, which nothing will
 * handle once we are gone, 1 with where it goes on instead in *pcp (at
 * the trap: the address after the site; at the copied instruction, not
 * run yet: the site, whose original instruction is put back); else 0.
 */
extern int dt_isa_ptrace_ool_leave(
    const uint8_t *code, size_t n, uint64_t *pcp);

/*
 * A return site's instruction in (a branch out of the function) with
 * the registers r at it: whether it leaves (a conditional one, when
 * taken).
 */
extern int dt_isa_ptrace_taken(
    const dt_isa_insn_t *in, const dt_isa_ptregs_t *r);

/*
 * Counting sites (dt_ptrace_fast.c): whether a branch or a pc-relative
 * address of the function [addr, addr + size) (code: its bytes) lands in
 * (addr, addr + len); and the trampoline of the site at addr (code: avail
 * bytes from it) placed at tramp with its counter at ctr, in buf: its
 * length with the bytes displaced in *lenp, or 0 if it cannot be built
 * (always, where ip_jmplen is 0).
 */
extern int dt_isa_ptrace_lands(
    const uint8_t *code, uint64_t addr, uint64_t size, size_t len);
extern size_t dt_isa_ptrace_tramp(uint64_t addr, const uint8_t *code,
    size_t avail, uint64_t tramp, uint64_t ctr, uint8_t *buf, size_t bufsz,
    size_t *lenp);
/* The jump at from to to, ip_jmplen bytes in buf: 0, or -1 out of reach. */
extern int dt_isa_ptrace_jmp(uint64_t from, uint64_t to, uint8_t *buf);

/*
 * The signal handler dt_ptrace_trap.c maps into a traced process, which
 * mends the breakpoints a dead tracer left: position-independent code
 * copied to the start of an area laid out as below, and its restorer
 * (rt_sigreturn).  For a breakpoint signal whose pc is an entry of the
 * area's table it writes the original bytes back through
 * /proc/self/mem; at the trap ending an out-of-line copy it goes on where
 * the copy says; for a stop the tracer marked as moved on (si_errno
 * DT_TRAP_MAGIC, si_addr the pc) it returns; anything else goes to the
 * previous action (called, ignored, or the default one restored and the
 * signal raised again).
 */
#define DT_TRAP_OLDACT	1024 /* the previous action (kernel layout) */
#define DT_TRAP_NEWACT	1056 /* ours, and a scratch for queries */
#define DT_TRAP_ZEROACT 1088 /* SIG_DFL, for the default action */
#define DT_TRAP_PATH	1120 /* "/proc/self/mem" */
#define DT_TRAP_NEXT	1136 /* the next area, or 0 */
#define DT_TRAP_NSITES	1144 /* entries used in this area */
#define DT_TRAP_TABLE	1152 /* 16 B: { u64 addr; u8 len; u8 orig[7]; } */
#define DT_TRAP_ENTSZ	16
#define DT_TRAP_AREASZ	65536	   /* 4024 breakpoints an area */
#define DT_TRAP_MAGIC	0x44547261 /* si_errno of a stop moved on */

extern const uint8_t dt_isa_trap_code[], dt_isa_trap_code_end[];
extern const uint8_t dt_isa_trap_restorer[];

#ifdef __cplusplus
}
#endif

#endif /* ISA_DT_ISA_H */
