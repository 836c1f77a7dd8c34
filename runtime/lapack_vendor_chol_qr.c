/* The vendor candidates of potrf, potrs, posv (cuSOLVER) and geqrf (cuBLAS), in s, d, c and z
 * (c/z: cuSOLVER's Hermitian Cholesky, cuBLAS's complex Householder QR); see
 * runtime/lapack_vendor.h. Pointer arrays only; batches beyond INT_MAX go in chunks. No
 * allocation and no synchronization: every call is enqueued on the handles' streams.
 *
 * Limits of the vendor calls (the answer is SHOAL_VENDOR_UNSUPPORTED):
 *  - cusolverDn?potrsBatched solves one right-hand side (nrhs = 1) and reports a parameter
 *    error through one device int for the whole call, for which p->info[0] is used: potrs needs
 *    p->info (the tuner passes an info array; the public potrs has none).
 *  - posv is potrfBatched followed by potrsBatched. Two differences from shoal's own posv that a
 *    caller routing posv to the vendor must accept: potrsBatched overwrites info[0] with its own
 *    status (0), so a failure of matrix 0 is lost, and it solves every matrix, so B of a matrix
 *    whose factorization failed is overwritten (shoal's kernels leave it unchanged).
 *  - geqrf: cublas?geqrfBatched reports parameter errors in a host int. */
#include "lapack_vendor.h"

#include <limits.h>
#include <string.h>

#define CHUNK_MAX ((long long)INT_MAX)

