#include "host_blas2.h"

#include <math.h>

long long blas2_vec_index(int i, int len, long long inc) { return inc > 0 ? i * inc : (long long)(len - 1 - i) * -inc; }

static double uniform(unsigned long long seed, long long i)
{
    unsigned long long z = seed + 0x9e3779b97f4a7c15ULL * (unsigned long long)(i + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

void blas2_random(double *v, long long count, unsigned long long seed, int single)
{
    for (long long i = 0; i < count; ++i) {
        const double r = uniform(seed, i);
        v[i] = single ? (double)(float)r : r;
    }
}

void blas2_triangular(int n, long long lda, int upper, unsigned long long seed, int single, double *A)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const double r = uniform(seed, (long long)j * n + i);
            double v;
            if (i == j) /* magnitude in [1, 2), sign from an independent draw */
                v = (1.0 + fabs(r)) * (uniform(seed ^ 0x51ed270bULL, (long long)j * n + i) < 0 ? -1.0 : 1.0);
            else if (upper ? i < j : i > j) v = r / n;
            else v = NAN;
            A[i + (long long)j * lda] = single ? (double)(float)v : v;
        }
}

static double op_at(const double *A, long long lda, int trans, int i, int j)
{
    return trans ? A[j + (long long)i * lda] : A[i + (long long)j * lda];
}

double blas2_gemv_error(int trans, int m, int n, double alpha, const double *A, long long lda, const double *x,
                        long long incx, double beta, const double *y0, const double *y, long long incy, double eps)
{
    const int ny = trans ? n : m, nx = trans ? m : n;
    double max_a = 0, max_x = 0, max_y0 = 0, worst = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) max_a = fmax(max_a, fabs(A[i + (long long)j * lda]));
    for (int i = 0; i < nx; ++i) max_x = fmax(max_x, fabs(x[blas2_vec_index(i, nx, incx)]));
    if (beta != 0)
        for (int i = 0; i < ny; ++i) max_y0 = fmax(max_y0, fabs(y0[blas2_vec_index(i, ny, incy)]));
    double scale = eps * (fabs(alpha) * nx * max_a * max_x + fabs(beta) * max_y0);
    if (scale == 0) scale = eps;
    for (int i = 0; i < ny; ++i) {
        double s = 0;
        for (int j = 0; j < nx; ++j) s += op_at(A, lda, trans, i, j) * x[blas2_vec_index(j, nx, incx)];
        double ref = alpha * s;
        if (beta != 0) ref += beta * y0[blas2_vec_index(i, ny, incy)];
        const double got = y[blas2_vec_index(i, ny, incy)];
        const double err = fabs(got - ref) / scale;
        if (isnan(err) || isinf(err)) return INFINITY;
        worst = fmax(worst, err);
    }
    return worst;
}

double blas2_trsv_error(int upper, int trans, int unit, int n, const double *A, long long lda, const double *b,
                        const double *x, long long incx, double eps)
{
    /* op(A) is lower triangular when upper == trans */
    const int lower = upper == trans;
    double norm_a = 0, norm_x = 0, norm_b = 0, res = 0;
    for (int i = 0; i < n; ++i) {
        double s = 0, row = 0;
        for (int j = 0; j < n; ++j) {
            if (lower ? j > i : j < i) continue;
            const double a = (j == i && unit) ? 1.0 : op_at(A, lda, trans, i, j);
            row += fabs(a);
            s += a * x[blas2_vec_index(j, n, incx)];
        }
        norm_a = fmax(norm_a, row);
        norm_x = fmax(norm_x, fabs(x[blas2_vec_index(i, n, incx)]));
        norm_b = fmax(norm_b, fabs(b[blas2_vec_index(i, n, incx)]));
        res = fmax(res, fabs(s - b[blas2_vec_index(i, n, incx)]));
        if (isnan(s)) return INFINITY;
    }
    const double err = res / (eps * (n > 0 ? n : 1) * (norm_a * norm_x + norm_b));
    return isnan(err) || isinf(err) ? INFINITY : err;
}

/* ---- complex (c, z): elements as (re, im) pairs of doubles ---- */

void blas2_ctriangular(int n, long long lda, int upper, unsigned long long seed, int single, double *A)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const long long k = (long long)j * n + i;
            const double r = uniform(seed, 2 * k), s = uniform(seed, 2 * k + 1);
            double re, im;
            if (i == j) { /* |re| in [1, 2) with a random sign, |im| < 1: well away from singular */
                re = (1.0 + fabs(r)) * (uniform(seed ^ 0x51ed270bULL, k) < 0 ? -1.0 : 1.0);
                im = s;
            } else if (upper ? i < j : i > j) {
                re = r / n;
                im = s / n;
            } else {
                re = im = NAN;
            }
            double *a = A + 2 * (i + (long long)j * lda);
            a[0] = single ? (double)(float)re : re;
            a[1] = single ? (double)(float)im : im;
        }
}

