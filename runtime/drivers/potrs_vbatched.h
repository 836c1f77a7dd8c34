/* The variable-size Cholesky solve's own kernels (runtime/drivers/potrs_vbatched.c drives them,
 * for potrs_vbatched and, after potrf_vbatched's steps, posv_vbatched). */
#ifndef SHOAL_POTRS_VBATCHED_H
#define SHOAL_POTRS_VBATCHED_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct shoal_potrs_v_args {
    void *const *A;          /* problem b's factor at A[b], n[b] x n[b], ld lda[b] */
    void *const *B;          /* its right-hand sides at B[b], n[b] x nrhs[b], ld ldb[b] */
    const int *n, *nrhs, *lda, *ldb; /* device arrays */
    int *info;               /* device array */
    int max_n, max_nrhs;     /* bound every valid n[b], nrhs[b] */
    int upper;               /* the factor is U (A = U^H U), read as L = U^H */
    long long batch;
} shoal_potrs_v_args;

/* info[b] as LAPACK's potrs and posv check their arguments: -2 where n[b] < 0 or n[b] > max_n,
 * -3 where nrhs[b] < 0 or nrhs[b] > max_nrhs, -5 where lda[b] < max(1, n[b]), -7 where ldb[b]
 * < max(1, n[b]), else 0. */
cudaError_t shoal_potrs_v_check(const shoal_potrs_v_args *a, cudaStream_t stream);

/* B_b <- (L L^H)^-1 B_b for every problem with info[b] == 0: the forward and the backward
 * substitution, a block per problem and group of right-hand sides held in shared memory. */
cudaError_t shoal_potrs_v_solve(char prec, const shoal_potrs_v_args *a, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
