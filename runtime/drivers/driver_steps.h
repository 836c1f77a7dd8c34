/* What drivers build their steps from (runtime/drivers/): sub-matrices of a call's operands,
 * one batch chunk at a time, and the dispatched GEMM. Steps are queued on the handle's stream
 * in order, so a workspace slot that one step reads can be rewritten by the next step's
 * set-up: stream order finishes the first before the second starts. */
#ifndef SHOAL_DRIVER_STEPS_H
#define SHOAL_DRIVER_STEPS_H

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

/* C = alpha op(A) op(B) + beta C on the chunk's problems, by the dispatched GEMM. */
shoal_status shoal_driver_gemm(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m, int n,
                               int k, double alpha, shoal_operand A, shoal_operand B, double beta,
                               shoal_operand C);

/* out[i] = in[i] + offset_bytes for i < n, on stream (runtime/drivers/displace.cu). */
cudaError_t shoal_displace_pointers(void **out, void *const *in, long long offset_bytes, long long n,
                                    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
