/* The one way into the factorizations' dispatch (runtime/lapack_api.c), taken by their entry
 * points, which the generator emits from spec/routines/<r>.toml (abi = "lapack") into
 * generated/lapack_entry.c after checking the arguments and packing them. */
#ifndef SHOAL_LAPACK_RUN_H
#define SHOAL_LAPACK_RUN_H

#include "shoal.h"
#include "lapack_abi.h"
#include "lapack_routines.h"

/* Runs routine (enum shoal_lapack_routine) in precision prec (s, d, c, z: one its search space
 * lists, as only those have entry points) and variant (the index of the option's letter, 0
 * without one) on p, whose arguments are valid: a NULL handle -> NOT_INITIALIZED; no work ->
 * SUCCESS; a matrix above SHOAL_LAPACK_MAX_N -> the routine's driver (runtime/lapack_drivers.h)
 * up to its max_n, else NOT_SUPPORTED; else the dispatched kernel or vendor call. */
shoal_status shoal_lapack_run(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p);

struct shoal_context;
/* The kernel path of shoal_lapack_run for m, n <= SHOAL_LAPACK_MAX_N with work to do: the tuned
 * kernel, or the vendor where it won and vendor != 0. Drivers' steps pass vendor = 0: their
 * blocks are sub-matrices whose pointer arrays live in the drivers' workspace. */
shoal_status shoal_lapack_run_kernel(struct shoal_context *ctx, int routine, char prec, int variant,
                                     shoal_lapack_params *p, int vendor);

/* shoal_lapack_run's path for a driver's step (m, n > 0 and batch > 0, else nothing): the kernels
 * up to SHOAL_LAPACK_MAX_N (never the vendor: a step's operands may mix pointer arrays with
 * strided workspace), the routine's driver above. */
shoal_status shoal_lapack_run_ctx(struct shoal_context *ctx, int routine, char prec, int variant,
                                  shoal_lapack_params *p);

/* Whether one of the routine's kernels (the tuned rule's, else the smallest shipped one) holds
 * the whole of p->m x p->n, as shoal_lapack_run_kernel would launch it for p with vendor = 0. */
int shoal_lapack_kernel_holds(struct shoal_context *ctx, int routine, char prec, int variant,
                              const shoal_lapack_params *p);

#endif
