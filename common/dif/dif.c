/* SPDX-License-Identifier: MIT */
/*
 * dif.c: DIF objects and the names of the instruction set.
 *
 * The name tables here are the single source of spelling for opcodes,
 * subroutines and built-in variables: the disassembler prints them, the
 * assembler parses them, the verifier and the interpreter use them in
 * messages.  They are arrays indexed by the number DTrace gives each one;
 * a NULL entry is a number with no meaning.
 */
#include <stdlib.h>
#include <string.h>

#include "common/dif/dif.h"

static const char *const dif_opnames[DIF_OP_MAX + 1] = {
	[DIF_OP_OR] = "or",
	[DIF_OP_XOR] = "xor",
	[DIF_OP_AND] = "and",
	[DIF_OP_SLL] = "sll",
	[DIF_OP_SRL] = "srl",
	[DIF_OP_SUB] = "sub",
	[DIF_OP_ADD] = "add",
	[DIF_OP_MUL] = "mul",
	[DIF_OP_SDIV] = "sdiv",
	[DIF_OP_UDIV] = "udiv",
	[DIF_OP_SREM] = "srem",
	[DIF_OP_UREM] = "urem",
	[DIF_OP_NOT] = "not",
	[DIF_OP_MOV] = "mov",
	[DIF_OP_CMP] = "cmp",
	[DIF_OP_TST] = "tst",
	[DIF_OP_BA] = "ba",
	[DIF_OP_BE] = "be",
	[DIF_OP_BNE] = "bne",
	[DIF_OP_BG] = "bg",
	[DIF_OP_BGU] = "bgu",
	[DIF_OP_BGE] = "bge",
	[DIF_OP_BGEU] = "bgeu",
	[DIF_OP_BL] = "bl",
	[DIF_OP_BLU] = "blu",
	[DIF_OP_BLE] = "ble",
	[DIF_OP_BLEU] = "bleu",
	[DIF_OP_LDSB] = "ldsb",
	[DIF_OP_LDSH] = "ldsh",
	[DIF_OP_LDSW] = "ldsw",
	[DIF_OP_LDUB] = "ldub",
	[DIF_OP_LDUH] = "lduh",
	[DIF_OP_LDUW] = "lduw",
	[DIF_OP_LDX] = "ldx",
	[DIF_OP_RET] = "ret",
	[DIF_OP_NOP] = "nop",
	[DIF_OP_SETX] = "setx",
	[DIF_OP_SETS] = "sets",
	[DIF_OP_SCMP] = "scmp",
	[DIF_OP_LDGA] = "ldga",
	[DIF_OP_LDGS] = "ldgs",
	[DIF_OP_STGS] = "stgs",
	[DIF_OP_LDTA] = "ldta",
	[DIF_OP_LDTS] = "ldts",
	[DIF_OP_STTS] = "stts",
	[DIF_OP_SRA] = "sra",
	[DIF_OP_CALL] = "call",
	[DIF_OP_PUSHTR] = "pushtr",
	[DIF_OP_PUSHTV] = "pushtv",
	[DIF_OP_POPTS] = "popts",
	[DIF_OP_FLUSHTS] = "flushts",
	[DIF_OP_LDGAA] = "ldgaa",
	[DIF_OP_LDTAA] = "ldtaa",
	[DIF_OP_STGAA] = "stgaa",
	[DIF_OP_STTAA] = "sttaa",
	[DIF_OP_LDLS] = "ldls",
	[DIF_OP_STLS] = "stls",
	[DIF_OP_ALLOCS] = "allocs",
	[DIF_OP_COPYS] = "copys",
	[DIF_OP_STB] = "stb",
	[DIF_OP_STH] = "sth",
	[DIF_OP_STW] = "stw",
	[DIF_OP_STX] = "stx",
	[DIF_OP_ULDSB] = "uldsb",
	[DIF_OP_ULDSH] = "uldsh",
	[DIF_OP_ULDSW] = "uldsw",
	[DIF_OP_ULDUB] = "uldub",
	[DIF_OP_ULDUH] = "ulduh",
	[DIF_OP_ULDUW] = "ulduw",
	[DIF_OP_ULDX] = "uldx",
	[DIF_OP_RLDSB] = "rldsb",
	[DIF_OP_RLDSH] = "rldsh",
	[DIF_OP_RLDSW] = "rldsw",
	[DIF_OP_RLDUB] = "rldub",
	[DIF_OP_RLDUH] = "rlduh",
	[DIF_OP_RLDUW] = "rlduw",
	[DIF_OP_RLDX] = "rldx",
	[DIF_OP_XLATE] = "xlate",
	[DIF_OP_XLARG] = "xlarg",
};

