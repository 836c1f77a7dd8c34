/* Oracle of the bidiagonal reduction gebrd (LAPACK ?gebrd / ?gebd2), s, d, c and z
 * (oracle/oracle.h).
 *
 * dims {m, n}, k = min(m, n); operands in order:
 *   0 A     m x n, inout: the matrix on entry; on exit B's diagonal and off-diagonal and the
 *           reflectors' vectors
 *   1 d     k x 1, REAL in every precision (zgebrd's D is double precision): one double per
 *           element even in c and z
 *   2 e     max(k - 1, 0) x 1, real like d
 *   3 tauq  k x 1, element type (complex: (re, im) pairs)
 *   4 taup  k x 1, element type
 *
 * LAPACK's conventions (xGEBD2; conj is the identity in s and d):
 *   m >= n: B upper bidiagonal (diagonal d, superdiagonal e).
 *           Q = H(0) ... H(k-1), H(i) = I - tauq(i) v v^H, v(0:i-1) = 0, v(i) = 1,
 *               v(i+1:m-1) = A(i+1:m-1, i);
 *           P = G(0) ... G(k-2), G(i) = I - taup(i) u u^H, u(0:i) = 0, u(i+1) = 1,
 *               u(i+2:n-1) = conj(A(i, i+2:n-1)) (zgebd2 conjugates the row around zlarfg, so the
 *               row holds the conjugate of the reflector's vector); taup(k-1) = 0 exactly.
 *   m < n:  B lower bidiagonal (diagonal d, subdiagonal e).
 *           Q = H(0) ... H(k-2), v(0:i) = 0, v(i+1) = 1, v(i+2:m-1) = A(i+2:m-1, i);
 *           P = G(0) ... G(k-1), u(0:i-1) = 0, u(i) = 1, u(i+1:n-1) = conj(A(i, i+1:n-1));
 *           tauq(k-1) = 0 exactly.
 *   so that A = Q_k B P_k^H, Q_k and P_k the first k columns of the m x m Q and the n x n P.
 *
 * The check builds Q and P explicitly (the reflectors applied to the identity, in double
 * complex) and returns, in units of eps, the largest of
 *   ||A - Q_k B P_k^H||_F / (||A||_F max(m, n) eps)   (||A||_F = 0 counts as 1)
 *   ||I - Q^H Q||_F / (m eps),   ||I - P^H P||_F / (n eps).
 * INFINITY, whatever the residuals, for what no rounding excuses where A is finite: a non-finite
 * output, B's diagonal or off-diagonal in A other than d and e exactly (LAPACK writes them there),
 * a nonzero tau where LAPACK writes 0, or a tau outside what xLARFG makes: 0 exactly, or
 * 1 <= re(tau) <= 2 and |tau - 1| <= 1 (beta real with |beta| >= |alpha| and the sign opposite
 * to re(alpha)), with a slack of 64 eps on the bounds. A non-finite A: nothing to judge (0). */
#include "oracle.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>

/* the slack, in eps, of the tau bounds: rounding of tau's division in the precision */
#define TAU_SLACK 64.0

/* count elements of a packed operand as double complex: w doubles per element (1: real with
 * imaginary part 0, 2: a (re, im) pair) */
static void load(double complex *dst, const double *src, long long count, int w)
{
    for (long long i = 0; i < count; ++i) dst[i] = CMPLX(src[w * i], w == 2 ? src[w * i + 1] : 0.0);
}

static int all_finite(const double complex *x, long long count)
{
    for (long long i = 0; i < count; ++i)
        if (!isfinite(creal(x[i])) || !isfinite(cimag(x[i]))) return 0;
    return 1;
}

static double sq(double complex z) { return creal(z) * creal(z) + cimag(z) * cimag(z); }

/* What xLARFG can return: 0, or (beta - alpha) / beta with beta real, |beta| >= |alpha| and
 * sign(beta) = -sign(re alpha), hence re(tau) in [1, 2] and |tau - 1| = |alpha| / |beta| <= 1. */
static int tau_ok(double complex t, double eps)
{
    if (t == 0.0) return 1;
    const double slack = TAU_SLACK * eps;
    return creal(t) >= 1.0 - slack && creal(t) <= 2.0 + slack && cabs(t - 1.0) <= 1.0 + slack;
}

