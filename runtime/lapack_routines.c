#include "lapack_routines.h"

#include <string.h>

#define ROUTINE(r, variants, has_nrhs)                                                                  \
    {#r, variants, has_nrhs, shoal_##r##_kernels, &shoal_##r##_n_kernels, shoal_##r##_tables,          \
     &shoal_##r##_n_tables, shoal_##r##_default_kernel}

const shoal_lapack_routine_info shoal_lapack_routines[SHOAL_LAPACK_N_ROUTINES] = {
    [SHOAL_GETRF] = ROUTINE(getrf, "n", 0),
    [SHOAL_GETRS] = ROUTINE(getrs, "nt", 1),
    [SHOAL_GESV] = ROUTINE(gesv, "n", 1),
    [SHOAL_GETRI] = ROUTINE(getri, "n", 0),
    [SHOAL_GETRI_FUSED] = ROUTINE(getri_fused, "n", 0),
    [SHOAL_POTRF] = ROUTINE(potrf, "lu", 0),
    [SHOAL_POTRS] = ROUTINE(potrs, "lu", 1),
    [SHOAL_POSV] = ROUTINE(posv, "lu", 1),
    [SHOAL_GEQRF] = ROUTINE(geqrf, "n", 0),
};

int shoal_lapack_routine_id(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < SHOAL_LAPACK_N_ROUTINES; ++i)
        if (strcmp(shoal_lapack_routines[i].name, name) == 0) return i;
    return -1;
}
