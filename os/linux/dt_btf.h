/* SPDX-License-Identifier: MIT */
/*
 * dt_btf.h: what dt_btf.c offers beyond dt_os.h's kernel types -- the
 * type of a kernel variable by name, which dt_os_kvar_lookup() pairs with
 * the symbol table's address (and tests check on a BTF file of their own).
 */
#ifndef DT_BTF_H
#define DT_BTF_H

#include <ctf-api.h>

#include "common/dt_os.h"

/*
 * The type of kernel variable name (a BTF VAR), in module or, when module
 * is NULL, in the core kernel and then each module; for the core kernel's
 * variables BTF lacks, the type its DWARF names (dt_kdwarf.h).  Returns
 * 0; -2 with *whyp set when there is no such variable, it is a per-CPU
 * one (its symbol's value is an offset into each CPU's area, not an
 * address), or no DWARF can be read.
 */
extern int dt_btf_kvar(dtrace_hdl_t *dtp, const char *module,
    const char *name, ctf_dict_t **ctfpp, ctf_id_t *typep, const char **whyp);

/*
 * The type, in the kernel's CTF dictionary (*ctfpp), of a chain as
 * dt_kdwarf.h describes it: its named type from the kernel's BTF.
 * CTF_ERR when BTF has no such type.
 */
extern ctf_id_t dt_btf_chain(dtrace_hdl_t *dtp, const char *chain,
    ctf_dict_t **ctfpp);

/*
 * Bytes of a BTF type record after its struct btf_type, by its kind; -1
 * for a kind not known here, which cannot be stepped over.
 */
struct btf_type;
extern long dt_btf_extra(const struct btf_type *t);

#endif /* DT_BTF_H */
