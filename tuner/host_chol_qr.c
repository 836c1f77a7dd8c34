/* Host references of the Cholesky and QR specs; see host_chol_qr.h. */
#include "host_chol_qr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hcq_rng_seed(hcq_rng *r, unsigned long long seed)
{
    r->s = seed ^ 0x9e3779b97f4a7c15ull;
}

unsigned long long hcq_rng_next(hcq_rng *r) { return oracle_splitmix64(&r->s); }

double hcq_rng_uniform(hcq_rng *r)
{
    return (double)(hcq_rng_next(r) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

void hcq_spd(double *A, int n, int up, hcq_rng *r)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            A[i + j * n] = oracle_round_float(hcq_rng_uniform(r));
    /* symmetric off-diagonal part in the stored triangle, dominant diagonal */
    for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int c = 0; c < n; ++c) {
            if (c == i)
                continue;
            int rr = i > c ? i : c, cc = i > c ? c : i;
            sum += fabs(A[hcq_fidx(n, up, rr, cc)]);
        }
        A[i + i * n] = oracle_round_float(sum + 1.0 + 0.5 * hcq_rng_uniform(r));
    }
}

void hcq_sym_from_tri(const double *A, int n, int up, double *S)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int r = i > j ? i : j, c = i > j ? j : i;
            S[i + j * n] = A[hcq_fidx(n, up, r, c)];
        }
}

int hcq_potrf(double *A, int n, int up)
{
    for (int j = 0; j < n; ++j) {
        double d = A[hcq_fidx(n, up, j, j)];
        for (int k = 0; k < j; ++k) {
            double l = A[hcq_fidx(n, up, j, k)];
            d -= l * l;
        }
        if (!(d > 0.0)) {
            A[hcq_fidx(n, up, j, j)] = d;
            return j + 1;
        }
        d = sqrt(d);
        A[hcq_fidx(n, up, j, j)] = d;
        for (int i = j + 1; i < n; ++i) {
            double s = A[hcq_fidx(n, up, i, j)];
            for (int k = 0; k < j; ++k)
                s -= A[hcq_fidx(n, up, i, k)] * A[hcq_fidx(n, up, j, k)];
            A[hcq_fidx(n, up, i, j)] = s / d;
        }
    }
    return 0;
}

void hcq_fft(const double *A, int n, int up, double *M)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int kmax = i < j ? i : j;
            double s = 0.0;
            for (int k = 0; k <= kmax; ++k)
                s += A[hcq_fidx(n, up, i, k)] * A[hcq_fidx(n, up, j, k)];
            M[i + j * n] = s;
        }
}

/* LAPACK's dlapy2 (sqrt(x^2 + y^2) without needless overflow) and dnrm2, simply scaled. */
static double lapy2(double x, double y)
{
    double a = fabs(x), b = fabs(y);
    double w = a > b ? a : b, z = a > b ? b : a;
    if (z == 0.0 || w > 1.79e308)
        return w;
    return w * sqrt(1.0 + (z / w) * (z / w));
}

static double nrm2(const double *x, int len)
{
    double scale = 0.0, ssq = 1.0;
    for (int i = 0; i < len; ++i) {
        if (x[i] != 0.0) {
            double a = fabs(x[i]);
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

void hcq_geqr2(double *A, int m, int n, double *tau, double *alpha)
{
    int k = m < n ? m : n;
    for (int j = 0; j < k; ++j) {
        double *col = A + j + j * m; /* alpha, then x */
        int len = m - j;
        double a = col[0];
        if (alpha)
            alpha[j] = a;
        double xnorm = len > 1 ? nrm2(col + 1, len - 1) : 0.0;
        if (xnorm == 0.0) {
            tau[j] = 0.0;
            continue; /* H = I */
        }
        double beta = -copysign(lapy2(a, xnorm), a);
        double t = (beta - a) / beta;
        double sc = 1.0 / (a - beta);
        for (int i = 1; i < len; ++i)
            col[i] *= sc;
        col[0] = beta;
        tau[j] = t;
        /* apply H = I - t v v^T to A(j:m, j+1:n) */
        for (int c = j + 1; c < n; ++c) {
            double *y = A + j + c * m;
            double w = y[0];
            for (int i = 1; i < len; ++i)
                w += col[i] * y[i];
            w *= t;
            y[0] -= w;
            for (int i = 1; i < len; ++i)
                y[i] -= w * col[i];
        }
    }
}

void hcq_form_q(const double *A, const double *tau, int m, int n, double *Q)
{
    int k = m < n ? m : n;
    memset(Q, 0, sizeof(double) * (size_t)m * (size_t)m);
    for (int i = 0; i < m; ++i)
        Q[i + i * m] = 1.0;
    /* Q = H(0) (H(1) (... H(k-1) I)) */
    for (int j = k - 1; j >= 0; --j) {
        const double *v = A + j * m; /* v(j) = 1, v(j+1:m) below the diagonal */
        double t = tau[j];
        for (int c = 0; c < m; ++c) {
            double *y = Q + c * m;
            double w = y[j];
            for (int i = j + 1; i < m; ++i)
                w += v[i] * y[i];
            w *= t;
            y[j] -= w;
            for (int i = j + 1; i < m; ++i)
                y[i] -= w * v[i];
        }
    }
}
