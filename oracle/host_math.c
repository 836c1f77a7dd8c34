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

double oracle_eps(char prec)
{
    return prec == 's' || prec == 'c' ? 0x1.0p-24 : 0x1.0p-53;
}

double oracle_round_float(double x)
{
    return (double)(float)x;
}

double oracle_norm1(int m, int n, const double *X, int64_t ld)
{
    double best = 0.0;
    for (int j = 0; j < n; ++j) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) s += fabs(X[i + j * ld]);
        if (isnan(s)) return NAN;
        if (s > best) best = s;
    }
    return best;
}

double oracle_max_abs(int m, int n, const double *X, int64_t ld)
{
    double best = 0.0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            const double v = fabs(X[i + j * ld]);
            if (isnan(v)) return NAN;
            if (v > best) best = v;
        }
    return best;
}

void oracle_matmul(int ta, int m, int n, int k, const double *A, int64_t lda, const double *B, int64_t ldb,
                   double *C, int64_t ldc)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0.0;
            for (int l = 0; l < k; ++l) s += (ta ? A[l + i * lda] : A[i + l * lda]) * B[l + j * ldb];
            C[i + j * ldc] = s;
        }
}
