/* Launching a spec routine's kernel (runtime/spec_run.h): the library and the tuner both launch
 * through here, so a tuned candidate runs as it will ship. */
#include "spec_run.h"

/* Enough blocks to fill any current GPU many times over; kernels loop over the rest, so a
 * batch of any size (64-bit) needs one launch. */
#define GRID_X_MAX (1LL << 20)
#define GRID_Y_MAX 65535LL

cudaError_t shoal_spec_launch(const shoal_kernel_desc *kd, const shoal_spec_call *c, long long grid_y,
                              cudaStream_t stream)
{
    if (kd->design < SHOAL_DESIGN_SPEC || !kd->func || kd->dim_x < 1 || kd->dim_y < 1) return cudaErrorInvalidValue;
    const long long groups = (c->p.batch + kd->dim_y - 1) / kd->dim_y;
    const long long gx = groups < GRID_X_MAX ? groups : GRID_X_MAX;
    const long long gy = grid_y < 1 ? 1 : grid_y < GRID_Y_MAX ? grid_y : GRID_Y_MAX;
    dim3 grid = {(unsigned)gx, (unsigned)gy, 1};
    dim3 block = {(unsigned)kd->dim_x, (unsigned)kd->dim_y, 1};
    shoal_spec_params args = c->p;
    void *argv[] = {&args};
    return cudaLaunchKernel(kd->func, grid, block, argv, 0, stream);
}
