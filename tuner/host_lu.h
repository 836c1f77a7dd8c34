/* Host helpers of the LU-family specs (tuner/spec_lu.c) and of the GPU tests: a seedable random
 * source, LAPACK's unblocked LU (dgetf2) in double, the product P L U, matrix products and norms.
 * Plain C11 and libm; column-major storage with explicit leading dimensions throughout. */
#ifndef SHOAL_HOST_LU_H
#define SHOAL_HOST_LU_H

#include <stdint.h>

#include "host_math.h" /* oracle_matmul, oracle_norm1, oracle_max_abs, oracle_round_float */

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64: small, seedable, identical on every machine. */
typedef struct hl_rng {
    uint64_t state;
} hl_rng;

void hl_rng_seed(hl_rng *r, uint64_t seed);
uint64_t hl_rng_next(hl_rng *r);
/* Uniform in [-1, 1], never 0, and exactly representable in single precision (so that a float
 * copy of generated data is the same matrix). */
double hl_uniform(hl_rng *r);
/* A random permutation of 0..n-1 into perm. */
void hl_permutation(hl_rng *r, int n, int *perm);

/* LAPACK's dgetf2 on the m x n matrix A (in place): partial pivoting with idamax's choice (the
 * first largest |a| in the current row order), 1-based ipiv (min(m, n) entries), the column
 * scaled by 1 / pivot when |pivot| >= the smallest normal (else divided), an exactly zero pivot
 * recorded (first one) and its column left unscaled. Returns info (0, or the first zero pivot's
 * 1-based index). ipiv may be NULL. */
int hl_getf2(int m, int n, double *A, int lda, int *ipiv);

/* A (m x n) = P L U from the packed factors of getrf (LU, m x n) and ipiv (min(m, n) entries,
 * 1-based; entries out of range are treated as no interchange). */
void hl_lu_product(int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda);

/* Applies the row interchanges of ipiv (k entries) to the m x n matrix X: forward (i = 0..k-1,
 * X <- P^T X) or backward (i = k-1..0, X <- P X). */
void hl_laswp(int n, double *X, int ldx, int k, const int *ipiv, int forward);


#ifdef __cplusplus
}
#endif
#endif
