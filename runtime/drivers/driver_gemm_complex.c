/* The drivers' GEMM step in the complex precisions (runtime/drivers/driver_steps.h): cuBLAS's
 * batched complex GEMM on the handle's cuBLAS handle (bound to its stream), until shoal's own GEMM
 * serves c and z (issue 28: GEMM is the next routine to gain them; then this step goes through the
 * dispatched GEMM like the real one, runtime/drivers/driver_gemm.c). Nothing is allocated: the
 * pointer arrays are the driver's workspace slots or the caller's. */
#include <limits.h>

#include "driver_steps.h"

static cublasOperation_t op_of(int t) { return t == 2 ? CUBLAS_OP_C : t ? CUBLAS_OP_T : CUBLAS_OP_N; }

shoal_status shoal_driver_gemm_complex(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m,
                                       int n, int k, shoal_driver_scalar alpha, shoal_operand A, shoal_operand B,
                                       shoal_driver_scalar beta, shoal_operand C)
{
    if (A.ld > INT_MAX || B.ld > INT_MAX || C.ld > INT_MAX) return SHOAL_STATUS_NOT_SUPPORTED;
    const cublasOperation_t oa = op_of(ta), ob = op_of(tb);
    const cuComplex ca = {(float)alpha.re, (float)alpha.im}, cb = {(float)beta.re, (float)beta.im};
    const cuDoubleComplex za = {alpha.re, alpha.im}, zb = {beta.re, beta.im};
    const int array = c->mode == SHOAL_MODE_ARRAY;
    for (long long b0 = 0; b0 < c->p.batch; b0 += INT_MAX) {
        const long long rest = c->p.batch - b0;
        const int nb = (int)(rest < INT_MAX ? rest : INT_MAX);
        cublasStatus_t st = CUBLAS_STATUS_NOT_SUPPORTED;
        if (c->prec == 'c' && array)
            st = cublasCgemmBatched(ctx->cublas, oa, ob, m, n, k, &ca, (const cuComplex *const *)A.array + b0,
                                    (int)A.ld, (const cuComplex *const *)B.array + b0, (int)B.ld, &cb,
                                    (cuComplex *const *)C.array + b0, (int)C.ld, nb);
        else if (c->prec == 'c')
            st = cublasCgemmStridedBatched(ctx->cublas, oa, ob, m, n, k, &ca, (const cuComplex *)A.ptr + b0 * A.stride,
                                           (int)A.ld, A.stride, (const cuComplex *)B.ptr + b0 * B.stride, (int)B.ld,
                                           B.stride, &cb, (cuComplex *)C.ptr + b0 * C.stride, (int)C.ld, C.stride, nb);
        else if (c->prec == 'z' && array)
            st = cublasZgemmBatched(ctx->cublas, oa, ob, m, n, k, &za, (const cuDoubleComplex *const *)A.array + b0,
                                    (int)A.ld, (const cuDoubleComplex *const *)B.array + b0, (int)B.ld, &zb,
                                    (cuDoubleComplex *const *)C.array + b0, (int)C.ld, nb);
        else if (c->prec == 'z')
            st = cublasZgemmStridedBatched(ctx->cublas, oa, ob, m, n, k, &za,
                                           (const cuDoubleComplex *)A.ptr + b0 * A.stride, (int)A.ld, A.stride,
                                           (const cuDoubleComplex *)B.ptr + b0 * B.stride, (int)B.ld, B.stride, &zb,
                                           (cuDoubleComplex *)C.ptr + b0 * C.stride, (int)C.ld, C.stride, nb);
        else
            return SHOAL_STATUS_NOT_SUPPORTED;
        if (st != CUBLAS_STATUS_SUCCESS) return SHOAL_STATUS_VENDOR_ERROR;
    }
    return SHOAL_STATUS_SUCCESS;
}
