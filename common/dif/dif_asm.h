/* SPDX-License-Identifier: MIT */
/*
 * dif_asm.h: DIF as text -- the disassembler (what `dtrace -S` prints) and
 * an assembler that reads the same syntax back, for hand-written tests.
 *
 * The text of one object:
 *
 *	OFF OPCODE      INSTRUCTION
 *	00: 25000001    setx DT_INTEGER[0], %r1          ! 0x2a
 *	01: 23000001    ret  %r1
 *
 *	INTEGER TABLE
 *	[0] 42
 *
 *	STRING TABLE
 *	[0] "foo"
 *
 *	VARIABLE TABLE
 *	NAME             ID     KIND   SCOPE  FLAG TYPE
 *	x                0x500  scalar global r-   ctf signed 8
 *
 *	RETURN ctf signed 8
 *
 * docs/dif.md describes every instruction's syntax.  The assembler
 * ignores the "OFF: HEX" columns and "!" comments, and also accepts labels
 * ("L1:" on a line of its own, "ba L1") and literals that it adds to the
 * tables itself ("setx 42, %r1", "sets \"foo\", %r2").
 */
#ifndef DIF_ASM_H
#define DIF_ASM_H

#include <stddef.h>
#include <stdio.h>

#include "common/dif/dif.h"

/* Prints one instruction (no offset, no newline) into buf. */
extern int dif_disasm_instr(const dif_object_t *difo, uint32_t pc,
    char *buf, size_t size);
/* Prints the whole object as above. */
extern void dif_disasm(FILE *fp, const dif_object_t *difo);
/*
 * Prints the instructions and the integer and string tables only, for a
 * listing that shows the variables its own way (dtrace -S).
 */
extern void dif_disasm_code(FILE *fp, const dif_object_t *difo);
/* The scope (DIFV_SCOPE_*) an opcode's variable operand lives in. */
extern int dif_op_scope(uint32_t op);
/* The text of a type as the tables print it: "ctf signed 8", ... */
extern int dif_type_format(const dif_type_t *t, char *buf, size_t size);

/*
 * Assembles text into a new object (free with dif_object_free()), or
 * returns NULL with "line N: message" in errbuf.  The result is not
 * verified: run dif_verify() on it.
 */
extern dif_object_t *dif_asm(const char *text, char *errbuf, size_t errlen);

#endif /* DIF_ASM_H */
