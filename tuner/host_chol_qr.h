/* Host references of the Cholesky and QR specs (tuner/spec_chol_qr.c) and of the GPU tests: a
 * seeded generator, Cholesky, Householder QR with LAPACK's conventions, Q formation, norms.
 * Plain C, double precision, column-major.
 *
 * "Lower view" F of a symmetric matrix stored in one triangle of a packed n x n array A:
 * F(r, c) = A(r, c) for uplo lower (up = 0), F(r, c) = A(c, r) for uplo upper (up = 1), r >= c.
 * potrf stores L (A = L L^T) or U = L^T (A = U^T U) there, i.e. F = L in both cases. */
#ifndef SHOAL_HOST_CHOL_QR_H
#define SHOAL_HOST_CHOL_QR_H

#include "host_math.h" /* oracle_matmul, oracle_norm1, oracle_round_float */

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64: different seeds give unrelated streams. */
typedef struct hcq_rng {
    uint64_t s;
} hcq_rng;
void hcq_rng_seed(hcq_rng *r, unsigned long long seed);
unsigned long long hcq_rng_next(hcq_rng *r);
double hcq_rng_uniform(hcq_rng *r); /* uniform in [-1, 1) */

/* Index in a packed n x n array of F(r, c) (r >= c) for the stored triangle up. */
static inline int hcq_fidx(int n, int up, int r, int c) { return up ? c + r * n : r + c * n; }
/* Whether element (i, j) of an n x n array lies in the stored triangle (diagonal included). */
static inline int hcq_in_tri(int up, int i, int j) { return up ? i <= j : i >= j; }

/* Generated inputs are exactly representable in float (oracle_round_float), so that the
 * single-precision data the harness uploads equals the double inputs the checks compare with
 * (bit for bit where a check demands it, e.g. the unreferenced triangle). */

/* A symmetric positive definite matrix (random symmetric, diagonally dominant: eigenvalues in
 * [0.5, 2 n + 1]) in the stored triangle of A (n x n, packed); the other triangle gets
 * independent random values (junk a correct kernel never reads). All entries are exact floats. */
void hcq_spd(double *A, int n, int up, hcq_rng *r);
/* The symmetric n x n matrix (both triangles) whose stored triangle A holds. */
void hcq_sym_from_tri(const double *A, int n, int up, double *S);
/* Cholesky of the lower view in place (unblocked, LAPACK's dpotf2 in its lower form): returns 0
 * or the 1-based column whose pivot is not positive (NaN included); the other triangle is not
 * touched. */
int hcq_potrf(double *A, int n, int up);
/* M = F F^T (n x n, both triangles) from the factor in the stored triangle of A. */
void hcq_fft(const double *A, int n, int up, double *M);

/* Householder QR of A (m x n, packed) in place with LAPACK's dgeqr2 output (dlarfg: beta =
 * -sign(alpha) ||(alpha, x)||, tau = (beta - alpha) / beta, v = x / (alpha - beta), tau = 0 for
 * x = 0); tau gets min(m, n) entries and alpha (may be NULL) the alpha of every reflector. */
void hcq_geqr2(double *A, int m, int n, double *tau, double *alpha);
/* Q (m x m, packed) = H(0) H(1) ... H(k-1) from the vectors below the diagonal of A (m x n,
 * packed; v(j) = 1 implied) and tau (k = min(m, n) entries). */
void hcq_form_q(const double *A, const double *tau, int m, int n, double *Q);

#ifdef __cplusplus
}
#endif
#endif
