/* Choosing a tuned table per device and a kernel per call. */
#ifndef SHOAL_DISPATCH_H
#define SHOAL_DISPATCH_H

#include "dispatch_table.h"

/* Fallback chain of the design notes: same device name and capability (level 0) -> same compute
 * capability (1) -> the nearest lower capability (2) -> none, the portable default (3). */
const shoal_table *shoal_select_table(const shoal_table *tables, int n_tables, const char *device_name,
                                      int cc_major, int cc_minor, int *match_level);

/* The same chain among the tables that have a rule of `precision` ('s', 'd', 'c', 'z'): a
 * device's table tuned in some precisions leaves the others to the next table of the chain
 * (another device of its capability, ...) rather than to the portable default. A handle keeps
 * one per routine and precision slot. */
const shoal_table *shoal_select_table_for(const shoal_table *tables, int n_tables, const char *device_name,
                                          int cc_major, int cc_minor, char precision, int *match_level);

/* The precisions' slots of a handle's per-precision tables: "sdcz" index, -1 for another letter. */
#define SHOAL_N_PRECISIONS 4
int shoal_precision_slot(char precision);

/* Can kernel `index` of the routine serve this call? ctx is the caller's fits_ctx (what the
 * routine needs to judge: its kernel array, the device's shared-memory limit...). */
typedef int (*shoal_fits_fn)(const void *ctx, int index, const int dims[3]);

/* The rule nearest to dims (distance: sum of |log2| ratios over the dimensions) among the rules
 * of this precision and variant, preferring the call's mode and falling back to the other mode,
 * whose kernel (best, or own when vendor is 0) can serve the call; between tuned shapes, the
 * vendor when either of the two nearest rules chose it. Returns a kernel index,
 * SHOAL_KERNEL_VENDOR, or -2 when no rule serves (use the portable default). */
int shoal_pick_kernel(const shoal_table *table, char precision, int mode, int variant, const int dims[3],
                      int vendor, shoal_fits_fn fits, const void *fits_ctx);

/* __CUDA_ARCH__ of a compute capability: what shoal_kernel_desc.arch_floor is compared with. */
static inline int shoal_device_arch(int cc_major, int cc_minor)
{
    return cc_major * 100 + cc_minor * 10;
}

/* The shipped kernel that holds the least (extent) among kernels[0..n) of this precision and
 * variant that fits the call and runs on a device of __CUDA_ARCH__ arch (arch_floor <= arch: a
 * kernel only a newer architecture's table names is a __trap() there); -1 if none. For a call no
 * tuned rule serves: the portable defaults and fallbacks are always among the candidates, and
 * the kernels other devices' tables name join them where the device can run them. */
int shoal_smallest_fitting(const shoal_kernel_desc *kernels, int n, char precision, int variant, int arch,
                           const int dims[3], shoal_fits_fn fits, const void *fits_ctx,
                           long long (*extent)(const shoal_kernel_desc *));

#endif
