#include "lapack_steps.h"

#include "lapack_chunk.h"
#include "spec_run.h"

enum { A_ = 0, B_ = 1 }; /* the spec operand order of TRSM (A, B) and SYRK / HERK (A, C) */

shoal_lapack_params shoal_lapack_chunk_at(char prec, const shoal_lapack_params *p, long long b0)
{
    const long long left = p->batch - b0;
    return shoal_lapack_chunk(p, shoal_spec_elem_bytes(prec), b0, left < SHOAL_LAPACK_CHUNK ? left : SHOAL_LAPACK_CHUNK);
}

cudaError_t shoal_operand_sub(struct shoal_context *ctx, char prec, shoal_operand whole, long long batch,
                              long long row, long long col, int slot, shoal_operand *out)
{
    const long long elem = shoal_spec_elem_bytes(prec), offset = (row + col * whole.ld) * elem;
    *out = whole;
    if (!whole.array) {
        out->ptr = (char *)whole.ptr + offset;
        return cudaSuccess;
    }
    if (offset == 0) return cudaSuccess;
    if (slot < 0 || slot >= SHOAL_WS_LAPACK_SLOTS || batch > SHOAL_LAPACK_CHUNK) return cudaErrorInvalidValue;
    void **dst = ctx->lapack_ptrs + (long long)slot * SHOAL_WS_POINTERS;
    const shoal_block_source src = {whole.array, NULL, 0, offset, 0};
    out->array = dst;
    return shoal_block_pointers(dst, &src, 1, batch, 1, ctx->stream);
}

cudaError_t shoal_lapack_sub(struct shoal_context *ctx, char prec, const shoal_lapack_params *p, int which,
                             long long row, long long col, int slot, shoal_operand *out)
{
    const int b = which == SHOAL_LAPACK_OPERAND_B;
    const shoal_operand whole = {b ? p->B : p->A, b ? p->B_array : p->A_array, b ? p->ldb : p->lda,
                                 b ? p->stride_b : p->stride_a};
    return shoal_operand_sub(ctx, prec, whole, p->batch, row, col, slot, out);
}

enum { TALL_THREADS = 256 };

int shoal_lapack_tall_width(int row_elem, int rows)
{
    const int per_thread = (rows + TALL_THREADS - 1) / TALL_THREADS;
    for (int w = 32; w > 8; w /= 2)
        if (per_thread * w * row_elem <= SHOAL_LAPACK_TALL_ROW_BYTES) return w;
    return 8;
}

int shoal_lapack_op_h(char prec)
{
    return shoal_spec_is_complex(prec) ? 2 : 1;
}

static shoal_spec_call spec_call(const char *routine, char prec, long long batch, shoal_operand a, shoal_operand b)
{
    shoal_spec_call c = {0};
    c.routine = shoal_spec_routine_id(routine);
    c.prec = prec;
    c.mode = a.array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    c.p.op[A_] = a;
    c.p.op[B_] = b;
    c.p.batch = batch;
    return c;
}

shoal_status shoal_lapack_step_trsm(struct shoal_context *ctx, char prec, long long batch, int side, int uplo, int op,
                                    int unit, int m, int n, shoal_operand A, shoal_operand B)
{
    shoal_spec_call c = spec_call("trsm", prec, batch, A, B);
    if (c.routine < 0) return SHOAL_STATUS_NOT_SUPPORTED; /* a build without the spec */
    c.p.dims[0] = m;
    c.p.dims[1] = n;
    c.p.opts[0] = side;
    c.p.opts[1] = uplo;
    c.p.opts[2] = op;
    c.p.opts[3] = unit;
    c.p.alpha = 1.0;
    return shoal_spec_run(ctx, &c);
}

shoal_status shoal_lapack_step_ormqr(struct shoal_context *ctx, char prec, long long batch, int side, int op, int m,
                                     int n, int k, shoal_operand A, shoal_operand tau, shoal_operand C)
{
    shoal_spec_call c = spec_call("ormqr", prec, batch, A, tau);
    if (c.routine < 0) return SHOAL_STATUS_NOT_SUPPORTED; /* a build without the spec */
    tau.ld = k > 1 ? k : 1; /* a k x 1 matrix to the kernels */
    c.p.op[1] = tau;
    c.p.op[2] = C; /* the spec's operands: A, tau, C */
    c.p.dims[0] = m;
    c.p.dims[1] = n;
    c.p.dims[2] = k;
    c.p.opts[0] = side;
    c.p.opts[1] = op;
    return shoal_spec_run(ctx, &c);
}

shoal_status shoal_lapack_step_orgqr(struct shoal_context *ctx, char prec, long long batch, int m, int n, int k,
                                     shoal_operand A, shoal_operand tau)
{
    shoal_spec_call c = spec_call("orgqr", prec, batch, A, tau);
    if (c.routine < 0) return SHOAL_STATUS_NOT_SUPPORTED; /* a build without the spec */
    c.p.op[1].ld = k > 1 ? k : 1; /* a k x 1 matrix to the kernels */
    c.p.dims[0] = m;
    c.p.dims[1] = n;
    c.p.dims[2] = k;
    return shoal_spec_run(ctx, &c);
}

shoal_status shoal_lapack_step_rank_k(struct shoal_context *ctx, char prec, long long batch, int uplo, int trans,
                                      int n, int k, shoal_operand A, shoal_operand C)
{
    /* SYRK's trans is the op value (T = 1); HERK's the index of N, C (C = 1) */
    shoal_spec_call c = spec_call(shoal_spec_is_complex(prec) ? "herk" : "syrk", prec, batch, A, C);
    if (c.routine < 0) return SHOAL_STATUS_NOT_SUPPORTED; /* a build without the spec */
    c.p.dims[0] = n;
    c.p.dims[1] = k;
    c.p.opts[0] = uplo;
    c.p.opts[1] = trans;
    c.p.alpha = -1.0;
    c.p.beta = 1.0;
    return shoal_spec_run(ctx, &c);
}