static const char *const dif_subrnames[DIF_SUBR_MAX + 1] = {
	[DIF_SUBR_RAND] = "rand",
	[DIF_SUBR_MUTEX_OWNED] = "mutex_owned",
	[DIF_SUBR_MUTEX_OWNER] = "mutex_owner",
	[DIF_SUBR_MUTEX_TYPE_ADAPTIVE] = "mutex_type_adaptive",
	[DIF_SUBR_MUTEX_TYPE_SPIN] = "mutex_type_spin",
	[DIF_SUBR_RW_READ_HELD] = "rw_read_held",
	[DIF_SUBR_RW_WRITE_HELD] = "rw_write_held",
	[DIF_SUBR_RW_ISWRITER] = "rw_iswriter",
	[DIF_SUBR_COPYIN] = "copyin",
	[DIF_SUBR_COPYINSTR] = "copyinstr",
	[DIF_SUBR_SPECULATION] = "speculation",
	[DIF_SUBR_PROGENYOF] = "progenyof",
	[DIF_SUBR_STRLEN] = "strlen",
	[DIF_SUBR_COPYOUT] = "copyout",
	[DIF_SUBR_COPYOUTSTR] = "copyoutstr",
	[DIF_SUBR_ALLOCA] = "alloca",
	[DIF_SUBR_BCOPY] = "bcopy",
	[DIF_SUBR_COPYINTO] = "copyinto",
	[DIF_SUBR_MSGDSIZE] = "msgdsize",
	[DIF_SUBR_MSGSIZE] = "msgsize",
	[DIF_SUBR_GETMAJOR] = "getmajor",
	[DIF_SUBR_GETMINOR] = "getminor",
	[DIF_SUBR_DDI_PATHNAME] = "ddi_pathname",
	[DIF_SUBR_STRJOIN] = "strjoin",
	[DIF_SUBR_LLTOSTR] = "lltostr",
	[DIF_SUBR_BASENAME] = "basename",
	[DIF_SUBR_DIRNAME] = "dirname",
	[DIF_SUBR_CLEANPATH] = "cleanpath",
	[DIF_SUBR_STRCHR] = "strchr",
	[DIF_SUBR_STRRCHR] = "strrchr",
	[DIF_SUBR_STRSTR] = "strstr",
	[DIF_SUBR_STRTOK] = "strtok",
	[DIF_SUBR_SUBSTR] = "substr",
	[DIF_SUBR_INDEX] = "index",
	[DIF_SUBR_RINDEX] = "rindex",
	[DIF_SUBR_HTONS] = "htons",
	[DIF_SUBR_HTONL] = "htonl",
	[DIF_SUBR_HTONLL] = "htonll",
	[DIF_SUBR_NTOHS] = "ntohs",
	[DIF_SUBR_NTOHL] = "ntohl",
	[DIF_SUBR_NTOHLL] = "ntohll",
	[DIF_SUBR_INET_NTOP] = "inet_ntop",
	[DIF_SUBR_INET_NTOA] = "inet_ntoa",
	[DIF_SUBR_INET_NTOA6] = "inet_ntoa6",
	[DIF_SUBR_TOUPPER] = "toupper",
	[DIF_SUBR_TOLOWER] = "tolower",
	[DIF_SUBR_GETF] = "getf",
	[DIF_SUBR_JSON] = "json",
	[DIF_SUBR_STRTOLL] = "strtoll",
	[DIF_SUBR_MEMREF] = "memref",
	[DIF_SUBR_LINK_NTOP] = "link_ntop",
	[DIF_SUBR_D_PATH] = "d_path",
};