/* op(A)(i, j) of a complex A: trans 0 N, 1 T, 2 C (conjugated) */
static void cop_at(const double *A, long long lda, int trans, int i, int j, double *re, double *im)
{
    const double *a = trans ? A + 2 * (j + (long long)i * lda) : A + 2 * (i + (long long)j * lda);
    *re = a[0];
    *im = trans == 2 ? -a[1] : a[1];
}

static double cabs2(double re, double im) { return sqrt(re * re + im * im); }

double blas2_cgemv_error(int trans, int m, int n, const double alpha[2], const double *A, long long lda,
                         const double *x, long long incx, const double beta[2], const double *y0, const double *y,
                         long long incy, double eps)
{
    const int ny = trans ? n : m, nx = trans ? m : n;
    const int use_beta = beta[0] != 0 || beta[1] != 0;
    double max_a = 0, max_x = 0, max_y0 = 0, worst = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            const double *a = A + 2 * (i + (long long)j * lda);
            max_a = fmax(max_a, cabs2(a[0], a[1]));
        }
    for (int i = 0; i < nx; ++i) {
        const double *v = x + 2 * blas2_vec_index(i, nx, incx);
        max_x = fmax(max_x, cabs2(v[0], v[1]));
    }
    if (use_beta)
        for (int i = 0; i < ny; ++i) {
            const double *v = y0 + 2 * blas2_vec_index(i, ny, incy);
            max_y0 = fmax(max_y0, cabs2(v[0], v[1]));
        }
    /* a complex product and sum: a few more roundings than a real one, inside the factor 16 */
    double scale = eps * (cabs2(alpha[0], alpha[1]) * nx * max_a * max_x + cabs2(beta[0], beta[1]) * max_y0);
    if (scale == 0) scale = eps;
    for (int i = 0; i < ny; ++i) {
        double sr = 0, si = 0;
        for (int j = 0; j < nx; ++j) {
            double ar, ai;
            cop_at(A, lda, trans, i, j, &ar, &ai);
            const double *v = x + 2 * blas2_vec_index(j, nx, incx);
            sr += ar * v[0] - ai * v[1];
            si += ar * v[1] + ai * v[0];
        }
        double rr = alpha[0] * sr - alpha[1] * si, ri = alpha[0] * si + alpha[1] * sr;
        if (use_beta) {
            const double *v = y0 + 2 * blas2_vec_index(i, ny, incy);
            rr += beta[0] * v[0] - beta[1] * v[1];
            ri += beta[0] * v[1] + beta[1] * v[0];
        }
        const double *g = y + 2 * blas2_vec_index(i, ny, incy);
        const double err = cabs2(g[0] - rr, g[1] - ri) / scale;
        if (isnan(err) || isinf(err)) return INFINITY;
        worst = fmax(worst, err);
    }
    return worst;
}

double blas2_ctrsv_error(int upper, int trans, int unit, int n, const double *A, long long lda, const double *b,
                         const double *x, long long incx, double eps)
{
    const int lower = upper == (trans != 0);
    double norm_a = 0, norm_x = 0, norm_b = 0, res = 0;
    for (int i = 0; i < n; ++i) {
        double sr = 0, si = 0, row = 0;
        for (int j = 0; j < n; ++j) {
            if (lower ? j > i : j < i) continue;
            double ar = 1, ai = 0;
            if (!(j == i && unit)) cop_at(A, lda, trans, i, j, &ar, &ai);
            row += cabs2(ar, ai);
            const double *v = x + 2 * blas2_vec_index(j, n, incx);
            sr += ar * v[0] - ai * v[1];
            si += ar * v[1] + ai * v[0];
        }
        const double *xi = x + 2 * blas2_vec_index(i, n, incx), *bi = b + 2 * blas2_vec_index(i, n, incx);
        norm_a = fmax(norm_a, row);
        norm_x = fmax(norm_x, cabs2(xi[0], xi[1]));
        norm_b = fmax(norm_b, cabs2(bi[0], bi[1]));
        res = fmax(res, cabs2(sr - bi[0], si - bi[1]));
        if (isnan(sr) || isnan(si)) return INFINITY;
    }
    const double err = res / (eps * (n > 0 ? n : 1) * (norm_a * norm_x + norm_b));
    return isnan(err) || isinf(err) ? INFINITY : err;
}
