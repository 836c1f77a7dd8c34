#include "driver_steps.h"

/* Each operand by its own element: a real vector's (gebrd's d, e) is half of c's and z's. */
shoal_spec_call shoal_driver_chunk(const shoal_spec_call *c, long long b0, long long nb)
{
    shoal_spec_call s = *c;
    for (int o = 0; o < SHOAL_SPEC_MAX_OPERANDS; ++o) {
        if (s.p.op[o].array) s.p.op[o].array += b0;
        else if (s.p.op[o].ptr)
            s.p.op[o].ptr = (char *)s.p.op[o].ptr + b0 * s.p.op[o].stride * shoal_spec_operand_elem_bytes(c, o);
    }
    s.p.batch = nb;
    return s;
}

/* Operand o's problems as the source of pointer arrays, displaced to element (row, col). */
static shoal_block_source source(const shoal_spec_call *c, int o, long long row, long long col)
{
    const shoal_operand *op = &c->p.op[o];
    const long long elem = shoal_spec_operand_elem_bytes(c, o);
    shoal_block_source s = {op->array, (char *)op->ptr, op->stride * elem, (row + col * op->ld) * elem, 0};
    return s;
}

cudaError_t shoal_driver_sub(struct shoal_context *ctx, const shoal_spec_call *c, int o, long long row,
                             long long col, int slot, shoal_operand *out)
{
    const shoal_block_source s = source(c, o, row, col);
    *out = c->p.op[o];
    if (!s.in) {
        out->ptr = s.base + s.offset_bytes;
        return cudaSuccess;
    }
    if (s.offset_bytes == 0) return cudaSuccess;
    void **dst = ctx->ws_ptrs + (long long)slot * SHOAL_WS_POINTERS;
    out->array = dst;
    return shoal_block_pointers(dst, &s, 1, c->p.batch, 1, ctx->stream);
}

cudaError_t shoal_driver_blocks(struct shoal_context *ctx, const shoal_spec_call *c, const shoal_block_grid *grid,
                                int n, long long groups, shoal_operand *out)
{
    if (n < 1 || n > SHOAL_WS_OPERANDS) return cudaErrorInvalidValue;
    if (groups == 1 && c->mode != SHOAL_MODE_ARRAY) {
        for (int i = 0; i < n; ++i) {
            const cudaError_t e = shoal_driver_sub(ctx, c, grid[i].o, grid[i].row, grid[i].col, i, &out[i]);
            if (e != cudaSuccess) return e;
        }
        return cudaSuccess;
    }
    shoal_block_source src[SHOAL_WS_OPERANDS];
    for (int i = 0; i < n; ++i) {
        const long long elem = shoal_spec_operand_elem_bytes(c, grid[i].o);
        const shoal_operand *op = &c->p.op[grid[i].o];
        src[i] = source(c, grid[i].o, grid[i].row, grid[i].col);
        src[i].step_bytes = (grid[i].row_step + grid[i].col_step * op->ld) * elem;
        out[i] = *op;
        out[i].array = ctx->ws_ptrs + (long long)i * SHOAL_WS_POINTERS;
        out[i].ptr = NULL;
        out[i].stride = 0;
    }
    return shoal_block_pointers(ctx->ws_ptrs, src, n, c->p.batch, groups, ctx->stream);
}

shoal_status shoal_driver_gemm_any(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m, int n,
                                   int k, shoal_driver_scalar alpha, shoal_operand A, shoal_operand B,
                                   shoal_driver_scalar beta, shoal_operand C)
{
    if (shoal_spec_is_complex(c->prec)) return shoal_driver_gemm_complex(ctx, c, ta, tb, m, n, k, alpha, A, B, beta, C);
    return shoal_driver_gemm(ctx, c, ta, tb, m, n, k, alpha.re, A, B, beta.re, C);
}
