/* SPDX-License-Identifier: MIT */
/*
 * dif_verify.h: the DIF verifier.
 *
 * DIF objects are checked before any engine runs them: the interpreter
 * trusts what the verifier proved (DESIGN invariant 6).  It rejects
 * invalid opcodes, register numbers, table indices and variable
 * references, writes to %r0, stores to the read-only built-in variables,
 * branches that do not go forward within the object, reads of registers
 * no path has written, conditional branches with no comparison before
 * them, objects over DIF_INSTR_MAX instructions or without a final ret,
 * unknown subroutines or wrong argument counts, and tuple-stack overflow
 * or underflow that is certain from the code.
 */
#ifndef DIF_VERIFY_H
#define DIF_VERIFY_H

#include <stddef.h>

#include "common/dif/dif.h"

/*
 * Returns 0 when the object is valid, or -1 with one line in errbuf:
 * "DIF instruction 03: branch to 01 does not go forward".
 */
extern int dif_verify(const dif_object_t *difo, char *errbuf, size_t errlen);

/* Subroutine argument counts, for the verifier and the code generator. */
extern int dif_subr_minargs(uint32_t subr);
extern int dif_subr_maxargs(uint32_t subr);

#endif /* DIF_VERIFY_H */
