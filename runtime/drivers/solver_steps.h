/* What the QR-based solver drivers (runtime/drivers/gels_qr.c, gelqf_qr.c) share: how many
 * problems a chunk holds in the handle's solver workspace, and geqrf as a step on any operand. */
#ifndef SHOAL_SOLVER_STEPS_H
#define SHOAL_SOLVER_STEPS_H

#include "context.h"
#include "spec_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Problems per chunk where each takes `bytes` of the solver workspace (SHOAL_SOLVER_WS_BYTES):
 * at most SHOAL_LAPACK_CHUNK (the steps' pointer arrays and step_info); 0 where one does not fit. */
long long shoal_solver_chunk(long long bytes);

/* geqrf of `batch` m x n problems of A with min(m, n) tau each, both operands in either form
 * (tau's ld unused): the geqrf kernels, or its blocked driver above 32 (shoal_lapack_run_ctx:
 * never the vendor, which takes no mixed forms). */
shoal_status shoal_solver_step_geqrf(struct shoal_context *ctx, char prec, long long batch, int m, int n,
                                     shoal_operand A, shoal_operand tau);

#ifdef __cplusplus
}
#endif
#endif
