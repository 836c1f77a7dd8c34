/* The factorization routines the runtime knows, with their emitted tables (docs/lapack.md). */
#ifndef SHOAL_LAPACK_ROUTINES_H
#define SHOAL_LAPACK_ROUTINES_H

#include "dispatch_table.h"

enum shoal_lapack_routine {
    SHOAL_GETRF, SHOAL_GETRS, SHOAL_GESV, SHOAL_GETRI, SHOAL_GETRI_FUSED,
    SHOAL_POTRF, SHOAL_POTRS, SHOAL_POSV, SHOAL_GEQRF,
    SHOAL_LAPACK_N_ROUTINES
};

typedef struct shoal_lapack_routine_info {
    const char *name;                 /* as in search_space/<name>.toml */
    const char *variants;             /* option letters in variant order, e.g. "nt", "lu", "n" */
    int has_nrhs;                     /* dims[2] is nrhs; else 1 */
    const shoal_kernel_desc *kernels;
    const int *n_kernels;
    const shoal_table *tables;
    const int *n_tables;
    const short *default_kernel;      /* [precision index (s 0, d 1) * n_variants + variant] */
} shoal_lapack_routine_info;

extern const shoal_lapack_routine_info shoal_lapack_routines[SHOAL_LAPACK_N_ROUTINES];

/* enum shoal_lapack_routine of a name, -1 if unknown. */
int shoal_lapack_routine_id(const char *name);

#endif
