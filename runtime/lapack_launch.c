#include "lapack_launch.h"

/* Enough blocks to fill any current GPU many times over; kernels loop over the rest, so a
 * batch of any size (64-bit) needs one launch. */
#define GRID_MAX (1LL << 20)

static int pow2ceil(int x)
{
    int p = 1;
    while (p < x) p *= 2;
    return p;
}

/* A team per problem: pow2ceil(N) threads, or pow2ceil(ceil(N / R)) when the design gives each
 * thread R rows (p[3] = R; 0 for designs without it). */
static int team_threads(const shoal_kernel_desc *kd)
{
    const int rows = kd->p[3] > 1 ? kd->p[3] : 1;
    return pow2ceil((kd->p[0] + rows - 1) / rows);
}

/* TALL: one problem per block of p[2] threads */
int shoal_lapack_threads(const shoal_kernel_desc *kd)
{
    return kd->design == SHOAL_DESIGN_TALL ? kd->p[2] : team_threads(kd) * kd->p[1];
}

static int is_lapack_design(int design)
{
    return design == SHOAL_DESIGN_REGS || design == SHOAL_DESIGN_SMEM || design == SHOAL_DESIGN_SERIAL ||
           design == SHOAL_DESIGN_TALL;
}

int shoal_lapack_kernel_fits(const shoal_kernel_desc *kd, int m, int n)
{
    if (kd->design == SHOAL_DESIGN_TALL) return m <= kd->p[0] && n <= kd->p[1];
    return is_lapack_design(kd->design) && m <= kd->p[0] && n <= kd->p[0];
}

long long shoal_lapack_grid(const shoal_kernel_desc *kd, long long batch, int resident_blocks, int sm_count)
{
    /* problems per block: NB teams, with SERIAL one problem per thread, with TALL one */
    const long long per_block = kd->design == SHOAL_DESIGN_SERIAL ? (long long)shoal_lapack_threads(kd)
                                : kd->design == SHOAL_DESIGN_TALL ? 1
                                                                  : kd->p[1];
    const long long groups = (batch + per_block - 1) / per_block;
    long long grid = groups < GRID_MAX ? groups : GRID_MAX;
    if (shoal_lapack_resident_grid(kd)) {
        /* one wave: every block stays resident and loops, so that its teams always have the
         * next problem's loads in flight while they factor the current one */
        const long long wave = (long long)(resident_blocks > 0 ? resident_blocks : 1) * (sm_count > 0 ? sm_count : 1);
        grid = grid < wave ? grid : wave;
    }
    return grid;
}

int shoal_lapack_resident_grid(const shoal_kernel_desc *kd)
{
    return (kd->design == SHOAL_DESIGN_REGS || kd->design == SHOAL_DESIGN_SERIAL) && kd->p[4] > 0;
}

cudaError_t shoal_lapack_resident_blocks(const shoal_kernel_desc *kd, int *blocks)
{
    *blocks = 0;
    if (!shoal_lapack_resident_grid(kd)) return cudaSuccess;
    /* a host-side query (no stream operation, no sync: allowed while a graph is captured) */
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kd->func, shoal_lapack_threads(kd), 0);
}

cudaError_t shoal_lapack_launch(const shoal_kernel_desc *kd, const shoal_lapack_params *p, int resident_blocks,
                                int sm_count, cudaStream_t stream)
{
    if (!is_lapack_design(kd->design)) return cudaErrorInvalidValue;
    const int tall = kd->design == SHOAL_DESIGN_TALL;
    const int max_rows = tall ? SHOAL_LAPACK_TALL_MAX_M : SHOAL_LAPACK_FUSED_MAX_N;
    if (kd->p[0] < 1 || kd->p[0] > max_rows || kd->p[1] < 1) return cudaErrorInvalidValue;
    dim3 grid = {(unsigned)shoal_lapack_grid(kd, p->batch, resident_blocks, sm_count), 1, 1};
    dim3 block = {(unsigned)(tall ? kd->p[2] : team_threads(kd)), (unsigned)(tall ? 1 : kd->p[1]), 1};
    shoal_lapack_params args = *p;
    void *argv[] = {&args};
    return cudaLaunchKernel(kd->func, grid, block, argv, 0, stream);
}
