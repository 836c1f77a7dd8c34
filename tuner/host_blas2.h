/* Host references and checks of the level-2 routines (gemv, trsv), in double: shared by the
 * tuner (tuner/measure_blas2.c) and the GPU tests. Vectors follow BLAS increments: element i of a
 * length-len vector with increment inc sits at v[i * inc] (inc > 0) or v[(len - 1 - i) * -inc]. */
#ifndef SHOAL_HOST_BLAS2_H
#define SHOAL_HOST_BLAS2_H

#ifdef __cplusplus
extern "C" {
#endif

/* The limit the checks' normalized errors (units of eps) are held to. */
#define BLAS2_ERROR_LIMIT 16.0

/* offset of element i of a length-len vector with increment inc */
long long blas2_vec_index(int i, int len, long long inc);

/* Uniform values in [-1, 1) from a counter hash of seed; rounded to float when single. */
void blas2_random(double *v, long long count, unsigned long long seed, int single);

/* An n x n triangular matrix (ld = lda) that solves accurately in single precision: diagonal
 * entries of magnitude in [1, 2) with random signs, the referenced off-diagonal triangle uniform
 * in [-1, 1) / n, and the other triangle NaN (a kernel that reads it shows). */
void blas2_triangular(int n, long long lda, int upper, unsigned long long seed, int single, double *A);

/* max_i |y_i - ref_i| / (eps (|alpha| len max|A| max|x| + |beta| max|y0|)) with ref = alpha op(A) x
 * + beta y0 computed here (y0 ignored when beta == 0); NaN anywhere counts as INFINITY. */
double blas2_gemv_error(int trans, int m, int n, double alpha, const double *A, long long lda, const double *x,
                        long long incx, double beta, const double *y0, const double *y, long long incy, double eps);

/* ||op(A) x - b||_inf / (eps n (||op(A)||_inf ||x||_inf + ||b||_inf)); INFINITY for NaN. */
double blas2_trsv_error(int upper, int trans, int unit, int n, const double *A, long long lda, const double *b,
                        const double *x, long long incx, double eps);

/* Complex (c, z): every element an (re, im) pair of doubles (A, x, y, b; lda and increments in
 * elements); blas2_random fills them with 2 count values. trans: 0 N, 1 T, 2 C (conjugate
 * transpose); the errors use |z| = sqrt(re^2 + im^2) and eps of the real type. The triangle's
 * diagonal has |re| in [1, 2), |im| < 1; the referenced off-diagonal parts are uniform / n. */
void blas2_ctriangular(int n, long long lda, int upper, unsigned long long seed, int single, double *A);
double blas2_cgemv_error(int trans, int m, int n, const double alpha[2], const double *A, long long lda,
                         const double *x, long long incx, const double beta[2], const double *y0, const double *y,
                         long long incy, double eps);
double blas2_ctrsv_error(int upper, int trans, int unit, int n, const double *A, long long lda, const double *b,
                         const double *x, long long incx, double eps);

#ifdef __cplusplus
}
#endif
#endif
