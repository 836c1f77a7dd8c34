/* Oracles of the spec routines built on Householder reflectors (oracle/oracle.h): ormqr, orgqr.
 *
 * ormqr: dims {m, n, k}, opts {side, trans}, operands A (q x k, q = m for side left, n for
 *        right: reflector j in column j below the diagonal), tau (k x 1), C (m x n, overwritten
 *        by op(Q) C or C op(Q)), Q = H_0 ... H_{k-1}, H_j = I - tau_j v_j v_j^H.
 * orgqr: dims {m, n, k}, no options, operands A (m x n: reflector j in column j < k on entry,
 *        Q's first n columns on exit), tau (k x 1).
 * Operands are packed column-major, ld = rows[o]; complex problems hold (re, im) pairs. Both
 * precisions' kinds are computed here in complex arithmetic (real data: imaginary parts 0). */
#include "oracle.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { ORMQR_SIDE, ORMQR_TRANS };

/* element i of a packed operand, real or complex, as a complex number */
static double complex at(const double *x, long long i, int cx)
{
    return cx ? CMPLX(x[2 * i], x[2 * i + 1]) : CMPLX(x[i], 0.0);
}

static int cfinite(double complex z) { return isfinite(creal(z)) && isfinite(cimag(z)); }

/* A (q x cols, uniform) with reflectors in its first k columns, and tau: column j below the
 * diagonal and tau_j by LAPACK's larfg of the random column (alpha and x uniform), so that H_j is
 * unitary up to rounding in every precision; every fifth tau is 0 (H = I, as larfg leaves a zero
 * column). The diagonal and above, and the columns from k on, stay random: they must not be
 * read. */
static void random_reflectors(int q, int cols, int k, int cx, uint64_t *state, double *A, double *tau)
{
    const int w = cx ? 2 : 1;
    for (long long e = 0; e < (long long)w * q * cols; ++e) A[e] = oracle_uniform(state);
    for (int j = 0; j < k; ++j) {
        double *col = A + (long long)w * j * q;
        double complex alpha = at(col, j, cx);
        double xn = 0.0;
        for (int i = j + 1; i < q; ++i) {
            const double complex x = at(col, i, cx);
            xn += creal(x) * creal(x) + cimag(x) * cimag(x);
        }
        double complex t = 0.0;
        if (j % 5 != 3 && (xn > 0.0 || cimag(alpha) != 0.0)) {
            const double beta = -copysign(sqrt(creal(alpha) * creal(alpha) + cimag(alpha) * cimag(alpha) + xn), creal(alpha));
            t = (beta - alpha) / beta;
            const double complex scale = 1.0 / (alpha - beta);
            for (int i = j + 1; i < q; ++i) {
                const double complex v = at(col, i, cx) * scale;
                col[w * i] = creal(v);
                if (cx) col[w * i + 1] = cimag(v);
            }
        }
        tau[w * j] = creal(t);
        if (cx) tau[w * j + 1] = cimag(t);
    }
}

/* Whether what the reflectors' user reads is finite: tau and A below the diagonal of its first
 * k columns (q rows) */
static int reflectors_finite(const double *A, int q, int k, const double *tau, int cx)
{
    int finite = 1;
    for (int j = 0; j < k; ++j) {
        finite = finite && cfinite(at(tau, j, cx));
        for (int i = j + 1; i < q; ++i) finite = finite && cfinite(at(A, i + (long long)j * q, cx));
    }
    return finite;
}

/* ormqr: the reflectors (q x k) and a uniform C */
static void ormqr_generate(const oracle_problem *sh, unsigned long long seed, double *const in[])
{
    uint64_t s = seed;
    const int w = sh->is_complex ? 2 : 1;
    double *C = in[2];
    random_reflectors(sh->rows[0], sh->cols[0], sh->cols[0], sh->is_complex, &s, in[0], in[1]);
    for (long long e = 0; e < (long long)w * sh->rows[2] * sh->cols[2]; ++e) C[e] = oracle_uniform(&s);
}

