/* LQ factorization (LAPACK gelqf) at every size up to 1024 as the QR factorization of A^H: for
 * A = L Q, A^H = Q^H L^H, so geqrf of A^H gives R = L^H, the same tau, and reflectors v_j whose
 * conjugates are gelqf's rows. Per batch chunk: A^H into the handle's solver workspace
 * (strided), geqrf there with tau written straight into the caller's tau (its kernels, or its
 * blocked driver; never the vendor), then A <- (A^H's factors)^H, gelqf's layout. A chunk is as
 * many problems as the workspace holds (m n elements each; at most SHOAL_LAPACK_CHUNK).
 * spec/routines/gelqf.toml names this driver (driver-only: runtime/lapack_drivers.h); gels' wide
 * matrices take the same route inside runtime/drivers/gels_qr.c, keeping A^H to solve with. */
#include "context.h"
#include "gels_kernels.h"
#include "lapack_chunk.h"
#include "lapack_steps.h"
#include "solver_steps.h"
#include "spec_run.h"

static shoal_status factor_chunk(struct shoal_context *ctx, char prec, const shoal_lapack_params *q)
{
    const shoal_operand A = {q->A, q->A_array, q->lda, q->stride_a};
    const shoal_operand W = {ctx->solver_ws, NULL, q->n, (long long)q->n * q->m};
    if (shoal_gels_conj_transpose(prec, A, W, q->m, q->n, q->batch, ctx->stream) != cudaSuccess)
        return SHOAL_STATUS_CUDA_ERROR;
    const shoal_operand tau = {q->tau, q->tau_array, 1, q->stride_tau}; /* as the caller gave it */
    const shoal_status st = shoal_solver_step_geqrf(ctx, prec, q->batch, q->n, q->m, W, tau);
    if (st != SHOAL_STATUS_SUCCESS) return st;
    return shoal_gels_conj_transpose(prec, W, A, q->n, q->m, q->batch, ctx->stream) == cudaSuccess
               ? SHOAL_STATUS_SUCCESS
               : SHOAL_STATUS_CUDA_ERROR;
}

shoal_status shoal_driver_gelqf_qr(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    (void)variant;
    if (p->m == 0 || p->n == 0) return SHOAL_STATUS_SUCCESS; /* nothing to factor */
    const long long elem = shoal_spec_elem_bytes(prec);
    const long long chunk = shoal_solver_chunk((long long)p->m * p->n * elem);
    if (chunk < 1) return SHOAL_STATUS_NOT_SUPPORTED; /* above max_n: the dispatch refuses it first */
    for (long long b0 = 0; b0 < p->batch; b0 += chunk) {
        const long long nb = p->batch - b0 < chunk ? p->batch - b0 : chunk;
        const shoal_lapack_params q = shoal_lapack_chunk(p, elem, b0, nb);
        const shoal_status st = factor_chunk(ctx, prec, &q);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}