/* Built-in variables, sparse: searched linearly (only for names). */
static const struct {
	uint32_t id;
	const char *name;
} dif_varnames[] = {
	{ DIF_VAR_ARGS, "args" },
	{ DIF_VAR_REGS, "regs" },
	{ DIF_VAR_UREGS, "uregs" },
	{ DIF_VAR_CURTHREAD, "curthread" },
	{ DIF_VAR_TIMESTAMP, "timestamp" },
	{ DIF_VAR_VTIMESTAMP, "vtimestamp" },
	{ DIF_VAR_IPL, "ipl" },
	{ DIF_VAR_EPID, "epid" },
	{ DIF_VAR_ID, "id" },
	{ DIF_VAR_ARG0, "arg0" },
	{ DIF_VAR_ARG1, "arg1" },
	{ DIF_VAR_ARG2, "arg2" },
	{ DIF_VAR_ARG3, "arg3" },
	{ DIF_VAR_ARG4, "arg4" },
	{ DIF_VAR_ARG5, "arg5" },
	{ DIF_VAR_ARG6, "arg6" },
	{ DIF_VAR_ARG7, "arg7" },
	{ DIF_VAR_ARG8, "arg8" },
	{ DIF_VAR_ARG9, "arg9" },
	{ DIF_VAR_STACKDEPTH, "stackdepth" },
	{ DIF_VAR_CALLER, "caller" },
	{ DIF_VAR_PROBEPROV, "probeprov" },
	{ DIF_VAR_PROBEMOD, "probemod" },
	{ DIF_VAR_PROBEFUNC, "probefunc" },
	{ DIF_VAR_PROBENAME, "probename" },
	{ DIF_VAR_PID, "pid" },
	{ DIF_VAR_TID, "tid" },
	{ DIF_VAR_EXECNAME, "execname" },
	{ DIF_VAR_ZONENAME, "zonename" },
	{ DIF_VAR_WALLTIMESTAMP, "walltimestamp" },
	{ DIF_VAR_USTACKDEPTH, "ustackdepth" },
	{ DIF_VAR_UCALLER, "ucaller" },
	{ DIF_VAR_PPID, "ppid" },
	{ DIF_VAR_UID, "uid" },
	{ DIF_VAR_GID, "gid" },
	{ DIF_VAR_ERRNO, "errno" },
	{ DIF_VAR_CURCPU, "curcpu" },
	{ DIF_VAR_CWD, "cwd" },
	{ DIF_VAR_ROOT, "root" },
	{ DIF_VAR_EXECARGS, "execargs" },
	{ DIF_VAR_CPU, "cpu" },
};

dif_fmt_t
dif_op_format(uint32_t op)
{
	switch (op) {
	case DIF_OP_OR: case DIF_OP_XOR: case DIF_OP_AND: case DIF_OP_SLL:
	case DIF_OP_SRL: case DIF_OP_SRA: case DIF_OP_SUB: case DIF_OP_ADD:
	case DIF_OP_MUL: case DIF_OP_SDIV: case DIF_OP_UDIV:
	case DIF_OP_SREM: case DIF_OP_UREM:
		return DIF_FMT_R1R2RD;
	case DIF_OP_NOT: case DIF_OP_MOV: case DIF_OP_ALLOCS:
		return DIF_FMT_R1RD;
	case DIF_OP_CMP: case DIF_OP_SCMP:
		return DIF_FMT_R1R2;
	case DIF_OP_TST:
		return DIF_FMT_R1;
	case DIF_OP_BA: case DIF_OP_BE: case DIF_OP_BNE: case DIF_OP_BG:
	case DIF_OP_BGU: case DIF_OP_BGE: case DIF_OP_BGEU: case DIF_OP_BL:
	case DIF_OP_BLU: case DIF_OP_BLE: case DIF_OP_BLEU:
		return DIF_FMT_BRANCH;
	case DIF_OP_LDSB: case DIF_OP_LDSH: case DIF_OP_LDSW:
	case DIF_OP_LDUB: case DIF_OP_LDUH: case DIF_OP_LDUW: case DIF_OP_LDX:
	case DIF_OP_ULDSB: case DIF_OP_ULDSH: case DIF_OP_ULDSW:
	case DIF_OP_ULDUB: case DIF_OP_ULDUH: case DIF_OP_ULDUW:
	case DIF_OP_ULDX:
	case DIF_OP_RLDSB: case DIF_OP_RLDSH: case DIF_OP_RLDSW:
	case DIF_OP_RLDUB: case DIF_OP_RLDUH: case DIF_OP_RLDUW:
	case DIF_OP_RLDX:
		return DIF_FMT_LOAD;
	case DIF_OP_STB: case DIF_OP_STH: case DIF_OP_STW: case DIF_OP_STX:
		return DIF_FMT_STORE;
	case DIF_OP_SETX:
		return DIF_FMT_SETX;
	case DIF_OP_SETS:
		return DIF_FMT_SETS;
	case DIF_OP_LDGS: case DIF_OP_LDTS: case DIF_OP_LDLS:
	case DIF_OP_LDGAA: case DIF_OP_LDTAA:
		return DIF_FMT_LDV;
	case DIF_OP_STGS: case DIF_OP_STTS: case DIF_OP_STLS:
	case DIF_OP_STGAA: case DIF_OP_STTAA:
		return DIF_FMT_STV;
	case DIF_OP_LDGA: case DIF_OP_LDTA:
		return DIF_FMT_LDA;
	case DIF_OP_CALL:
		return DIF_FMT_CALL;
	case DIF_OP_PUSHTR:
		return DIF_FMT_PUSHTR;
	case DIF_OP_PUSHTV:
		return DIF_FMT_PUSHTV;
	case DIF_OP_RET:
		return DIF_FMT_RET;
	case DIF_OP_NOP: case DIF_OP_POPTS: case DIF_OP_FLUSHTS:
		return DIF_FMT_NONE;
	case DIF_OP_COPYS:
		return DIF_FMT_COPYS;
	case DIF_OP_XLATE: case DIF_OP_XLARG:
		return DIF_FMT_XLATE;
	default:
		return DIF_FMT_INVALID;
	}
}

