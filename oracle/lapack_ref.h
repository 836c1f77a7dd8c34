/* Host references of the factorizations (LU, Cholesky, QR) and the generators of their inputs:
 * one place, used by the tuner's specs (tuner/spec_lu.c, tuner/spec_chol_qr.c), the GPU tests
 * (tests/gpu/test_lu_gpu.c, tests/gpu/test_chol_qr_gpu.c) and, through the residuals of
 * oracle/lapack_check.h, the benchmark. Plain C11 and libm, double precision, column-major with
 * explicit leading dimensions, LAPACK's unblocked algorithms and conventions.
 *
 * "Lower view" F of a symmetric matrix stored in one triangle of an n x n array A:
 * F(r, c) = A(r, c) for uplo lower (up = 0), F(r, c) = A(c, r) for uplo upper (up = 1), r >= c.
 * potf2 stores L (A = L L^T) or U = L^T (A = U^T U) there, i.e. F = L in both cases.
 *
 * Complex (c, z; the oracle_z* functions): every element a (re, im) pair of doubles, leading
 * dimensions and counts in elements, LAPACK's complex routines (zgetf2, zpotf2, zgeqr2). Each
 * real function is its complex one's code with imaginary parts 0 (lapack_ref.c: one
 * implementation per concept). The Hermitian lower view: F(r, c) = A(r, c) for lower, conj(A(c, r))
 * for upper (U = L^H), so that F = L in both cases again; the imaginary part of A's diagonal is
 * not referenced (zpotf2 ignores it) and the factor's diagonal is written real (imaginary 0). */
#ifndef SHOAL_LAPACK_REF_H
#define SHOAL_LAPACK_REF_H

#include <stddef.h>
#include <stdint.h>

#include "host_math.h" /* oracle_splitmix64, oracle_uniform, oracle_round_float, norms, product */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- random inputs (streams of oracle_splitmix64; the state is the seed) ------------------ */

/* Uniform in [-1, 1], never 0, and exactly representable in single precision (23 random bits:
 * k / 2^22 - 1), so that a float copy of generated data is the same matrix. */
double oracle_uniform_float(uint64_t *state);
/* A random permutation of 0..n-1 into perm (Fisher-Yates from the last element). */
void oracle_permutation(uint64_t *state, int n, int *perm);

/* LU family: an m x n matrix (packed) of oracle_uniform_float entries. */
void oracle_lu_random(uint64_t *state, int m, int n, double *A);
/* A random n x n matrix plus a shift (1.5 sqrt(n) + 1, past the random part's spectral norm) on
 * a random permutation's entries: well conditioned, and partial pivoting has rows to
 * interchange. Entries stay float-exact. */
void oracle_lu_conditioned(uint64_t *state, int n, double *A);
/* The LU factors (oracle_getf2) of a conditioned matrix, rounded to float: a valid factorization
 * of the nearby matrix P L U. */
void oracle_lu_factors(uint64_t *state, int n, double *A, int *ipiv);

/* Cholesky and QR: count entries oracle_uniform rounded to float. */
void oracle_fill_float(uint64_t *state, size_t count, double *x);
/* A symmetric positive definite matrix (random symmetric, diagonally dominant: eigenvalues in
 * [0.5, 2 n + 1]) in the stored triangle of A (n x n, packed); the other triangle gets
 * independent random values (junk a correct kernel never reads). All entries are exact floats. */
void oracle_spd(uint64_t *state, int n, int up, double *A);

/* Complex inputs: both parts drawn as above (oracle_uniform_float / oracle_fill_float). The
 * conditioned matrix's shift (1.5 sqrt(2 n) + 1, on the real part) passes the complex random
 * part's spectral norm; pivoting by |re| + |im| still has rows to interchange. */
void oracle_zlu_random(uint64_t *state, int m, int n, double *A);
void oracle_zlu_conditioned(uint64_t *state, int n, double *A);
void oracle_zlu_factors(uint64_t *state, int n, double *A, int *ipiv);
/* A Hermitian positive definite matrix in the stored triangle (off-diagonal both parts random,
 * the diagonal's real part past the row's sum of moduli: eigenvalues in [0.5, ~3 n + 1]), with a
 * stray nonzero imaginary part (up to n + 1 in magnitude) on the diagonal, which the routines
 * must not read; the other triangle random junk. All parts exact floats. */
void oracle_hpd(uint64_t *state, int n, int up, double *A);

/* ---- LU with partial pivoting ------------------------------------------------------------- */

/* LAPACK's dgetf2 on the m x n matrix A (in place): partial pivoting with idamax's choice (the
 * first largest |a| in the current row order), 1-based ipiv (min(m, n) entries), the column
 * scaled by 1 / pivot when |pivot| >= the smallest normal (else divided), an exactly zero pivot
 * recorded (first one) and its column left unscaled. Returns info (0, or the first zero pivot's
 * 1-based index). ipiv may be NULL. */