static cublasFillMode_t fill_of(int variant)
{
    return variant == 1 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

/* The calls below switch on the precision (cuSOLVER's and cuBLAS's S, D, C, Z functions) as
 * gemm_vendor.c's chunk() does; each takes the chunk [b0, b0 + nb). */

static int potrf_chunk(const shoal_vendor_handles *h, char precision, cublasFillMode_t uplo,
                       const shoal_lapack_params *p, long long b0, int nb)
{
    const int n = p->n, lda = (int)p->lda;
    int *info = p->info + b0;
    cusolverStatus_t st;
    switch (precision) {
    case 's': st = cusolverDnSpotrfBatched(h->cusolver, uplo, n, (float **)p->A_array + b0, lda, info, nb); break;
    case 'd': st = cusolverDnDpotrfBatched(h->cusolver, uplo, n, (double **)p->A_array + b0, lda, info, nb); break;
    case 'c': st = cusolverDnCpotrfBatched(h->cusolver, uplo, n, (cuComplex **)p->A_array + b0, lda, info, nb); break;
    case 'z':
        st = cusolverDnZpotrfBatched(h->cusolver, uplo, n, (cuDoubleComplex **)p->A_array + b0, lda, info, nb);
        break;
    default: return SHOAL_VENDOR_UNSUPPORTED;
    }
    return st == CUSOLVER_STATUS_SUCCESS ? SHOAL_VENDOR_OK : SHOAL_VENDOR_FAILED;
}

static int potrs_chunk(const shoal_vendor_handles *h, char precision, cublasFillMode_t uplo,
                       const shoal_lapack_params *p, long long b0, int nb)
{
    const int n = p->n, lda = (int)p->lda, ldb = (int)p->ldb;
    cusolverStatus_t st;
    switch (precision) {
    case 's':
        st = cusolverDnSpotrsBatched(h->cusolver, uplo, n, 1, (float **)p->A_array + b0, lda,
                                     (float **)p->B_array + b0, ldb, p->info, nb);
        break;
    case 'd':
        st = cusolverDnDpotrsBatched(h->cusolver, uplo, n, 1, (double **)p->A_array + b0, lda,
                                     (double **)p->B_array + b0, ldb, p->info, nb);
        break;
    case 'c':
        st = cusolverDnCpotrsBatched(h->cusolver, uplo, n, 1, (cuComplex **)p->A_array + b0, lda,
                                     (cuComplex **)p->B_array + b0, ldb, p->info, nb);
        break;
    case 'z':
        st = cusolverDnZpotrsBatched(h->cusolver, uplo, n, 1, (cuDoubleComplex **)p->A_array + b0, lda,
                                     (cuDoubleComplex **)p->B_array + b0, ldb, p->info, nb);
        break;
    default: return SHOAL_VENDOR_UNSUPPORTED;
    }
    return st == CUSOLVER_STATUS_SUCCESS ? SHOAL_VENDOR_OK : SHOAL_VENDOR_FAILED;
}

static int geqrf_chunk(const shoal_vendor_handles *h, char precision, const shoal_lapack_params *p,
                       long long b0, int nb)
{
    const int m = p->m, n = p->n, lda = (int)p->lda;
    int info = 0;
    cublasStatus_t st;
    switch (precision) {
    case 's':
        st = cublasSgeqrfBatched(h->cublas, m, n, (float *const *)p->A_array + b0, lda,
                                 (float *const *)p->tau_array + b0, &info, nb);
        break;
    case 'd':
        st = cublasDgeqrfBatched(h->cublas, m, n, (double *const *)p->A_array + b0, lda,
                                 (double *const *)p->tau_array + b0, &info, nb);
        break;
    case 'c':
        st = cublasCgeqrfBatched(h->cublas, m, n, (cuComplex *const *)p->A_array + b0, lda,
                                 (cuComplex *const *)p->tau_array + b0, &info, nb);
        break;
    case 'z':
        st = cublasZgeqrfBatched(h->cublas, m, n, (cuDoubleComplex *const *)p->A_array + b0, lda,
                                 (cuDoubleComplex *const *)p->tau_array + b0, &info, nb);
        break;
    default: return SHOAL_VENDOR_UNSUPPORTED;
    }
    return st == CUBLAS_STATUS_SUCCESS && info == 0 ? SHOAL_VENDOR_OK : SHOAL_VENDOR_FAILED;
}

int shoal_vendor_chol_qr(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                         const shoal_lapack_params *p)
{
    enum { POTRF, POTRS, POSV, GEQRF } which;
    if (!h || !routine || !p || !shoal_vendor_precision_ok(precision))
        return SHOAL_VENDOR_UNSUPPORTED;
    if (strcmp(routine, "potrf") == 0)
        which = POTRF;
    else if (strcmp(routine, "potrs") == 0)
        which = POTRS;
    else if (strcmp(routine, "posv") == 0)
        which = POSV;
    else if (strcmp(routine, "geqrf") == 0)
        which = GEQRF;
    else
        return SHOAL_VENDOR_UNSUPPORTED;

    if (!p->A_array || p->lda > INT_MAX || p->lda < 1)
        return SHOAL_VENDOR_UNSUPPORTED;
    if (which == GEQRF) {
        if (!p->tau_array)
            return SHOAL_VENDOR_UNSUPPORTED;
    } else {
        if (variant != 0 && variant != 1)
            return SHOAL_VENDOR_UNSUPPORTED;
        if (!p->info) /* potrf/posv: per-matrix info; potrs: the call's status */
            return SHOAL_VENDOR_UNSUPPORTED;
    }
    if (which == POTRS || which == POSV) {
        if (p->nrhs != 1 || !p->B_array || p->ldb > INT_MAX || p->ldb < 1)
            return SHOAL_VENDOR_UNSUPPORTED;
    }
    if (p->batch <= 0 || p->m <= 0 || p->n <= 0)
        return SHOAL_VENDOR_OK;

    const cublasFillMode_t uplo = fill_of(variant);
    for (long long b0 = 0; b0 < p->batch; b0 += CHUNK_MAX) {
        const long long rest = p->batch - b0;
        const int nb = (int)(rest < CHUNK_MAX ? rest : CHUNK_MAX);
        int r = SHOAL_VENDOR_OK;
        switch (which) {
        case POTRF:
            r = potrf_chunk(h, precision, uplo, p, b0, nb);
            break;
        case POTRS:
            r = potrs_chunk(h, precision, uplo, p, b0, nb);
            break;
        case POSV:
            r = potrf_chunk(h, precision, uplo, p, b0, nb);
            if (r == SHOAL_VENDOR_OK)
                r = potrs_chunk(h, precision, uplo, p, b0, nb);
            break;
        case GEQRF:
            r = geqrf_chunk(h, precision, p, b0, nb);
            break;
        }
        if (r != SHOAL_VENDOR_OK)
            return r;
    }
    return SHOAL_VENDOR_OK;
}
