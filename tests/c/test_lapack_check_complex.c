/* The benchmark's complex residual checks (bench/lapack_check_complex.c) on the host: each accepts
 * a correct complex factorization computed here in double complex (partial-pivoting LU, Cholesky,
 * zlarfg Householder QR, inverse and solves through the LU) and rejects a perturbed one, a
 * convention error (a real-style Q without conjugation, the wrong op of a solve) and NaN.
 * Run by tests/test_lapack_check_complex.py. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_cases.h"
#include "lapack_check_complex.h"

typedef double _Complex cplx;

#define EPS 0x1.0p-53
#define LIMIT 30.0 /* ORACLE_ERROR_LIMIT */
#define NMAX 32
static const int SIZES[] = {1, 2, 3, 5, 8, 13, 32};
#define N_SIZES ((int)(sizeof SIZES / sizeof SIZES[0]))

static uint64_t g_state = 0x9e3779b97f4a7c15ull;
static double uniform(void) /* [-1, 1), never 0 */
{
    uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const double v = 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
    return v == 0.0 ? 0.5 : v;
}

static void random_matrix(int n, cplx *A)
{
    for (int e = 0; e < n * n; ++e) A[e] = CMPLX(uniform(), uniform());
}

/* (re, im) pairs of an n x m complex array */
static void pack(int count, const cplx *c, double *p)
{
    for (int e = 0; e < count; ++e) p[2 * e] = creal(c[e]), p[2 * e + 1] = cimag(c[e]);
}

static double abs1(cplx z) { return fabs(creal(z)) + fabs(cimag(z)); }

/* In-place LU with partial pivoting (abs1, as izamax), LAPACK layout, 1-based pivots. */
static void lu(int n, cplx *A, int *ipiv)
{
    for (int k = 0; k < n; ++k) {
        int p = k;
        for (int i = k + 1; i < n; ++i)
            if (abs1(A[i + k * n]) > abs1(A[p + k * n])) p = i;
        ipiv[k] = p + 1;
        for (int j = 0; j < n; ++j) {
            const cplx t = A[k + j * n];
            A[k + j * n] = A[p + j * n];
            A[p + j * n] = t;
        }
        for (int i = k + 1; i < n; ++i) A[i + k * n] /= A[k + k * n];
        for (int j = k + 1; j < n; ++j)
            for (int i = k + 1; i < n; ++i) A[i + j * n] -= A[i + k * n] * A[k + j * n];
    }
}

/* X (n x nrhs) solving op(A) X = B from the LU of A: op 0 N, 1 T, 2 C. */
static void lu_solve(int trans, int n, int nrhs, const cplx *LU, const int *ipiv, const cplx *B, cplx *X)
{
    memcpy(X, B, sizeof(cplx) * (size_t)n * nrhs);
    for (int c = 0; c < nrhs; ++c) {
        cplx *x = X + c * n;
#define F(i, j) (trans == 2 ? conj(LU[(i) + (j) * n]) : LU[(i) + (j) * n])
        if (trans == 0) {
            for (int k = 0; k < n; ++k) { /* P, then L, then U */
                const cplx t = x[k];
                x[k] = x[ipiv[k] - 1];
                x[ipiv[k] - 1] = t;
            }
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < i; ++j) x[i] -= F(i, j) * x[j];
            for (int i = n - 1; i >= 0; --i) {
                for (int j = i + 1; j < n; ++j) x[i] -= F(i, j) * x[j];
                x[i] /= F(i, i);
            }
        } else { /* op(A) = op(U) op(L) P^T: U^T (or U^H), then L^T, then P */
            for (int i = 0; i < n; ++i) {
                for (int j = 0; j < i; ++j) x[i] -= F(j, i) * x[j];
                x[i] /= F(i, i);
            }
            for (int i = n - 1; i >= 0; --i)
                for (int j = i + 1; j < n; ++j) x[i] -= F(j, i) * x[j];
            for (int k = n - 1; k >= 0; --k) {
                const cplx t = x[k];
                x[k] = x[ipiv[k] - 1];
                x[ipiv[k] - 1] = t;
            }
        }
#undef F
    }
}