int oracle_getf2(int m, int n, double *A, int lda, int *ipiv);
/* zgetf2: izamax's |re| + |im| pivot choice, the column scaled by the reciprocal (Smith's
 * division) when |pivot| >= the smallest normal; an exactly zero pivot is both parts 0. */
int oracle_zgetf2(int m, int n, double *A, int lda, int *ipiv);

/* A (m x n) = P L U from the packed factors of getrf (LU, m x n) and ipiv (min(m, n) entries,
 * 1-based; entries out of range are treated as no interchange). */
void oracle_lu_product(int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda);
void oracle_zlu_product(int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda);

/* Applies the row interchanges of ipiv (k entries) to the columns of X (n of them): forward
 * (i = 0..k-1, X <- P^T X) or backward (i = k-1..0, X <- P X). */
void oracle_laswp(int n, double *X, int ldx, int k, const int *ipiv, int forward);
void oracle_zlaswp(int n, double *X, int ldx, int k, const int *ipiv, int forward);

/* ---- Cholesky ------------------------------------------------------------------------------ */

/* Index of F(r, c) (r >= c) for the stored triangle up of an array with leading dimension ld. */
static inline size_t oracle_fidx(int ld, int up, int r, int c)
{
    return up ? (size_t)c + (size_t)r * ld : (size_t)r + (size_t)c * ld;
}
/* Whether element (i, j) of an n x n array lies in the stored triangle (diagonal included). */
static inline int oracle_in_tri(int up, int i, int j) { return up ? i <= j : i >= j; }

/* The symmetric n x n matrix S (packed, both triangles) whose stored triangle A holds. */
void oracle_sym_from_tri(int n, int up, const double *A, int lda, double *S);
/* The Hermitian matrix (both triangles, the diagonal real) whose stored triangle A holds. */
void oracle_herm_from_tri(int n, int up, const double *A, int lda, double *S);
/* Cholesky of the lower view in place (unblocked, LAPACK's dpotf2 in its lower form): returns 0
 * or the 1-based column whose pivot is not positive (NaN included); the other triangle is not
 * touched. */
int oracle_potf2(int n, int up, double *A, int lda);
/* zpotf2 (A = L L^H or U^H U): the diagonal's imaginary part not read, the factor's written 0. */
int oracle_zpotf2(int n, int up, double *A, int lda);
/* M = F F^T (n x n, packed, both triangles) from the factor in the stored triangle of F. */
void oracle_chol_product(int n, int up, const double *F, int ldf, double *M);
/* M = F F^H from the lower view of the stored triangle. */
void oracle_zchol_product(int n, int up, const double *F, int ldf, double *M);

/* ---- Householder QR ------------------------------------------------------------------------ */

/* Householder QR of A (m x n) in place with LAPACK's dgeqr2 output (dlarfg: beta =
 * -sign(alpha) ||(alpha, x)||, tau = (beta - alpha) / beta, v = x / (alpha - beta), tau = 0 for
 * x = 0); tau gets min(m, n) entries and alpha (may be NULL) the alpha of every reflector. */
void oracle_geqr2(int m, int n, double *A, int lda, double *tau, double *alpha);
/* zgeqr2 with zlarfg: beta = -sign(re alpha) ||(alpha, x)|| (real), tau = ((beta - re alpha) /
 * beta, -im alpha / beta), v = x / (alpha - beta); tau = 0 only where x = 0 and alpha is real
 * (so the last reflector of an m <= n matrix is not the identity when its alpha is complex);
 * H(j)^H applied to the trailing columns. tau and alpha are complex (pairs). */
void oracle_zgeqr2(int m, int n, double *A, int lda, double *tau, double *alpha);
/* C = Q C for Q = H(0) H(1) ... H(k-1) as below (C: m x ncols, leading dimension ldc), without
 * forming Q; zapply_q: complex. */
void oracle_apply_q(int m, int n, const double *A, int lda, const double *tau, int ncols, double *C, size_t ldc);
void oracle_zapply_q(int m, int n, const double *A, int lda, const double *tau, int ncols, double *C, size_t ldc);
/* Q (m x m, packed) = H(0) H(1) ... H(k-1) from the vectors below the diagonal of A (m x n;
 * v(j) = 1 implied) and tau (k = min(m, n) entries). */
void oracle_form_q(int m, int n, const double *A, int lda, const double *tau, double *Q);
/* Q = H(0) ... H(k-1), H(j) = I - tau(j) v(j) v(j)^H (m x m complex, packed). */
void oracle_zform_q(int m, int n, const double *A, int lda, const double *tau, double *Q);

#ifdef __cplusplus
}
#endif
#endif
