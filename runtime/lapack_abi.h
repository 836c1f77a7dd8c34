/* The argument block every factorization / solve / inversion kernel takes by value
 * (routines getrf, getrs, gesv, getri, getri_fused, potrf, potrs, posv, geqrf).
 *
 * Plain C types only: compiled by nvcc (shipped kernels), NVRTC (tuning candidates) and C.
 * Problem i uses A_i = A_array ? A_array[i] : A + i * stride_a (elements), the same for B and
 * tau; ipiv and info are always plain device arrays: ipiv_i = ipiv + i * stride_ipiv,
 * info_i = info[i]. Which operands a routine reads or writes: docs/lapack.md. */
#ifndef SHOAL_LAPACK_ABI_H
#define SHOAL_LAPACK_ABI_H

typedef struct shoal_lapack_params {
    int m, n;                        /* A is m x n (m = n except getrf and geqrf) */
    int nrhs;                        /* columns of B for the solves */
    int conj;                        /* c/z getrs: 1 = op C (A^H), served by the t variant; 0 otherwise */
    void *A;
    void *const *A_array;
    long long lda, stride_a;
    void *B;                         /* right-hand sides / solution, or the inverse (getri) */
    void *const *B_array;
    long long ldb, stride_b;
    int *ipiv;                       /* 1-based LAPACK pivots, min(m, n) per problem */
    long long stride_ipiv;
    void *tau;                       /* geqrf: min(m, n) per problem */
    void *const *tau_array;
    long long stride_tau;
    int *info;                       /* per problem; NULL for routines without numerical info */
    long long batch;
    int col0;                        /* geqrf's tall panels (the blocked driver): the columns of A
                                        before the panel, whose reflectors and tau an earlier call
                                        left; 0 otherwise (a whole matrix) */
    /* the vbatched form (generator/spec_lapack.py): problem i's sizes and leading dimensions in
     * device arrays, m, n, nrhs then the caller's maxima and lda, ldb 1; NULL in the fixed forms */
    const int *m_array, *n_array, *nrhs_array;
    const int *lda_array, *ldb_array;
} shoal_lapack_params;

#endif
