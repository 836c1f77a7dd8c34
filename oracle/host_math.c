/* Host arithmetic of the correctness checks (oracle/host_math.h). */
#include "host_math.h"

#include <math.h>

uint64_t oracle_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double oracle_uniform(uint64_t *state)
{
    return (double)(oracle_splitmix64(state) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

double oracle_eps(char prec)
{
    return prec == 's' || prec == 'c' ? 0x1.0p-24 : 0x1.0p-53;
}

double oracle_round_float(double x)
{
    return (double)(float)x;
}

/* Element magnitudes and products over w doubles per element (1: real, 2: a (re, im) pair), one
 * code for both: with w = 1 every expression is the real one the references always computed
 * (the golden record of tests/test_lapack_oracle.py holds them to their bits). */
static double mag(const double *x, int w) { return w == 1 ? fabs(x[0]) : hypot(x[0], x[1]); }

static double norm1_w(int w, int m, int n, const double *X, int64_t ld)
{
    double best = 0.0;
    for (int j = 0; j < n; ++j) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) s += mag(X + w * (i + j * ld), w);
        if (isnan(s)) return NAN;
        if (s > best) best = s;
    }
    return best;
}

static double max_abs_w(int w, int m, int n, const double *X, int64_t ld)
{
    double best = 0.0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            const double v = mag(X + w * (i + j * ld), w);
            if (isnan(v)) return NAN;
            if (v > best) best = v;
        }
    return best;
}

static void matmul_w(int w, int op, int m, int n, int k, const double *A, int64_t lda, const double *B,
                     int64_t ldb, double *C, int64_t ldc)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0.0, si = 0.0;
            for (int l = 0; l < k; ++l) {
                const double *a = A + w * (op ? l + i * lda : i + l * lda), *b = B + w * (l + j * ldb);
                if (w == 1) {
                    s += a[0] * b[0];
                } else {
                    const double ai = op == 2 ? -a[1] : a[1];
                    s += a[0] * b[0] - ai * b[1];
                    si += a[0] * b[1] + ai * b[0];
                }
            }
            C[w * (i + j * ldc)] = s;
            if (w == 2) C[2 * (i + j * ldc) + 1] = si;
        }
}

double oracle_norm1(int m, int n, const double *X, int64_t ld) { return norm1_w(1, m, n, X, ld); }
double oracle_znorm1(int m, int n, const double *X, int64_t ld) { return norm1_w(2, m, n, X, ld); }
double oracle_max_abs(int m, int n, const double *X, int64_t ld) { return max_abs_w(1, m, n, X, ld); }
double oracle_zmax_abs(int m, int n, const double *X, int64_t ld) { return max_abs_w(2, m, n, X, ld); }

void oracle_matmul(int ta, int m, int n, int k, const double *A, int64_t lda, const double *B, int64_t ldb,
                   double *C, int64_t ldc)
{
    matmul_w(1, ta, m, n, k, A, lda, B, ldb, C, ldc);
}

void oracle_zmatmul(int op, int m, int n, int k, const double *A, int64_t lda, const double *B, int64_t ldb,
                    double *C, int64_t ldc)
{
    matmul_w(2, op, m, n, k, A, lda, B, ldb, C, ldc);
}
