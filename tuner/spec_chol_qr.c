/* Specs (tuner/lapack_spec.h) of the Cholesky routines potrf, potrs, posv and of geqrf: inputs
 * that pass in single precision and normalized residual checks, on the host in double.
 *
 *   potrf  ||A - F F^T||_1 / (n ||A||_1 eps) over the symmetric matrix of the stored triangle;
 *          info must be 0 (the inputs are SPD), the diagonal of F positive, and the other
 *          triangle of the output bit-identical to the input's.
 *   potrs  max_j ||M x_j - b_j||_1 / (n ||M||_1 ||x_j||_1 eps) with M = F F^T from the given
 *          factor (per column, as LAPACK's dpot02).
 *   posv   the larger of potrf's error and max_j ||A x_j - b_j||_1 / (n ||A||_1 ||x_j||_1 eps).
 *   geqrf  the larger of ||A - Q R||_1 / (max(m, n) ||A||_1 eps) and ||I - Q^T Q||_1 / (m eps),
 *          Q formed from the reflectors and tau; LAPACK's conventions are checked too: every
 *          tau is 0 or in [1, 2], the last reflector of an m <= n matrix is the identity
 *          (tau = 0, x is empty), and the sign of every diagonal entry of R is LAPACK's
 *          (-sign(alpha), compared with a host dgeqr2 where alpha is clearly nonzero).
 * A violation that no tolerance excuses (bad info, a broken convention, NaN) gives INFINITY.
 * Every generated value is an exact float, so the single-precision data equals the inputs the
 * checks see (the harness keeps the double originals). Generators and references:
 * oracle/lapack_ref.c; residuals: oracle/lapack_check.c. */
#include "lapack_check.h"
#include "lapack_ref.h"
#include "lapack_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */

static double *scratch(size_t count)
{
    return malloc((count ? count : 1) * sizeof(double));
}

/* Whether the other (not stored) triangle of A equals A0's bit for bit. */
static int other_triangle_unchanged(const double *A0, const double *A, int n, int up)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            if (!oracle_in_tri(up, i, j) && memcmp(&A0[i + j * n], &A[i + j * n], sizeof(double)) != 0)
                return 0;
    return 1;
}

/* The stream of a seed (the xor keeps these inputs unrelated to the LU family's of the same seed). */
static uint64_t stream(unsigned long long seed) { return seed ^ 0x9e3779b97f4a7c15ull; }

/* ---------------------------------------------------------------------------------------- */
/* potrf */

static void gen_potrf(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m;
    (void)nrhs;
    (void)B;
    (void)ipiv;
    uint64_t r = stream(seed);
    oracle_spd(&r, n, variant, A);
}

static double check_potrf(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (p->info != 0 || !p->A || !p->A0)
        return INFINITY;
    if (!other_triangle_unchanged(p->A0, p->A, n, up))
        return INFINITY;
    return oracle_potrf_residual(up, n, p->A0, n, p->A, n, eps);
}

/* ---------------------------------------------------------------------------------------- */
/* potrs: the input A is a genuine Cholesky factor (host potrf of an SPD matrix) */

static void gen_potrs(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m;
    (void)ipiv;
    uint64_t r = stream(seed);
    oracle_spd(&r, n, variant, A);
    (void)oracle_potf2(n, variant, A, n); /* SPD by construction: info = 0 */
    for (int i = 0; i < n * n; ++i)
        A[i] = oracle_round_float(A[i]);
    oracle_fill_float(&r, (size_t)n * nrhs, B);
}

static double check_potrs(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (!p->A0 || !p->B0 || !p->B)
        return INFINITY;
    double *M = scratch((size_t)n * n);
    if (!M)
        return INFINITY;
    oracle_chol_product(n, up, p->A0, n, M);
    double e = oracle_solve_residual(0, n, p->nrhs, M, n, p->B0, n, p->B, n, eps);
    free(M);
    return e;
}