static void lu_case(void)
{
    static cplx A[NMAX * NMAX], F[NMAX * NMAX];
    static double a[2 * NMAX * NMAX], f[2 * NMAX * NMAX];
    int ipiv[NMAX];
    for (int s = 0; s < N_SIZES; ++s) {
        const int n = SIZES[s];
        random_matrix(n, A);
        memcpy(F, A, sizeof(cplx) * (size_t)n * n);
        lu(n, F, ipiv);
        pack(n * n, A, a);
        pack(n * n, F, f);
        CHECK(bench_cgetrf_residual(n, a, f, ipiv, EPS) <= LIMIT);
        f[1] += 1e-6; /* the imaginary part of U(0, 0) */
        CHECK(bench_cgetrf_residual(n, a, f, ipiv, EPS) > LIMIT);
        f[1] -= 1e-6;
        if (n > 1) {
            const int keep = ipiv[0];
            ipiv[0] = ipiv[0] == 1 ? 2 : 1; /* a wrong but valid pivot */
            CHECK(bench_cgetrf_residual(n, a, f, ipiv, EPS) > LIMIT);
            ipiv[0] = keep;
        }
        ipiv[n - 1] = n + 1; /* out of range */
        CHECK(isinf(bench_cgetrf_residual(n, a, f, ipiv, EPS)));
        ipiv[n - 1] = n;
        f[2 * n * n - 1] = NAN;
        CHECK(isinf(bench_cgetrf_residual(n, a, f, ipiv, EPS)));
    }
}

static void solve_and_inverse_case(void)
{
    static cplx A[NMAX * NMAX], F[NMAX * NMAX], B[NMAX * 3], X[NMAX * 3], C[NMAX * NMAX], Id[NMAX * NMAX];
    static double a[2 * NMAX * NMAX], b[2 * NMAX * 3], x[2 * NMAX * 3], c[2 * NMAX * NMAX];
    int ipiv[NMAX];
    for (int s = 0; s < N_SIZES; ++s) {
        const int n = SIZES[s], nrhs = 3;
        random_matrix(n, A);
        memcpy(F, A, sizeof(cplx) * (size_t)n * n);
        lu(n, F, ipiv);
        for (int e = 0; e < n * nrhs; ++e) B[e] = CMPLX(uniform(), uniform());
        pack(n * n, A, a);
        pack(n * nrhs, B, b);
        for (int trans = 0; trans < 3; ++trans) {
            lu_solve(trans, n, nrhs, F, ipiv, B, X);
            pack(n * nrhs, X, x);
            CHECK(bench_csolve_residual(trans, n, nrhs, a, b, x, EPS) <= LIMIT);
            if (n > 1) /* the same X does not solve the other ops (C and T differ for complex A) */
                CHECK(bench_csolve_residual((trans + 1) % 3, n, nrhs, a, b, x, EPS) > LIMIT);
            x[2 * n * nrhs - 1] = NAN;
            CHECK(isinf(bench_csolve_residual(trans, n, nrhs, a, b, x, EPS)));
        }
        for (int e = 0; e < n * n; ++e) Id[e] = e % (n + 1) == 0 ? 1 : 0;
        lu_solve(0, n, n, F, ipiv, Id, C);
        pack(n * n, C, c);
        CHECK(bench_cinverse_residual(n, a, c, EPS) <= LIMIT);
        c[2 * (n * n - 1) + 1] += 1e-6;
        CHECK(bench_cinverse_residual(n, a, c, EPS) > LIMIT);
        c[0] = NAN;
        CHECK(isinf(bench_cinverse_residual(n, a, c, EPS)));
    }
}

