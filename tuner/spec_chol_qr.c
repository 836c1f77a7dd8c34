/* Specs (tuner/lapack_spec.h) of the Cholesky routines potrf, potrs, posv and of geqrf: inputs
 * that pass in single precision and normalized residual checks, on the host in double.
 *
 *   potrf  ||A - F F^T||_1 / (n ||A||_1 eps) over the symmetric matrix of the stored triangle;
 *          info must be 0 (the inputs are SPD), the diagonal of F positive, and the other
 *          triangle of the output bit-identical to the input's.
 *   potrs  ||M X - B||_1 / (n ||M||_1 ||X||_1 eps) with M = F F^T from the given factor.
 *   posv   the larger of potrf's error and ||A X - B||_1 / (n ||A||_1 ||X||_1 eps).
 *   geqrf  the larger of ||A - Q R||_1 / (max(m, n) ||A||_1 eps) and ||I - Q^T Q||_1 / (m eps),
 *          Q formed from the reflectors and tau; LAPACK's conventions are checked too: every
 *          tau is 0 or in [1, 2], the last reflector of an m <= n matrix is the identity
 *          (tau = 0, x is empty), and the sign of every diagonal entry of R is LAPACK's
 *          (-sign(alpha), compared with a host dgeqr2 where alpha is clearly nonzero).
 * A violation that no tolerance excuses (bad info, a broken convention, NaN) gives INFINITY.
 * Every generated value is an exact float, so the single-precision data equals the inputs the
 * checks see (the harness keeps the double originals). */
#include "host_chol_qr.h"
#include "lapack_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */

static double *scratch(size_t count)
{
    return malloc((count ? count : 1) * sizeof(double));
}

static double finite_or_inf(double e)
{
    return e >= 0.0 && e <= 1e300 ? e : INFINITY;
}

/* Whether the other (not stored) triangle of A equals A0's bit for bit. */
static int other_triangle_unchanged(const double *A0, const double *A, int n, int up)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            if (!hcq_in_tri(up, i, j) && memcmp(&A0[i + j * n], &A[i + j * n], sizeof(double)) != 0)
                return 0;
    return 1;
}

/* ||S - F F^T||_1 / (n ||S||_1 eps), S the symmetric matrix of A0's stored triangle and F the
 * factor in A's; INFINITY for a non-positive or non-finite diagonal of F. */
static double factor_error(const double *A0, const double *A, int n, int up, double eps)
{
    for (int j = 0; j < n; ++j) {
        double d = A[hcq_fidx(n, up, j, j)];
        if (!(d > 0.0) || !(d < INFINITY))
            return INFINITY;
    }
    double *S = scratch((size_t)n * n), *M = scratch((size_t)n * n);
    if (!S || !M) {
        free(S);
        free(M);
        return INFINITY;
    }
    hcq_sym_from_tri(A0, n, up, S);
    hcq_fft(A, n, up, M);
    double anorm = oracle_norm1(n, n, S, n);
    for (int i = 0; i < n * n; ++i)
        M[i] -= S[i];
    double e = oracle_norm1(n, n, M, n) / ((double)n * anorm * eps);
    free(S);
    free(M);
    return finite_or_inf(e);
}

/* ||M X - B0||_1 / (n ||M||_1 ||X||_1 eps) for the symmetric n x n matrix M. */
static double solve_error(const double *M, const double *X, const double *B0, int n, int nrhs, double eps)
{
    double *R = scratch((size_t)n * nrhs);
    if (!R)
        return INFINITY;
    oracle_matmul(0, n, nrhs, n, M, n, X, n, R, n);
    for (int i = 0; i < n * nrhs; ++i)
        R[i] -= B0[i];
    double mn = oracle_norm1(n, n, M, n), xn = oracle_norm1(n, nrhs, X, n);
    double rn = oracle_norm1(n, nrhs, R, n);
    free(R);
    if (!(rn == rn) || !(xn == xn) || !(mn > 0.0))
        return INFINITY;
    if (rn == 0.0)
        return 0.0;
    return finite_or_inf(rn / ((double)n * mn * xn * eps));
}

/* Uniform [-1, 1), exact floats (see oracle_round_float). */
static void fill_random(double *x, size_t count, hcq_rng *r)
{
    for (size_t i = 0; i < count; ++i)
        x[i] = oracle_round_float(hcq_rng_uniform(r));
}

/* ---------------------------------------------------------------------------------------- */
/* potrf */