/* ---------------------------------------------------------------------------------------- */
/* posv */

static void gen_posv(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                     int *ipiv)
{
    (void)m;
    (void)ipiv;
    uint64_t r = stream(seed);
    oracle_spd(&r, n, variant, A);
    oracle_fill_float(&r, (size_t)n * nrhs, B);
}

static double check_posv(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (p->info != 0 || !p->A || !p->A0 || !p->B0 || !p->B)
        return INFINITY;
    if (!other_triangle_unchanged(p->A0, p->A, n, up))
        return INFINITY;
    double ef = oracle_potrf_residual(up, n, p->A0, n, p->A, n, eps);
    double *S = scratch((size_t)n * n);
    if (!S)
        return INFINITY;
    oracle_sym_from_tri(n, up, p->A0, n, S);
    double es = oracle_solve_residual(0, n, p->nrhs, S, n, p->B0, n, p->B, n, eps);
    free(S);
    return ef > es ? ef : es;
}

/* ---------------------------------------------------------------------------------------- */
/* geqrf */

static void gen_geqrf(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)nrhs;
    (void)variant;
    (void)B;
    (void)ipiv;
    uint64_t r = stream(seed);
    oracle_fill_float(&r, (size_t)m * n, A);
}

static double check_geqrf(const lapack_problem *p, double eps)
{
    int m = p->m, n = p->n, k = m < n ? m : n;
    if (!p->A0 || !p->A || !p->tau)
        return INFINITY;
    for (int j = 0; j < k; ++j) {
        double t = p->tau[j];
        if (!(t == 0.0 || (t >= 1.0 - 64.0 * eps && t <= 2.0 + 64.0 * eps)))
            return INFINITY;
    }
    if (m <= n && p->tau[m - 1] != 0.0)
        return INFINITY;
    double *ref = scratch((size_t)m * n), *tref = scratch((size_t)k), *aref = scratch((size_t)k);
    double e = INFINITY;
    if (!ref || !tref || !aref)
        goto done;
    /* LAPACK's signs: R(j, j) = beta_j = -sign(alpha_j) ||.||, where the host's alpha_j is
     * clearly away from zero (a tiny alpha may change sign with rounding) */
    double anorm = oracle_norm1(m, n, p->A0, m);
    memcpy(ref, p->A0, sizeof(double) * (size_t)m * n);
    oracle_geqr2(m, n, ref, m, tref, aref);
    for (int j = 0; j < k; ++j) {
        if (tref[j] == 0.0 || !(fabs(aref[j]) > sqrt(eps) * anorm))
            continue;
        double rjj = p->A[j + j * m];
        if (!((rjj < 0.0 && aref[j] > 0.0) || (rjj > 0.0 && aref[j] < 0.0)))
            goto done;
    }
    double resid = oracle_geqrf_residual(m, n, p->A0, m, p->A, m, p->tau, eps);
    double orth = oracle_orthogonality_residual(m, n, p->A, m, p->tau, eps);
    e = resid > orth ? resid : orth;
done:
    free(ref);
    free(tref);
    free(aref);
    return e;
}

/* ---------------------------------------------------------------------------------------- */

const lapack_spec lapack_spec_potrf = {"potrf", LAPACK_A_OUT | LAPACK_INFO_OUT, gen_potrf, check_potrf};
const lapack_spec lapack_spec_potrs = {"potrs", LAPACK_B_IN | LAPACK_B_OUT, gen_potrs, check_potrs};
const lapack_spec lapack_spec_posv = {"posv", LAPACK_A_OUT | LAPACK_B_IN | LAPACK_B_OUT | LAPACK_INFO_OUT,
                                      gen_posv, check_posv};
const lapack_spec lapack_spec_geqrf = {"geqrf", LAPACK_A_OUT | LAPACK_TAU_OUT, gen_geqrf, check_geqrf};
