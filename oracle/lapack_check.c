/* Residual checks of the factorizations; see lapack_check.h. Plain loops in double: the checks
 * see small matrices (n <= 32) except QR's (m up to 1024: its checks never form the m x m Q), so
 * clarity wins over speed. */
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

/* The residuals over w doubles per element (1 real, 2 complex pairs): one code, with w = 1 the
 * real expressions (bitwise: tests/test_lapack_oracle.py's golden record). */
static double norm1_w(int w, int m, int n, const double *X, int64_t ld)
{
    return w == 1 ? oracle_norm1(m, n, X, ld) : oracle_znorm1(m, n, X, ld);
}
static void matmul_w(int w, int op, int m, int n, int k, const double *A, int64_t lda, const double *B, int64_t ldb,
                     double *C, int64_t ldc)
{
    if (w == 1)
        oracle_matmul(op, m, n, k, A, lda, B, ldb, C, ldc);
    else
        oracle_zmatmul(op, m, n, k, A, lda, B, ldb, C, ldc);
}
/* |x - y| of elements (w doubles each) */
static double dist(const double *x, const double *y, int w)
{
    return w == 1 ? fabs(x[0] - y[0]) : hypot(x[0] - y[0], x[1] - y[1]);
}
/* R -= A over an m x n matrix (R packed, A with leading dimension lda) */
static void subtract(int w, int m, int n, double *R, const double *A, int lda)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            for (int e = 0; e < w; ++e) R[w * (i + (size_t)j * m) + e] -= A[w * (i + (size_t)j * lda) + e];
}

static double getrf_residual_w(int w, int m, int n, const double *A, int lda, const double *LU, int ldlu,
                               const int *ipiv, double eps)
{
    const int k = m < n ? m : n;
    if (!ipiv) return INFINITY;
    for (int i = 0; i < k; ++i) /* LAPACK pivots satisfy i <= ipiv(i) <= m (1-based) */
        if (ipiv[i] < i + 1 || ipiv[i] > m) return INFINITY;
    double *R = scratch((size_t)w * m * n);
    if (!R) return INFINITY;
    if (w == 1)
        oracle_lu_product(m, n, LU, ldlu, ipiv, R, m);
    else
        oracle_zlu_product(m, n, LU, ldlu, ipiv, R, m);
    subtract(w, m, n, R, A, lda);
    const double r = ratio(norm1_w(w, m, n, R, m), (double)n * norm1_w(w, m, n, A, lda) * eps);
    free(R);
    return r;
}

double oracle_getrf_residual(int m, int n, const double *A, int lda, const double *LU, int ldlu, const int *ipiv,
                             double eps)
{
    return getrf_residual_w(1, m, n, A, lda, LU, ldlu, ipiv, eps);
}
double oracle_zgetrf_residual(int m, int n, const double *A, int lda, const double *LU, int ldlu, const int *ipiv,
                              double eps)
{
    return getrf_residual_w(2, m, n, A, lda, LU, ldlu, ipiv, eps);
}

static double inverse_residual_w(int w, int n, const double *A, int lda, const double *C, int ldc, double eps)
{
    double *R = scratch((size_t)w * n * n);
    if (!R) return INFINITY;
    matmul_w(w, 0, n, n, n, A, lda, C, ldc, R, n);
    for (int i = 0; i < n; ++i) R[w * (i + (size_t)i * n)] -= 1.0;
    const double r = ratio(norm1_w(w, n, n, R, n),
                           (double)n * norm1_w(w, n, n, A, lda) * norm1_w(w, n, n, C, ldc) * eps);
    free(R);
    return r;
}

double oracle_inverse_residual(int n, const double *A, int lda, const double *C, int ldc, double eps)
{
    return inverse_residual_w(1, n, A, lda, C, ldc, eps);
}
double oracle_zinverse_residual(int n, const double *A, int lda, const double *C, int ldc, double eps)
{
    return inverse_residual_w(2, n, A, lda, C, ldc, eps);
}

static double potrf_residual_w(int w, int upper, int n, const double *A, int lda, const double *F, int ldf,
                               double eps)
{
    for (int j = 0; j < n; ++j) {
        const double *d = &F[w * oracle_fidx(ldf, upper, j, j)];
        if (!(d[0] > 0.0) || !(d[0] < INFINITY)) return INFINITY;
        if (w == 2 && d[1] != 0.0) return INFINITY; /* LAPACK writes the diagonal real */
    }
    double *S = scratch((size_t)w * n * n), *M = scratch((size_t)w * n * n);
    double r = INFINITY;
    if (S && M) {
        if (w == 1) {
            oracle_sym_from_tri(n, upper, A, lda, S);
            oracle_chol_product(n, upper, F, ldf, M);
        } else {
            oracle_herm_from_tri(n, upper, A, lda, S);
            oracle_zchol_product(n, upper, F, ldf, M);
        }
        for (size_t i = 0; i < (size_t)w * n * n; ++i) M[i] -= S[i];
        r = ratio(norm1_w(w, n, n, M, n), (double)n * norm1_w(w, n, n, S, n) * eps);
    }
    free(S);
    free(M);
    return r;
}

double oracle_potrf_residual(int upper, int n, const double *A, int lda, const double *F, int ldf, double eps)
{
    return potrf_residual_w(1, upper, n, A, lda, F, ldf, eps);
}
double oracle_zpotrf_residual(int upper, int n, const double *A, int lda, const double *F, int ldf, double eps)
{
    return potrf_residual_w(2, upper, n, A, lda, F, ldf, eps);
}

