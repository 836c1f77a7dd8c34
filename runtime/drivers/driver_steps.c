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
