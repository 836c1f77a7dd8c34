/* gebrd blocked as LAPACK's xGEBRD (the seed paper's form; upper bidiagonal for m >= n, lower
 * for m < n): panels of nb columns and rows by xLABRD (runtime/drivers/gebrd_labrd.cu, a block
 * per matrix), each followed by the trailing update A22 -= V Y^H + X U as two dispatched GEMMs;
 * the last panel (at most nb reflector pairs left) is an xLABRD over all of them, with nothing
 * left to update. Where the unblocked
 * designs read and write the trailing matrix twice a step, a panel step reads it twice and the
 * GEMMs write it once a panel.
 * X and Y live in the solver workspace: the batch runs in chunks of as many problems as their
 * (m + n) nb elements each fit (and, for pointer arrays, as the drivers' arrays hold). The
 * GEMMs take sub-matrices of A and of the workspace (pointer arrays written in the drivers'
 * slots where the call has them). After the panels the superdiagonal elements that served as
 * U's leading 1 get e back (one launch a chunk). No allocation, no host synchronization.
 * spec/routines/gebrd.toml names this driver, search_space/gebrd.toml its nb. */
#include "driver_steps.h"
#include "gebrd_labrd.h"

enum { A_ = 0, D_ = 1, E_ = 2, TAUQ_ = 3, TAUP_ = 4 }; /* operand order of the spec */

/* The workspace matrices of a chunk (problem b's at base + b * stride elements, ld ld) displaced
 * by `offset` elements, as a GEMM operand of the call's form: strided, or pointer arrays
 * written into the drivers' slot `slot`. */
static cudaError_t workspace_operand(struct shoal_context *ctx, const shoal_spec_call *c, void *base, long long ld,
                                     long long stride, long long offset, int slot, shoal_operand *out)
{
    const long long elem = shoal_spec_elem_bytes(c->prec);
    shoal_operand o = {0};
    o.ld = ld;
    if (c->mode != SHOAL_MODE_ARRAY) {
        o.ptr = (char *)base + offset * elem;
        o.stride = stride;
        *out = o;
        return cudaSuccess;
    }
    void **dst = ctx->ws_ptrs + (long long)slot * SHOAL_WS_POINTERS;
    const shoal_block_source src = {NULL, (char *)base, stride * elem, offset * elem, 0};
    o.array = dst;
    *out = o;
    return shoal_block_pointers(dst, &src, 1, c->p.batch, 1, ctx->stream);
}

/* C -= A op(B), op(B) = B^H (tb 1; T in s and d) or B (tb 0): the dispatched GEMM */
static shoal_status update(struct shoal_context *ctx, const shoal_spec_call *c, int tb, int m, int n, int k,
                           shoal_operand A, shoal_operand B, shoal_operand C)
{
    const shoal_driver_scalar minus_one = {-1.0, 0.0}, one = {1.0, 0.0};
    return shoal_driver_gemm_any(ctx, c, 0, tb ? 2 : 0, m, n, k, minus_one, A, B, one, C);
}

/* One chunk (c: its problems), X and Y at ws. The update is the same GEMMs in both shapes. */
static shoal_status reduce_chunk(struct shoal_context *ctx, const shoal_spec_call *c, int nb, char *ws)
{
    const int m = c->p.dims[0], n = c->p.dims[1];
    const long long batch = c->p.batch, elem = shoal_spec_elem_bytes(c->prec);
    shoal_gebrd_labrd_args a = {c->p.op[A_], c->p.op[D_], c->p.op[E_], c->p.op[TAUQ_], c->p.op[TAUP_],
                                NULL, NULL, m, n, 0, nb, batch};
    const int k = m < n ? m : n;
    int i = 0;
    for (; k - i > nb; i += nb) {
        const int M = m - i, N = n - i, mt = M - nb, nt = N - nb;
        a.i = i;
        a.nb = nb;
        a.X = ws;
        a.Y = ws + batch * M * nb * elem;
        if (shoal_gebrd_labrd(c->prec, &a, ctx->stream) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
        /* A(i+nb:, i+nb:) -= V Y(nb:, :)^H, then -= X(nb:, :) U */
        shoal_operand V, U, A22, W;
        if (shoal_driver_sub(ctx, c, A_, i + nb, i, 0, &V) != cudaSuccess ||
            workspace_operand(ctx, c, a.Y, N, (long long)N * nb, nb, 1, &W) != cudaSuccess ||
            shoal_driver_sub(ctx, c, A_, i + nb, i + nb, 2, &A22) != cudaSuccess)
            return SHOAL_STATUS_CUDA_ERROR;
        shoal_status st = update(ctx, c, 1, mt, nt, nb, V, W, A22);
        if (st != SHOAL_STATUS_SUCCESS) return st;
        /* slots 0 and 1 rewritten after the first GEMM read them: stream order */
        if (shoal_driver_sub(ctx, c, A_, i, i + nb, 0, &U) != cudaSuccess ||
            workspace_operand(ctx, c, a.X, M, (long long)M * nb, nb, 1, &W) != cudaSuccess)
            return SHOAL_STATUS_CUDA_ERROR;
        st = update(ctx, c, 0, mt, nt, nb, W, U, A22);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    /* the last panel: every reflector left, no update after it */
    a.i = i;
    a.nb = k - i;
    a.X = ws;
    a.Y = ws + batch * (m - i) * (k - i) * elem;
    if (shoal_gebrd_labrd(c->prec, &a, ctx->stream) != cudaSuccess ||
        shoal_gebrd_restore(c->prec, c->p.op[A_], c->p.op[E_], m >= n, nb, i, batch, ctx->stream) != cudaSuccess)
        return SHOAL_STATUS_CUDA_ERROR;
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_driver_gebrd_labrd(struct shoal_context *ctx, const shoal_spec_call *c, int nb)
{
    const int m = c->p.dims[0], n = c->p.dims[1];
    if (nb < 1) return SHOAL_STATUS_INVALID_VALUE;
    if (m > SHOAL_GEBRD_LABRD_MAX_ROWS || n > SHOAL_GEBRD_LABRD_MAX_ROWS) return SHOAL_STATUS_NOT_SUPPORTED;
    if (nb > (m < n ? m : n)) nb = m < n ? m : n;
    /* X and Y of the first panel, the largest */
    const long long per = ((long long)m + n) * nb * shoal_spec_elem_bytes(c->prec);
    long long chunk = (long long)(SHOAL_SOLVER_WS_BYTES / (size_t)per);
    if (c->mode == SHOAL_MODE_ARRAY && chunk > SHOAL_WS_POINTERS) chunk = SHOAL_WS_POINTERS;
    if (chunk < 1) return SHOAL_STATUS_NOT_SUPPORTED;
    for (long long b0 = 0; b0 < c->p.batch; b0 += chunk) {
        const long long count = c->p.batch - b0 < chunk ? c->p.batch - b0 : chunk;
        const shoal_spec_call part = shoal_driver_chunk(c, b0, count);
        const shoal_status st = reduce_chunk(ctx, &part, nb, ctx->solver_ws);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}
