/* The oracle registry and the random numbers the generators share (oracle/oracle.h). */
#include "oracle.h"

#include "host_math.h"

#include <stddef.h>
#include <string.h>

/* Each family of routines defines its oracles in its own file (oracle/blas3.c: trsm, syrk). */
extern const oracle oracle_trsm, oracle_syrk;

static const oracle *const oracles[] = {&oracle_trsm, &oracle_syrk};

const oracle *oracle_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof oracles / sizeof oracles[0]; ++i)
        if (strcmp(oracles[i]->name, name) == 0) return oracles[i];
    return NULL;
}

/* splitmix64 (host_math.c): every state gives a new stream, and it is cheap enough for millions
 * of values; the top 53 bits as a double in [0, 1), then [-1, 1). */
double oracle_uniform(unsigned long long *state)
{
    uint64_t s = *state;
    const uint64_t z = oracle_splitmix64(&s);
    *state = s;
    return (double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}
