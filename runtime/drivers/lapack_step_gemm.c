/* The factorizations' drivers' GEMM step (runtime/drivers/lapack_steps.h) through the dispatched
 * GEMM of each precision (runtime/drivers/driver_gemm*.c); a file of its own so that a host test
 * of a driver links lapack_steps.c with a host GEMM in its place. */
#include "driver_steps.h"
#include "lapack_steps.h"

shoal_status shoal_lapack_step_gemm(struct shoal_context *ctx, char prec, long long batch, int m, int n, int k,
                                    shoal_operand A, shoal_operand B, shoal_operand C)
{
    if (m <= 0 || n <= 0 || k <= 0) return SHOAL_STATUS_SUCCESS;
    shoal_spec_call c = {0};
    c.prec = prec;
    c.mode = A.array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    c.p.batch = batch;
    const shoal_driver_scalar minus_one = {-1.0, 0.0}, one = {1.0, 0.0};
    return shoal_driver_gemm_any(ctx, &c, 0, 0, m, n, k, minus_one, A, B, one, C);
}
