/* The LU-family specs (tuner/lapack_spec.h): getrf, getrs, gesv, getri, getri_fused.
 *
 * Inputs: entries uniform in [-1, 1] and exactly representable in single precision, so that the
 * float copy the harness makes for 's' is the same matrix. getrf factors plain random matrices
 * (pivoting everywhere); the solves and inversions get well-conditioned ones, a random matrix plus
 * a row-permuted diagonal shift (1.5 sqrt(n) + 1, past the random part's spectral norm), so that
 * pivoting is exercised while the residual bounds hold comfortably in single precision. getrs and
 * getri take genuine factors: the host LU (oracle_getf2) of such a matrix, rounded to float.
 * Generators and references: oracle/lapack_ref.c; residuals: oracle/lapack_check.c.
 *
 * Checks (LAPACK's test ratios, in units of eps):
 *   getrf        ||A0 - P L U||_1 / (n ||A0||_1 eps)                                (dget01)
 *   getrs, gesv  max_j ||op(A) x_j - b_j||_1 / (n ||op(A)||_1 ||x_j||_1 eps)          (dget02 / n)
 *   getri(_fused) ||A C - I||_1 / (n ||A||_1 ||C||_1 eps)                            (dget03)
 * where for getrs and getri A = P L U is rebuilt from the input factors. INFINITY (no tolerance
 * excuses it): a pivot out of range, info other than the inputs imply (getrf, gesv, getri_fused:
 * the host LU's first exactly zero pivot; getri: the first exactly zero U(i,i)), an input-only A
 * that changed, B changed where gesv reports info > 0, an inverse that is not all NaN where info
 * > 0, or NaN anywhere a result is expected.
 *
 * c and z: the same inputs with both parts random (oracle_zlu_*), the same checks in complex
 * arithmetic (zgetf2's |re| + |im| pivots, a zero pivot both parts 0, an inverse all NaN in both
 * parts); getrs checks op(A) = A^H where the t variant runs with conj (op C). */
#include "lapack_spec.h"
#include "lapack_check.h"
#include "lapack_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_VARIANT_T 1 /* getrs: index of 't' in the variants ["n", "t"] */

/* doubles per element */
static int width(int is_complex) { return is_complex ? 2 : 1; }

/* ---------------------------------------------------------------------------------------- */
/* Inputs. */

static void lu_random(uint64_t *r, int cx, int m, int n, double *A)
{
    if (cx)
        oracle_zlu_random(r, m, n, A);
    else
        oracle_lu_random(r, m, n, A);
}

static void lu_factors(uint64_t *r, int cx, int n, double *A, int *ipiv)
{
    if (cx)
        oracle_zlu_factors(r, n, A, ipiv);
    else
        oracle_lu_factors(r, n, A, ipiv);
}

static void lu_conditioned(uint64_t *r, int cx, int n, double *A)
{
    if (cx)
        oracle_zlu_conditioned(r, n, A);
    else
        oracle_lu_conditioned(r, n, A);
}

static void gen_getrf(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)nrhs, (void)variant, (void)B, (void)ipiv;
    uint64_t r = seed;
    lu_random(&r, cx, m, n, A);
}

static void gen_getrs(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m, (void)variant;
    uint64_t r = seed;
    lu_factors(&r, cx, n, A, ipiv);
    if (B) lu_random(&r, cx, n, nrhs, B);
}

static void gen_gesv(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                     int *ipiv)
{
    (void)m, (void)variant, (void)ipiv;
    uint64_t r = seed;
    lu_conditioned(&r, cx, n, A);
    if (B) lu_random(&r, cx, n, nrhs, B);
}

static void gen_getri(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m, (void)nrhs, (void)variant, (void)B;
    uint64_t r = seed;
    lu_factors(&r, cx, n, A, ipiv);
}

static void gen_getri_fused(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A,
                            double *B, int *ipiv)
{
    (void)m, (void)nrhs, (void)variant, (void)B, (void)ipiv;
    uint64_t r = seed;
    lu_conditioned(&r, cx, n, A);
}

/* ---------------------------------------------------------------------------------------- */
/* Checks. */

static double *dup(const double *x, size_t count)
{
    double *y = malloc((count ? count : 1) * sizeof *y);
    if (y && count) memcpy(y, x, count * sizeof *y);
    return y;
}

static int same(const double *x, const double *y, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (!(x[i] == y[i]) && !(isnan(x[i]) && isnan(y[i]))) return 0;
    return 1;
}

/* The info the host LU finds for A0 (m x n). */
static int expected_info(int cx, int m, int n, const double *A0)
{
    double *w = dup(A0, (size_t)width(cx) * m * n);
    if (!w) return -1;
    const int info = cx ? oracle_zgetf2(m, n, w, m, NULL) : oracle_getf2(m, n, w, m, NULL);
    free(w);
    return info;
}

static int all_nan(const double *x, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (!isnan(x[i])) return 0;
    return 1;
}

static double getrf_residual(int cx, int m, int n, const double *A, const double *LU, const int *ipiv, double eps)
{
    return cx ? oracle_zgetrf_residual(m, n, A, m, LU, m, ipiv, eps) : oracle_getrf_residual(m, n, A, m, LU, m, ipiv, eps);
}

