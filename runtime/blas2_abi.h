/* The argument blocks of the level-2 kernels (gemv, trsv, gemv_vbatched) and of the
 * variable-size GEMM (gemm_vbatched), passed by value (docs/blas2.md).
 *
 * Plain C types only: compiled by nvcc (shipped kernels), NVRTC (tuning candidates) and C.
 * Problem b uses A_b = A_array ? A_array[b] : A + b * stride_a (elements); the same for x and y.
 * Vector element i of a length-L vector with increment inc (nonzero, may be negative, as in BLAS)
 * sits at base + i * inc when inc > 0 and at base + (L - 1 - i) * |inc| otherwise. */
#ifndef SHOAL_BLAS2_ABI_H
#define SHOAL_BLAS2_ABI_H

typedef struct shoal_blas2_params {
    int m, n;                        /* A is m x n (trsv: n x n, m == n); vbatched: the maxima */
    int diag_unit;                   /* trsv: 1 when the diagonal is taken as ones (not read) */
    int conj;                        /* gemv, trsv in c and z: 1 for op C (A conjugated as it is read; the variant is t) */
    double alpha[2], beta[2];        /* gemv: y = alpha op(A) x + beta y (y not read when beta = 0) */
    const void *A;
    const void *const *A_array;
    long long lda, stride_a;
    void *x;                         /* gemv: input; trsv: right-hand side in, solution out */
    void *const *x_array;
    long long incx, stride_x;
    void *y;                         /* gemv: output */
    void *const *y_array;
    long long incy, stride_y;
    /* gemv_vbatched: per-problem m, n, lda, incx, incy (device arrays); NULL for fixed sizes */
    const int *m_v, *n_v, *lda_v, *incx_v, *incy_v;
    long long batch;
} shoal_blas2_params;

/* gemm_vbatched: C_b = alpha op(A_b) op(B_b) + beta C_b with m_v[b] x n_v[b] x k_v[b] and
 * per-problem leading dimensions; pointer arrays only (as MAGMA's vbatched routines). m, n, k
 * are the maxima the launch is shaped for (every m_v[b] <= m, ...). */
typedef struct shoal_gemm_vparams {
    int m, n, k;
    /* c and z: bit 0 conjugates A, bit 1 B (op C is op T with this bit: the kernels of a
     * transpose variant serve it, as shoal_gemm_params.conj); 0 in s and d */
    int conj;
    double alpha[2], beta[2];        /* complex: (real, imaginary); s and d read [0] */
    const void *const *A_array, *const *B_array;
    void *const *C_array;
    const int *m_v, *n_v, *k_v, *lda_v, *ldb_v, *ldc_v;
    long long batch;
} shoal_gemm_vparams;

#endif
