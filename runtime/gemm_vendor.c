#include "gemm_vendor.h"

#include <limits.h>

#define CHUNK_MAX ((long long)INT_MAX)

static cublasOperation_t op_of(int transposed, int conjugated)
{
    return !transposed ? CUBLAS_OP_N : conjugated ? CUBLAS_OP_C : CUBLAS_OP_T;
}

/* One chunk of nb problems from problem b0, in the precision's cuBLAS call. */
static cublasStatus_t chunk(cublasHandle_t h, char precision, cublasOperation_t ta, cublasOperation_t tb,
                            const shoal_gemm_params *p, long long b0, int nb)
{
    const int m = p->m, n = p->n, k = p->k, lda = (int)p->lda, ldb = (int)p->ldb, ldc = (int)p->ldc;
    const long long sa = p->stride_a, sb = p->stride_b, sc = p->stride_c;
    const int array = p->A_array != 0;
    switch (precision) {
    case 's': {
        const float alpha = (float)p->alpha[0], beta = (float)p->beta[0];
        if (array)
            return cublasSgemmBatched(h, ta, tb, m, n, k, &alpha, (const float *const *)p->A_array + b0, lda,
                                      (const float *const *)p->B_array + b0, ldb, &beta,
                                      (float *const *)p->C_array + b0, ldc, nb);
        return cublasSgemmStridedBatched(h, ta, tb, m, n, k, &alpha, (const float *)p->A + b0 * sa, lda, sa,
                                         (const float *)p->B + b0 * sb, ldb, sb, &beta, (float *)p->C + b0 * sc,
                                         ldc, sc, nb);
    }
    case 'd': {
        const double alpha = p->alpha[0], beta = p->beta[0];
        if (array)
            return cublasDgemmBatched(h, ta, tb, m, n, k, &alpha, (const double *const *)p->A_array + b0, lda,
                                      (const double *const *)p->B_array + b0, ldb, &beta,
                                      (double *const *)p->C_array + b0, ldc, nb);
        return cublasDgemmStridedBatched(h, ta, tb, m, n, k, &alpha, (const double *)p->A + b0 * sa, lda, sa,
                                         (const double *)p->B + b0 * sb, ldb, sb, &beta, (double *)p->C + b0 * sc,
                                         ldc, sc, nb);
    }
    case 'c': {
        const cuComplex alpha = {(float)p->alpha[0], (float)p->alpha[1]}, beta = {(float)p->beta[0], (float)p->beta[1]};
        if (array)
            return cublasCgemmBatched(h, ta, tb, m, n, k, &alpha, (const cuComplex *const *)p->A_array + b0, lda,
                                      (const cuComplex *const *)p->B_array + b0, ldb, &beta,
                                      (cuComplex *const *)p->C_array + b0, ldc, nb);
        return cublasCgemmStridedBatched(h, ta, tb, m, n, k, &alpha, (const cuComplex *)p->A + b0 * sa, lda, sa,
                                         (const cuComplex *)p->B + b0 * sb, ldb, sb, &beta,
                                         (cuComplex *)p->C + b0 * sc, ldc, sc, nb);
    }
    case 'z': {
        const cuDoubleComplex alpha = {p->alpha[0], p->alpha[1]}, beta = {p->beta[0], p->beta[1]};
        if (array)
            return cublasZgemmBatched(h, ta, tb, m, n, k, &alpha, (const cuDoubleComplex *const *)p->A_array + b0,
                                      lda, (const cuDoubleComplex *const *)p->B_array + b0, ldb, &beta,
                                      (cuDoubleComplex *const *)p->C_array + b0, ldc, nb);
        return cublasZgemmStridedBatched(h, ta, tb, m, n, k, &alpha, (const cuDoubleComplex *)p->A + b0 * sa, lda,
                                         sa, (const cuDoubleComplex *)p->B + b0 * sb, ldb, sb, &beta,
                                         (cuDoubleComplex *)p->C + b0 * sc, ldc, sc, nb);
    }
    default:
        return CUBLAS_STATUS_INVALID_VALUE;
    }
}

cublasStatus_t shoal_gemm_vendor(cublasHandle_t h, char precision, int variant, const shoal_gemm_params *p)
{
    const int complex_prec = precision == 'c' || precision == 'z';
    const cublasOperation_t ta = op_of(variant >> 1, complex_prec && (p->conj & 1));
    const cublasOperation_t tb = op_of(variant & 1, complex_prec && (p->conj & 2));
    for (long long b0 = 0; b0 < p->batch; b0 += CHUNK_MAX) {
        const long long rest = p->batch - b0;
        const cublasStatus_t st = chunk(h, precision, ta, tb, p, b0, (int)(rest < CHUNK_MAX ? rest : CHUNK_MAX));
        if (st != CUBLAS_STATUS_SUCCESS) return st;
    }
    return CUBLAS_STATUS_SUCCESS;
}
