/* What the factorizations' drivers (runtime/lapack_drivers.h) build their steps from: batch
 * chunks of a call, sub-matrices of its operands, and the dispatched routines that serve the
 * steps: the n <= 32 factorization kernels on diagonal blocks, TRSM and SYRK / HERK (spec
 * routines, with their own drivers above the kernels' sizes) on the rest. Steps are queued on
 * the handle's stream in order, so a workspace slot one step reads may be rewritten by a later
 * step's set-up. */
#ifndef SHOAL_LAPACK_STEPS_H
#define SHOAL_LAPACK_STEPS_H

#include "context.h"
#include "lapack_abi.h"
#include "spec_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Problems per chunk: a chunk's pointer arrays and step info fit the workspace. */
#ifndef SHOAL_LAPACK_CHUNK /* the host test (tests/c/test_chol_blocked_host.c) makes it small */
#define SHOAL_LAPACK_CHUNK SHOAL_WS_POINTERS
#endif

/* The chunk of p's problems from b0 (at most SHOAL_LAPACK_CHUNK of them) as a call of its own
 * (runtime/lapack_chunk.h) in precision prec. */
shoal_lapack_params shoal_lapack_chunk_at(char prec, const shoal_lapack_params *p, long long b0);

enum { SHOAL_LAPACK_OPERAND_A = 0, SHOAL_LAPACK_OPERAND_B = 1 };

/* Operand A or B of chunk p (batch <= SHOAL_LAPACK_CHUNK) displaced to element (row, col), as a
 * spec operand: strided, its pointer moves; pointer arrays are rewritten on the device into the
 * drivers' slot `slot` (< SHOAL_WS_LAPACK_SLOTS), except at (0, 0), where p's own array serves. */
cudaError_t shoal_lapack_sub(struct shoal_context *ctx, char prec, const shoal_lapack_params *p, int which,
                             long long row, long long col, int slot, shoal_operand *out);

/* shoal_lapack_sub for any operand of batch problems (<= SHOAL_LAPACK_CHUNK where it is pointer
 * arrays): orgbr's A, or its A^H in the workspace. */
cudaError_t shoal_operand_sub(struct shoal_context *ctx, char prec, shoal_operand whole, long long batch,
                              long long row, long long col, int slot, shoal_operand *out);

/* The tall-panel kernels' width for a panel of `rows` rows whose elements take row_elem bytes in
 * registers: the widest of 32, 16 and 8 whose rows fit 256 threads with at most 512 bytes (128
 * registers) of them each; the getrf and geqrf `tall` fallback kernels are such panels
 * (search_space/getrf.toml, geqrf.toml), so an untuned device has one for every width taken. */
enum { SHOAL_LAPACK_TALL_ROW_BYTES = 512 }; /* a thread's registers of the panel's rows, at most */
int shoal_lapack_tall_width(int row_elem, int rows);

/* op value of the (conjugate) transpose in a precision: C (2) in c and z, T (1) in s and d. */
int shoal_lapack_op_h(char prec);

/* B = op(A)^-1 B (side 0, B m x n, A m x m) or B op(A)^-1 (side 1, A n x n) on `batch` problems,
 * by the dispatched TRSM (alpha 1); op 0 = N, 1 = T, 2 = C; unit 1: A's diagonal is taken as
 * ones and not read. */
shoal_status shoal_lapack_step_trsm(struct shoal_context *ctx, char prec, long long batch, int side, int uplo, int op,
                                    int unit, int m, int n, shoal_operand A, shoal_operand B);

/* C = op(Q) C (side 0, C m x n, Q of order m) or C op(Q) (side 1, order n) on `batch` problems,
 * Q the product of the k reflectors geqrf left in A (below its diagonal) and tau (k per problem,
 * a vector operand: ld unused), by the dispatched ORMQR; op 0 = N, 1 = T, 2 = C. */
shoal_status shoal_lapack_step_ormqr(struct shoal_context *ctx, char prec, long long batch, int side, int op, int m,
                                     int n, int k, shoal_operand A, shoal_operand tau, shoal_operand C);

/* A <- the first n columns of Q = H_0 ... H_{k-1} (m >= n >= k) on `batch` problems, from the k
 * reflectors in A's first columns below the diagonal and tau (k per problem), by the dispatched
 * ORGQR. */
shoal_status shoal_lapack_step_orgqr(struct shoal_context *ctx, char prec, long long batch, int m, int n, int k,
                                     shoal_operand A, shoal_operand tau);

/* C -= A B (A m x k, B k x n, no transposes) on `batch` problems (one form: A.array set or not)
 * by the dispatched GEMM of the precision (runtime/drivers/lapack_step_gemm.c). */
shoal_status shoal_lapack_step_gemm(struct shoal_context *ctx, char prec, long long batch, int m, int n, int k,
                                    shoal_operand A, shoal_operand B, shoal_operand C);

/* The uplo triangle of C (n x n) -= op(A) op(A)^H on `batch` problems, op(A) n x k: A (trans 0) or
 * A^H (trans 1, A k x n), by the dispatched SYRK (s, d) or HERK (c, z). */
shoal_status shoal_lapack_step_rank_k(struct shoal_context *ctx, char prec, long long batch, int uplo, int trans,
                                      int n, int k, shoal_operand A, shoal_operand C);

/* info[i] = step[i] + offset where info[i] == 0 and step[i] > 0, for i < n, on stream
 * (runtime/drivers/info_merge.cu): a block's failure found at step offset becomes the matrix's
 * first failure in the whole matrix's numbering, and an earlier one is kept. */
cudaError_t shoal_info_merge(int *info, const int *step, long long n, int offset, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
