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
 * oracle/lapack_ref.c; residuals: oracle/lapack_check.c.
 *
 * c and z: Hermitian positive definite inputs (oracle_hpd) with a stray nonzero imaginary part
 * on the diagonal of the input, which the routines must not read: the residuals use the Hermitian
 * matrix with the real diagonal (F F^H), and the factor's diagonal must come back real (an
 * imaginary part != 0 gives INFINITY). geqrf: zgeqr2's conventions, tau complex with re(tau) in
 * [1, 2] and |tau - 1| <= 1 (or tau = 0), R's diagonal exactly real (zlarfg's beta) with LAPACK's
 * sign against re(alpha); the last reflector of an m <= n matrix is the identity only where its
 * alpha is real, which a rounding may change, so that check is the real precisions'. */
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

/* doubles per element */
static int width(int is_complex) { return is_complex ? 2 : 1; }

/* Whether the other (not stored) triangle of A equals A0's bit for bit (w doubles per element). */
static int other_triangle_unchanged(int w, const double *A0, const double *A, int n, int up)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            if (!oracle_in_tri(up, i, j) &&
                memcmp(&A0[w * (i + j * n)], &A[w * (i + j * n)], sizeof(double) * (size_t)w) != 0)
                return 0;
    return 1;
}

/* An SPD (real) or Hermitian positive definite (complex, a stray imaginary diagonal) input. */
static void posdef(uint64_t *r, int cx, int n, int up, double *A)
{
    if (cx)
        oracle_hpd(r, n, up, A);
    else
        oracle_spd(r, n, up, A);
}

static double potrf_residual(int cx, int up, int n, const double *A, const double *F, double eps)
{
    return cx ? oracle_zpotrf_residual(up, n, A, n, F, n, eps) : oracle_potrf_residual(up, n, A, n, F, n, eps);
}

static double solve_residual(int cx, int n, int nrhs, const double *A, const double *B, const double *X, double eps)
{
    return cx ? oracle_zsolve_residual(0, n, nrhs, A, n, B, n, X, n, eps)
              : oracle_solve_residual(0, n, nrhs, A, n, B, n, X, n, eps);
}

/* The stream of a seed (the xor keeps these inputs unrelated to the LU family's of the same seed). */
static uint64_t stream(unsigned long long seed) { return seed ^ 0x9e3779b97f4a7c15ull; }

/* ---------------------------------------------------------------------------------------- */
/* potrf */

static void gen_potrf(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m;
    (void)nrhs;
    (void)B;
    (void)ipiv;
    uint64_t r = stream(seed);
    posdef(&r, cx, n, variant, A);
}

static double check_potrf(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (p->info != 0 || !p->A || !p->A0)
        return INFINITY;
    if (!other_triangle_unchanged(width(p->is_complex), p->A0, p->A, n, up))
        return INFINITY;
    return potrf_residual(p->is_complex, up, n, p->A0, p->A, eps);
}

/* ---------------------------------------------------------------------------------------- */
/* potrs: the input A is a genuine Cholesky factor (host potrf of an SPD matrix) */

static void gen_potrs(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m;
    (void)ipiv;
    const int w = width(cx);
    uint64_t r = stream(seed);
    posdef(&r, cx, n, variant, A);
    /* positive definite by construction: info = 0; the factor's diagonal is real */
    (void)(cx ? oracle_zpotf2(n, variant, A, n) : oracle_potf2(n, variant, A, n));
    for (int i = 0; i < w * n * n; ++i)
        A[i] = oracle_round_float(A[i]);
    oracle_fill_float(&r, (size_t)w * n * nrhs, B);
}

static double check_potrs(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (!p->A0 || !p->B0 || !p->B)
        return INFINITY;
    double *M = scratch((size_t)width(p->is_complex) * n * n);
    if (!M)
        return INFINITY;
    if (p->is_complex)
        oracle_zchol_product(n, up, p->A0, n, M);
    else
        oracle_chol_product(n, up, p->A0, n, M);
    double e = solve_residual(p->is_complex, n, p->nrhs, M, p->B0, p->B, eps);
    free(M);
    return e;
}

/* ---------------------------------------------------------------------------------------- */
/* posv */

static void gen_posv(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                     int *ipiv)
{
    (void)m;
    (void)ipiv;
    uint64_t r = stream(seed);
    posdef(&r, cx, n, variant, A);
    oracle_fill_float(&r, (size_t)width(cx) * n * nrhs, B);
}

