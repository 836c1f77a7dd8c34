#include "gemm_launch.h"

#include <limits.h>

/* grid.x may reach 2^31 - 1, grid.y and grid.z 65535; kernels loop over what does not fit. */
#define GRID_X_MAX 2147483647LL
#define GRID_YZ_MAX 65535LL
/* Without the opt-in a block may use 48 KiB of dynamic shared memory. */
#define SMEM_DEFAULT_LIMIT 49152

int shoal_elem_bytes(char precision)
{
    switch (precision) {
    case 's': return 4;
    case 'd': return 8;
    default: return 0;
    }
}

size_t shoal_gemm_dynamic_smem(const shoal_kernel_desc *kd, int m, int n, int k)
{
    if (kd->design != SHOAL_DESIGN_SMALL) return 0;
    /* MPB problems' A (m x k) and B (k x n) staged whole */
    const size_t mpb = (size_t)kd->p[0];
    return mpb * ((size_t)m * k + (size_t)k * n) * (size_t)shoal_elem_bytes(kd->precision);
}

int shoal_gemm_kernel_fits(const shoal_kernel_desc *kd, int m, int n, int k, int smem_optin)
{
    if (kd->design == SHOAL_DESIGN_TILED) return 1;
    if (kd->design == SHOAL_DESIGN_SMALL) {
        /* the block's index arithmetic (fastdiv) is exact below 2^22 elements and divisors <= 1024 */
        if (m > 1024 || n > 1024 || k > 1024) return 0;
        return shoal_gemm_dynamic_smem(kd, m, n, k) <= (size_t)smem_optin;
    }
    return 0;
}

static long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

cudaError_t shoal_gemm_launch(const shoal_kernel_desc *kd, const shoal_gemm_params *p, cudaStream_t stream)
{
    dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    size_t smem = 0;
    if (kd->design == SHOAL_DESIGN_SMALL) {
        const long long groups = ceil_div_ll(p->batch, kd->p[0]);
        grid.x = (unsigned)(groups < GRID_X_MAX ? groups : GRID_X_MAX);
        block.x = (unsigned)kd->dim_x;
        smem = shoal_gemm_dynamic_smem(kd, p->m, p->n, p->k);
        if (smem > SMEM_DEFAULT_LIMIT) {
            /* Not a stream operation: allowed while a graph is being captured. */
            cudaError_t e = cudaFuncSetAttribute(kd->func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
            if (e != cudaSuccess) return e;
        }
    } else if (kd->design == SHOAL_DESIGN_TILED) {
        const long long tiles = ceil_div_ll(p->m, kd->p[0]) * ceil_div_ll(p->n, kd->p[1]);
        const long long y = p->batch < GRID_YZ_MAX ? p->batch : GRID_YZ_MAX;
        const long long z = ceil_div_ll(p->batch, y);
        grid.x = (unsigned)tiles;
        grid.y = (unsigned)y;
        grid.z = (unsigned)(z < GRID_YZ_MAX ? z : GRID_YZ_MAX);
        block.x = (unsigned)kd->dim_x;
        block.y = (unsigned)kd->dim_y;
    } else {
        return cudaErrorInvalidValue;
    }
    shoal_gemm_params args = *p;
    void *argv[] = {&args};
    return cudaLaunchKernel(kd->func, grid, block, argv, smem, stream);
}
