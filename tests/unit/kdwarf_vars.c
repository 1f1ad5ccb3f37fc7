/* SPDX-License-Identifier: MIT */
/*
 * kdwarf_vars.c: variables of every shape a kernel has, compiled with
 * debugging information into kdwarf_test, which reads their types back
 * from its own DWARF as dt_kdwarf.c reads the kernel's.
 */
struct kd_pid {
	int level;
};
typedef struct {
	int b;
} kd_anon_t;
typedef unsigned long long kd_u64;
enum kd_state { KD_A, KD_B };
union kd_u {
	int i;
	long l;
};

unsigned long kd_max_pfn = 1;
volatile unsigned long kd_jiffies = 2;
const char kd_banner[] = "Linux version 0.0";
struct kd_pid kd_init = { 3 };
struct kd_pid *kd_cad = &kd_init;
unsigned int kd_nr_cpu_ids = 4;
kd_u64 kd_jiffies_64 = 5;
const kd_u64 *const kd_table[3] = { &kd_jiffies_64, 0, 0 };
int kd_grid[3][4];
kd_anon_t kd_anon;
struct {
	int c;
} kd_unnamed;			/* no name BTF could find: not indexed */
enum kd_state kd_state_var = KD_B;
union kd_u kd_union;
void (*kd_handler)(int);
static int kd_static = 6;
_Bool kd_flag = 1;
double kd_ratio = 0.5;
signed char kd_sc = -1;

/* Used, so that the static one is kept. */
int *kd_vars_use(void);

int *
kd_vars_use(void)
{
	return &kd_static;
}