/* One family of reflectors stored in A (m x m or n x n result X, order q): reflector i has its
 * leading 1 at s = i + shift and its vector's tail in column i below row s (by_row 0) or in row i
 * right of column s, conjugated (by_row 1). */
typedef struct {
    const double complex *A; /* the output A, m x n */
    int m, q, k, shift, by_row;
    const double complex *tau;
} reflectors;

/* X = R(0) R(1) ... R(k-1) as a q x q matrix, applied to I from the left, i descending:
 * X <- R(i) X = X - tau v (v^H X), column by column (contiguous). Before R(i), X is the identity
 * outside rows and columns s.. (s = R(i)'s leading 1), so only those columns change. A reflector
 * whose leading 1 falls outside the q rows (the last one of the shorter family, whose tau LAPACK
 * sets to 0) is the identity here: taus_ok checks that tau. */
static void accumulate(const reflectors *f, double complex *X, double complex *v)
{
    const int q = f->q;
    for (long long e = 0; e < (long long)q * q; ++e) X[e] = e % (q + 1) == 0 ? 1.0 : 0.0;
    for (int i = f->k - 1; i >= 0; --i) {
        const int s = i + f->shift;
        if (s >= q) continue;
        v[s] = 1.0;
        for (int j = s + 1; j < q; ++j)
            v[j] = f->by_row ? conj(f->A[i + (long long)j * f->m]) : f->A[j + (long long)i * f->m];
        const double complex t = f->tau[i];
        for (int c = s; c < q; ++c) {
            double complex *x = X + (long long)c * q;
            double complex vx = 0.0;
            for (int j = s; j < q; ++j) vx += conj(v[j]) * x[j];
            vx *= t;
            for (int j = s; j < q; ++j) x[j] -= v[j] * vx;
        }
    }
}

/* ||I - X^H X||_F^2 of a q x q X (the Gram matrix is Hermitian: each off-diagonal pair once) */
static double gram_error2(const double complex *X, int q)
{
    double sum = 0.0;
    for (int a = 0; a < q; ++a)
        for (int b = a; b < q; ++b) {
            double complex g = a == b ? -1.0 : 0.0;
            for (int i = 0; i < q; ++i) g += conj(X[i + (long long)a * q]) * X[i + (long long)b * q];
            sum += (a == b ? 1.0 : 2.0) * sq(g);
        }
    return sum;
}

/* ||A0 - Q_k B P_k^H||_F^2: QB = Q_k B column by column (B bidiagonal: column j of Q_k B is
 * d_j Q(:, j) plus e_{j-1} Q(:, j-1) (upper) or e_j Q(:, j+1) (lower)), then column c of the
 * residual, A0(:, c) - sum_j QB(:, j) conj(P(c, j)), in col (m elements). */
static double residual2(const double complex *A0, int m, int n, int k, const double *d, const double *e,
                        const double complex *Q, const double complex *P, double complex *QB, double complex *col)
{
    const int upper = m >= n;
    for (int j = 0; j < k; ++j)
        for (int r = 0; r < m; ++r) {
            double complex s = d[j] * Q[r + (long long)j * m];
            if (upper && j > 0) s += e[j - 1] * Q[r + (long long)(j - 1) * m];
            if (!upper && j + 1 < k) s += e[j] * Q[r + (long long)(j + 1) * m];
            QB[r + (long long)j * m] = s;
        }
    double sum = 0.0;
    for (int c = 0; c < n; ++c) {
        for (int r = 0; r < m; ++r) col[r] = A0[r + (long long)c * m];
        for (int j = 0; j < k; ++j) {
            const double complex pc = conj(P[c + (long long)j * n]);
            for (int r = 0; r < m; ++r) col[r] -= QB[r + (long long)j * m] * pc;
        }
        for (int r = 0; r < m; ++r) sum += sq(col[r]);
    }
    return sum;
}

/* The tau checks: every tau within xLARFG's range, the one LAPACK zeroes exactly 0. */
static int taus_ok(const double complex *tauq, const double complex *taup, int m, int n, int k, double eps)
{
    for (int i = 0; i < k; ++i)
        if (!tau_ok(tauq[i], eps) || !tau_ok(taup[i], eps)) return 0;
    return (m >= n ? taup[k - 1] : tauq[k - 1]) == 0.0;
}

