/* Host arithmetic the correctness checks share (oracle, tuner references, GPU tests, benchmarks):
 * one random generator, the norms and the product the residuals are made of. Double precision,
 * column-major, no allocation. */
#ifndef SHOAL_HOST_MATH_H
#define SHOAL_HOST_MATH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64: the next 64 random bits of the stream *state (every state starts a new stream) */
uint64_t oracle_splitmix64(uint64_t *state);

/* uniform in [-1, 1) from the top 53 bits of the stream's next value (the spec oracles' and the
 * Cholesky/QR references' inputs) */
double oracle_uniform(uint64_t *state);

/* unit roundoff of a precision's real type: 2^-24 for s and c, 2^-53 for d and z */
double oracle_eps(char prec);

/* x rounded to float and back: data every precision holds exactly */
double oracle_round_float(double x);

/* largest column sum of magnitudes / largest magnitude of an m x n matrix; NaN propagates (a
 * later column's larger value must not hide it) */
double oracle_norm1(int m, int n, const double *X, int64_t ld);
double oracle_max_abs(int m, int n, const double *X, int64_t ld);

/* C = op(A) B, op(A) = A (m x k, ta = 0) or A^T (A k x m, ta = 1), B k x n; sums in k order */
void oracle_matmul(int ta, int m, int n, int k, const double *A, int64_t lda, const double *B, int64_t ldb,
                   double *C, int64_t ldc);

/* Complex (c, z) forms of the above: every element a (re, im) pair of doubles (ld counts
 * elements), |x| the modulus (LAPACK's zlange); the real ones are these with imaginary parts 0,
 * computed by the same code (host_math.c). op: 0 N, 1 T, 2 C (A^H). */
double oracle_znorm1(int m, int n, const double *X, int64_t ld);
double oracle_zmax_abs(int m, int n, const double *X, int64_t ld);
void oracle_zmatmul(int op, int m, int n, int k, const double *A, int64_t lda, const double *B, int64_t ldb,
                    double *C, int64_t ldc);

#ifdef __cplusplus
}
#endif
#endif
