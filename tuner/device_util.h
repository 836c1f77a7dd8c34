/* Device-side helpers of the tuner: random operands, NaN poison, pointer arrays, error check. */
#ifndef SHOAL_TUNER_DEVICE_UTIL_H
#define SHOAL_TUNER_DEVICE_UTIL_H

#include <cuda_runtime_api.h>

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

#ifdef __cplusplus
}
#endif
#endif
