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
 * > 0, or NaN anywhere a result is expected. */
#include "lapack_spec.h"
#include "lapack_check.h"
#include "lapack_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_VARIANT_T 1 /* getrs: index of 't' in the variants ["n", "t"] */

/* ---------------------------------------------------------------------------------------- */
/* Inputs. */

static void gen_getrf(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)nrhs, (void)variant, (void)B, (void)ipiv;
    uint64_t r = seed;
    oracle_lu_random(&r, m, n, A);
}

static void gen_getrs(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)m, (void)variant;
    uint64_t r = seed;
    oracle_lu_factors(&r, n, A, ipiv);
    if (B) oracle_lu_random(&r, n, nrhs, B);
}

static void gen_gesv(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)m, (void)variant, (void)ipiv;
    uint64_t r = seed;
    oracle_lu_conditioned(&r, n, A);
    if (B) oracle_lu_random(&r, n, nrhs, B);
}

static void gen_getri(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)m, (void)nrhs, (void)variant, (void)B;
    uint64_t r = seed;
    oracle_lu_factors(&r, n, A, ipiv);
}

static void gen_getri_fused(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                            int *ipiv)
{
    (void)m, (void)nrhs, (void)variant, (void)B, (void)ipiv;
    uint64_t r = seed;
    oracle_lu_conditioned(&r, n, A);
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
static int expected_info(int m, int n, const double *A0)
{
    double *w = dup(A0, (size_t)m * n);
    if (!w) return -1;
    const int info = oracle_getf2(m, n, w, m, NULL);
    free(w);
    return info;
}

static int all_nan(const double *x, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (!isnan(x[i])) return 0;
    return 1;
}

static double check_getrf(const lapack_problem *p, double eps)
{
    if (!p->A || !p->A0) return INFINITY;
    if (p->info != expected_info(p->m, p->n, p->A0)) return INFINITY;
    return oracle_getrf_residual(p->m, p->n, p->A0, p->m, p->A, p->m, p->ipiv, eps); /* pivots too */
}

static double check_gesv(const lapack_problem *p, double eps)
{
    const int n = p->n;
    if (!p->A || !p->A0 || !p->B || !p->B0) return INFINITY;
    const double e_lu = oracle_getrf_residual(n, n, p->A0, n, p->A, n, p->ipiv, eps); /* pivots too */
    if (isinf(e_lu) || p->info != expected_info(n, n, p->A0)) return INFINITY;
    if (p->info > 0) /* B left unchanged */
        return same(p->B, p->B0, (size_t)n * p->nrhs) ? e_lu : INFINITY;
    const double e_x = oracle_solve_residual(0, n, p->nrhs, p->A0, n, p->B0, n, p->B, n, eps);
    return e_lu > e_x ? e_lu : e_x;
}

static double check_getrs(const lapack_problem *p, double eps)
{
    const int n = p->n;
    if (!p->A || !p->A0 || !p->B || !p->B0 || !p->ipiv0) return INFINITY;
    if (!same(p->A, p->A0, (size_t)n * n)) return INFINITY;
    double *A = malloc(((size_t)n * n + 1) * sizeof *A);
    if (!A) return INFINITY;
    oracle_lu_product(n, n, p->A0, n, p->ipiv0, A, n);
    const double e = oracle_solve_residual(p->variant == SPEC_VARIANT_T, n, p->nrhs, A, n, p->B0, n, p->B, n, eps);
    free(A);
    return e;
}

static double check_getri(const lapack_problem *p, double eps)
{
    const int n = p->n;
    if (!p->A || !p->A0 || !p->B || !p->ipiv0) return INFINITY;
    if (!same(p->A, p->A0, (size_t)n * n)) return INFINITY;
    int info = 0;
    for (int i = 0; i < n && !info; ++i)
        if (p->A0[i + (size_t)i * n] == 0.0) info = i + 1;
    if (p->info != info) return INFINITY;
    if (info > 0) return all_nan(p->B, (size_t)n * n) ? 0.0 : INFINITY;
    double *A = malloc(((size_t)n * n + 1) * sizeof *A);
    if (!A) return INFINITY;
    oracle_lu_product(n, n, p->A0, n, p->ipiv0, A, n);
    const double e = oracle_inverse_residual(n, A, n, p->B, n, eps);
    free(A);
    return e;
}

static double check_getri_fused(const lapack_problem *p, double eps)
{
    const int n = p->n;
    if (!p->A || !p->A0 || !p->B) return INFINITY;
    if (!same(p->A, p->A0, (size_t)n * n)) return INFINITY;
    if (p->info != expected_info(n, n, p->A0)) return INFINITY;
    if (p->info > 0) return all_nan(p->B, (size_t)n * n) ? 0.0 : INFINITY;
    return oracle_inverse_residual(n, p->A0, n, p->B, n, eps);
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
