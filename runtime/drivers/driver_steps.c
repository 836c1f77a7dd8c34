#include "driver_steps.h"

shoal_spec_call shoal_driver_chunk(const shoal_spec_call *c, long long b0, long long nb)
{
    shoal_spec_call s = *c;
    const int elem = shoal_spec_elem_bytes(c->prec);
    for (int o = 0; o < SHOAL_SPEC_MAX_OPERANDS; ++o) {
        if (s.p.op[o].array) s.p.op[o].array += b0;
        else if (s.p.op[o].ptr) s.p.op[o].ptr = (char *)s.p.op[o].ptr + b0 * s.p.op[o].stride * elem;
    }
    s.p.batch = nb;
    return s;
}

cudaError_t shoal_driver_sub(struct shoal_context *ctx, const shoal_spec_call *c, int o, long long row,
                             long long col, int slot, shoal_operand *out)
{
    const shoal_operand *op = &c->p.op[o];
    const long long offset = (row + col * op->ld) * shoal_spec_elem_bytes(c->prec);
    *out = *op;
    if (!op->array) {
        out->ptr = (char *)op->ptr + offset;
        return cudaSuccess;
    }
    if (offset == 0) return cudaSuccess;
    void **dst = ctx->ws_ptrs + (long long)slot * SHOAL_WS_POINTERS;
    out->array = dst;
    return shoal_displace_pointers(dst, op->array, offset, c->p.batch, ctx->stream);
}

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