static void gen_potrf(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m;
    (void)nrhs;
    (void)B;
    (void)ipiv;
    hcq_rng r;
    hcq_rng_seed(&r, seed);
    hcq_spd(A, n, variant, &r);
}

static double check_potrf(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (p->info != 0 || !p->A || !p->A0)
        return INFINITY;
    if (!other_triangle_unchanged(p->A0, p->A, n, up))
        return INFINITY;
    return factor_error(p->A0, p->A, n, up, eps);
}

/* ---------------------------------------------------------------------------------------- */
/* potrs: the input A is a genuine Cholesky factor (host potrf of an SPD matrix) */

static void gen_potrs(int m, int n, int nrhs, int variant, unsigned long long seed, double *A, double *B,
                      int *ipiv)
{
    (void)m;
    (void)ipiv;
    hcq_rng r;
    hcq_rng_seed(&r, seed);
    hcq_spd(A, n, variant, &r);
    (void)hcq_potrf(A, n, variant); /* SPD by construction: info = 0 */
    for (int i = 0; i < n * n; ++i)
        A[i] = oracle_round_float(A[i]);
    fill_random(B, (size_t)n * nrhs, &r);
}

static double check_potrs(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (!p->A0 || !p->B0 || !p->B)
        return INFINITY;
    double *M = scratch((size_t)n * n);
    if (!M)
        return INFINITY;
    hcq_fft(p->A0, n, up, M);
    double e = solve_error(M, p->B, p->B0, n, p->nrhs, eps);
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
    hcq_rng r;
    hcq_rng_seed(&r, seed);
    hcq_spd(A, n, variant, &r);
    fill_random(B, (size_t)n * nrhs, &r);
}

static double check_posv(const lapack_problem *p, double eps)
{
    int n = p->n, up = p->variant;
    if (p->info != 0 || !p->A || !p->A0 || !p->B0 || !p->B)
        return INFINITY;
    if (!other_triangle_unchanged(p->A0, p->A, n, up))
        return INFINITY;
    double ef = factor_error(p->A0, p->A, n, up, eps);
    double *S = scratch((size_t)n * n);
    if (!S)
        return INFINITY;
    hcq_sym_from_tri(p->A0, n, up, S);
    double es = solve_error(S, p->B, p->B0, n, p->nrhs, eps);
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
    hcq_rng r;
    hcq_rng_seed(&r, seed);
    fill_random(A, (size_t)m * n, &r);
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
    double *Q = scratch((size_t)m * m), *R = scratch((size_t)m * n), *QR = scratch((size_t)m * n);
    double *ref = scratch((size_t)m * n), *tref = scratch((size_t)k), *aref = scratch((size_t)k);
    double e = INFINITY;
    if (!Q || !R || !QR || !ref || !tref || !aref)
        goto done;
    /* LAPACK's signs: R(j, j) = beta_j = -sign(alpha_j) ||.||, where the host's alpha_j is
     * clearly away from zero (a tiny alpha may change sign with rounding) */
    double anorm = oracle_norm1(m, n, p->A0, m);
    memcpy(ref, p->A0, sizeof(double) * (size_t)m * n);
    hcq_geqr2(ref, m, n, tref, aref);
    for (int j = 0; j < k; ++j) {
        if (tref[j] == 0.0 || !(fabs(aref[j]) > sqrt(eps) * anorm))
            continue;
        double rjj = p->A[j + j * m];
        if (!((rjj < 0.0 && aref[j] > 0.0) || (rjj > 0.0 && aref[j] < 0.0)))
            goto done;
    }
    hcq_form_q(p->A, p->tau, m, n, Q);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            R[i + j * m] = i <= j ? p->A[i + j * m] : 0.0;
    oracle_matmul(0, m, n, m, Q, m, R, m, QR, m);
    for (int i = 0; i < m * n; ++i)
        QR[i] -= p->A0[i];
    double resid = oracle_norm1(m, n, QR, m) / ((double)(m > n ? m : n) * anorm * eps);
    /* I - Q^T Q */
    double worst_col = 0.0;
    for (int j = 0; j < m; ++j) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) {
            double d = 0.0;
            for (int l = 0; l < m; ++l)
                d += Q[l + i * m] * Q[l + j * m];
            s += fabs((i == j ? 1.0 : 0.0) - d);
        }
        if (!(s <= worst_col))
            worst_col = s;
    }
    double orth = worst_col / ((double)m * eps);
    if (resid == resid && orth == orth)
        e = finite_or_inf(resid > orth ? resid : orth);
done:
    free(Q);
    free(R);
    free(QR);
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
