/* Launching a spec routine's kernel (runtime/spec_run.h): the library and the tuner both launch
 * through here, so a tuned candidate runs as it will ship. */
#include <limits.h>

#include "spec_run.h"

/* Enough blocks to fill any current GPU many times over; kernels loop over the rest, so a
 * batch of any size (64-bit) needs one launch. */
#define GRID_X_MAX (1LL << 20)
#define GRID_Y_MAX 65535LL

/* Shared memory a block may have without opting in (static declarations stop here too). */
#define SMEM_DEFAULT_LIMIT 49152

cudaError_t shoal_spec_launch(const shoal_spec_routine *ri, const shoal_kernel_desc *kd, const shoal_spec_call *c,
                              cudaStream_t stream)
{
    if (kd->design < SHOAL_DESIGN_SPEC || !kd->func || kd->dim_x < 1 || kd->dim_y < 1) return cudaErrorInvalidValue;
    const long long grid_y = ri->grid_y(kd, c), smem = ri->smem(kd, c);
    if (smem < 0 || smem > INT_MAX) return cudaErrorInvalidValue;
    if (smem > SMEM_DEFAULT_LIMIT) {
        /* not a stream operation: allowed while a graph is being captured */
        const cudaError_t e = cudaFuncSetAttribute(kd->func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess) return e;
    }
    const long long groups = (c->p.batch + kd->dim_y - 1) / kd->dim_y;
    const long long gx = groups < GRID_X_MAX ? groups : GRID_X_MAX;
    const long long gy = grid_y < 1 ? 1 : grid_y < GRID_Y_MAX ? grid_y : GRID_Y_MAX;
    dim3 grid = {(unsigned)gx, (unsigned)gy, 1};
    dim3 block = {(unsigned)kd->dim_x, (unsigned)kd->dim_y, 1};
    shoal_spec_params args = c->p;
    void *argv[] = {&args};
    return cudaLaunchKernel(kd->func, grid, block, argv, (size_t)smem, stream);
}
