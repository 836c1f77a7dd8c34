/* Host residuals of the factorization benchmark (bench/lapack_bench.c): cheap checks on a few
 * sampled matrices that a GPU result is a genuine factorization / inverse / solution.
 *
 * Every residual is the normalized backward error of the LAPACK test suite (xGET01, xGET03,
 * xPOT01, xQRT01, xGET02), in the 1-norm:
 *     getrf   ||P A - L U||            / (n ||A|| eps)
 *     inverse ||I - A C||              / (n ||A|| ||C|| eps)
 *     potrf   ||A - L L^T|| (U^T U)    / (n ||A|| eps)
 *     geqrf   ||A - Q R||              / (max(m, n) ||A|| eps)
 *     solve   max_j ||b_j - A x_j||    / (n ||A|| ||x_j|| eps)
 * with eps the unit roundoff of the precision the GPU computed in. A correct routine keeps these
 * below a small constant independent of n and of the conditioning of A (LAPACK's tests use 30,
 * LC_RESIDUAL_LIMIT). NaN or Inf anywhere, or pivots out of range, give +Inf, so a result that
 * was never written (outputs are poisoned with NaN before the check) cannot pass.
 *
 * All matrices are column-major doubles (the caller converts float results with lc_to_double);
 * A is always the original, unfactored matrix.
 */
#ifndef SHOAL_LAPACK_CHECK_H
#define SHOAL_LAPACK_CHECK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LC_RESIDUAL_LIMIT 30.0


/* dst[i] = src[i] for i < count, src float ('s') or double ('d'). */
void lc_to_double(char prec, const void *src, int64_t count, double *dst);

/* LU from getrf: LU holds L (unit lower, below the diagonal) and U (on and above it) of the
 * m x n matrix A; ipiv the min(m, n) 1-based LAPACK pivots. */
double lc_getrf_residual(int m, int n, const double *A, int lda, const double *LU, int ldlu,
                         const int *ipiv, double eps);

/* C claimed to be inv(A), n x n. */
double lc_inverse_residual(int n, const double *A, int lda, const double *C, int ldc, double eps);

/* F holds the Cholesky factor of the symmetric A in its lower (upper = 0) or upper triangle; the
 * other triangle of F is ignored (the routines do not reference it). A must be stored full. */
double lc_potrf_residual(int upper, int n, const double *A, int lda, const double *F, int ldf,
                         double eps);

/* QR from geqrf (LAPACK layout: R on and above the diagonal, Householder vectors below it with
 * an implied unit leading entry) and its min(m, n) scalars tau. */
double lc_geqrf_residual(int m, int n, const double *A, int lda, const double *QR, int ldqr,
                         const double *tau, double eps);

/* X (n x nrhs) claimed to solve A X = B. */
double lc_solve_residual(int n, int nrhs, const double *A, int lda, const double *B, int ldb,
                         const double *X, int ldx, double eps);

#ifdef __cplusplus
}
#endif
#endif
