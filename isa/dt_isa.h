/*
 * dt_isa.h: the one interface every instruction-set directory isa/<cpu>/
 * implements, and the only isa/ header the rest of the tree includes.
 *
 * What depends on the processor and not on the OS or the engine:
 *
 *  - the pid provider's probe sites in a function: entry, every
 *    instruction offset, return sites (dt_isa_sites_scan());
 *  - the register layout a probe reads: the kernel's struct pt_regs of
 *    the ISA, which is what a uprobe's BPF program receives (Linux keeps
 *    the user registers in this form on every ISA it runs on), as offsets:
 *    uregs[] numbering, argument and return registers, pc, sp, flags;
 *  - USDT argument strings (<sys/sdt.h> writes them in the ISA's
 *    assembler syntax);
 *  - for an engine that runs displaced instructions itself (ptrace), the
 *    instruction decoder and emulator, whose types the ISA's own header
 *    below supplies as dt_isa_insn_t, dt_isa_regs_t, ...
 *
 * The members are in the ISA directory's own *_isa.c file; isa/<cpu>/README.md
 * says what each ISA covers.
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

/* dt_isa_site_t.cond of a return site: */
#define DT_ISA_COND_ALWAYS   0	 /* always leaves the function */
#define DT_ISA_COND_UNTESTED 255 /* leaves on a condition no engine tests */
				 /* yet: no return probe there */
/* otherwise cond - 1 is the condition code the engine tests */
/* (dt_bpf_cg_ucond(), the ptrace engine): the ISA's own numbering */

typedef struct dt_isa_site {
	uint32_t off;	    /* of the instruction in the function */
	uint8_t kind;	    /* dt_isa_site_kind_t */
	uint8_t tailcall;   /* a return site by a branch out */
	uint8_t cond;	    /* see above */
	uint8_t probeable;  /* a probe may be placed here */
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
 * Registers, as byte offsets in struct pt_regs; -1 where the ISA has no
 * such register (it reads as 0).
 */
#define DT_ISA_MAXARGREGS 8

typedef struct dt_isa_layout {
	int16_t il_pc;
	int16_t il_sp;
	int16_t il_flags;		    /* rflags, pstate */
	int16_t il_ret;			    /* the return value: rax, x0 */
	int16_t il_args[DT_ISA_MAXARGREGS]; /* the integer arguments */
	uint8_t il_nargs;		    /* of il_args[] */
	uint8_t il_stackargs;	 /* past those: the words from sp + this */
				 /* at a function's entry */
	int16_t il_nuregs;	 /* entries of il_uregs[] */
	const int16_t *il_uregs; /* uregs[i]: the D prelude's numbering */
} dt_isa_layout_t;

extern const dt_isa_layout_t dt_isa_layout;

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

#endif /* ISA_DT_ISA_H */
