#include "gemm_launch.h"

#include <limits.h>
#include <string.h>

/* grid.y and grid.z may reach 65535; kernels loop over what does not fit. */
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

int shoal_design_from_name(const char *name)
{
    if (strcmp(name, "tiled") == 0) return SHOAL_DESIGN_TILED;
    if (strcmp(name, "staged") == 0) return SHOAL_DESIGN_STAGED;
    if (strcmp(name, "regs") == 0) return SHOAL_DESIGN_REGS;
    if (strcmp(name, "smem") == 0) return SHOAL_DESIGN_SMEM;
    if (strcmp(name, "serial") == 0) return SHOAL_DESIGN_SERIAL;
    if (strcmp(name, "group") == 0) return SHOAL_DESIGN_GROUP;
    if (strcmp(name, "stream") == 0) return SHOAL_DESIGN_STREAM;
    if (strcmp(name, "blocked") == 0) return SHOAL_DESIGN_BLOCKED;
    if (strcmp(name, "vtiled") == 0) return SHOAL_DESIGN_VTILED;
    return -1;
}

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

size_t shoal_gemm_dynamic_smem(const shoal_kernel_desc *kd, int m, int n, int k, int array)
{
    const size_t mpb = (size_t)kd->p[0], elem = (size_t)shoal_elem_bytes(kd->precision);
    const size_t a_el = (size_t)m * k, b_el = (size_t)k * n, c_el = (size_t)m * n;
    if (kd->design == SHOAL_DESIGN_STAGED) {
        /* two stages of A and B, each region sized for MPB problems with one padding row
         * ((rows + 1) x cols as stored), rounded to 16 bytes, plus 16 bytes of alignment slack;
         * one C; with pointer arrays three slots of A, B, C pointer tables. The layout is the
         * template's (gemm_staged.cu.j2). */
        const int ta = kd->variant >> 1, tb = kd->variant & 1;
        const size_t a_cols = (size_t)(ta ? m : k), b_cols = (size_t)(tb ? k : n);
        const size_t vec = 16 / elem;
        const size_t a_cap = round_up(mpb * (a_el + a_cols), vec) + vec;
        const size_t b_cap = round_up(mpb * (b_el + b_cols), vec) + vec;
        return round_up((2 * (a_cap + b_cap) + mpb * c_el) * elem, 16) + (array ? 9 * mpb * sizeof(void *) : 0);
    }
    return 0;
}

int shoal_gemm_kernel_fits(const shoal_kernel_desc *kd, int m, int n, int k, int smem_optin)
{
    if (kd->design == SHOAL_DESIGN_TILED) return 1;
    if (kd->design == SHOAL_DESIGN_STAGED) {
        /* the block's index arithmetic (fastdiv) is exact below 2^22 elements and divisors <= 1024 */
        if (m > 1024 || n > 1024 || k > 1024) return 0;
        /* sized for pointer arrays, the larger case, so one answer serves both modes */
        return shoal_gemm_dynamic_smem(kd, m, n, k, 1) <= (size_t)smem_optin;
    }
    return 0;
}

static long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

cudaError_t shoal_gemm_launch(const shoal_kernel_desc *kd, const shoal_gemm_params *p, int sm_count,
                              cudaStream_t stream)
{
    dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    size_t smem = 0;
    if (kd->design == SHOAL_DESIGN_STAGED) {
        const long long groups = ceil_div_ll(p->batch, kd->p[0]);
        /* the kernel pipelines across the groups a block loops over: one wave of blocks at most */
        const long long cap = (long long)sm_count * (2048 / kd->dim_x);
        grid.x = (unsigned)(groups < cap ? groups : cap);
        block.x = (unsigned)kd->dim_x;
        smem = shoal_gemm_dynamic_smem(kd, p->m, p->n, p->k, p->C_array != 0);
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
