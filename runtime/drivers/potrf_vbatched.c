/* Variable-size batched Cholesky (spec/routines/potrf_vbatched.toml names this driver): every
 * problem's sizes checked on the device into info, then ceil(max_n / NB) left-looking steps over
 * the whole batch (runtime/drivers/potrf_vbatched.cu), a problem's panels the last ceil(n / NB)
 * of them (all end together), the blocks of a problem with no panel at a step, or one that has
 * failed, exiting at once. max_n, the caller's bound, shapes the launches:
 * nothing is read back, nothing allocated. */
#include "context.h"
#include "lapack_abi.h"
#include "potrf_vbatched.h"

shoal_status shoal_driver_potrf_vbatched(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p);

shoal_status shoal_driver_potrf_vbatched(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    if (p->n == 0 || p->batch == 0) return SHOAL_STATUS_SUCCESS;
    shoal_potrf_v_args a = {p->A_array, p->n_array, p->lda_array, p->info, p->n, variant == 1, 0, p->batch};
    if (shoal_potrf_v_check(prec, &a, ctx->stream) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    for (a.step = 0; a.step < shoal_potrf_v_steps(a.max_n); ++a.step)
        if (shoal_potrf_v_step(prec, &a, ctx->stream) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    return SHOAL_STATUS_SUCCESS;
}
