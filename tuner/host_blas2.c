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
