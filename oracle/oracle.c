/* The oracle registry (oracle/oracle.h); the generators' random numbers are in host_math.c. */
#include "oracle.h"

#include <stddef.h>
#include <string.h>

/* Each family of routines defines its oracles in its own file (oracle/blas3.c: trsm, syrk, herk;
 * oracle/house.c: ormqr, orgqr; oracle/bidiag.c: gebrd). */
extern const oracle oracle_trsm, oracle_syrk, oracle_herk, oracle_ormqr, oracle_orgqr, oracle_gebrd;

static const oracle *const oracles[] = {&oracle_trsm,  &oracle_syrk,  &oracle_herk,
                                        &oracle_ormqr, &oracle_orgqr, &oracle_gebrd};

const oracle *oracle_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof oracles / sizeof oracles[0]; ++i)
        if (strcmp(oracles[i]->name, name) == 0) return oracles[i];
    return NULL;
}
