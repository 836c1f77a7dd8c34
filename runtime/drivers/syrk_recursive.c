/* SYRK for n the kernels do not take: recursive halving of C (at multiples of the leaf size),
 * the diagonal blocks by the SYRK kernels, the off-diagonal block of the stored triangle by the
 * dispatched GEMM; the other triangle is never touched. spec/routines/syrk.toml names it. */
#include "driver_steps.h"

enum { A_ = 0, C_ = 1 };       /* operand order of the spec */
enum { UPLO_, TRANS_ };        /* option order of the spec */

typedef struct syrk_job {
    struct shoal_context *ctx;
    const shoal_spec_call *c;  /* one batch chunk */
    int leaf, upper, trans, k;
} syrk_job;

/* Rows [s0, ...) of op(A): rows of A (N) or columns (T). */
static cudaError_t a_rows(const syrk_job *j, long long s0, int slot, shoal_operand *out)
{
    return j->trans ? shoal_driver_sub(j->ctx, j->c, A_, 0, s0, slot, out)
                    : shoal_driver_sub(j->ctx, j->c, A_, s0, 0, slot, out);
}

static shoal_status update(const syrk_job *j, long long s0, int ns)
{
    if (ns <= j->leaf) {
        shoal_spec_call s = *j->c;
        s.p.dims[0] = ns;
        if (a_rows(j, s0, 0, &s.p.op[A_]) != cudaSuccess ||
            shoal_driver_sub(j->ctx, j->c, C_, s0, s0, 1, &s.p.op[C_]) != cudaSuccess)
            return SHOAL_STATUS_CUDA_ERROR;
        return shoal_spec_run_kernel(j->ctx, &s);
    }
    const int blocks = (ns + j->leaf - 1) / j->leaf;
    const int n1 = j->leaf * ((blocks + 1) / 2), n2 = ns - n1;
    shoal_status st = update(j, s0, n1);
    if (st == SHOAL_STATUS_SUCCESS) st = update(j, s0 + n1, n2);
    if (st != SHOAL_STATUS_SUCCESS) return st;
    /* lower: C21 = alpha op(A)2 op(A)1^T + beta C21; upper: C12 = alpha op(A)1 op(A)2^T + beta C12 */
    shoal_operand X, Y, Cb;
    const long long first = j->upper ? s0 : s0 + n1, second = j->upper ? s0 + n1 : s0;
    if (a_rows(j, first, 0, &X) != cudaSuccess || a_rows(j, second, 1, &Y) != cudaSuccess ||
        shoal_driver_sub(j->ctx, j->c, C_, first, second, 2, &Cb) != cudaSuccess)
        return SHOAL_STATUS_CUDA_ERROR;
    const int rows = j->upper ? n1 : n2, cols = j->upper ? n2 : n1;
    return shoal_driver_gemm(j->ctx, j->c, j->trans, !j->trans, rows, cols, j->k, j->c->p.alpha, X, Y, j->c->p.beta,
                             Cb);
}

shoal_status shoal_driver_syrk_recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf)
{
    if (leaf < 1) return SHOAL_STATUS_INVALID_VALUE;
    const long long chunk = c->mode == SHOAL_MODE_ARRAY ? SHOAL_WS_POINTERS : c->p.batch;
    for (long long b0 = 0; b0 < c->p.batch; b0 += chunk) {
        const long long nb = c->p.batch - b0 < chunk ? c->p.batch - b0 : chunk;
        const shoal_spec_call part = shoal_driver_chunk(c, b0, nb);
        const syrk_job j = {ctx, &part, leaf, c->p.opts[UPLO_], c->p.opts[TRANS_], c->p.dims[1]};
        const shoal_status st = update(&j, 0, c->p.dims[0]);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}