/* A = P L U from the input factors (n x n, packed); NULL when out of memory */
static double *lu_product(int cx, int n, const double *LU, const int *ipiv)
{
    double *A = malloc(((size_t)width(cx) * n * n + 1) * sizeof *A);
    if (!A) return NULL;
    if (cx)
        oracle_zlu_product(n, n, LU, n, ipiv, A, n);
    else
        oracle_lu_product(n, n, LU, n, ipiv, A, n);
    return A;
}

static double solve_residual(int cx, int op, int n, int nrhs, const double *A, const double *B, const double *X,
                             double eps)
{
    return cx ? oracle_zsolve_residual(op, n, nrhs, A, n, B, n, X, n, eps)
              : oracle_solve_residual(op, n, nrhs, A, n, B, n, X, n, eps);
}

static double inverse_residual(int cx, int n, const double *A, const double *C, double eps)
{
    return cx ? oracle_zinverse_residual(n, A, n, C, n, eps) : oracle_inverse_residual(n, A, n, C, n, eps);
}

static double check_getrf(const lapack_problem *p, double eps)
{
    if (!p->A || !p->A0) return INFINITY;
    if (p->info != expected_info(p->is_complex, p->m, p->n, p->A0)) return INFINITY;
    return getrf_residual(p->is_complex, p->m, p->n, p->A0, p->A, p->ipiv, eps); /* pivots too */
}

static double check_gesv(const lapack_problem *p, double eps)
{
    const int n = p->n, cx = p->is_complex;
    if (!p->A || !p->A0 || !p->B || !p->B0) return INFINITY;
    const double e_lu = getrf_residual(cx, n, n, p->A0, p->A, p->ipiv, eps); /* pivots too */
    if (isinf(e_lu) || p->info != expected_info(cx, n, n, p->A0)) return INFINITY;
    if (p->info > 0) /* B left unchanged */
        return same(p->B, p->B0, (size_t)width(cx) * n * p->nrhs) ? e_lu : INFINITY;
    const double e_x = solve_residual(cx, 0, n, p->nrhs, p->A0, p->B0, p->B, eps);
    return e_lu > e_x ? e_lu : e_x;
}

static double check_getrs(const lapack_problem *p, double eps)
{
    const int n = p->n, cx = p->is_complex;
    if (!p->A || !p->A0 || !p->B || !p->B0 || !p->ipiv0) return INFINITY;
    if (!same(p->A, p->A0, (size_t)width(cx) * n * n)) return INFINITY;
    double *A = lu_product(cx, n, p->A0, p->ipiv0);
    if (!A) return INFINITY;
    /* op: N, T, or C (the t variant with conj, c and z only) */
    const int op = p->variant == SPEC_VARIANT_T ? (cx && p->conj ? 2 : 1) : 0;
    const double e = solve_residual(cx, op, n, p->nrhs, A, p->B0, p->B, eps);
    free(A);
    return e;
}

static double check_getri(const lapack_problem *p, double eps)
{
    const int n = p->n, cx = p->is_complex, w = width(cx);
    if (!p->A || !p->A0 || !p->B || !p->ipiv0) return INFINITY;
    if (!same(p->A, p->A0, (size_t)w * n * n)) return INFINITY;
    int info = 0;
    for (int i = 0; i < n && !info; ++i) {
        const double *u = &p->A0[w * (i + (size_t)i * n)];
        if (u[0] == 0.0 && (w == 1 || u[1] == 0.0)) info = i + 1;
    }
    if (p->info != info) return INFINITY;
    if (info > 0) return all_nan(p->B, (size_t)w * n * n) ? 0.0 : INFINITY;
    double *A = lu_product(cx, n, p->A0, p->ipiv0);
    if (!A) return INFINITY;
    const double e = inverse_residual(cx, n, A, p->B, eps);
    free(A);
    return e;
}

static double check_getri_fused(const lapack_problem *p, double eps)
{
    const int n = p->n, cx = p->is_complex;
    if (!p->A || !p->A0 || !p->B) return INFINITY;
    if (!same(p->A, p->A0, (size_t)width(cx) * n * n)) return INFINITY;
    if (p->info != expected_info(cx, n, n, p->A0)) return INFINITY;
    if (p->info > 0) return all_nan(p->B, (size_t)width(cx) * n * n) ? 0.0 : INFINITY;
    return inverse_residual(cx, n, p->A0, p->B, eps);
}

const lapack_spec lapack_spec_getrf = {
    "getrf", LAPACK_A_OUT | LAPACK_IPIV_OUT | LAPACK_INFO_OUT, gen_getrf, check_getrf};
const lapack_spec lapack_spec_getrs = {
    "getrs", LAPACK_B_IN | LAPACK_B_OUT | LAPACK_IPIV_IN, gen_getrs, check_getrs};
const lapack_spec lapack_spec_gesv = {
    "gesv", LAPACK_A_OUT | LAPACK_B_IN | LAPACK_B_OUT | LAPACK_IPIV_OUT | LAPACK_INFO_OUT, gen_gesv, check_gesv};
const lapack_spec lapack_spec_getri = {
    "getri", LAPACK_B_OUT | LAPACK_B_SQUARE | LAPACK_IPIV_IN | LAPACK_INFO_OUT, gen_getri, check_getri};
const lapack_spec lapack_spec_getri_fused = {
    "getri_fused", LAPACK_B_OUT | LAPACK_B_SQUARE | LAPACK_INFO_OUT, gen_getri_fused, check_getri_fused};