static void apply_q_w(int w, int m, int n, const double *QR, int ldqr, const double *tau, int ncols, double *C,
                      size_t ldc)
{
    if (w == 1)
        oracle_apply_q(m, n, QR, ldqr, tau, ncols, C, ldc);
    else
        oracle_zapply_q(m, n, QR, ldqr, tau, ncols, C, ldc);
}

/* ||A - Q R||_1 / (max(m, n) ||A||_1 eps), Q R formed by applying the reflectors to R (m n k work:
 * Q itself would be m^2 k, a billion at m = 1024) */
static double geqrf_residual_w(int w, int m, int n, const double *A, int lda, const double *QR, int ldqr,
                               const double *tau, double eps)
{
    double *D = scratch((size_t)w * m * n);
    if (!D) return INFINITY;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            for (int e = 0; e < w; ++e)
                D[w * (i + (size_t)j * m) + e] = i <= j ? QR[w * (i + (size_t)j * ldqr) + e] : 0.0;
    apply_q_w(w, m, n, QR, ldqr, tau, n, D, (size_t)m);
    subtract(w, m, n, D, A, lda);
    const double r = ratio(norm1_w(w, m, n, D, m), (double)(m > n ? m : n) * norm1_w(w, m, n, A, lda) * eps);
    free(D);
    return r;
}

double oracle_geqrf_residual(int m, int n, const double *A, int lda, const double *QR, int ldqr, const double *tau,
                             double eps)
{
    return geqrf_residual_w(1, m, n, A, lda, QR, ldqr, tau, eps);
}
double oracle_zgeqrf_residual(int m, int n, const double *A, int lda, const double *QR, int ldqr, const double *tau,
                              double eps)
{
    return geqrf_residual_w(2, m, n, A, lda, QR, ldqr, tau, eps);
}

/* max_j ||(I - Q1^H Q1) e_j||_1 / (m eps) over Q's first k = min(m, n) columns Q1: column j is
 * H(0) .. H(j) e_j, whose norm is 1 exactly where H(j) is unitary (|1 - tau|^2 + |tau|^2 ||x||^2
 * = 1 is |tau|^2 ||v||^2 = 2 re tau) given the H(i), i < j, are: so every reflector is checked,
 * and with it the whole Q, in m k^2 work rather than the m^3 of Q^H Q */
static double orthogonality_residual_w(int w, int m, int n, const double *QR, int ldqr, const double *tau,
                                       double eps)
{
    const int k = m < n ? m : n;
    double *Q = scratch((size_t)w * m * k), *G = scratch((size_t)w * k * k);
    if (!Q || !G) {
        free(Q);
        free(G);
        return INFINITY;
    }
    for (size_t i = 0; i < (size_t)w * m * k; ++i) Q[i] = 0.0;
    for (int j = 0; j < k; ++j) Q[w * (j + (size_t)j * m)] = 1.0;
    apply_q_w(w, m, n, QR, ldqr, tau, k, Q, (size_t)m);
    matmul_w(w, w == 1 ? 1 : 2, k, k, m, Q, m, Q, m, G, k); /* Q1^H Q1 */
    double worst_col = 0.0;
    for (int j = 0; j < k; ++j) {
        double s = 0.0;
        for (int i = 0; i < k; ++i) {
            const double one[2] = {i == j ? 1.0 : 0.0, 0.0};
            s += dist(one, G + w * (i + (size_t)j * k), w);
        }
        if (!(s <= worst_col)) worst_col = s;
    }
    free(Q);
    free(G);
    return ratio(worst_col, (double)m * eps);
}

double oracle_orthogonality_residual(int m, int n, const double *QR, int ldqr, const double *tau, double eps)
{
    return orthogonality_residual_w(1, m, n, QR, ldqr, tau, eps);
}
double oracle_zorthogonality_residual(int m, int n, const double *QR, int ldqr, const double *tau, double eps)
{
    return orthogonality_residual_w(2, m, n, QR, ldqr, tau, eps);
}

static double solve_residual_w(int w, int trans, int n, int nrhs, const double *A, int lda, const double *B,
                               int ldb, const double *X, int ldx, double eps)
{
    double *R = scratch((size_t)w * n * nrhs);
    if (!R) return INFINITY;
    matmul_w(w, trans, n, nrhs, n, A, lda, X, ldx, R, n);
    double anorm;
    if (trans) { /* ||A^T||_1 = ||A^H||_1 = ||A||_inf */
        anorm = 0.0;
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int c = 0; c < n; ++c) {
                const double *a = A + w * (i + (size_t)c * lda);
                s += w == 1 ? fabs(a[0]) : hypot(a[0], a[1]);
            }
            if (s > anorm || isnan(s)) anorm = s;
        }
    } else {
        anorm = norm1_w(w, n, n, A, lda);
    }
    double worst = 0.0;
    for (int j = 0; j < nrhs && !isinf(worst); ++j) {
        double rn = 0.0;
        for (int i = 0; i < n; ++i) rn += dist(R + w * (i + (size_t)j * n), B + w * (i + (size_t)j * ldb), w);
        const double xn = norm1_w(w, n, 1, X + (size_t)w * j * ldx, ldx);
        const double e = ratio(rn, (double)n * anorm * xn * eps);
        if (e > worst) worst = e;
    }
    free(R);
    return worst;
}

double oracle_solve_residual(int trans, int n, int nrhs, const double *A, int lda, const double *B, int ldb,
                             const double *X, int ldx, double eps)
{
    return solve_residual_w(1, trans, n, nrhs, A, lda, B, ldb, X, ldx, eps);
}
double oracle_zsolve_residual(int op, int n, int nrhs, const double *A, int lda, const double *B, int ldb,
                              const double *X, int ldx, double eps)
{
    return solve_residual_w(2, op, n, nrhs, A, lda, B, ldb, X, ldx, eps);
}
