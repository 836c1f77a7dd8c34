/* The factorizations' drivers: the sizes above the kernels' (SHOAL_LAPACK_MAX_N) served by a
 * sequence of dispatched steps (runtime/drivers/). A spec names its routine's driver
 * (`driver = { name, max_n }` in spec/routines/<r>.toml); the generator emits the table
 * (generated/lapack_drivers.c), which runtime/lapack_api.c dispatches to. */
#ifndef SHOAL_LAPACK_DRIVERS_H
#define SHOAL_LAPACK_DRIVERS_H

#include <stddef.h>
#include "lapack_abi.h"
#include "lapack_routines.h"
#include "shoal.h"

#ifdef __cplusplus
extern "C" {
#endif

struct shoal_context;

/* Runs the routine on p (arguments valid, batch > 0, SHOAL_LAPACK_MAX_N < max(m, n) <= max_n; or,
 * for a driver of all_sizes, any m, n <= max_n with nrhs > 0 where the routine has nrhs)
 * in precision prec and variant (as shoal_lapack_run takes them), queued on the handle's
 * stream: no allocation, no host synchronization. */
typedef shoal_status (*shoal_lapack_driver_fn)(struct shoal_context *ctx, char prec, int variant,
                                               shoal_lapack_params *p);

typedef struct shoal_lapack_driver {
    const char *name;          /* what serves the call: ctx->served, shoal_lapack_kernel_name */
    shoal_lapack_driver_fn run;
    int max_n;                 /* the largest m and n it takes */
    int all_sizes;             /* it serves every call (also m or n = 0): the routine has no kernels */
} shoal_lapack_driver;

/* Indexed by enum shoal_lapack_routine; run == NULL where the routine has no driver. */
extern const shoal_lapack_driver shoal_lapack_drivers[SHOAL_LAPACK_N_ROUTINES];

#ifdef __cplusplus
}
#endif
#endif
