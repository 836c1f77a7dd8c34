/* The LU-family specs (tuner/lapack_spec.h): getrf, getrs, gesv, getri, getri_fused.
 *
 * Inputs: entries uniform in [-1, 1] and exactly representable in single precision, so that the
 * float copy the harness makes for 's' is the same matrix. getrf factors plain random matrices
 * (pivoting everywhere); the solves and inversions get well-conditioned ones, a random matrix plus
 * a row-permuted diagonal shift (1.5 sqrt(n) + 1, past the random part's spectral norm), so that
 * pivoting is exercised while the residual bounds hold comfortably in single precision. getrs and
 * getri take genuine factors: the host LU (hl_getf2) of such a matrix, rounded to float.
 *
 * Checks (LAPACK's test ratios, in units of eps):
 *   getrf        ||A0 - P L U||_1 / (max(m, n) ||A0||_1 eps)                        (dget01)
 *   getrs, gesv  max_j ||op(A) x_j - b_j||_1 / (n ||op(A)||_1 ||x_j||_1 eps)          (dget02 / n)
 *   getri(_fused) ||A C - I||_1 / (n ||A||_1 ||C||_1 eps)                            (dget03)
 * where for getrs and getri A = P L U is rebuilt from the input factors. INFINITY (no tolerance
 * excuses it): a pivot out of range, info other than the inputs imply (getrf, gesv, getri_fused:
 * the host LU's first exactly zero pivot; getri: the first exactly zero U(i,i)), an input-only A
 * that changed, B changed where gesv reports info > 0, an inverse that is not all NaN where info
 * > 0, or NaN anywhere a result is expected. */
#include "lapack_spec.h"
#include "host_lu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_VARIANT_T 1 /* getrs: index of 't' in the variants ["n", "t"] */

/* ---------------------------------------------------------------------------------------- */
/* Inputs. */

static void random_matrix(hl_rng *r, int m, int n, double *A)
{
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) A[i + (size_t)c * m] = hl_uniform(r);
}

/* Random n x n matrix plus a shift on a random permutation's entries: well conditioned, and
 * partial pivoting has rows to interchange. Entries stay float-exact. */
static void conditioned_matrix(hl_rng *r, int n, double *A)
{
    random_matrix(r, n, n, A);
    int *perm = malloc((size_t)(n > 0 ? n : 1) * sizeof *perm);
    if (!perm) return;
    hl_permutation(r, n, perm);
    const double shift = oracle_round_float(1.5 * sqrt((double)n) + 1.0);
    for (int c = 0; c < n; ++c) {
        double *a = &A[perm[c] + (size_t)c * n];
        *a = oracle_round_float(*a + (*a < 0 ? -shift : shift));
    }
    free(perm);
}

/* The LU factors of a conditioned matrix, rounded to float (a valid factorization of the nearby
 * matrix P L U, which the checks rebuild). */
static void lu_factors(hl_rng *r, int n, double *A, int *ipiv)
{
    conditioned_matrix(r, n, A);
    hl_getf2(n, n, A, n, ipiv);
    for (size_t i = 0; i < (size_t)n * n; ++i) A[i] = oracle_round_float(A[i]);
}

static void gen_getrf(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)nrhs, (void)variant, (void)B, (void)ipiv;
    hl_rng r;
    hl_rng_seed(&r, seed);
    random_matrix(&r, m, n, A);
}

static void gen_getrs(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)m, (void)variant;
    hl_rng r;
    hl_rng_seed(&r, seed);
    lu_factors(&r, n, A, ipiv);
    if (B) random_matrix(&r, n, nrhs, B);
}

static void gen_gesv(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)m, (void)variant, (void)ipiv;
    hl_rng r;
    hl_rng_seed(&r, seed);
    conditioned_matrix(&r, n, A);
    if (B) random_matrix(&r, n, nrhs, B);
}

static void gen_getri(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B, int *ipiv)
{
    (void)m, (void)nrhs, (void)variant, (void)B;
    hl_rng r;
    hl_rng_seed(&r, seed);
    lu_factors(&r, n, A, ipiv);
}

static void gen_getri_fused(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                            int *ipiv)
{
    (void)m, (void)nrhs, (void)variant, (void)B, (void)ipiv;
    hl_rng r;
    hl_rng_seed(&r, seed);
    conditioned_matrix(&r, n, A);
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
    const int info = hl_getf2(m, n, w, m, NULL);
    free(w);
    return info;
}

/* Pivots of a factorization output: 1-based, ipiv[j] in [j + 1, m]. */
static int pivots_ok(int m, int n, const int *ipiv)
{
    const int mn = m < n ? m : n;
    if (!ipiv) return 0;
    for (int j = 0; j < mn; ++j)
        if (ipiv[j] < j + 1 || ipiv[j] > m) return 0;
    return 1;
}

static double finite_or_inf(double x) { return isnan(x) || isinf(x) ? INFINITY : x; }

