#include "blas2_vendor.h"

#include <cuComplex.h>
#include <limits.h>
#include <string.h>

#define CHUNK_MAX ((long long)INT_MAX)

static int fits_int(long long v) { return v >= INT_MIN && v <= INT_MAX; }

static cublasStatus_t gemv_chunk(cublasHandle_t h, char prec, cublasOperation_t op, const shoal_blas2_params *p,
                                 long long b0, int nb)
{
    const int lda = (int)p->lda, incx = (int)p->incx, incy = (int)p->incy;
    if (prec == 'c' || prec == 'z') {
        /* complex alpha and beta: parts [0] and [1] (cuComplex: real part first) */
        const cuComplex ca = make_cuComplex((float)p->alpha[0], (float)p->alpha[1]),
                        cb = make_cuComplex((float)p->beta[0], (float)p->beta[1]);
        const cuDoubleComplex za = make_cuDoubleComplex(p->alpha[0], p->alpha[1]),
                              zb = make_cuDoubleComplex(p->beta[0], p->beta[1]);
        if (p->A_array) {
            if (prec == 'c')
                return cublasCgemvBatched(h, op, p->m, p->n, &ca, (const cuComplex *const *)p->A_array + b0, lda,
                                          (const cuComplex *const *)p->x_array + b0, incx, &cb,
                                          (cuComplex *const *)p->y_array + b0, incy, nb);
            return cublasZgemvBatched(h, op, p->m, p->n, &za, (const cuDoubleComplex *const *)p->A_array + b0, lda,
                                      (const cuDoubleComplex *const *)p->x_array + b0, incx, &zb,
                                      (cuDoubleComplex *const *)p->y_array + b0, incy, nb);
        }
        if (prec == 'c')
            return cublasCgemvStridedBatched(h, op, p->m, p->n, &ca, (const cuComplex *)p->A + b0 * p->stride_a, lda,
                                             p->stride_a, (const cuComplex *)p->x + b0 * p->stride_x, incx,
                                             p->stride_x, &cb, (cuComplex *)p->y + b0 * p->stride_y, incy,
                                             p->stride_y, nb);
        return cublasZgemvStridedBatched(h, op, p->m, p->n, &za, (const cuDoubleComplex *)p->A + b0 * p->stride_a,
                                         lda, p->stride_a, (const cuDoubleComplex *)p->x + b0 * p->stride_x, incx,
                                         p->stride_x, &zb, (cuDoubleComplex *)p->y + b0 * p->stride_y, incy,
                                         p->stride_y, nb);
    }
    if (p->A_array) {
        if (prec == 's') {
            const float alpha = (float)p->alpha[0], beta = (float)p->beta[0];
            return cublasSgemvBatched(h, op, p->m, p->n, &alpha, (const float *const *)p->A_array + b0, lda,
                                      (const float *const *)p->x_array + b0, incx, &beta,
                                      (float *const *)p->y_array + b0, incy, nb);
        }
        return cublasDgemvBatched(h, op, p->m, p->n, p->alpha, (const double *const *)p->A_array + b0, lda,
                                  (const double *const *)p->x_array + b0, incx, p->beta,
                                  (double *const *)p->y_array + b0, incy, nb);
    }
    if (prec == 's') {
        const float alpha = (float)p->alpha[0], beta = (float)p->beta[0];
        return cublasSgemvStridedBatched(h, op, p->m, p->n, &alpha, (const float *)p->A + b0 * p->stride_a, lda,
                                         p->stride_a, (const float *)p->x + b0 * p->stride_x, incx, p->stride_x,
                                         &beta, (float *)p->y + b0 * p->stride_y, incy, p->stride_y, nb);
    }
    return cublasDgemvStridedBatched(h, op, p->m, p->n, p->alpha, (const double *)p->A + b0 * p->stride_a, lda,
                                     p->stride_a, (const double *)p->x + b0 * p->stride_x, incx, p->stride_x,
                                     p->beta, (double *)p->y + b0 * p->stride_y, incy, p->stride_y, nb);
}

static cublasStatus_t trsv_chunk(cublasHandle_t h, char prec, int variant, const shoal_blas2_params *p, long long b0,
                                 int nb)
{
    const cublasFillMode_t uplo = (variant >> 1) ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const cublasOperation_t op = (variant & 1) ? (p->conj ? CUBLAS_OP_C : CUBLAS_OP_T) : CUBLAS_OP_N;
    const cublasDiagType_t diag = p->diag_unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    const int n = p->n, lda = (int)p->lda;
    if (prec == 'c') {
        const cuComplex one = make_cuComplex(1.0f, 0.0f);
        return cublasCtrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, n, 1, &one,
                                  (const cuComplex *const *)p->A_array + b0, lda, (cuComplex *const *)p->x_array + b0,
                                  n, nb);
    }
    if (prec == 'z') {
        const cuDoubleComplex one = make_cuDoubleComplex(1.0, 0.0);
        return cublasZtrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, n, 1, &one,
                                  (const cuDoubleComplex *const *)p->A_array + b0, lda,
                                  (cuDoubleComplex *const *)p->x_array + b0, n, nb);
    }
    if (prec == 's') {
        const float one = 1.0f;
        return cublasStrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, n, 1, &one,
                                  (const float *const *)p->A_array + b0, lda, (float *const *)p->x_array + b0, n, nb);
    }
    const double one = 1.0;
    return cublasDtrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, n, 1, &one, (const double *const *)p->A_array + b0,
                              lda, (double *const *)p->x_array + b0, n, nb);
}

int shoal_blas2_vendor(cublasHandle_t h, const char *routine, char precision, int variant,
                       const shoal_blas2_params *p)
{
    const int gemv = strcmp(routine, "gemv") == 0, trsv = strcmp(routine, "trsv") == 0;
    if ((!gemv && !trsv) || p->m_v) return SHOAL_VENDOR_UNSUPPORTED;
    if (!fits_int(p->lda) || !fits_int(p->incx) || !fits_int(p->incy)) return SHOAL_VENDOR_UNSUPPORTED;
    if (trsv && (!p->A_array || p->incx != 1)) return SHOAL_VENDOR_UNSUPPORTED;
    if (gemv && !p->A_array && (!p->A || !p->x || !p->y)) return SHOAL_VENDOR_UNSUPPORTED;
    for (long long b0 = 0; b0 < p->batch; b0 += CHUNK_MAX) {
        const long long left = p->batch - b0;
        const int nb = (int)(left < CHUNK_MAX ? left : CHUNK_MAX);
        const cublasStatus_t st = gemv ? gemv_chunk(h, precision, variant ? (p->conj ? CUBLAS_OP_C : CUBLAS_OP_T) : CUBLAS_OP_N, p, b0, nb)
                                       : trsv_chunk(h, precision, variant, p, b0, nb);
        if (st != CUBLAS_STATUS_SUCCESS) return SHOAL_VENDOR_FAILED;
    }
    return SHOAL_VENDOR_OK;
}
