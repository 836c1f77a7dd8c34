/* Device helpers of the benchmark (bench_kernels.cu), callable from C. */
#ifndef SHOAL_BENCH_KERNELS_H
#define SHOAL_BENCH_KERNELS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x[i] = uniform in [-1, 1], never 0, a pure function of (seed, i): the data of a row does not
 * depend on how many rows ran before it. prec is 's' (float) or 'd' (double). */
cudaError_t bench_fill_uniform(char prec, void *x, int64_t count, uint64_t seed, cudaStream_t s);

/* ptrs[i] = base + i * stride_bytes for i in [0, batch). */
cudaError_t bench_pointer_array(void **ptrs, void *base, int64_t stride_bytes, int64_t batch,
                                cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
