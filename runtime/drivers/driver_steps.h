/* What drivers build their steps from (runtime/drivers/): sub-matrices of a call's operands,
 * one batch chunk at a time, and the dispatched GEMM. Steps are queued on the handle's stream
 * in order, so a workspace slot that one step reads can be rewritten by the next step's
 * set-up: stream order finishes the first before the second starts. */
#ifndef SHOAL_DRIVER_STEPS_H
#define SHOAL_DRIVER_STEPS_H

#include "block_pointers.h"
#include "context.h"
#include "spec_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The problems [b0, b0 + nb) of a call, as a call of their own (nb <= the workspace's
 * SHOAL_WS_POINTERS for pointer arrays). */
shoal_spec_call shoal_driver_chunk(const shoal_spec_call *c, long long b0, long long nb);

/* Operand o of chunk c displaced to element (row, col): the strided form moves its pointer;
 * pointer arrays are rewritten into workspace slot `slot` (< SHOAL_WS_OPERANDS) by a kernel. */
cudaError_t shoal_driver_sub(struct shoal_context *ctx, const shoal_spec_call *c, int o, long long row,
                             long long col, int slot, shoal_operand *out);

/* A uniform grid of sub-matrices of one operand: `groups` blocks per problem, group g at element
 * (row + g row_step, col + g col_step). */
typedef struct shoal_block_grid {
    int o;                      /* operand index of the spec */
    long long row, col, row_step, col_step;
} shoal_block_grid;

/* The grids of n operands (n <= SHOAL_WS_OPERANDS) of chunk c as pointer arrays over
 * c->p.batch * groups problems (problem b's group g at b * groups + g), out[i] in workspace slot i:
 * one launch. groups == 1 on strided operands moves pointers instead (no launch). A step over
 * the blocks is the chunk's call with that batch, in the form out[0].array ? array : strided. */
cudaError_t shoal_driver_blocks(struct shoal_context *ctx, const shoal_spec_call *c, const shoal_block_grid *grid,
                                int n, long long groups, shoal_operand *out);

/* C = alpha op(A) op(B) + beta C on the chunk's problems (c->p.batch of them, in c->mode), by the
 * dispatched GEMM. */
shoal_status shoal_driver_gemm(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m, int n,
                               int k, double alpha, shoal_operand A, shoal_operand B, double beta,
                               shoal_operand C);

/* A scalar of any precision: the real part, and the imaginary part of the complex ones. */
typedef struct shoal_driver_scalar {
    double re, im;
} shoal_driver_scalar;

/* The same in the complex precisions (c, z), with complex scalars and op 2 = C (conjugate
 * transpose), by the dispatched c/z GEMM (runtime/drivers/driver_gemm_complex.c). */
shoal_status shoal_driver_gemm_complex(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m,
                                       int n, int k, shoal_driver_scalar alpha, shoal_operand A, shoal_operand B,
                                       shoal_driver_scalar beta, shoal_operand C);

/* Either of the two by the call's precision: shoal_driver_gemm in s and d (op 2 taken as T, the
 * scalars' real parts), shoal_driver_gemm_complex in c and z. */
shoal_status shoal_driver_gemm_any(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m, int n,
                                   int k, shoal_driver_scalar alpha, shoal_operand A, shoal_operand B,
                                   shoal_driver_scalar beta, shoal_operand C);

#ifdef __cplusplus
}
#endif
#endif
