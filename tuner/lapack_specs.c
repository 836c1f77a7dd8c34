/* The registry of factorization specs (tuner/lapack_spec.h); the specs live per family in
 * spec_lu.c and spec_chol_qr.c. */
#include <string.h>

#include "lapack_spec.h"

extern const lapack_spec lapack_spec_getrf, lapack_spec_getrs, lapack_spec_gesv, lapack_spec_getri,
    lapack_spec_getri_fused, lapack_spec_potrf, lapack_spec_potrs, lapack_spec_posv, lapack_spec_geqrf;

static const lapack_spec *const specs[] = {
    &lapack_spec_getrf, &lapack_spec_getrs, &lapack_spec_gesv,  &lapack_spec_getri, &lapack_spec_getri_fused,
    &lapack_spec_potrf, &lapack_spec_potrs, &lapack_spec_posv, &lapack_spec_geqrf,
};

const lapack_spec *lapack_spec_find(const char *routine)
{
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i)
        if (strcmp(specs[i]->routine, routine) == 0) return specs[i];
    return NULL;
}
