/* orgbr's reference for the tests (tests/c/test_gels_host.c on the CPU, tests/gpu/test_orgbr_gpu.c
 * on the GPU): Q or P of gebrd's reflectors formed by applying them to the identity one by one,
 * in double complex, from a column-major m x n matrix A (ld lda) in LAPACK's four layouts
 * (spec/routines/orgbr.toml): reflector j of order q (q = m for Q, n for P) has its unit at
 * j + s (s = 1 in the shifted layouts: Q where m < k, P where k >= n, q - 1 reflectors there,
 * else k) and its other entries below it in column j (Q) or as conjugates right of it in row j
 * (P). Header-only (static inline): each test program includes it once. */
#ifndef SHOAL_TESTS_ORGBR_REF_H
#define SHOAL_TESTS_ORGBR_REF_H

#include <complex.h>
#include <stddef.h>

/* whether vect (0 Q, 1 P) with m, n, k takes LAPACK's shifted layout, and how many reflectors */
static inline int orgbr_ref_shifted(int vect, int m, int n, int k) { return vect ? k >= n : m < k; }
static inline int orgbr_ref_count(int vect, int m, int n, int k)
{
    const int q = vect ? n : m;
    return orgbr_ref_shifted(vect, m, n, k) ? q - 1 : k;
}

/* u (q entries) <- reflector j */
static inline void orgbr_ref_reflector(const double complex *A, long long lda, int m, int n, int vect, int k, int j,
                                       double complex *u)
{
    const int q = vect ? n : m, s = orgbr_ref_shifted(vect, m, n, k);
    for (int i = 0; i < q; ++i) u[i] = 0.0;
    u[j + s] = 1.0;
    for (int i = j + s + 1; i < q; ++i) u[i] = vect ? conj(A[j + (long long)i * lda]) : A[i + (long long)j * lda];
}

/* Y (q x q) <- (I - tau u u^H) Y */
static inline void orgbr_ref_reflect(double complex *Y, int q, const double complex *u, double complex tau)
{
    for (int c = 0; c < q; ++c) {
        double complex s = 0.0;
        for (int i = 0; i < q; ++i) s += conj(u[i]) * Y[i + (size_t)c * q];
        for (int i = 0; i < q; ++i) Y[i + (size_t)c * q] -= tau * u[i] * s;
    }
}

/* Y (q x q) <- H_0 ... H_{r-1} (Q) or G_0 ... G_{r-1} (P) of A's reflectors and tau; u: q entries
 * of scratch */
static inline void orgbr_ref_form(const double complex *A, long long lda, int m, int n, int vect, int k,
                                  const double complex *tau, double complex *Y, double complex *u)
{
    const int q = vect ? n : m;
    for (int c = 0; c < q; ++c)
        for (int i = 0; i < q; ++i) Y[i + (size_t)c * q] = i == c;
    for (int j = orgbr_ref_count(vect, m, n, k) - 1; j >= 0; --j) {
        orgbr_ref_reflector(A, lda, m, n, vect, k, j, u);
        orgbr_ref_reflect(Y, q, u, tau[j]);
    }
}

/* what orgbr leaves in A(i, c) (i < m, c < n): Q(i, c), or P^H(i, c) = conj(P(c, i)) */
static inline double complex orgbr_ref_want(const double complex *Y, int m, int n, int vect, int i, int c)
{
    return vect ? conj(Y[c + (size_t)i * n]) : Y[i + (size_t)c * m];
}

/* 2 / ||u||^2: the tau that makes I - tau u u^H unitary (so that every product stays of order 1) */
static inline double orgbr_ref_unitary_tau(const double complex *u, int q)
{
    double s = 0.0;
    for (int i = 0; i < q; ++i) s += creal(u[i]) * creal(u[i]) + cimag(u[i]) * cimag(u[i]);
    return 2.0 / s;
}

#endif
