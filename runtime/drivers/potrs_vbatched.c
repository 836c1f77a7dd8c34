/* Variable-size Cholesky solve and factor-and-solve (spec/routines/{potrs,posv}_vbatched.toml name
 * these drivers): each problem's arguments checked on the device into info as LAPACK's potrs and
 * posv number them, then (posv) potrf_vbatched's left-looking steps, which skip the problems
 * whose info is not 0 and set it where a pivot fails, then the substitutions of the problems
 * whose info is still 0 (runtime/drivers/potrs_vbatched.cu). Nothing read back, nothing
 * allocated: the caller's maxima shape the launches. */
#include "context.h"
#include "lapack_abi.h"
#include "potrf_vbatched.h"
#include "potrs_vbatched.h"

shoal_status shoal_driver_potrs_vbatched(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p);
shoal_status shoal_driver_posv_vbatched(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p);

static shoal_potrs_v_args solve_args(int variant, const shoal_lapack_params *p)
{
    const shoal_potrs_v_args a = {p->A_array, p->B_array, p->n_array, p->nrhs_array, p->lda_array, p->ldb_array,
                                  p->info, p->n, p->nrhs, variant == 1, p->batch};
    return a;
}

shoal_status shoal_driver_potrs_vbatched(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    if (p->n == 0 || p->nrhs == 0 || p->batch == 0) return SHOAL_STATUS_SUCCESS;
    const shoal_potrs_v_args a = solve_args(variant, p);
    if (shoal_potrs_v_check(&a, ctx->stream) != cudaSuccess || shoal_potrs_v_solve(prec, &a, ctx->stream) != cudaSuccess)
        return SHOAL_STATUS_CUDA_ERROR;
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_driver_posv_vbatched(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    if (p->n == 0 || p->batch == 0) return SHOAL_STATUS_SUCCESS;
    const shoal_potrs_v_args a = solve_args(variant, p);
    if (shoal_potrs_v_check(&a, ctx->stream) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    shoal_potrf_v_args f = {p->A_array, p->n_array, p->lda_array, p->info, p->n, variant == 1, 0, p->batch};
    for (f.step = 0; f.step < shoal_potrf_v_steps(f.max_n); ++f.step)
        if (shoal_potrf_v_step(prec, &f, ctx->stream) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    /* max_nrhs = 0: factored all the same, as LAPACK's posv with nrhs = 0 */
    if (p->nrhs > 0 && shoal_potrs_v_solve(prec, &a, ctx->stream) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    return SHOAL_STATUS_SUCCESS;
}