static void cholesky_case(void)
{
    static cplx G[NMAX * NMAX], A[NMAX * NMAX], L[NMAX * NMAX];
    static double a[2 * NMAX * NMAX], f[2 * NMAX * NMAX];
    for (int s = 0; s < N_SIZES; ++s) {
        const int n = SIZES[s];
        random_matrix(n, G);
        for (int j = 0; j < n; ++j) /* A = G G^H + n I: Hermitian positive definite */
            for (int i = 0; i < n; ++i) {
                cplx t = i == j ? n : 0;
                for (int l = 0; l < n; ++l) t += G[i + l * n] * conj(G[j + l * n]);
                A[i + j * n] = t;
            }
        for (int j = 0; j < n; ++j) { /* L L^H = A, real diagonal */
            double d = creal(A[j + j * n]);
            for (int l = 0; l < j; ++l) d -= creal(L[j + l * n] * conj(L[j + l * n]));
            L[j + j * n] = sqrt(d);
            for (int i = j + 1; i < n; ++i) {
                cplx t = A[i + j * n];
                for (int l = 0; l < j; ++l) t -= L[i + l * n] * conj(L[j + l * n]);
                L[i + j * n] = t / creal(L[j + j * n]);
            }
            for (int i = 0; i < j; ++i) L[i + j * n] = NAN; /* the other triangle is not read */
        }
        /* A's diagonal imaginary parts and other triangle are not read either */
        for (int upper = 0; upper < 2; ++upper) {
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const int in = upper ? i <= j : i >= j;
                    cplx av = in ? A[i + j * n] : NAN;
                    if (i == j) av = creal(av) + 0.75 * I;
                    a[2 * (i + j * n)] = creal(av), a[2 * (i + j * n) + 1] = cimag(av);
                    const cplx fv = upper ? (i <= j ? conj(L[j + i * n]) : NAN) : L[i + j * n];
                    f[2 * (i + j * n)] = creal(fv), f[2 * (i + j * n) + 1] = cimag(fv);
                }
            CHECK(bench_cpotrf_residual(upper, n, a, f, EPS) <= LIMIT);
            const int k = upper ? 2 * (0 + (n - 1) * n) + 1 : 2 * (n - 1) + 1; /* im of F(0, n-1) / F(n-1, 0) */
            if (n > 1) {
                f[k] += 1e-6;
                CHECK(bench_cpotrf_residual(upper, n, a, f, EPS) > LIMIT);
                f[k] -= 1e-6;
            }
            f[0] = -f[0]; /* a negative diagonal */
            CHECK(isinf(bench_cpotrf_residual(upper, n, a, f, EPS)));
        }
    }
}

/* zgeqr2: A = Q R, Q = H_0 ... H_{n-1}, H_k = I - tau_k v_k v_k^H (zlarfg), H_k^H applied. */
static void householder_qr(int n, cplx *A, cplx *tau)
{
    for (int k = 0; k < n; ++k) {
        const cplx alpha = A[k + k * n];
        double xnorm = 0;
        for (int i = k + 1; i < n; ++i) xnorm = hypot(xnorm, cabs(A[i + k * n]));
        if (xnorm == 0 && cimag(alpha) == 0) {
            tau[k] = 0;
            continue;
        }
        const double beta = -copysign(hypot(cabs(alpha), xnorm), creal(alpha));
        tau[k] = (beta - alpha) / beta;
        const cplx scale = 1 / (alpha - beta);
        for (int i = k + 1; i < n; ++i) A[i + k * n] *= scale;
        A[k + k * n] = beta;
        for (int j = k + 1; j < n; ++j) { /* A(k:, j) -= conj(tau) v (v^H A(k:, j)) */
            cplx w = A[k + j * n];
            for (int i = k + 1; i < n; ++i) w += conj(A[i + k * n]) * A[i + j * n];
            w *= conj(tau[k]);
            A[k + j * n] -= w;
            for (int i = k + 1; i < n; ++i) A[i + j * n] -= A[i + k * n] * w;
        }
    }
}

static void qr_case(void)
{
    static cplx A[NMAX * NMAX], F[NMAX * NMAX], tau[NMAX];
    static double a[2 * NMAX * NMAX], f[2 * NMAX * NMAX], t[2 * NMAX];
    for (int s = 0; s < N_SIZES; ++s) {
        const int n = SIZES[s];
        random_matrix(n, A);
        memcpy(F, A, sizeof(cplx) * (size_t)n * n);
        householder_qr(n, F, tau);
        pack(n * n, A, a);
        pack(n * n, F, f);
        pack(n, tau, t);
        CHECK(bench_cgeqrf_residual(n, a, f, t, EPS) <= LIMIT);
        for (int k = 0; k < n; ++k) t[2 * k + 1] = -t[2 * k + 1]; /* conj(tau): H instead of H^H */
        if (n > 1)
            CHECK(bench_cgeqrf_residual(n, a, f, t, EPS) > LIMIT);
        for (int k = 0; k < n; ++k) t[2 * k + 1] = -t[2 * k + 1];
        f[2 * (n * n - 1)] += 1e-6;
        CHECK(bench_cgeqrf_residual(n, a, f, t, EPS) > LIMIT);
        t[0] = NAN;
        CHECK(isinf(bench_cgeqrf_residual(n, a, f, t, EPS)));
    }
}

int main(int argc, char **argv)
{
#define CASE(fn) {#fn, fn}
    static const test_case cases[] = {
        CASE(lu_case),
        CASE(solve_and_inverse_case),
        CASE(cholesky_case),
        CASE(qr_case),
    };
    return host_cases_main(cases, (int)(sizeof cases / sizeof cases[0]), argc, argv);
}
