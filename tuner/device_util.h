/* Device-side helpers of the tuner: random operands, NaN poison, pointer arrays, error check. */
#ifndef SHOAL_TUNER_DEVICE_UTIL_H
#define SHOAL_TUNER_DEVICE_UTIL_H

#include <cuda_runtime_api.h>
#include "blas2_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Uniform values in [-1, 1) from a counter hash: fresh data per seed, never zeros en masse. */
cudaError_t tuner_fill_random(void *buf, char prec, long long count, unsigned long long seed);
cudaError_t tuner_fill_nan(void *buf, char prec, long long count);
/* arr[i] = base + i * stride_bytes */
cudaError_t tuner_make_pointers(void **arr, void *base, long long stride_bytes, long long count);
/* max |C - R| over count elements (NaN in C or R gives +inf); synchronizes. */
cudaError_t tuner_max_abs_diff(const void *C, const void *R, char prec, long long count, double *max_diff);

/* R_b = alpha op(A_b) op(B_b) + beta C_b (C as passed, before the call) for b < count, in double,
 * packed m_b x n_b at R + b * r_stride (elements; a c or z element is two doubles, real part
 * first; op C from p->conj as the kernels read it); asynchronous. */
cudaError_t tuner_ref_gemm_v(const shoal_gemm_vparams *p, char prec, int ta, int tb, long long count, double *R,
                             long long r_stride);

#ifdef __cplusplus
}
#endif
#endif