/* B's elements in A's places, exactly as LAPACK writes them: A(i, i) = d(i) and A(i, i+1)
 * (upper) or A(i+1, i) (lower) = e(i), imaginary parts 0. */
static int bidiagonal_in_place(const double complex *A, int m, const double *d, const double *e, int k, int upper)
{
    for (int i = 0; i < k; ++i) {
        if (A[i + (long long)i * m] != d[i]) return 0;
        if (i + 1 < k && A[(upper ? i : i + 1) + (long long)(upper ? i + 1 : i) * m] != e[i]) return 0;
    }
    return 1;
}

/* A, d, e, tauq, taup; the generator fills the outputs' inputs with random values too (nothing
 * may read them). d and e: one double per element in every precision. */
static void gebrd_generate(const oracle_problem *sh, unsigned long long seed, double *const in[])
{
    uint64_t s = seed;
    const int m = sh->dims[0], n = sh->dims[1], k = m < n ? m : n, w = sh->is_complex ? 2 : 1;
    const long long count[5] = {(long long)w * m * n, k, k > 1 ? k - 1 : 0, (long long)w * k, (long long)w * k};
    for (int o = 0; o < 5; ++o)
        for (long long i = 0; i < count[o]; ++i) in[o][i] = oracle_uniform(&s);
}

static double gebrd_check(const oracle_problem *p, double eps)
{
    const int m = p->dims[0], n = p->dims[1], k = m < n ? m : n, w = p->is_complex ? 2 : 1;
    if (m < 1 || n < 1) return 0.0;
    const long long mn = (long long)m * n;
    double complex *A0 = malloc(sizeof(double complex) * (size_t)mn);
    double complex *A = malloc(sizeof(double complex) * (size_t)mn);
    double complex *tau = malloc(sizeof(double complex) * (size_t)(2 * k));
    double complex *Q = malloc(sizeof(double complex) * (size_t)m * m);
    double complex *P = malloc(sizeof(double complex) * (size_t)n * n);
    double complex *QB = malloc(sizeof(double complex) * (size_t)m * k);
    double complex *v = malloc(sizeof(double complex) * (size_t)(m > n ? m : n));
    double result = INFINITY;
    if (!A0 || !A || !tau || !Q || !P || !QB || !v) goto done;
    load(A0, p->in[0], mn, w);
    result = 0.0;
    if (!all_finite(A0, mn)) goto done;

    const double *d = p->out[1], *e = p->out[2];
    load(A, p->out[0], mn, w);
    load(tau, p->out[3], k, w);
    load(tau + k, p->out[4], k, w);
    int finite = all_finite(A, mn) && all_finite(tau, 2 * k);
    for (int i = 0; i < k; ++i) finite = finite && isfinite(d[i]) && (i + 1 == k || isfinite(e[i]));
    const int upper = m >= n;
    result = INFINITY;
    if (!finite || !taus_ok(tau, tau + k, m, n, k, eps) || !bidiagonal_in_place(A, m, d, e, k, upper)) goto done;

    const reflectors fq = {A, m, m, k, upper ? 0 : 1, 0, tau};
    const reflectors fp = {A, m, n, k, upper ? 1 : 0, 1, tau + k};
    accumulate(&fq, Q, v);
    accumulate(&fp, P, v);
    double na = 0.0;
    for (long long i = 0; i < mn; ++i) na += sq(A0[i]);
    na = na > 0.0 ? sqrt(na) : 1.0;
    const double e1 = sqrt(residual2(A0, m, n, k, d, e, Q, P, QB, v)) / (na * (m > n ? m : n) * eps);
    const double e2 = sqrt(gram_error2(Q, m)) / (m * eps), e3 = sqrt(gram_error2(P, n)) / (n * eps);
    result = fmax(e1, fmax(e2, e3));
    /* fmax drops a NaN: a NaN residual (overflow in the products) must not pass */
    if (isnan(e1) || isnan(e2) || isnan(e3)) result = INFINITY;
done:
    free(A0), free(A), free(tau), free(Q), free(P), free(QB), free(v);
    return result;
}

const oracle oracle_gebrd = {"gebrd", gebrd_generate, gebrd_check};
