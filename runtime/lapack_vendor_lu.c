/* The cuBLAS candidates of the LU family (runtime/lapack_vendor.h):
 *   getrf        cublas?getrfBatched            (square only)
 *   getrs        cublas?getrsBatched            (variant 0: N, 1: T, or C where p->conj (c, z))
 *   gesv         cublas?getrfBatched, then cublas?getrsBatched
 *   getri        cublas?getriBatched            (out of place, needs the pivots)
 *   getri_fused  cublas?matinvBatched           (n <= 32)
 * In s, d, c and z (cuComplex / cuDoubleComplex: the layout of shoal_complex_*).
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

/* The calls below switch on the precision (cuBLAS's S, D, C, Z functions) as gemm_vendor.c's
 * chunk() does; each takes the chunk [b0, b0 + nb). */

/* getrf */
static cublasStatus_t getrf_chunk(cublasHandle_t h, char prec, const shoal_lapack_params *p, long long b0, int nb)
{
    const int n = p->n, lda = (int)p->lda;
    int *ipiv = p->ipiv + b0 * p->stride_ipiv;
    int *info = p->info + b0;
    switch (prec) {
    case 's': return cublasSgetrfBatched(h, n, (float *const *)p->A_array + b0, lda, ipiv, info, nb);
    case 'd': return cublasDgetrfBatched(h, n, (double *const *)p->A_array + b0, lda, ipiv, info, nb);
    case 'c': return cublasCgetrfBatched(h, n, (cuComplex *const *)p->A_array + b0, lda, ipiv, info, nb);
    case 'z': return cublasZgetrfBatched(h, n, (cuDoubleComplex *const *)p->A_array + b0, lda, ipiv, info, nb);
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

/* getrs (op N, T, or C where a c/z call set p->conj); the host info only reports invalid
 * arguments */
static cublasStatus_t getrs_chunk(cublasHandle_t h, char prec, cublasOperation_t op, const shoal_lapack_params *p,
                                  long long b0, int nb)
{
    const int n = p->n, nrhs = p->nrhs, lda = (int)p->lda, ldb = (int)p->ldb;
    const int *ipiv = p->ipiv + b0 * p->stride_ipiv;
    int arg_info = 0;
    cublasStatus_t st;
    switch (prec) {
    case 's':
        st = cublasSgetrsBatched(h, op, n, nrhs, (const float *const *)p->A_array + b0, lda, ipiv,
                                 (float *const *)p->B_array + b0, ldb, &arg_info, nb);
        break;
    case 'd':
        st = cublasDgetrsBatched(h, op, n, nrhs, (const double *const *)p->A_array + b0, lda, ipiv,
                                 (double *const *)p->B_array + b0, ldb, &arg_info, nb);
        break;
    case 'c':
        st = cublasCgetrsBatched(h, op, n, nrhs, (const cuComplex *const *)p->A_array + b0, lda, ipiv,
                                 (cuComplex *const *)p->B_array + b0, ldb, &arg_info, nb);
        break;
    case 'z':
        st = cublasZgetrsBatched(h, op, n, nrhs, (const cuDoubleComplex *const *)p->A_array + b0, lda, ipiv,
                                 (cuDoubleComplex *const *)p->B_array + b0, ldb, &arg_info, nb);
        break;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (st == CUBLAS_STATUS_SUCCESS && arg_info != 0) st = CUBLAS_STATUS_INVALID_VALUE;
    return st;
}

/* getri: out of place, from the factors and pivots */
static cublasStatus_t getri_chunk(cublasHandle_t h, char prec, const shoal_lapack_params *p, long long b0, int nb)
{
    const int n = p->n, lda = (int)p->lda, ldb = (int)p->ldb;
    const int *ipiv = p->ipiv + b0 * p->stride_ipiv;
    int *info = p->info + b0;
    switch (prec) {
    case 's':
        return cublasSgetriBatched(h, n, (const float *const *)p->A_array + b0, lda, ipiv,
                                   (float *const *)p->B_array + b0, ldb, info, nb);
    case 'd':
        return cublasDgetriBatched(h, n, (const double *const *)p->A_array + b0, lda, ipiv,
                                   (double *const *)p->B_array + b0, ldb, info, nb);
    case 'c':
        return cublasCgetriBatched(h, n, (const cuComplex *const *)p->A_array + b0, lda, ipiv,
                                   (cuComplex *const *)p->B_array + b0, ldb, info, nb);
    case 'z':
        return cublasZgetriBatched(h, n, (const cuDoubleComplex *const *)p->A_array + b0, lda, ipiv,
                                   (cuDoubleComplex *const *)p->B_array + b0, ldb, info, nb);
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

/* getri_fused: matinv, factor and invert (n <= 32) */
static cublasStatus_t matinv_chunk(cublasHandle_t h, char prec, const shoal_lapack_params *p, long long b0, int nb)
{
    const int n = p->n, lda = (int)p->lda, ldb = (int)p->ldb;
    int *info = p->info + b0;
    switch (prec) {
    case 's':
        return cublasSmatinvBatched(h, n, (const float *const *)p->A_array + b0, lda,
                                    (float *const *)p->B_array + b0, ldb, info, nb);
    case 'd':
        return cublasDmatinvBatched(h, n, (const double *const *)p->A_array + b0, lda,
                                    (double *const *)p->B_array + b0, ldb, info, nb);
    case 'c':
        return cublasCmatinvBatched(h, n, (const cuComplex *const *)p->A_array + b0, lda,
                                    (cuComplex *const *)p->B_array + b0, ldb, info, nb);
    case 'z':
        return cublasZmatinvBatched(h, n, (const cuDoubleComplex *const *)p->A_array + b0, lda,
                                    (cuDoubleComplex *const *)p->B_array + b0, ldb, info, nb);
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

int shoal_vendor_lu(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                    const shoal_lapack_params *p)
{
    const enum lu_routine r = lu_routine_of(routine);
    if (r == LU_UNKNOWN || !h || !p) return SHOAL_VENDOR_UNSUPPORTED;
    if (!shoal_vendor_precision_ok(precision)) return SHOAL_VENDOR_UNSUPPORTED;
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

    /* op C (c/z getrs): the t variant with p->conj set by the entry point */
    const int conj = (precision == 'c' || precision == 'z') && p->conj;
    const cublasOperation_t op = variant == 1 ? (conj ? CUBLAS_OP_C : CUBLAS_OP_T) : CUBLAS_OP_N;
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
        case LU_GETRI:
            st = getri_chunk(cb, precision, p, b0, nb);
            break;
        case LU_GETRI_FUSED:
            st = matinv_chunk(cb, precision, p, b0, nb);
            break;
        case LU_UNKNOWN:
            return SHOAL_VENDOR_UNSUPPORTED;
        }
        const int res = status(st);
        if (res != SHOAL_VENDOR_OK) return res;
    }
    return SHOAL_VENDOR_OK;
}
