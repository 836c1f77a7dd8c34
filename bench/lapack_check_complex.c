/* Complex residual checks of the benchmark; see lapack_check_complex.h. Plain loops in double
 * complex (C99 _Complex): the checks see 16 small matrices (n <= 32) per row. */
#include "lapack_check_complex.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>

typedef double _Complex cplx;

/* num / den as a residual: +Inf for NaN or Inf; an exact 0 / 0 is a perfect 0 (as lapack_check.c). */
static double ratio(double num, double den)
{
    if (!isfinite(num) || !isfinite(den)) return INFINITY;
    if (den == 0.0) return num == 0.0 ? 0.0 : INFINITY;
    const double r = num / den;
    return isfinite(r) ? r : INFINITY;
}

/* Element (i, j) of an n x n (re, im) pair matrix, ld n. */
static cplx at(const double *M, int n, int i, int j)
{
    const double *p = M + 2 * (i + (size_t)j * n);
    return CMPLX(p[0], p[1]);
}

/* An n x n complex matrix of the pairs (the caller frees it); NULL when memory is short. */
static cplx *unpack(int n, const double *M)
{
    cplx *c = malloc(sizeof(cplx) * (size_t)n * (size_t)(n ? n : 1));
    if (c)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) c[i + (size_t)j * n] = at(M, n, i, j);
    return c;
}

static cplx *zeros(int n) { return calloc((size_t)n * (size_t)(n ? n : 1), sizeof(cplx)); }

/* max_j sum_i |M(i, j)| of an m x n matrix, ld m; NaN propagates. */
static double norm1(int m, int n, const cplx *M)
{
    double best = 0.0;
    for (int j = 0; j < n; ++j) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) s += cabs(M[i + (size_t)j * m]);
        if (s > best || isnan(s)) best = s;
    }
    return best;
}

/* C = A B, all n x n, ld n. */
static void matmul(int n, const cplx *A, const cplx *B, cplx *C)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            cplx s = 0;
            for (int l = 0; l < n; ++l) s += A[i + (size_t)l * n] * B[l + (size_t)j * n];
            C[i + (size_t)j * n] = s;
        }
}

/* ||D - A||_1 / (n ||A||_1 eps), D overwritten. */
static double backward(int n, cplx *D, const cplx *A, double eps)
{
    const size_t nn = (size_t)n * n;
    for (size_t e = 0; e < nn; ++e) D[e] -= A[e];
    return ratio(norm1(n, n, D), (double)n * norm1(n, n, A) * eps);
}

double bench_cgetrf_residual(int n, const double *A, const double *LU, const int *ipiv, double eps)
{
    if (!ipiv) return INFINITY;
    for (int i = 0; i < n; ++i) /* LAPACK pivots satisfy i <= ipiv(i) <= n (1-based) */
        if (ipiv[i] < i + 1 || ipiv[i] > n) return INFINITY;
    cplx *a = unpack(n, A), *f = unpack(n, LU), *L = zeros(n), *U = zeros(n), *D = zeros(n);
    double r = INFINITY;
    if (a && f && L && U && D) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const cplx v = f[i + (size_t)j * n];
                if (i > j) L[i + (size_t)j * n] = v;
                else U[i + (size_t)j * n] = v;
                if (i == j) L[i + (size_t)j * n] = 1;
            }
        matmul(n, L, U, D);
        /* getrf swapped rows i and ipiv(i) of A in the order i = 0, 1, ...: undo them backwards */
        for (int i = n - 1; i >= 0; --i) {
            const int p = ipiv[i] - 1;
            if (p != i)
                for (int j = 0; j < n; ++j) {
                    const cplx t = D[i + (size_t)j * n];
                    D[i + (size_t)j * n] = D[p + (size_t)j * n];
                    D[p + (size_t)j * n] = t;
                }
        }
        r = backward(n, D, a, eps);
    }
    free(a);
    free(f);
    free(L);
    free(U);
    free(D);
    return r;
}

double bench_cinverse_residual(int n, const double *A, const double *C, double eps)
{
    cplx *a = unpack(n, A), *c = unpack(n, C), *R = zeros(n);
    double r = INFINITY;
    if (a && c && R) {
        matmul(n, a, c, R);
        for (int i = 0; i < n; ++i) R[i + (size_t)i * n] -= 1;
        r = ratio(norm1(n, n, R), (double)n * norm1(n, n, a) * norm1(n, n, c) * eps);
    }
    free(a);
    free(c);
    free(R);
    return r;
}

