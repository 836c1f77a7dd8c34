/* Host references of the factorizations and their input generators; see lapack_ref.h. */
#include "lapack_ref.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- random inputs ------------------------------------------------------------------------- */

double oracle_uniform_float(uint64_t *state)
{
    /* 23 random bits: k / 2^22 - 1 with k in [0, 2^23], and 0 mapped away */
    for (;;) {
        const uint64_t k = oracle_splitmix64(state) >> 41; /* 23 bits */
        const double x = (double)k / 4194304.0 - 1.0;
        if (x != 0.0) return x;
    }
}

void oracle_permutation(uint64_t *state, int n, int *perm)
{
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        const int j = (int)(oracle_splitmix64(state) % (uint64_t)(i + 1));
        const int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

void oracle_lu_random(uint64_t *state, int m, int n, double *A)
{
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) A[i + (size_t)c * m] = oracle_uniform_float(state);
}

void oracle_lu_conditioned(uint64_t *state, int n, double *A)
{
    oracle_lu_random(state, n, n, A);
    int *perm = malloc((size_t)(n > 0 ? n : 1) * sizeof *perm);
    if (!perm) return;
    oracle_permutation(state, n, perm);
    const double shift = oracle_round_float(1.5 * sqrt((double)n) + 1.0);
    for (int c = 0; c < n; ++c) {
        double *a = &A[perm[c] + (size_t)c * n];
        *a = oracle_round_float(*a + (*a < 0 ? -shift : shift));
    }
    free(perm);
}

void oracle_lu_factors(uint64_t *state, int n, double *A, int *ipiv)
{
    oracle_lu_conditioned(state, n, A);
    oracle_getf2(n, n, A, n, ipiv);
    for (size_t i = 0; i < (size_t)n * n; ++i) A[i] = oracle_round_float(A[i]);
}

void oracle_fill_float(uint64_t *state, size_t count, double *x)
{
    for (size_t i = 0; i < count; ++i) x[i] = oracle_round_float(oracle_uniform(state));
}

void oracle_spd(uint64_t *state, int n, int up, double *A)
{
    oracle_fill_float(state, (size_t)n * n, A);
    /* symmetric off-diagonal part in the stored triangle, dominant diagonal */
    for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int c = 0; c < n; ++c) {
            if (c == i) continue;
            const int rr = i > c ? i : c, cc = i > c ? c : i;
            sum += fabs(A[oracle_fidx(n, up, rr, cc)]);
        }
        A[i + (size_t)i * n] = oracle_round_float(sum + 1.0 + 0.5 * oracle_uniform(state));
    }
}

/* ---- LU with partial pivoting -------------------------------------------------------------- */

int oracle_getf2(int m, int n, double *A, int lda, int *ipiv)
{
    const int mn = m < n ? m : n;
    const double sfmin = DBL_MIN;
    int info = 0;
    for (int j = 0; j < mn; ++j) {
        /* idamax: the first largest |a|; NaN never compares larger */
        int jp = j;
        double best = fabs(A[j + (size_t)j * lda]);
        for (int i = j + 1; i < m; ++i) {
            const double v = fabs(A[i + (size_t)j * lda]);
            if (v > best) {
                best = v;
                jp = i;
            }
        }
        if (ipiv) ipiv[j] = jp + 1;
        const double p = A[jp + (size_t)j * lda];
        if (p != 0.0) {
            if (jp != j)
                for (int c = 0; c < n; ++c) {
                    const double t = A[j + (size_t)c * lda];
                    A[j + (size_t)c * lda] = A[jp + (size_t)c * lda];
                    A[jp + (size_t)c * lda] = t;
                }
            if (fabs(p) >= sfmin) {
                const double r = 1.0 / p;
                for (int i = j + 1; i < m; ++i) A[i + (size_t)j * lda] *= r;
            } else {
                for (int i = j + 1; i < m; ++i) A[i + (size_t)j * lda] /= p;
            }
        } else if (info == 0) {
            info = j + 1;
        }
        for (int c = j + 1; c < n; ++c) {
            const double u = A[j + (size_t)c * lda];
            for (int i = j + 1; i < m; ++i)
                A[i + (size_t)c * lda] = fma(-A[i + (size_t)j * lda], u, A[i + (size_t)c * lda]);
        }
    }
    return info;
}

/* Swaps rows a and b of the n columns of X. */
static void swap_rows(int n, double *X, int ldx, int a, int b)
{
    for (int c = 0; c < n; ++c) {
        const double t = X[a + (size_t)c * ldx];
        X[a + (size_t)c * ldx] = X[b + (size_t)c * ldx];
        X[b + (size_t)c * ldx] = t;
    }
}

void oracle_laswp(int n, double *X, int ldx, int k, const int *ipiv, int forward)
{
    for (int s = 0; s < k; ++s) {
        const int i = forward ? s : k - 1 - s;
        const int p = ipiv[i] - 1;
        if (p == i || p < 0) continue;
        swap_rows(n, X, ldx, i, p);
    }
}

