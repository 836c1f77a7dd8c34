/* Residual checks of the factorizations; see lapack_check.h. Plain loops in double: the checks
 * see small matrices (n <= 32), so clarity wins over speed. */
#include "lapack_check.h"

#include "lapack_ref.h"

#include <math.h>
#include <stdlib.h>

/* num / den as a residual: +Inf for NaN or Inf; an exact 0 / 0 is a perfect 0. */
static double ratio(double num, double den)
{
    if (!isfinite(num) || !isfinite(den)) return INFINITY;
    if (den == 0.0) return num == 0.0 ? 0.0 : INFINITY;
    const double r = num / den;
    return isfinite(r) ? r : INFINITY;
}

static double *scratch(size_t count) { return malloc((count ? count : 1) * sizeof(double)); }

double oracle_getrf_residual(int m, int n, const double *A, int lda, const double *LU, int ldlu, const int *ipiv,
                             double eps)
{
    const int k = m < n ? m : n;
    if (!ipiv) return INFINITY;
    for (int i = 0; i < k; ++i) /* LAPACK pivots satisfy i <= ipiv(i) <= m (1-based) */
        if (ipiv[i] < i + 1 || ipiv[i] > m) return INFINITY;
    double *R = scratch((size_t)m * n);
    if (!R) return INFINITY;
    oracle_lu_product(m, n, LU, ldlu, ipiv, R, m);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) R[i + (size_t)j * m] -= A[i + (size_t)j * lda];
    const double r = ratio(oracle_norm1(m, n, R, m), (double)n * oracle_norm1(m, n, A, lda) * eps);
    free(R);
    return r;
}

double oracle_inverse_residual(int n, const double *A, int lda, const double *C, int ldc, double eps)
{
    double *R = scratch((size_t)n * n);
    if (!R) return INFINITY;
    oracle_matmul(0, n, n, n, A, lda, C, ldc, R, n);
    for (int i = 0; i < n; ++i) R[i + (size_t)i * n] -= 1.0;
    const double r =
        ratio(oracle_norm1(n, n, R, n), (double)n * oracle_norm1(n, n, A, lda) * oracle_norm1(n, n, C, ldc) * eps);
    free(R);
    return r;
}

double oracle_potrf_residual(int upper, int n, const double *A, int lda, const double *F, int ldf, double eps)
{
    for (int j = 0; j < n; ++j) {
        const double d = F[oracle_fidx(ldf, upper, j, j)];
        if (!(d > 0.0) || !(d < INFINITY)) return INFINITY;
    }
    double *S = scratch((size_t)n * n), *M = scratch((size_t)n * n);
    double r = INFINITY;
    if (S && M) {
        oracle_sym_from_tri(n, upper, A, lda, S);
        oracle_chol_product(n, upper, F, ldf, M);
        for (size_t i = 0; i < (size_t)n * n; ++i) M[i] -= S[i];
        r = ratio(oracle_norm1(n, n, M, n), (double)n * oracle_norm1(n, n, S, n) * eps);
    }
    free(S);
    free(M);
    return r;
}

double oracle_geqrf_residual(int m, int n, const double *A, int lda, const double *QR, int ldqr, const double *tau,
                             double eps)
{
    double *Q = scratch((size_t)m * m), *R = scratch((size_t)m * n), *D = scratch((size_t)m * n);
    double r = INFINITY;
    if (Q && R && D) {
        oracle_form_q(m, n, QR, ldqr, tau, Q);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) R[i + (size_t)j * m] = i <= j ? QR[i + (size_t)j * ldqr] : 0.0;
        oracle_matmul(0, m, n, m, Q, m, R, m, D, m);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) D[i + (size_t)j * m] -= A[i + (size_t)j * lda];
        r = ratio(oracle_norm1(m, n, D, m), (double)(m > n ? m : n) * oracle_norm1(m, n, A, lda) * eps);
    }
    free(Q);
    free(R);
    free(D);
    return r;
}

double oracle_orthogonality_residual(int m, int n, const double *QR, int ldqr, const double *tau, double eps)
{
    double *Q = scratch((size_t)m * m);
    if (!Q) return INFINITY;
    oracle_form_q(m, n, QR, ldqr, tau, Q);
    double worst_col = 0.0;
    for (int j = 0; j < m; ++j) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) {
            double d = 0.0;
            for (int l = 0; l < m; ++l) d += Q[l + (size_t)i * m] * Q[l + (size_t)j * m];
            s += fabs((i == j ? 1.0 : 0.0) - d);
        }
        if (!(s <= worst_col)) worst_col = s;
    }
    free(Q);
    return ratio(worst_col, (double)m * eps);
}

double oracle_solve_residual(int trans, int n, int nrhs, const double *A, int lda, const double *B, int ldb,
                             const double *X, int ldx, double eps)
{
    double *R = scratch((size_t)n * nrhs);
    if (!R) return INFINITY;
    oracle_matmul(trans, n, nrhs, n, A, lda, X, ldx, R, n);
    double anorm;
    if (trans) { /* ||A^T||_1 = ||A||_inf */
        anorm = 0.0;
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int c = 0; c < n; ++c) s += fabs(A[i + (size_t)c * lda]);
            if (s > anorm || isnan(s)) anorm = s;
        }
    } else {
        anorm = oracle_norm1(n, n, A, lda);
    }
    double worst = 0.0;
    for (int j = 0; j < nrhs && !isinf(worst); ++j) {
        double rn = 0.0;
        for (int i = 0; i < n; ++i) rn += fabs(R[i + (size_t)j * n] - B[i + (size_t)j * ldb]);
        const double xn = oracle_norm1(n, 1, X + (size_t)j * ldx, ldx);
        const double e = ratio(rn, (double)n * anorm * xn * eps);
        if (e > worst) worst = e;
    }
    free(R);
    return worst;
}