static double check_posv(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (p->info != 0 || !p->A || !p->A0 || !p->B0 || !p->B)
        return INFINITY;
    const int cx = p->is_complex;
    if (!other_triangle_unchanged(width(cx), p->A0, p->A, n, up))
        return INFINITY;
    double ef = potrf_residual(cx, up, n, p->A0, p->A, eps);
    double *S = scratch((size_t)width(cx) * n * n);
    if (!S)
        return INFINITY;
    if (cx)
        oracle_herm_from_tri(n, up, p->A0, n, S);
    else
        oracle_sym_from_tri(n, up, p->A0, n, S);
    double es = solve_residual(cx, n, p->nrhs, S, p->B0, p->B, eps);
    free(S);
    return ef > es ? ef : es;
}

/* ---------------------------------------------------------------------------------------- */
/* geqrf */

static void gen_geqrf(int m, int n, int nrhs, int variant, int cx, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)nrhs;
    (void)variant;
    (void)B;
    (void)ipiv;
    uint64_t r = stream(seed);
    oracle_fill_float(&r, (size_t)width(cx) * m * n, A);
}

/* geqrf in every precision: LAPACK's tau range and signs of R (zgeqrf's conventions in c and z: see
 * the top of the file), then the factorization and orthogonality residuals. */
static double check_geqrf(const lapack_problem *p, double eps)
{
    const int m = p->m, n = p->n, k = m < n ? m : n, w = p->is_complex ? 2 : 1; /* doubles per element */
    if (!p->A0 || !p->A || !p->tau)
        return INFINITY;
    /* tau = 0 (H = I) or LAPACK's range: real tau in [1, 2]; complex tau with |tau - 1| <= 1
     * (zlarfg), R's diagonal real (beta) */
    for (int j = 0; j < k; ++j) {
        const double tr = p->tau[w * j], ti = w == 2 ? p->tau[w * j + 1] : 0.0;
        if (w == 2 && p->A[2 * (j + j * m) + 1] != 0.0)
            return INFINITY;
        if (tr == 0.0 && ti == 0.0)
            continue;
        if (!(tr >= 1.0 - 64.0 * eps && tr <= 2.0 + 64.0 * eps && hypot(tr - 1.0, ti) <= 1.0 + 64.0 * eps))
            return INFINITY;
    }
    /* a real square or wide matrix's last reflector is H = I (dlarfg of a 1-vector); a complex
     * one still makes a complex diagonal real */
    if (w == 1 && m <= n && p->tau[m - 1] != 0.0)
        return INFINITY;
    double *ref = scratch((size_t)w * m * n), *tref = scratch((size_t)w * k), *aref = scratch((size_t)w * k);
    double e = INFINITY;
    if (!ref || !tref || !aref)
        goto done;
    /* LAPACK's signs: R(j, j) = beta_j = -sign(Re alpha_j) ||.||, where the host's alpha_j is
     * clearly away from zero (a tiny alpha may change sign with rounding) */
    const double anorm = w == 2 ? oracle_znorm1(m, n, p->A0, m) : oracle_norm1(m, n, p->A0, m);
    memcpy(ref, p->A0, sizeof(double) * (size_t)w * m * n);
    if (w == 2)
        oracle_zgeqr2(m, n, ref, m, tref, aref);
    else
        oracle_geqr2(m, n, ref, m, tref, aref);
    for (int j = 0; j < k; ++j) {
        const int reflects = tref[w * j] != 0.0 || (w == 2 && tref[w * j + 1] != 0.0);
        if (!reflects || !(fabs(aref[w * j]) > sqrt(eps) * anorm))
            continue;
        const double rjj = p->A[w * (j + j * m)];
        if (!((rjj < 0.0 && aref[w * j] > 0.0) || (rjj > 0.0 && aref[w * j] < 0.0)))
            goto done;
    }
    const double resid = w == 2 ? oracle_zgeqrf_residual(m, n, p->A0, m, p->A, m, p->tau, eps)
                                : oracle_geqrf_residual(m, n, p->A0, m, p->A, m, p->tau, eps);
    const double orth = w == 2 ? oracle_zorthogonality_residual(m, n, p->A, m, p->tau, eps)
                               : oracle_orthogonality_residual(m, n, p->A, m, p->tau, eps);
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
