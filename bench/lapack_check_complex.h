/* Residual checks of the factorizations in c and z for the benchmark (bench/lapack_bench.c):
 * the measures of oracle/lapack_check.h (the LAPACK test suite's) in complex arithmetic, so the
 * c/z rows are checked before the complex oracle lands in oracle/. Every residual is a normalized
 * backward error in the 1-norm (|z| = sqrt(re^2 + im^2), zlange's), in units of eps (the real
 * type's unit roundoff, oracle_eps('c') / oracle_eps('z')):
 *     getrf    ||A - P L U||              / (n ||A|| eps)                 (zget01)
 *     inverse  ||A C - I||                / (n ||A|| ||C|| eps)           (zget03)
 *     potrf    ||A - L L^H|| or ||A - U^H U|| / (n ||A|| eps)             (zpot01)
 *     geqrf    ||A - Q R||                / (n ||A|| eps), Q = H_1 ... H_n,
 *              H_i = I - tau_i v_i v_i^H (zlarfg's reflectors)            (zqrt01)
 *     solve    max_j ||op(A) x_j - b_j||_1 / (n ||op(A)||_1 ||x_j||_1 eps), op N, T or C
 * held to the same limit as the real rows (ORACLE_ERROR_LIMIT). NaN or Inf anywhere, pivots out
 * of range or a Cholesky diagonal whose real part is not positive give +Inf; an exact 0 / 0 is 0.
 *
 * Matrices are square, n x n, column-major with leading dimension n, each element an (re, im)
 * pair of doubles (callers convert float results). A is the original matrix; for potrf only its
 * uplo triangle is read and the imaginary part of its diagonal is taken as 0 (LAPACK's zpotrf
 * does not read it), the Hermitian matrix being rebuilt from that triangle. */
#ifndef SHOAL_LAPACK_CHECK_COMPLEX_H
#define SHOAL_LAPACK_CHECK_COMPLEX_H

/* LU holds unit-lower L and U; ipiv the n 1-based LAPACK pivots. */
double bench_cgetrf_residual(int n, const double *A, const double *LU, const int *ipiv, double eps);
/* C claimed to be inv(A). */
double bench_cinverse_residual(int n, const double *A, const double *C, double eps);
/* F holds the factor in its lower (upper = 0: A = L L^H) or upper (upper = 1: A = U^H U)
 * triangle; the other triangle of F is not read. */
double bench_cpotrf_residual(int upper, int n, const double *A, const double *F, double eps);
/* QR in LAPACK's layout (R on and above the diagonal, v_i below it with v_i(i) = 1), tau n
 * complex scalars. */
double bench_cgeqrf_residual(int n, const double *A, const double *QR, const double *tau, double eps);
/* X (n x nrhs, ld n) claimed to solve op(A) X = B (B ld n); trans 0 N, 1 T, 2 C. */
double bench_csolve_residual(int trans, int n, int nrhs, const double *A, const double *B, const double *X,
                             double eps);

#endif