double bench_cpotrf_residual(int upper, int n, const double *A, const double *F, double eps)
{
    for (int j = 0; j < n; ++j) { /* a Hermitian factor's diagonal is real and positive */
        const double d = F[2 * (j + (size_t)j * n)];
        if (!(d > 0.0) || !(d < INFINITY)) return INFINITY;
    }
    cplx *H = zeros(n), *T = zeros(n), *TH = zeros(n), *D = zeros(n);
    double r = INFINITY;
    if (H && T && TH && D) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const int in = upper ? i <= j : i >= j; /* (i, j) in the uplo triangle */
                /* A from its uplo triangle, the diagonal's imaginary part not read */
                if (i == j) H[i + (size_t)j * n] = creal(at(A, n, i, i));
                else H[i + (size_t)j * n] = in ? at(A, n, i, j) : conj(at(A, n, j, i));
                /* T = L (lower) or U (upper) as written, diagonal included */
                T[i + (size_t)j * n] = in ? at(F, n, i, j) : 0;
            }
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) TH[i + (size_t)j * n] = conj(T[j + (size_t)i * n]);
        if (upper)
            matmul(n, TH, T, D); /* U^H U */
        else
            matmul(n, T, TH, D); /* L L^H */
        r = backward(n, D, H, eps);
    }
    free(H);
    free(T);
    free(TH);
    free(D);
    return r;
}

double bench_cgeqrf_residual(int n, const double *A, const double *QR, const double *tau, double eps)
{
    cplx *a = unpack(n, A), *f = unpack(n, QR), *Q = zeros(n), *R = zeros(n), *D = zeros(n);
    cplx *w = calloc((size_t)(n ? n : 1), sizeof(cplx));
    double r = INFINITY;
    if (a && f && Q && R && D && w) {
        for (int i = 0; i < n; ++i) Q[i + (size_t)i * n] = 1;
        /* Q = H_0 (H_1 (... (H_{n-1} I))), H_k = I - tau_k v_k v_k^H, v_k = (0..0, 1, QR(k+1:, k)) */
        for (int k = n - 1; k >= 0; --k) {
            const cplx t = CMPLX(tau[2 * k], tau[2 * k + 1]);
            const cplx *v = f + (size_t)k * n; /* v(i) for i > k; v(k) = 1 */
            for (int j = 0; j < n; ++j) { /* w(j) = v^H Q(:, j) */
                cplx s = Q[k + (size_t)j * n];
                for (int i = k + 1; i < n; ++i) s += conj(v[i]) * Q[i + (size_t)j * n];
                w[j] = s;
            }
            for (int j = 0; j < n; ++j) {
                Q[k + (size_t)j * n] -= t * w[j];
                for (int i = k + 1; i < n; ++i) Q[i + (size_t)j * n] -= t * v[i] * w[j];
            }
        }
        for (int j = 0; j < n; ++j)
            for (int i = 0; i <= j; ++i) R[i + (size_t)j * n] = f[i + (size_t)j * n];
        matmul(n, Q, R, D);
        r = backward(n, D, a, eps);
    }
    free(a);
    free(f);
    free(Q);
    free(R);
    free(D);
    free(w);
    return r;
}

double bench_csolve_residual(int trans, int n, int nrhs, const double *A, const double *B, const double *X,
                             double eps)
{
    cplx *a = unpack(n, A), *op = zeros(n);
    double worst = INFINITY;
    if (a && op) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const cplx v = trans ? a[j + (size_t)i * n] : a[i + (size_t)j * n];
                op[i + (size_t)j * n] = trans == 2 ? conj(v) : v;
            }
        const double anorm = norm1(n, n, op);
        worst = 0.0;
        for (int c = 0; c < nrhs && !isinf(worst); ++c) {
            double rn = 0.0, xn = 0.0;
            for (int i = 0; i < n; ++i) {
                cplx s = 0;
                for (int l = 0; l < n; ++l) s += op[i + (size_t)l * n] * at(X, n, l, c);
                rn += cabs(s - at(B, n, i, c));
                xn += cabs(at(X, n, i, c));
            }
            const double e = ratio(rn, (double)n * anorm * xn * eps);
            if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
        }
    }
    free(a);
    free(op);
    return worst;
}
