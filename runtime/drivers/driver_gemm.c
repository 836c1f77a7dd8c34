/* The drivers' GEMM step through the public, dispatched GEMM (runtime/drivers/driver_steps.h); a
 * file of its own so that tests/c/test_drivers_host.c links the real sub-matrix steps
 * (driver_steps.c) with a host GEMM in its place. */
#include "driver_steps.h"

shoal_status shoal_driver_gemm(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m, int n,
                               int k, double alpha, shoal_operand A, shoal_operand B, double beta,
                               shoal_operand C)
{
    const shoal_operation oa = ta ? SHOAL_OP_T : SHOAL_OP_N, ob = tb ? SHOAL_OP_T : SHOAL_OP_N;
    const long long batch = c->p.batch;
    if (c->prec == 's') {
        if (c->mode == SHOAL_MODE_ARRAY)
            return shoal_sgemm_batched(ctx, oa, ob, m, n, k, (float)alpha, (const float *const *)A.array, A.ld,
                                       (const float *const *)B.array, B.ld, (float)beta, (float *const *)C.array,
                                       C.ld, batch);
        return shoal_sgemm_strided_batched(ctx, oa, ob, m, n, k, (float)alpha, (const float *)A.ptr, A.ld, A.stride,
                                           (const float *)B.ptr, B.ld, B.stride, (float)beta, (float *)C.ptr, C.ld,
                                           C.stride, batch);
    }
    if (c->prec == 'd') {
        if (c->mode == SHOAL_MODE_ARRAY)
            return shoal_dgemm_batched(ctx, oa, ob, m, n, k, alpha, (const double *const *)A.array, A.ld,
                                       (const double *const *)B.array, B.ld, beta, (double *const *)C.array, C.ld,
                                       batch);
        return shoal_dgemm_strided_batched(ctx, oa, ob, m, n, k, alpha, (const double *)A.ptr, A.ld, A.stride,
                                           (const double *)B.ptr, B.ld, B.stride, beta, (double *)C.ptr, C.ld,
                                           C.stride, batch);
    }
    return SHOAL_STATUS_NOT_SUPPORTED;
}
