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
    case 'c': return 8;
    case 'z': return 16;
    default: return 0;
    }
}

int shoal_design_from_name(const char *name)
{
    if (strcmp(name, "tiled") == 0) return SHOAL_DESIGN_TILED;
    if (strcmp(name, "staged") == 0) return SHOAL_DESIGN_STAGED;
    if (strcmp(name, "staged_ptr") == 0) return SHOAL_DESIGN_STAGED_PTR;
    if (strcmp(name, "group_ptr") == 0) return SHOAL_DESIGN_GROUP_PTR;
    if (strcmp(name, "regs") == 0) return SHOAL_DESIGN_REGS;
    if (strcmp(name, "smem") == 0) return SHOAL_DESIGN_SMEM;
    if (strcmp(name, "serial") == 0) return SHOAL_DESIGN_SERIAL;
    if (strcmp(name, "group") == 0) return SHOAL_DESIGN_GROUP;
    if (strcmp(name, "stream") == 0) return SHOAL_DESIGN_STREAM;
    if (strcmp(name, "blocked") == 0) return SHOAL_DESIGN_BLOCKED;
    if (strcmp(name, "vtiled") == 0) return SHOAL_DESIGN_VTILED;
    if (strcmp(name, "vmma") == 0) return SHOAL_DESIGN_VMMA;
    if (strcmp(name, "dmma") == 0) return SHOAL_DESIGN_DMMA;
    if (strcmp(name, "tall") == 0) return SHOAL_DESIGN_TALL;
    return -1;
}

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }
static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* The staged designs' padded leading dimension (padded_ld in gemm_staged.cu.j2): with FLAT = 0,
 * rows + vec when rows is a multiple of the elements per 16 bytes; otherwise the odd row count. */
static size_t padded_ld(size_t rows, size_t vec, int flat)
{
    return !flat && rows % vec == 0 ? rows + vec : (rows | 1);
}

size_t shoal_gemm_dynamic_smem(const shoal_kernel_desc *kd, int m, int n, int k)
{
    const size_t mpb = (size_t)kd->p[0], elem = (size_t)shoal_elem_bytes(kd->precision);
    const size_t a_el = (size_t)m * k, b_el = (size_t)k * n, c_el = (size_t)m * n;
    const int ta = kd->variant >> 1, tb = kd->variant & 1;
    const size_t a_rows = (size_t)(ta ? k : m), a_cols = (size_t)(ta ? m : k);
    const size_t b_rows = (size_t)(tb ? n : k), b_cols = (size_t)(tb ? k : n);
    const size_t vec = 16 / elem;
    const int flat = kd->p[3]; /* FLAT of the staged designs */
    if (kd->design == SHOAL_DESIGN_STAGED) {
        /* two stages of A and B, each region sized for MPB problems in the padded layout
         * (padded_ld x cols as stored, the larger one), rounded to 16 bytes, plus 16 bytes of
         * alignment slack; one C. The layout is the template's (gemm_staged.cu.j2). */
        const size_t a_cap = round_up(mpb * padded_ld(a_rows, vec, flat) * a_cols, vec) + vec;
        const size_t b_cap = round_up(mpb * padded_ld(b_rows, vec, flat) * b_cols, vec) + vec;
        return round_up((2 * (a_cap + b_cap) + mpb * c_el) * elem, 16);
    }
    if (kd->design == SHOAL_DESIGN_STAGED_PTR) {
        /* two stages of MPB slots of A and B, a slot holding the problem as a run at any 16-byte
         * phase or in the padded layout (padded_ld x cols), rounded to 16 bytes; one C; three
         * slots of A, B, C pointer tables. The layout is the template's (gemm_staged_ptr.cu.j2). */
        const size_t sa = max_size(round_up(a_el, vec) + vec, round_up(padded_ld(a_rows, vec, flat) * a_cols, vec));
        const size_t sb = max_size(round_up(b_el, vec) + vec, round_up(padded_ld(b_rows, vec, flat) * b_cols, vec));
        return round_up((2 * mpb * (sa + sb) + mpb * c_el) * elem, 16) + 9 * mpb * sizeof(void *);
    }
    return 0;
}

int shoal_design_serves_form(int design, int array)
{
    if (design == SHOAL_DESIGN_STAGED) return !array;
    if (design == SHOAL_DESIGN_STAGED_PTR || design == SHOAL_DESIGN_GROUP_PTR) return array != 0;
    return 1;
}

long long shoal_one_wave_grid(long long items, int sm_count, int threads)
{
    const long long cap = (long long)sm_count * (2048 / threads);
    return items < cap ? items : cap;
}

int shoal_gemm_kernel_fits(const shoal_kernel_desc *kd, int m, int n, int k, int array, int smem_optin)
{
    if (kd->design == SHOAL_DESIGN_TILED || kd->design == SHOAL_DESIGN_DMMA) return 1; /* static tiles, any size */
    if (kd->design == SHOAL_DESIGN_STAGED || kd->design == SHOAL_DESIGN_STAGED_PTR) {
        if (!shoal_design_serves_form(kd->design, array)) return 0;
        /* the block's index arithmetic (fastdiv) is exact below 2^22 elements and divisors <= 1024 */
        if (m > 1024 || n > 1024 || k > 1024) return 0;
        return shoal_gemm_dynamic_smem(kd, m, n, k) <= (size_t)smem_optin;
    }
    return 0;
}

static long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

cudaError_t shoal_gemm_launch(const shoal_kernel_desc *kd, const shoal_gemm_params *p, int sm_count,
                              cudaStream_t stream)
{
    dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    size_t smem = 0;
    if (kd->design == SHOAL_DESIGN_STAGED || kd->design == SHOAL_DESIGN_STAGED_PTR) {
        if (!shoal_design_serves_form(kd->design, p->C_array != 0)) return cudaErrorInvalidValue;
        /* the kernel pipelines across the groups a block loops over */
        grid.x = (unsigned)shoal_one_wave_grid(ceil_div_ll(p->batch, kd->p[0]), sm_count, kd->dim_x);
        block.x = (unsigned)kd->dim_x;
        smem = shoal_gemm_dynamic_smem(kd, p->m, p->n, p->k);
        if (smem > SMEM_DEFAULT_LIMIT) {
            /* Not a stream operation: allowed while a graph is being captured. */
            cudaError_t e = cudaFuncSetAttribute(kd->func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
            if (e != cudaSuccess) return e;
        }
    } else if (kd->design == SHOAL_DESIGN_TILED || kd->design == SHOAL_DESIGN_DMMA) {
        /* a block per BLK_M x BLK_N tile of C (p[0], p[1]), problems along y and z */
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
