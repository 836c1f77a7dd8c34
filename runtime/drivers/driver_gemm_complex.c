/* The drivers' GEMM step in the complex precisions (runtime/drivers/driver_steps.h): the public,
 * dispatched c/z GEMM (shoal's kernels, or cuBLAS where the tuned table chose it), as
 * runtime/drivers/driver_gemm.c is for s and d. A file of its own for the same reason: the host
 * test of the drivers links its own GEMM in its place. */
#include "driver_steps.h"

static shoal_operation op_of(int t) { return t == 2 ? SHOAL_OP_C : t ? SHOAL_OP_T : SHOAL_OP_N; }

shoal_status shoal_driver_gemm_complex(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m,
                                       int n, int k, shoal_driver_scalar alpha, shoal_operand A, shoal_operand B,
                                       shoal_driver_scalar beta, shoal_operand C)
{
    const shoal_operation oa = op_of(ta), ob = op_of(tb);
    const long long batch = c->p.batch;
    const int array = c->mode == SHOAL_MODE_ARRAY;
    if (c->prec == 'c') {
        typedef shoal_complex_float T;
        const T a = {(float)alpha.re, (float)alpha.im}, b = {(float)beta.re, (float)beta.im};
        if (array)
            return shoal_cgemm_batched(ctx, oa, ob, m, n, k, a, (const T *const *)A.array, A.ld,
                                       (const T *const *)B.array, B.ld, b, (T *const *)C.array, C.ld, batch);
        return shoal_cgemm_strided_batched(ctx, oa, ob, m, n, k, a, (const T *)A.ptr, A.ld, A.stride,
                                           (const T *)B.ptr, B.ld, B.stride, b, (T *)C.ptr, C.ld, C.stride, batch);
    }
    if (c->prec == 'z') {
        typedef shoal_complex_double T;
        const T a = {alpha.re, alpha.im}, b = {beta.re, beta.im};
        if (array)
            return shoal_zgemm_batched(ctx, oa, ob, m, n, k, a, (const T *const *)A.array, A.ld,
                                       (const T *const *)B.array, B.ld, b, (T *const *)C.array, C.ld, batch);
        return shoal_zgemm_strided_batched(ctx, oa, ob, m, n, k, a, (const T *)A.ptr, A.ld, A.stride,
                                           (const T *)B.ptr, B.ld, B.stride, b, (T *)C.ptr, C.ld, C.stride, batch);
    }
    return SHOAL_STATUS_NOT_SUPPORTED;
}
