#include "gemm_vendor.h"

#include <limits.h>

#define CHUNK_MAX ((long long)INT_MAX)

cublasStatus_t shoal_gemm_vendor(cublasHandle_t h, char precision, int variant, const shoal_gemm_params *p)
{
    const cublasOperation_t ta = (variant >> 1) ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t tb = (variant & 1) ? CUBLAS_OP_T : CUBLAS_OP_N;
    const float salpha = (float)p->alpha[0], sbeta = (float)p->beta[0];
    const double dalpha = p->alpha[0], dbeta = p->beta[0];
    for (long long b0 = 0; b0 < p->batch; b0 += CHUNK_MAX) {
        const long long rest = p->batch - b0;
        const int nb = (int)(rest < CHUNK_MAX ? rest : CHUNK_MAX);
        cublasStatus_t st;
        if (p->A_array) {
            if (precision == 's')
                st = cublasSgemmBatched(h, ta, tb, p->m, p->n, p->k, &salpha,
                                        (const float *const *)p->A_array + b0, (int)p->lda,
                                        (const float *const *)p->B_array + b0, (int)p->ldb, &sbeta,
                                        (float *const *)p->C_array + b0, (int)p->ldc, nb);
            else
                st = cublasDgemmBatched(h, ta, tb, p->m, p->n, p->k, &dalpha,
                                        (const double *const *)p->A_array + b0, (int)p->lda,
                                        (const double *const *)p->B_array + b0, (int)p->ldb, &dbeta,
                                        (double *const *)p->C_array + b0, (int)p->ldc, nb);
        } else {
            if (precision == 's')
                st = cublasSgemmStridedBatched(h, ta, tb, p->m, p->n, p->k, &salpha,
                                               (const float *)p->A + b0 * p->stride_a, (int)p->lda, p->stride_a,
                                               (const float *)p->B + b0 * p->stride_b, (int)p->ldb, p->stride_b, &sbeta,
                                               (float *)p->C + b0 * p->stride_c, (int)p->ldc, p->stride_c, nb);
            else
                st = cublasDgemmStridedBatched(h, ta, tb, p->m, p->n, p->k, &dalpha,
                                               (const double *)p->A + b0 * p->stride_a, (int)p->lda, p->stride_a,
                                               (const double *)p->B + b0 * p->stride_b, (int)p->ldb, p->stride_b, &dbeta,
                                               (double *)p->C + b0 * p->stride_c, (int)p->ldc, p->stride_c, nb);
        }
        if (st != CUBLAS_STATUS_SUCCESS) return st;
    }
    return CUBLAS_STATUS_SUCCESS;
}
