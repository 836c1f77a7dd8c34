/* The routines besides GEMM that the runtime knows, with their emitted tables: the
 * factorizations (docs/lapack.md) and the level-2 routines (docs/blas2.md). */
#ifndef SHOAL_LAPACK_ROUTINES_H
#define SHOAL_LAPACK_ROUTINES_H

#include "dispatch.h"
#include "dispatch_table.h"

enum shoal_lapack_routine {
    SHOAL_GETRF, SHOAL_GETRS, SHOAL_GESV, SHOAL_GETRI, SHOAL_GETRI_FUSED,
    SHOAL_POTRF, SHOAL_POTRS, SHOAL_POSV, SHOAL_GEQRF, SHOAL_GELS, SHOAL_GELQF, SHOAL_ORGBR,
    SHOAL_POTRF_VBATCHED, SHOAL_POTRS_VBATCHED, SHOAL_POSV_VBATCHED,
    SHOAL_GEMV, SHOAL_TRSV, SHOAL_GEMV_VBATCHED, SHOAL_GEMM_VBATCHED,
    SHOAL_LAPACK_N_ROUTINES
};

typedef struct shoal_lapack_routine_info {
    const char *name;                 /* as in search_space/<name>.toml */
    const char *variants;             /* variants in order, space-separated, e.g. "n t", "ln lt un ut" */
    int n_variants;
    int has_nrhs;                     /* dims[2] is nrhs; else 1 */
    const shoal_kernel_desc *kernels; /* NULL (and none of the tables) for a routine its driver
                                         serves whole (runtime/lapack_drivers.h, all_sizes) */
    const int *n_kernels;
    const shoal_table *tables;
    const int *n_tables;
    const short *default_kernel;      /* [precision index * n_variants + variant] */
    const char *precisions;           /* the search space's, in its order ("sd", "sdcz"): the index */
} shoal_lapack_routine_info;

extern const shoal_lapack_routine_info shoal_lapack_routines[SHOAL_LAPACK_N_ROUTINES];

/* enum shoal_lapack_routine of a name, -1 if unknown. */
int shoal_lapack_routine_id(const char *name);

/* Index of a precision ('s', 'd', 'c', 'z') in the routine's precisions, -1 if it serves none such. */
int shoal_routine_precision_index(const shoal_lapack_routine_info *ri, char prec);

/* Index of a variant name ("t", "un") in the routine's variants, -1 if it has none such. */
int shoal_routine_variant_index(const shoal_lapack_routine_info *ri, const char *variant);

struct shoal_context;
/* The kernel for a call in a precision the routine serves (shoal_routine_precision_index >= 0):
 * the tuned rule nearest to dims whose kernel fits (fits(fits_ctx, ...)), else the routine's
 * portable default; SHOAL_KERNEL_VENDOR where the vendor won and vendor != 0.
 * Cached per handle and routine, so repeating one shape costs a comparison. */
int shoal_routine_choose(struct shoal_context *ctx, int routine, char prec, int mode, int variant, const int dims[3],
                         int vendor, shoal_fits_fn fits, const void *fits_ctx);

#endif