const char *
dif_op_name(uint32_t op)
{
	return op <= DIF_OP_MAX ? dif_opnames[op] : NULL;
}

const char *
dif_subr_name(uint32_t subr)
{
	return subr <= DIF_SUBR_MAX ? dif_subrnames[subr] : NULL;
}

const char *
dif_var_name(uint32_t id)
{
	size_t i;

	for (i = 0; i < sizeof (dif_varnames) / sizeof (dif_varnames[0]); i++)
		if (dif_varnames[i].id == id)
			return dif_varnames[i].name;
	return NULL;
}

int
dif_subr_lookup(const char *name)
{
	int i;

	for (i = 0; i <= DIF_SUBR_MAX; i++)
		if (dif_subrnames[i] != NULL &&
		    strcmp(dif_subrnames[i], name) == 0)
			return i;
	return -1;
}

int
dif_var_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof (dif_varnames) / sizeof (dif_varnames[0]); i++)
		if (strcmp(dif_varnames[i].name, name) == 0)
			return (int) dif_varnames[i].id;
	return -1;
}

const char *
dif_var_tabname(const dif_object_t *difo, const dif_var_t *v)
{
	if (v->dv_name >= difo->dif_strlen)
		return NULL;
	/* The verifier proves the string table ends with a NUL. */
	return difo->dif_strtab + v->dv_name;
}

/* Copies n elements of size sz, or yields NULL for n == 0. */
static void *
dif_dup(const void *src, size_t n, size_t sz, bool *failed)
{
	void *p;

	if (n == 0 || src == NULL)
		return NULL;
	if ((p = malloc(n * sz)) == NULL) {
		*failed = true;
		return NULL;
	}
	memcpy(p, src, n * sz);
	return p;
}

dif_object_t *
dif_object_create(const dif_instr_t *buf, uint32_t len, const int64_t *inttab,
    uint32_t intlen, const char *strtab, uint32_t strtablen,
    const dif_var_t *vartab, uint32_t varlen, const dif_type_t *rtype)
{
	dif_object_t *difo;
	bool failed = false;

	if ((difo = calloc(1, sizeof (*difo))) == NULL)
		return NULL;
	difo->dif_buf = dif_dup(buf, len, sizeof (*buf), &failed);
	difo->dif_len = buf ? len : 0;
	difo->dif_inttab = dif_dup(inttab, intlen, sizeof (*inttab), &failed);
	difo->dif_intlen = inttab ? intlen : 0;
	difo->dif_strtab = dif_dup(strtab, strtablen, 1, &failed);
	difo->dif_strlen = strtab ? strtablen : 0;
	difo->dif_vartab = dif_dup(vartab, varlen, sizeof (*vartab), &failed);
	difo->dif_varlen = vartab ? varlen : 0;
	if (rtype != NULL)
		difo->dif_rtype = *rtype;
	difo->dif_refcnt = 1;
	if (failed) {
		dif_object_free(difo);
		return NULL;
	}
	return difo;
}

void
dif_object_hold(dif_object_t *difo)
{
	difo->dif_refcnt++;
}

void
dif_object_free(dif_object_t *difo)
{
	if (difo == NULL || --difo->dif_refcnt > 0)
		return;
	free(difo->dif_buf);
	free(difo->dif_inttab);
	free(difo->dif_strtab);
	free(difo->dif_vartab);
	free(difo);
}
