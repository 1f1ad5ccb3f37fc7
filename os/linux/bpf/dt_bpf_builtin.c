/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_builtin.c: D's built-in variables in the translator (pid,
 * execname, timestamp, args, errno, curthread, ...): read from the
 * firing context, BPF helpers or the current task; the stack's own are
 * in dt_bpf_stack.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "common/dt_os.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_linux_features.h"

/*
 * Built-in variables.
 */

/* r1 = size bytes read at (r3 + off); 0 when the read fails. */
void
dt_bpf_cg_kread(dt_bpf_cg_t *cg, uint32_t off, int size)
{
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, (int32_t) off));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
	DT_EMIT(cg, DT_BPF_LDX_MEM(size == 4 ? BPF_W : BPF_DW, DT_R1, DT_FP,
	    DT_FP_T0));
}

/*
 * ppid (curthread->real_parent->tgid) and vtimestamp (the thread's
 * on-CPU time as the scheduler accounts it, se.sum_exec_runtime), at
 * offsets from the kernel's BTF.  Returns -1 after an error.
 */
static int
dt_bpf_cg_task(dt_bpf_cg_t *cg, uint32_t id)
{
	const dt_linux_task_offs_t *lt = dt_linux_task_offs();

	if (!lt->lt_ok) {
		dt_bpf_cg_error(cg, "built-in variable %s is not supported by "
		    "the bpf engine here: %s", dif_var_name(id), lt->lt_why);
		return -1;
	}
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	if (id == DIF_VAR_VTIMESTAMP) {
		dt_bpf_cg_kread(cg, lt->lt_exec_runtime, 8);
		return 0;
	}
	dt_bpf_cg_kread(cg, lt->lt_real_parent, 8);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	dt_bpf_cg_kread(cg, lt->lt_tgid, 4);
	return 0;
}

/*
 * r1 = the address of probemod, probefunc or probename: ERROR's own in
 * its clauses (errconst), a group's probe's from the probe table in
 * scratch (scoff), or else the program's one probe's (constoff).
 */
static void
dt_bpf_cg_probefield(dt_bpf_cg_t *cg, uint32_t errconst, int16_t scoff,
    uint32_t constoff)
{
	if (cg->cg_in_error)
		dt_bpf_cg_caddr(cg, DT_R1, errconst);
	else if (cg->cg_ps->ps_table_fd >= 0)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, scoff));
	else
		dt_bpf_cg_caddr(cg, DT_R1, constoff);
}

void
dt_bpf_cg_builtin(dt_bpf_cg_t *cg, uint32_t id, unsigned rd)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	switch (id) {
	case DIF_VAR_ARG0: case DIF_VAR_ARG1: case DIF_VAR_ARG2:
	case DIF_VAR_ARG3: case DIF_VAR_ARG4: case DIF_VAR_ARG5:
	case DIF_VAR_ARG6: case DIF_VAR_ARG7: case DIF_VAR_ARG8:
	case DIF_VAR_ARG9:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * (id - DIF_VAR_ARG0))));
		break;
	case DIF_VAR_EPID:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_EPID));
		break;
	case DIF_VAR_ID:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_ID));
		break;
	case DIF_VAR_TIMESTAMP:
		dt_bpf_cg_timestamp(cg);
		break;
	case DIF_VAR_WALLTIMESTAMP:
		dt_bpf_cg_timestamp(cg);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R8,
		    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_WALLOFF)));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		break;
	/*
	 * Constants of the program's probe, or of ERROR in its clauses; a
	 * group's probe's module, function and name come from its table.
	 */
	case DIF_VAR_PROBEPROV:
		dt_bpf_cg_caddr(cg, DT_R1, cg->cg_in_error ?
		    cg->cg_ps->ps_err_prov : cg->cg_ps->ps_prov);
		break;
	case DIF_VAR_PROBEMOD:
		dt_bpf_cg_probefield(cg, cg->cg_ps->ps_err_mod, DT_SC_MOD,
		    cg->cg_ps->ps_mod);
		break;
	case DIF_VAR_PROBEFUNC:
		dt_bpf_cg_probefield(cg, cg->cg_ps->ps_err_func, DT_SC_FUNC,
		    cg->cg_ps->ps_func);
		break;
	case DIF_VAR_PROBENAME:
		dt_bpf_cg_probefield(cg, cg->cg_ps->ps_err_name, DT_SC_NAME,
		    cg->cg_ps->ps_name);
		break;
	case DIF_VAR_ZONENAME:
		dt_bpf_cg_caddr(cg, DT_R1, lay->bl_zonename);
		break;
	case DIF_VAR_ERRNO:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_ERRNO));
		break;
	case DIF_VAR_PID:
	case DIF_VAR_TID:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		if (id == DIF_VAR_PID)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		else
			DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X,
			    DT_R0, DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_UID:
	case DIF_VAR_GID:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_uid_gid));
		if (id == DIF_VAR_GID)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		else
			DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X,
			    DT_R0, DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_CPU:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_CURTHREAD:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_EXECNAME:
		/* comm, zero-padded to its 16 bytes, in the strbuf slot */
		dt_bpf_cg_comm(cg, lay->bl_strbuf_off, lay->bl_strsize);
		dt_bpf_cg_saddr(cg, DT_R1, lay->bl_strbuf_off);
		break;
	case DIF_VAR_EXECARGS:
		dt_bpf_cg_execargs(cg);
		break;
	case DIF_VAR_CWD:
		dt_bpf_cg_cwd(cg);
		break;
	case DIF_VAR_PPID:
	case DIF_VAR_VTIMESTAMP:
		if (dt_bpf_cg_task(cg, id) != 0)
			return;
		break;
	case DIF_VAR_STACKDEPTH:
	case DIF_VAR_CALLER:
	case DIF_VAR_USTACKDEPTH:
	case DIF_VAR_UCALLER:
		dt_bpf_cg_stackvar(cg, id);
		break;
	case DIF_VAR_CURCPU:
		/* This CPU's entry in the table the engine filled. */
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLT, DT_R0,
		    (int32_t) lay->bl_ncpus, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_MUL, DT_R0,
		    (int32_t) sizeof (dt_cpuinfo_t)));
		dt_bpf_cg_gaddr(cg, DT_R1, lay->bl_cpuinfo_off);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R0));
		break;
	case DIF_VAR_IPL:
		/* What the interpreter engine answers for this. */
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		break;
	default:
		dt_bpf_cg_error(cg, "built-in variable %s is not supported by "
		    "the bpf engine", dif_var_name(id) ? dif_var_name(id) :
		    "?");
		return;
	}
	dt_bpf_cg_streg(cg, rd, DT_R1);
}
