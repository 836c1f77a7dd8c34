/* Host residuals of the factorization benchmark; see lapack_check.h. Plain loops in double: the
 * benchmark checks ~16 matrices of n <= 32 per method, so clarity wins over speed. */
#include "lapack_check.h"

#include "host_math.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double lc_eps(char prec) { return oracle_eps(prec); }

void lc_to_double(char prec, const void *src, int64_t count, double *dst)
{
    if (prec == 's') {
        const float *s = src;
        for (int64_t i = 0; i < count; ++i)
            dst[i] = s[i];
    } else {
        memcpy(dst, src, (size_t)count * sizeof(double));
    }
}

/* num / den as a residual: +Inf for NaN or Inf; an exact 0 / 0 is a perfect 0. */
static double ratio(double num, double den)
{
    if (!isfinite(num) || !isfinite(den))
        return INFINITY;
    if (den == 0.0)
        return num == 0.0 ? 0.0 : INFINITY;
    return num / den;
}

static double *scratch(size_t count)
{
    double *p = calloc(count ? count : 1, sizeof(double));
    if (!p)
        abort(); /* a few KiB: failing here means the host is out of memory anyway */
    return p;
}

double lc_getrf_residual(int m, int n, const double *A, int lda, const double *LU, int ldlu,
                         const int *ipiv, double eps)
{
    int k = m < n ? m : n;
    double *d = scratch((size_t)m * n);
    /* d = P A: apply the interchanges in the order getrf made them. */
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            d[(int64_t)j * m + i] = A[(int64_t)j * lda + i];
    for (int i = 0; i < k; ++i) {
        int p = ipiv[i] - 1;
        if (p < i || p >= m) { /* LAPACK pivots satisfy i <= ipiv(i) <= m (1-based) */
            free(d);
            return INFINITY;
        }
        for (int j = 0; j < n && p != i; ++j) {
            double t = d[(int64_t)j * m + i];
            d[(int64_t)j * m + i] = d[(int64_t)j * m + p];
            d[(int64_t)j * m + p] = t;
        }
    }
    /* d -= L U, with L unit lower m x k and U upper k x n. */
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0.0;
            int top = i < j ? i : j; /* L(i, l) U(l, j) is nonzero only for l <= min(i, j) */
            for (int l = 0; l <= top && l < k; ++l) {
                double lil = l == i ? 1.0 : LU[(int64_t)l * ldlu + i];
                s += lil * LU[(int64_t)j * ldlu + l];
            }
            d[(int64_t)j * m + i] -= s;
        }
    double r = ratio(oracle_norm1(m, n, d, m), (double)n * oracle_norm1(m, n, A, lda) * eps);
    free(d);
    return r;
}

double lc_inverse_residual(int n, const double *A, int lda, const double *C, int ldc, double eps)
{
    double *d = scratch((size_t)n * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int l = 0; l < n; ++l)
                s += A[(int64_t)l * lda + i] * C[(int64_t)j * ldc + l];
            d[(int64_t)j * n + i] = (i == j ? 1.0 : 0.0) - s;
        }
    double r = ratio(oracle_norm1(n, n, d, n),
                     (double)n * oracle_norm1(n, n, A, lda) * oracle_norm1(n, n, C, ldc) * eps);
    free(d);
    return r;
}

double lc_potrf_residual(int upper, int n, const double *A, int lda, const double *F, int ldf,
                         double eps)
{
    double *d = scratch((size_t)n * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            /* (L L^T)(i, j) = sum_l L(i, l) L(j, l), (U^T U)(i, j) = sum_l U(l, i) U(l, j),
             * l <= min(i, j); only the factored triangle of F is read. */
            double s = 0.0;
            int top = i < j ? i : j;
            for (int l = 0; l <= top; ++l)
                s += upper ? F[(int64_t)i * ldf + l] * F[(int64_t)j * ldf + l]
                           : F[(int64_t)l * ldf + i] * F[(int64_t)l * ldf + j];
            d[(int64_t)j * n + i] = A[(int64_t)j * lda + i] - s;
        }
    double r = ratio(oracle_norm1(n, n, d, n), (double)n * oracle_norm1(n, n, A, lda) * eps);
    free(d);
    return r;
}

double lc_geqrf_residual(int m, int n, const double *A, int lda, const double *QR, int ldqr,
                         const double *tau, double eps)
{
    int k = m < n ? m : n;
    double *x = scratch((size_t)m * n);
    /* x = R (upper trapezoid of QR), then x = H_0 H_1 ... H_{k-1} R, applying H_{k-1} first;
     * H_j = I - tau_j v_j v_j^T, v_j = (0, ..., 0, 1, QR(j+1:m, j)). */
    for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j && i < m; ++i)
            x[(int64_t)j * m + i] = QR[(int64_t)j * ldqr + i];
    for (int h = k - 1; h >= 0; --h) {
        const double *v = QR + (int64_t)h * ldqr;
        for (int c = 0; c < n; ++c) {
            double *xc = x + (int64_t)c * m;
            double w = xc[h];
            for (int i = h + 1; i < m; ++i)
                w += v[i] * xc[i];
            w *= tau[h];
            xc[h] -= w;
            for (int i = h + 1; i < m; ++i)
                xc[i] -= w * v[i];
        }
    }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            x[(int64_t)j * m + i] -= A[(int64_t)j * lda + i];
    double r = ratio(oracle_norm1(m, n, x, m), (double)(m > n ? m : n) * oracle_norm1(m, n, A, lda) * eps);
    free(x);
    return r;
}

double lc_solve_residual(int n, int nrhs, const double *A, int lda, const double *B, int ldb,
                         const double *X, int ldx, double eps)
{
    double anorm = oracle_norm1(n, n, A, lda), worst = 0.0;
    double *r = scratch((size_t)n);
    for (int j = 0; j < nrhs; ++j) {
        const double *b = B + (int64_t)j * ldb, *x = X + (int64_t)j * ldx;
        for (int i = 0; i < n; ++i) {
            double s = b[i];
            for (int l = 0; l < n; ++l)
                s -= A[(int64_t)l * lda + i] * x[l];
            r[i] = s;
        }
        double e = ratio(oracle_norm1(n, 1, r, n), (double)n * anorm * oracle_norm1(n, 1, x, n) * eps);
        if (!(e <= worst))
            worst = e;
    }
    free(r);
    return worst;
}
