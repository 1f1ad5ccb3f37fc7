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
 * is NULL, in the core kernel and then each module.  Returns 0; -2 with
 * *whyp set when there is no such variable or it is a per-CPU one (its
 * symbol's value is an offset into each CPU's area, not an address).
 */
extern int dt_btf_kvar(dtrace_hdl_t *dtp, const char *module,
    const char *name, ctf_dict_t **ctfpp, ctf_id_t *typep, const char **whyp);

/*
 * Bytes of a BTF type record after its struct btf_type, by its kind; -1
 * for a kind not known here, which cannot be stepped over.
 */
struct btf_type;
extern long dt_btf_extra(const struct btf_type *t);

#endif /* DT_BTF_H */
