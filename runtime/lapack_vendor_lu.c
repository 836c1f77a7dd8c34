/* The cuBLAS candidates of the LU family (runtime/lapack_vendor.h):
 *   getrf        cublas?getrfBatched            (square only)
 *   getrs        cublas?getrsBatched            (variant 0: N, 1: T)
 *   gesv         cublas?getrfBatched, then cublas?getrsBatched
 *   getri        cublas?getriBatched            (out of place, needs the pivots)
 *   getri_fused  cublas?matinvBatched           (n <= 32)
 * Pointer arrays only, pivots packed (stride_ipiv == n), leading dimensions within int; batches
 * beyond INT_MAX go in chunks. No allocation, no synchronization.
 *
 * Where these differ from shoal's own kernels on singular matrices (info > 0): cuBLAS getrs does
 * not know info, so the vendor gesv overwrites B of a singular matrix (with Inf/NaN) instead of
 * leaving it unchanged, and cuBLAS getri/matinv leave the inverse of a singular matrix undefined
 * instead of all NaN. info itself agrees (the first exactly zero pivot). */
#include "lapack_vendor.h"

#include <limits.h>
#include <string.h>

#define CHUNK_MAX ((long long)INT_MAX)

enum lu_routine { LU_GETRF, LU_GETRS, LU_GESV, LU_GETRI, LU_GETRI_FUSED, LU_UNKNOWN };

static enum lu_routine lu_routine_of(const char *r)
{
    if (!strcmp(r, "getrf")) return LU_GETRF;
    if (!strcmp(r, "getrs")) return LU_GETRS;
    if (!strcmp(r, "gesv")) return LU_GESV;
    if (!strcmp(r, "getri")) return LU_GETRI;
    if (!strcmp(r, "getri_fused")) return LU_GETRI_FUSED;
    return LU_UNKNOWN;
}

static int status(cublasStatus_t st) { return st == CUBLAS_STATUS_SUCCESS ? SHOAL_VENDOR_OK : SHOAL_VENDOR_FAILED; }

/* getrf on [b0, b0 + nb) */
static cublasStatus_t getrf_chunk(cublasHandle_t h, char prec, const shoal_lapack_params *p, long long b0, int nb)
{
    int *ipiv = p->ipiv + b0 * p->stride_ipiv;
    int *info = p->info + b0;
    if (prec == 's')
        return cublasSgetrfBatched(h, p->n, (float *const *)p->A_array + b0, (int)p->lda, ipiv, info, nb);
    return cublasDgetrfBatched(h, p->n, (double *const *)p->A_array + b0, (int)p->lda, ipiv, info, nb);
}

/* getrs on [b0, b0 + nb); the host info only reports invalid arguments */
static cublasStatus_t getrs_chunk(cublasHandle_t h, char prec, cublasOperation_t op, const shoal_lapack_params *p,
                                  long long b0, int nb)
{
    const int *ipiv = p->ipiv + b0 * p->stride_ipiv;
    int arg_info = 0;
    cublasStatus_t st;
    if (prec == 's')
        st = cublasSgetrsBatched(h, op, p->n, p->nrhs, (const float *const *)p->A_array + b0, (int)p->lda, ipiv,
                                 (float *const *)p->B_array + b0, (int)p->ldb, &arg_info, nb);
    else
        st = cublasDgetrsBatched(h, op, p->n, p->nrhs, (const double *const *)p->A_array + b0, (int)p->lda, ipiv,
                                 (double *const *)p->B_array + b0, (int)p->ldb, &arg_info, nb);
    if (st == CUBLAS_STATUS_SUCCESS && arg_info != 0) st = CUBLAS_STATUS_INVALID_VALUE;
    return st;
}

int shoal_vendor_lu(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                    const shoal_lapack_params *p)
{
    const enum lu_routine r = lu_routine_of(routine);
    if (r == LU_UNKNOWN || !h || !p) return SHOAL_VENDOR_UNSUPPORTED;
    if (precision != 's' && precision != 'd') return SHOAL_VENDOR_UNSUPPORTED;
    if (p->batch <= 0 || p->m <= 0 || p->n <= 0) return SHOAL_VENDOR_OK; /* nothing to do */

    /* what every cuBLAS batched LU call needs */
    if (!p->A_array || p->m != p->n || p->lda > INT_MAX) return SHOAL_VENDOR_UNSUPPORTED;
    const int has_b = r != LU_GETRF && !(r == LU_GESV && p->nrhs <= 0);
    const int uses_pivots = r != LU_GETRI_FUSED;
    const int has_info = r != LU_GETRS;
    if (has_b && (!p->B_array || p->ldb > INT_MAX)) return SHOAL_VENDOR_UNSUPPORTED;
    if (uses_pivots && (!p->ipiv || p->stride_ipiv != p->n)) return SHOAL_VENDOR_UNSUPPORTED;
    if (has_info && !p->info) return SHOAL_VENDOR_UNSUPPORTED;
    if (r == LU_GETRI_FUSED && p->n > 32) return SHOAL_VENDOR_UNSUPPORTED; /* matinvBatched */
    if (r == LU_GETRS && p->nrhs <= 0) return SHOAL_VENDOR_OK;

    const cublasOperation_t op = variant == 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasHandle_t cb = h->cublas;
    for (long long b0 = 0; b0 < p->batch; b0 += CHUNK_MAX) {
        const long long rest = p->batch - b0;
        const int nb = (int)(rest < CHUNK_MAX ? rest : CHUNK_MAX);
        cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
        switch (r) {
        case LU_GETRF:
            st = getrf_chunk(cb, precision, p, b0, nb);
            break;
        case LU_GETRS:
            st = getrs_chunk(cb, precision, op, p, b0, nb);
            break;
        case LU_GESV:
            st = getrf_chunk(cb, precision, p, b0, nb);
            if (st == CUBLAS_STATUS_SUCCESS && p->nrhs > 0) st = getrs_chunk(cb, precision, CUBLAS_OP_N, p, b0, nb);
            break;
        case LU_GETRI: {
            const int *ipiv = p->ipiv + b0 * p->stride_ipiv;
            if (precision == 's')
                st = cublasSgetriBatched(cb, p->n, (const float *const *)p->A_array + b0, (int)p->lda, ipiv,
                                         (float *const *)p->B_array + b0, (int)p->ldb, p->info + b0, nb);
            else
                st = cublasDgetriBatched(cb, p->n, (const double *const *)p->A_array + b0, (int)p->lda, ipiv,
                                         (double *const *)p->B_array + b0, (int)p->ldb, p->info + b0, nb);
            break;
        }
        case LU_GETRI_FUSED:
            if (precision == 's')
                st = cublasSmatinvBatched(cb, p->n, (const float *const *)p->A_array + b0, (int)p->lda,
                                          (float *const *)p->B_array + b0, (int)p->ldb, p->info + b0, nb);
            else
                st = cublasDmatinvBatched(cb, p->n, (const double *const *)p->A_array + b0, (int)p->lda,
                                          (double *const *)p->B_array + b0, (int)p->ldb, p->info + b0, nb);
            break;
        case LU_UNKNOWN:
            return SHOAL_VENDOR_UNSUPPORTED;
        }
        const int res = status(st);
        if (res != SHOAL_VENDOR_OK) return res;
    }
    return SHOAL_VENDOR_OK;
}