/* The reference from the definition, reflector by reflector on a copy of C:
 *   left:  N: Q C = H_0 (H_1 (... H_{k-1} C))        v tau (v^H X) subtracted, j descending
 *          C: Q^H C, H_j^H = I - conj(tau) v v^H      j ascending
 *          T: Q^T C, H_j^T = I - tau conj(v) v^T      j ascending
 *   right: N: C Q = ((C H_0) H_1) ...                 (X v) tau v^H subtracted, j ascending
 *          C: C Q^H                                   conj(tau), j descending
 *          T: C Q^T                                   (X conj(v)) tau v^T, j descending
 * (real data: C and T are the same). Error ||out - ref||_F / (||C||_F q eps); Q is unitary, so
 * the product keeps C's norm and each reflector adds a few eps of it. INFINITY: A or tau
 * changed, or a non-finite result from finite inputs. */
static double ormqr_check(const oracle_problem *p, double eps)
{
    const int m = p->dims[0], n = p->dims[1], k = p->dims[2];
    const int side = p->opts[ORMQR_SIDE], trans = p->opts[ORMQR_TRANS], cx = p->is_complex, w = cx ? 2 : 1;
    const int q = side ? n : m;
    if (m < 1 || n < 1) return 0.0;
    for (int o = 0; o < 2; ++o)
        if (p->out[o] && memcmp(p->out[o], p->in[o], sizeof(double) * (size_t)w * p->rows[o] * p->cols[o]) != 0)
            return INFINITY;
    const double *A = p->in[0], *tau = p->in[1], *C = p->in[2], *out = p->out[2];
    int finite = reflectors_finite(A, q, k, tau, cx);
    for (long long e = 0; e < (long long)w * m * n; ++e) finite = finite && isfinite(C[e]);
    if (!finite) return 0.0;

    double complex *X = malloc(sizeof(double complex) * (size_t)m * n + 1);
    double complex *v = malloc(sizeof(double complex) * (size_t)q + 1);
    double complex *wv = malloc(sizeof(double complex) * (size_t)(m > n ? m : n) + 1);
    if (!X || !v || !wv) {
        free(X), free(v), free(wv);
        return INFINITY;
    }
    for (long long e = 0; e < (long long)m * n; ++e) X[e] = at(C, e, cx);
    const int conjt = trans == 2 || (!cx && trans == 1); /* H^H: real T is C */
    const int ascending = side ? trans == 0 : trans != 0;
    for (int s = 0; s < k; ++s) {
        const int j = ascending ? s : k - 1 - s;
        for (int i = 0; i < q; ++i) v[i] = i < j ? 0.0 : i == j ? 1.0 : at(A, i + (long long)j * q, cx);
        double complex t = at(tau, j, cx);
        if (conjt) t = conj(t);
        const int tr = cx && trans == 1; /* Q^T in complex: conj(v) v^T in place of v v^H */
        if (!side) {
            /* X -= t u (u'^H X), u = v (N, C) or conj(v) (T) */
            for (int c = 0; c < n; ++c) {
                double complex d = 0.0;
                for (int i = j; i < q; ++i) d += (tr ? v[i] : conj(v[i])) * X[i + (long long)c * m];
                for (int i = j; i < q; ++i) X[i + (long long)c * m] -= t * (tr ? conj(v[i]) : v[i]) * d;
            }
        } else {
            /* X -= (X u) t u'^H, u = v (N, C) or conj(v) (T) */
            for (int r = 0; r < m; ++r) {
                double complex d = 0.0;
                for (int i = j; i < q; ++i) d += X[r + (long long)i * m] * (tr ? conj(v[i]) : v[i]);
                wv[r] = d * t;
            }
            for (int i = j; i < q; ++i) {
                const double complex u = tr ? v[i] : conj(v[i]);
                for (int r = 0; r < m; ++r) X[r + (long long)i * m] -= wv[r] * u;
            }
        }
    }
    double nr = 0.0, nc = 0.0;
    int out_finite = 1;
    for (long long e = 0; e < (long long)m * n; ++e) {
        const double complex o = at(out, e, cx), c = at(C, e, cx), d = o - X[e];
        out_finite = out_finite && cfinite(o);
        nr += creal(d) * creal(d) + cimag(d) * cimag(d);
        nc += creal(c) * creal(c) + cimag(c) * cimag(c);
    }
    free(X), free(v), free(wv);
    if (!out_finite) return INFINITY;
    if (nr == 0.0) return 0.0;
    return sqrt(nr) / ((nc > 0.0 ? sqrt(nc) : 1.0) * q * eps);
}

