/* Host helpers of the LU-family specs: see host_lu.h. */
#include "host_lu.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

void hl_rng_seed(hl_rng *r, uint64_t seed) { r->state = seed; }

uint64_t hl_rng_next(hl_rng *r) { return oracle_splitmix64(&r->state); }

double hl_uniform(hl_rng *r)
{
    /* 23 random bits: k / 2^22 - 1 with k in [0, 2^23], and 0 mapped away */
    for (;;) {
        const uint64_t k = hl_rng_next(r) >> 41; /* 23 bits */
        const double x = (double)k / 4194304.0 - 1.0;
        if (x != 0.0) return x;
    }
}

void hl_permutation(hl_rng *r, int n, int *perm)
{
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        const int j = (int)(hl_rng_next(r) % (uint64_t)(i + 1));
        const int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

int hl_getf2(int m, int n, double *A, int lda, int *ipiv)
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

void hl_laswp(int n, double *X, int ldx, int k, const int *ipiv, int forward)
{
    for (int s = 0; s < k; ++s) {
        const int i = forward ? s : k - 1 - s;
        const int p = ipiv[i] - 1;
        if (p == i || p < 0) continue;
        for (int c = 0; c < n; ++c) {
            const double t = X[i + (size_t)c * ldx];
            X[i + (size_t)c * ldx] = X[p + (size_t)c * ldx];
            X[p + (size_t)c * ldx] = t;
        }
    }
}

void hl_lu_product(int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda)
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
        for (int c = 0; c < n; ++c) {
            const double t = A[s + (size_t)c * lda];
            A[s + (size_t)c * lda] = A[p + (size_t)c * lda];
            A[p + (size_t)c * lda] = t;
        }
    }
}