/* ||A0 - P L U||_1 / (max(m, n) ||A0||_1 eps) */
static double lu_residual(int m, int n, const double *A0, const double *LU, const int *ipiv, double eps)
{
    const size_t count = (size_t)m * n;
    double *R = malloc((count ? count : 1) * sizeof *R);
    if (!R) return INFINITY;
    hl_lu_product(m, n, LU, m, ipiv, R, m);
    for (size_t i = 0; i < count; ++i) R[i] -= A0[i];
    const double num = oracle_norm1(m, n, R, m), den = oracle_norm1(m, n, A0, m);
    free(R);
    if (isnan(num)) return INFINITY;
    if (den == 0.0) return num == 0.0 ? 0.0 : INFINITY;
    return finite_or_inf(num / ((m > n ? m : n) * den * eps));
}

/* max_j ||op(A) x_j - b_j||_1 / (n ||op(A)||_1 ||x_j||_1 eps), A n x n. */
static double solve_residual(int trans, int n, int nrhs, const double *A, const double *X, const double *B,
                             double eps)
{
    const size_t count = (size_t)n * nrhs;
    double *R = malloc((count ? count : 1) * sizeof *R);
    if (!R) return INFINITY;
    oracle_matmul(trans, n, nrhs, n, A, n, X, n, R, n);
    double anorm;
    if (trans) { /* ||A^T||_1 = ||A||_inf */
        anorm = 0.0;
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int c = 0; c < n; ++c) s += fabs(A[i + (size_t)c * n]);
            if (s > anorm || isnan(s)) anorm = s;
        }
    } else {
        anorm = oracle_norm1(n, n, A, n);
    }
    double worst = 0.0;
    for (int j = 0; j < nrhs && !isinf(worst); ++j) {
        double rn = 0.0;
        for (int i = 0; i < n; ++i) rn += fabs(R[i + (size_t)j * n] - B[i + (size_t)j * n]);
        const double xn = oracle_norm1(n, 1, X + (size_t)j * n, n);
        double e;
        if (isnan(rn) || isnan(xn) || isnan(anorm))
            e = INFINITY;
        else if (anorm == 0.0 || xn == 0.0)
            e = rn == 0.0 ? 0.0 : INFINITY;
        else
            e = finite_or_inf(rn / (n * anorm * xn * eps));
        if (e > worst) worst = e;
    }
    free(R);
    return worst;
}

/* ||A C - I||_1 / (n ||A||_1 ||C||_1 eps) */
static double inverse_residual(int n, const double *A, const double *C, double eps)
{
    const size_t count = (size_t)n * n;
    double *R = malloc((count ? count : 1) * sizeof *R);
    if (!R) return INFINITY;
    oracle_matmul(0, n, n, n, A, n, C, n, R, n);
    for (int i = 0; i < n; ++i) R[i + (size_t)i * n] -= 1.0;
    const double num = oracle_norm1(n, n, R, n), an = oracle_norm1(n, n, A, n), cn = oracle_norm1(n, n, C, n);
    free(R);
    if (isnan(num) || isnan(an) || isnan(cn) || an == 0.0 || cn == 0.0) return INFINITY;
    return finite_or_inf(num / (n * an * cn * eps));
}

static int all_nan(const double *x, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (!isnan(x[i])) return 0;
    return 1;
}

static double check_getrf(const lapack_problem *p, double eps)
{
    if (!p->A || !p->A0 || !pivots_ok(p->m, p->n, p->ipiv)) return INFINITY;
    if (p->info != expected_info(p->m, p->n, p->A0)) return INFINITY;
    return lu_residual(p->m, p->n, p->A0, p->A, p->ipiv, eps);
}

static double check_gesv(const lapack_problem *p, double eps)
{
    const int n = p->n;
    if (!p->A || !p->A0 || !p->B || !p->B0 || !pivots_ok(n, n, p->ipiv)) return INFINITY;
    if (p->info != expected_info(n, n, p->A0)) return INFINITY;
    const double e_lu = lu_residual(n, n, p->A0, p->A, p->ipiv, eps);
    if (p->info > 0) /* B left unchanged */
        return same(p->B, p->B0, (size_t)n * p->nrhs) ? e_lu : INFINITY;
    const double e_x = solve_residual(0, n, p->nrhs, p->A0, p->B, p->B0, eps);
    return e_lu > e_x ? e_lu : e_x;
}

static double check_getrs(const lapack_problem *p, double eps)
{
    const int n = p->n;
    if (!p->A || !p->A0 || !p->B || !p->B0 || !p->ipiv0) return INFINITY;
    if (!same(p->A, p->A0, (size_t)n * n)) return INFINITY;
    double *A = malloc(((size_t)n * n + 1) * sizeof *A);
    if (!A) return INFINITY;
    hl_lu_product(n, n, p->A0, n, p->ipiv0, A, n);
    const double e = solve_residual(p->variant == SPEC_VARIANT_T, n, p->nrhs, A, p->B, p->B0, eps);
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
    hl_lu_product(n, n, p->A0, n, p->ipiv0, A, n);
    const double e = inverse_residual(n, A, p->B, eps);
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
    return inverse_residual(n, p->A0, p->B, eps);
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
