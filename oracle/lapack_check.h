/* Residual checks of the factorizations: one place, used by the tuner's specs (tuner/spec_lu.c,
 * tuner/spec_chol_qr.c, which add the checks of info, pivots and conventions), the GPU tests
 * through them, and the benchmark (bench/lapack_bench.c).
 *
 * Every residual is a normalized backward error in the 1-norm, in units of eps (the unit roundoff
 * of the precision the result was computed in), after the LAPACK test suite:
 *     getrf    ||A - P L U||              / (n ||A|| eps)                 (xGET01)
 *     inverse  ||A C - I||                / (n ||A|| ||C|| eps)           (xGET03)
 *     potrf    ||A - F F^T||              / (n ||A|| eps)                 (xPOT01)
 *     geqrf    ||A - Q R||                / (max(m, n) ||A|| eps)         (xQRT01)
 *     orth     ||I - Q^T Q||              / (m eps)                       (xQRT01)
 *     solve    max_j ||op(A) x_j - b_j||  / (n ||op(A)|| ||x_j|| eps)      (xGET02, xPOT02)
 * A correct routine keeps these below a small constant independent of n and of the conditioning
 * of A (LAPACK's tests use 30: ORACLE_ERROR_LIMIT, LAPACK_ERROR_LIMIT). NaN or Inf anywhere,
 * pivots out of range or a non-positive Cholesky diagonal give +Inf, so a result that was never
 * written (outputs poisoned with NaN) cannot pass; an exact 0 / 0 is a perfect 0.
 *
 * Column-major doubles with leading dimensions (callers convert float results to double); A is
 * always the original, unfactored matrix.
 *
 * Complex (c, z; the oracle_z* functions): elements are (re, im) pairs of doubles, leading
 * dimensions in elements; the same ratios in complex arithmetic (Q^H Q, F F^H, op(A) = A^H for
 * op 2), |x| the modulus in the 1-norms (zlange), eps the unit roundoff of the real type
 * (oracle_eps). The real functions are these with imaginary parts 0 (one code). */
#ifndef SHOAL_LAPACK_CHECK_H
#define SHOAL_LAPACK_CHECK_H

#ifdef __cplusplus
extern "C" {
#endif

/* LU from getrf: LU holds L (unit lower, below the diagonal) and U (on and above it) of the
 * m x n matrix A; ipiv the min(m, n) 1-based LAPACK pivots (i <= ipiv(i) <= m, else +Inf). */
double oracle_getrf_residual(int m, int n, const double *A, int lda, const double *LU, int ldlu, const int *ipiv,
                             double eps);
double oracle_zgetrf_residual(int m, int n, const double *A, int lda, const double *LU, int ldlu, const int *ipiv,
                              double eps);

/* C claimed to be inv(A), n x n. */
double oracle_inverse_residual(int n, const double *A, int lda, const double *C, int ldc, double eps);
double oracle_zinverse_residual(int n, const double *A, int lda, const double *C, int ldc, double eps);

/* F holds the Cholesky factor of the symmetric A in its lower (upper = 0: L L^T) or upper
 * (upper = 1: U^T U) triangle; only that triangle of A and of F is read (the routines do not
 * reference the other one). A diagonal of F that is not positive and finite gives +Inf. */
double oracle_potrf_residual(int upper, int n, const double *A, int lda, const double *F, int ldf, double eps);
/* Hermitian: A's diagonal imaginary parts are not read (the matrix is the Hermitian one with a
 * real diagonal), F = L (L L^H) or U = L^H (U^H U); a diagonal of F with a nonzero imaginary
 * part gives +Inf (LAPACK writes it real). */
double oracle_zpotrf_residual(int upper, int n, const double *A, int lda, const double *F, int ldf, double eps);

/* QR from geqrf (LAPACK layout: R on and above the diagonal, Householder vectors below it with
 * an implied unit leading entry) and its min(m, n) scalars tau: ||A - Q R||, with Q formed from
 * the reflectors (oracle_form_q). */
double oracle_geqrf_residual(int m, int n, const double *A, int lda, const double *QR, int ldqr, const double *tau,
                             double eps);
/* Q = H(0) ... H(k-1) with H(j) = I - tau(j) v(j) v(j)^H (zgeqr2's convention), tau complex. */
double oracle_zgeqrf_residual(int m, int n, const double *A, int lda, const double *QR, int ldqr, const double *tau,
                              double eps);
/* The orthogonality of the same Q (m x m): a check of its own, since wrong tau can make a Q that
 * is not orthogonal while Q R still matches A. */
double oracle_orthogonality_residual(int m, int n, const double *QR, int ldqr, const double *tau, double eps);
/* ||I - Q^H Q|| / (m eps) */
double oracle_zorthogonality_residual(int m, int n, const double *QR, int ldqr, const double *tau, double eps);

/* X (n x nrhs) claimed to solve op(A) X = B, op(A) = A (trans = 0) or A^T (trans = 1). */
double oracle_solve_residual(int trans, int n, int nrhs, const double *A, int lda, const double *B, int ldb,
                             const double *X, int ldx, double eps);
/* op: 0 N, 1 T (A^T), 2 C (A^H) */
double oracle_zsolve_residual(int op, int n, int nrhs, const double *A, int lda, const double *B, int ldb,
                              const double *X, int ldx, double eps);

#ifdef __cplusplus
}
#endif
#endif