void oracle_lu_product(int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda)
{
    const int mn = m < n ? m : n;
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) {
            /* (L U)(i, c) = sum_{k <= min(i, c), k < mn} L(i, k) U(k, c), L(i, i) = 1 */
            const int kmax = (i < c ? i : c) < mn - 1 ? (i < c ? i : c) : mn - 1;
            double s = 0.0;
            for (int k = 0; k <= kmax; ++k) {
                const double l = k == i ? 1.0 : LU[i + (size_t)k * ldlu];
                s += l * LU[k + (size_t)c * ldlu];
            }
            A[i + (size_t)c * lda] = s;
        }
    /* P (L U): the interchanges in reverse order, entries out of range ignored */
    for (int s = mn - 1; s >= 0; --s) {
        const int p = ipiv[s] - 1;
        if (p == s || p < 0 || p >= m) continue;
        swap_rows(n, A, lda, s, p);
    }
}

/* ---- Cholesky ------------------------------------------------------------------------------ */

void oracle_sym_from_tri(int n, int up, const double *A, int lda, double *S)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int r = i > j ? i : j, c = i > j ? j : i;
            S[i + (size_t)j * n] = A[oracle_fidx(lda, up, r, c)];
        }
}

int oracle_potf2(int n, int up, double *A, int lda)
{
    for (int j = 0; j < n; ++j) {
        double d = A[oracle_fidx(lda, up, j, j)];
        for (int k = 0; k < j; ++k) {
            const double l = A[oracle_fidx(lda, up, j, k)];
            d -= l * l;
        }
        if (!(d > 0.0)) {
            A[oracle_fidx(lda, up, j, j)] = d;
            return j + 1;
        }
        d = sqrt(d);
        A[oracle_fidx(lda, up, j, j)] = d;
        for (int i = j + 1; i < n; ++i) {
            double s = A[oracle_fidx(lda, up, i, j)];
            for (int k = 0; k < j; ++k) s -= A[oracle_fidx(lda, up, i, k)] * A[oracle_fidx(lda, up, j, k)];
            A[oracle_fidx(lda, up, i, j)] = s / d;
        }
    }
    return 0;
}

void oracle_chol_product(int n, int up, const double *F, int ldf, double *M)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int kmax = i < j ? i : j;
            double s = 0.0;
            for (int k = 0; k <= kmax; ++k) s += F[oracle_fidx(ldf, up, i, k)] * F[oracle_fidx(ldf, up, j, k)];
            M[i + (size_t)j * n] = s;
        }
}

/* ---- Householder QR ------------------------------------------------------------------------ */

/* LAPACK's dlapy2 (sqrt(x^2 + y^2) without needless overflow) and dnrm2, simply scaled. */
static double lapy2(double x, double y)
{
    const double a = fabs(x), b = fabs(y);
    const double w = a > b ? a : b, z = a > b ? b : a;
    if (z == 0.0 || w > 1.79e308) return w;
    return w * sqrt(1.0 + (z / w) * (z / w));
}

static double nrm2(const double *x, int len)
{
    double scale = 0.0, ssq = 1.0;
    for (int i = 0; i < len; ++i) {
        if (x[i] != 0.0) {
            const double a = fabs(x[i]);
            if (scale < a) {
                ssq = 1.0 + ssq * (scale / a) * (scale / a);
                scale = a;
            } else {
                ssq += (a / scale) * (a / scale);
            }
        }
    }
    return scale * sqrt(ssq);
}

/* y(0:len) -= t v v^T y with v(0) = 1 and v(1:len) = v[1..len-1]: one reflector applied to one
 * column. */
static void reflect(const double *v, double t, int len, double *y)
{
    double w = y[0];
    for (int i = 1; i < len; ++i) w += v[i] * y[i];
    w *= t;
    y[0] -= w;
    for (int i = 1; i < len; ++i) y[i] -= w * v[i];
}

void oracle_geqr2(int m, int n, double *A, int lda, double *tau, double *alpha)
{
    const int k = m < n ? m : n;
    for (int j = 0; j < k; ++j) {
        double *col = A + j + (size_t)j * lda; /* alpha, then x */
        const int len = m - j;
        const double a = col[0];
        if (alpha) alpha[j] = a;
        const double xnorm = len > 1 ? nrm2(col + 1, len - 1) : 0.0;
        if (xnorm == 0.0) {
            tau[j] = 0.0;
            continue; /* H = I */
        }
        const double beta = -copysign(lapy2(a, xnorm), a);
        const double t = (beta - a) / beta;
        const double sc = 1.0 / (a - beta);
        for (int i = 1; i < len; ++i) col[i] *= sc;
        col[0] = beta;
        tau[j] = t;
        /* apply H = I - t v v^T to A(j:m, j+1:n) */
        for (int c = j + 1; c < n; ++c) reflect(col, t, len, A + j + (size_t)c * lda);
    }
}

void oracle_form_q(int m, int n, const double *A, int lda, const double *tau, double *Q)
{
    const int k = m < n ? m : n;
    memset(Q, 0, sizeof(double) * (size_t)m * (size_t)m);
    for (int i = 0; i < m; ++i) Q[i + (size_t)i * m] = 1.0;
    /* Q = H(0) (H(1) (... H(k-1) I)) */
    for (int j = k - 1; j >= 0; --j)
        for (int c = 0; c < m; ++c) reflect(A + j + (size_t)j * lda, tau[j], m - j, Q + j + (size_t)c * m);
}
