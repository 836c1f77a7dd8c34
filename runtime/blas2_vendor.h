/* The cuBLAS candidates of the level-2 routines, on the arguments a shoal call got. Shared by
 * the library (shapes the vendor won) and the tuner.
 *   gemv  cublas?gemvStridedBatched (strided) / cublas?gemvBatched (pointer arrays); s, d, c, z
 *         (op C where shoal_blas2_params.conj is set)
 *   trsv  cublas?trsmBatched with one right-hand side (cuBLAS has no batched TRSV): pointer
 *         arrays and incx == 1 only
 * Leading dimensions and increments must fit an int; batches beyond INT_MAX go in chunks. */
#ifndef SHOAL_BLAS2_VENDOR_H
#define SHOAL_BLAS2_VENDOR_H

#include <cublas_v2.h>
#include "blas2_abi.h"
#include "lapack_vendor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns enum shoal_vendor_result. variant: gemv 0 = N, 1 = T; trsv: upper * 2 + trans. */
int shoal_blas2_vendor(cublasHandle_t h, const char *routine, char precision, int variant,
                       const shoal_blas2_params *p);

#ifdef __cplusplus
}
#endif
#endif
