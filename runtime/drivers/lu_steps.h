/* The blocked LU driver's own steps (runtime/drivers/lu_kernels.cu), beside the shared ones of
 * lapack_steps.h: row interchanges, a panel's pivots and info merged into the matrix's, and the
 * start of the out-of-place inverse. Queued on the given stream; no allocation, no sync. */
#ifndef SHOAL_LU_STEPS_H
#define SHOAL_LU_STEPS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most rows a step takes: the drivers' max_n (spec/routines/get*.toml). */
#define SHOAL_LU_MAX_ROWS 1024

/* A batch of column-major matrices with `rows` rows: problem b at array[b], or at ptr + b * stride
 * elements where array is NULL. */
typedef struct shoal_lu_rows {
    void *ptr;
    void *const *array;
    long long ld, stride;
    int rows;
} shoal_lu_rows;

/* LAPACK's laswp on the columns [c0, c0 + nc) of x's problems: for i = k1 .. k2 - 1 (backward:
 * k2 - 1 .. k1) rows i and ipiv_b[i] - 1 exchanged, ipiv_b = ipiv + b * stride_ipiv holding the
 * whole matrix's 1-based pivots (every ipiv_b[i] - 1 in [i, x.rows)); x.rows - k1 <= SHOAL_LU_MAX_ROWS.
 * elem_bytes: 4, 8 or 16. */
cudaError_t shoal_lu_laswp(int elem_bytes, shoal_lu_rows x, const int *ipiv, long long stride_ipiv, long long batch,
                           int c0, int nc, int k1, int k2, int backward, cudaStream_t stream);

/* A panel factored at the diagonal k with kb pivots, counted from its own first row: ipiv_b[k ..
 * k + kb) += k, and info[b] = step[b] + k where info[b] == 0 and step[b] > 0 (info may be NULL). */
cudaError_t shoal_lu_panel_merge(int *ipiv, long long stride_ipiv, int *info, const int *step, long long batch, int k,
                                 int kb, cudaStream_t stream);

/* The inverse's start from getrf's factors a (a.rows = n): info[b] = the first j (1-based) with
 * U(j, j) exactly zero, else 0; c = the identity, or all NaN where U is singular. */
cudaError_t shoal_lu_inverse_start(int elem_bytes, int is_complex, shoal_lu_rows a, shoal_lu_rows c, int *info,
                                   long long batch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
