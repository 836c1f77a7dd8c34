/* The one way into the level-2 dispatch (runtime/blas2_api.c), taken by the entry points that
 * the generator emits from spec/routines/<r>.toml (abi = "blas2") into
 * generated/blas2_entry.c after checking the arguments, the handle and the BLAS quick return,
 * and packing the arguments. Free of CUDA headers, so the entry points build and are tested on
 * machines without the toolkit (tests/test_blas2_glue.py). */
#ifndef SHOAL_BLAS2_RUN_H
#define SHOAL_BLAS2_RUN_H

#include "shoal.h"
#include "blas2_abi.h"
#include "lapack_routines.h"

struct shoal_context;
struct shoal_context *shoal_context_get(shoal_handle h); /* runtime/handle.c; NULL for a NULL handle */

/* Runs routine (SHOAL_GEMV, SHOAL_TRSV, SHOAL_GEMV_VBATCHED of enum shoal_lapack_routine) in
 * precision prec ('s', 'd') and variant (the index of the variant's letters in its search
 * space) on p, whose arguments are valid and whose work is nonempty: the tuned kernel, or
 * cuBLAS where it won and can take the call. */
shoal_status shoal_blas2_run(struct shoal_context *ctx, int routine, char prec, int variant, shoal_blas2_params *p);

#endif