const oracle oracle_ormqr = {"ormqr", ormqr_generate, ormqr_check};

/* ---- orgqr ---------------------------------------------------------------------------------- */

/* A m x n, reflectors in its first k columns */
static void orgqr_generate(const oracle_problem *sh, unsigned long long seed, double *const in[])
{
    uint64_t s = seed;
    random_reflectors(sh->dims[0], sh->dims[1], sh->dims[2], sh->is_complex, &s, in[0], in[1]);
}

/* Q against the definition (H_{k-1} .. H_0 applied in turn to the identity's first n columns)
 * and its orthonormality: the larger of ||Q - Q_ref||_F / (sqrt(n) m eps) and
 * ||I - Q^H Q||_F / (n m eps) (issue 23's ||I - Q^T Q|| / (n eps), with the reflectors' m
 * rows of rounding). INFINITY: tau changed, or a non-finite Q from finite reflectors. */
static double orgqr_check(const oracle_problem *p, double eps)
{
    const int m = p->dims[0], n = p->dims[1], k = p->dims[2], cx = p->is_complex, w = cx ? 2 : 1;
    if (m < 1 || n < 1) return 0.0;
    if (p->out[1] && memcmp(p->out[1], p->in[1], sizeof(double) * (size_t)w * k) != 0) return INFINITY;
    const double *A = p->in[0], *tau = p->in[1], *Q = p->out[0];
    if (!reflectors_finite(A, m, k, tau, cx)) return 0.0;
    double complex *R = malloc(sizeof(double complex) * (size_t)m * n + 1);
    double complex *v = malloc(sizeof(double complex) * (size_t)m + 1);
    if (!R || !v) {
        free(R), free(v);
        return INFINITY;
    }
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) R[i + (long long)c * m] = i == c ? 1.0 : 0.0;
    for (int j = k - 1; j >= 0; --j) {
        for (int i = 0; i < m; ++i) v[i] = i < j ? 0.0 : i == j ? 1.0 : at(A, i + (long long)j * m, cx);
        const double complex t = at(tau, j, cx);
        for (int c = 0; c < n; ++c) {
            double complex d = 0.0;
            for (int i = j; i < m; ++i) d += conj(v[i]) * R[i + (long long)c * m];
            for (int i = j; i < m; ++i) R[i + (long long)c * m] -= t * v[i] * d;
        }
    }
    double diff = 0.0, orth = 0.0;
    int q_finite = 1;
    for (long long e = 0; e < (long long)m * n; ++e) {
        const double complex d = at(Q, e, cx) - R[e];
        q_finite = q_finite && cfinite(at(Q, e, cx));
        diff += creal(d) * creal(d) + cimag(d) * cimag(d);
    }
    if (q_finite)
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                double complex g = a == b ? -1.0 : 0.0;
                for (int i = 0; i < m; ++i) g += conj(at(Q, i + (long long)a * m, cx)) * at(Q, i + (long long)b * m, cx);
                orth += creal(g) * creal(g) + cimag(g) * cimag(g);
            }
    free(R), free(v);
    if (!q_finite) return INFINITY;
    const double e1 = sqrt(diff) / (sqrt((double)n) * m * eps), e2 = sqrt(orth) / ((double)n * m * eps);
    return e1 > e2 ? e1 : e2;
}

const oracle oracle_orgqr = {"orgqr", orgqr_generate, orgqr_check};
