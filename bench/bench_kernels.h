/* Device helpers of the benchmark (bench_kernels.cu), callable from C. */
#ifndef SHOAL_BENCH_KERNELS_H
#define SHOAL_BENCH_KERNELS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x[i] = uniform in [-1, 1], never 0, a pure function of (seed, i): the data of a row does not
 * depend on how many rows ran before it. prec is 's' (float) or 'd' (double); complex data is
 * filled as 2 count reals of its real type (bench_real_prec, bench_reals_per in bench_util.h). */
cudaError_t bench_fill_uniform(char prec, void *x, int64_t count, uint64_t seed, cudaStream_t s);

/* ptrs[i] = base + i * stride_bytes for i in [0, batch). */
cudaError_t bench_pointer_array(void **ptrs, void *base, int64_t stride_bytes, int64_t batch,
                                cudaStream_t s);

/* A batch of symmetric positive definite n x n matrices for the Cholesky routines:
 * A_b = a + b * stride (elements), column-major with leading dimension lda >= n. Off-diagonal
 * entries uniform in [-1, 1] and never 0, with A_b(i, j) == A_b(j, i) (both triangles written, so
 * either uplo reads the same matrix); diagonal entries n + |u|, which makes every row strictly
 * diagonally dominant (|off-diagonal row sum| <= n - 1 < diagonal), hence SPD without a
 * factorization to prove it. A pure function of (seed, b, i, j), like bench_fill_uniform.
 * Entries between n and lda (if lda > n) are left untouched.
 * prec 'c' / 'z': Hermitian positive definite complex matrices (elements (re, im) pairs; lda and
 * stride in elements), A_b(j, i) == conj(A_b(i, j)) exactly, both parts of every off-diagonal
 * entry uniform in [-1, 1] and never 0, a real diagonal (imaginary part 0) 2n + |u|, which
 * exceeds (n - 1) sqrt(2), the largest possible off-diagonal row sum of moduli. */
cudaError_t bench_fill_spd(char prec, void *a, int n, int64_t lda, int64_t stride, int64_t batch,
                           uint64_t seed, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
