#include "blas2_launch.h"

#include "gemm_launch.h"

/* Enough blocks to fill any current GPU many times over; kernels loop over the rest. */
#define GRID_MAX (1LL << 20)
#define SMEM_DEFAULT_LIMIT 49152

static long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }
static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }
static int max_int(int a, int b) { return a > b ? a : b; }
static int pow2ceil(int x)
{
    int p = 1;
    while (p < x) p *= 2;
    return p;
}
/* Width of trsv's team paths (templates/trsv_blocked.cu.j2): TW (p[2]) where the kernel's
 * fixed-width path serves n (n <= TW), else pow2ceil(n) up to n = 32; 0 past that, a block per
 * problem. A team has min(width, 32) lanes (TW = 64: a warp, two rows per lane). */
static int trsv_team(const shoal_kernel_desc *kd, int n)
{
    if (kd->p[2] > 0 && n <= kd->p[2]) return kd->p[2];
    return n <= SHOAL_TRSV_WARP_N ? pow2ceil(n) : 0;
}
static int trsv_team_lanes(int team) { return team < SHOAL_TRSV_WARP_N ? team : SHOAL_TRSV_WARP_N; }

int shoal_blas2_threads(const shoal_kernel_desc *kd) { return kd->dim_x * (kd->dim_y > 0 ? kd->dim_y : 1); }

size_t shoal_blas2_dynamic_smem(const shoal_kernel_desc *kd, int m, int n)
{
    const size_t elem = (size_t)shoal_elem_bytes(kd->precision), vec = 16 / elem;
    const int ta = kd->variant & 1;
    switch (kd->design) {
    case SHOAL_DESIGN_GROUP: {
        /* templates/gemv_group.cu.j2: A region (MPB problems + alignment slack), x region */
        const size_t mpb = (size_t)kd->p[0], nx = (size_t)(ta ? m : n);
        return (round_up(mpb * (size_t)m * (size_t)n + vec, vec) + mpb * nx + vec) * elem;
    }
    case SHOAL_DESIGN_GROUP_PTR: {
        /* templates/gemv_group_ptr.cu.j2: two stages of MPB slots of A and x (each room for its
         * run at any 16-byte phase, rounded to 16 bytes), then three slots of A, x, y pointer
         * tables */
        const size_t mpb = (size_t)kd->p[0], nx = (size_t)(ta ? m : n);
        const size_t sa = round_up((size_t)m * (size_t)n, vec) + vec, sx = round_up(nx, vec) + vec;
        return 2 * mpb * (sa + sx) * elem + 9 * mpb * sizeof(void *);
    }
    case SHOAL_DESIGN_STREAM:
        /* templates/gemv_stream.cu.j2: x, then the DIM_X * DIM_Y * VEC reduction buffer */
        return (round_up((size_t)max_int(m, n), vec) + (size_t)shoal_blas2_threads(kd) * vec) * elem;
    case SHOAL_DESIGN_BLOCKED: {
        /* templates/trsv_blocked.cu.j2. The team paths: a tile of W + 1 elements per lane for
         * teams of W lanes (the fixed-width path, W = TW, and the generic one, W = pow2ceil(n))
         * and for the warps of TW = 64 (a 64 x 64 triangle folded into 32 x 65). Otherwise
         * the x chunk (XCAP elements, or all n when XCAP = 0), the staged solved part (XCAP),
         * the reduction buffer and the diagonal block's 32 x 33 tile. */
        const size_t threads = (size_t)shoal_blas2_threads(kd);
        const int team = trsv_team(kd, n);
        if (team) return threads * ((size_t)team + 1) * elem;
        const size_t xcap = (size_t)kd->p[1];
        const size_t chunk = xcap ? xcap : round_up((size_t)n, vec);
        return (chunk + xcap + threads * vec + 32 * 33) * elem;
    }
    default:
        return 0;
    }
}

int shoal_blas2_kernel_fits(const shoal_kernel_desc *kd, int m, int n, int array, int smem_optin)
{
    if (!shoal_design_serves_form(kd->design, array)) return 0;
    switch (kd->design) {
    case SHOAL_DESIGN_GROUP:
        /* fastdiv in the element copies is exact below 2^22 elements per group */
        if (m > 1024 || n > 1024 || (long long)kd->p[0] * m * n >= (1LL << 22)) return 0;
        break;
    case SHOAL_DESIGN_GROUP_PTR:
        /* fastdiv exact below 2^22 elements and divisors <= 1024 */
        if (m > 1024 || n > 1024) return 0;
        break;
    case SHOAL_DESIGN_STREAM:
    case SHOAL_DESIGN_BLOCKED:
        break;
    case SHOAL_DESIGN_VTILED:
    case SHOAL_DESIGN_VMMA:
        return 1; /* static tiles, any size */
    default:
        return 0;
    }
    return shoal_blas2_dynamic_smem(kd, m, n) <= (size_t)smem_optin;
}

cudaError_t shoal_blas2_launch(const shoal_kernel_desc *kd, const shoal_blas2_params *p, int sm_count,
                               cudaStream_t stream)
{
    const int threads = shoal_blas2_threads(kd);
    if (!shoal_design_serves_form(kd->design, p->A_array != 0)) return cudaErrorInvalidValue;
    long long items;
    switch (kd->design) {
    case SHOAL_DESIGN_GROUP:
        items = ceil_div(p->batch, kd->p[0]);
        break;
    case SHOAL_DESIGN_GROUP_PTR:
        /* the kernel pipelines across the groups a block loops over */
        items = shoal_one_wave_grid(ceil_div(p->batch, kd->p[0]), sm_count, threads);
        break;
    case SHOAL_DESIGN_STREAM: {
        /* tiles of BLK outputs per problem (BLK = 0: the whole problem), shaped for the maxima */
        const int ta = kd->variant & 1, blk = kd->p[0], extent = ta ? p->n : p->m;
        items = p->batch * (blk ? ceil_div(extent, blk) : 1);
        break;
    }
    case SHOAL_DESIGN_BLOCKED: { /* n <= 32 (or TW): teams of lanes, one problem each */
        const int team = trsv_team(kd, p->n);
        items = team ? ceil_div(p->batch, threads / trsv_team_lanes(team)) : p->batch;
        break;
    }
    default:
        return cudaErrorInvalidValue;
    }
    const size_t smem = shoal_blas2_dynamic_smem(kd, p->m, p->n);
    if (smem > SMEM_DEFAULT_LIMIT) {
        /* Not a stream operation: allowed while a graph is being captured. */
        cudaError_t e = cudaFuncSetAttribute(kd->func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess) return e;
    }
    dim3 grid = {(unsigned)(items < GRID_MAX ? items : GRID_MAX), 1, 1};
    dim3 block = {(unsigned)threads, 1, 1};
    shoal_blas2_params args = *p;
    void *argv[] = {&args};
    return cudaLaunchKernel(kd->func, grid, block, argv, smem, stream);
}

#define GRID_YZ_MAX 65535LL

/* Rows of problems in the grid. A block of a tile outside its problem exits at once, but each
 * block still costs its launch: a skewed batch (99% of the problems 10x smaller than the largest)
 * launched one row per problem spent most of its time starting and retiring blocks that had
 * nothing to do. Past about SHOAL_VBATCHED_BLOCKS_PER_SM blocks per SM the rows stop growing and
 * each block loops over batch / rows problems instead (the kernels stride by the grid). */
long long shoal_gemm_vbatched_rows(long long tiles, long long batch, int sm_count)
{
    const long long cap = ceil_div((long long)SHOAL_VBATCHED_BLOCKS_PER_SM * (sm_count > 0 ? sm_count : 1),
                                   tiles > 0 ? tiles : 1);
    long long y = batch < cap ? batch : cap;
    return y < 1 ? 1 : y;
}

cudaError_t shoal_gemm_vbatched_launch(const shoal_kernel_desc *kd, const shoal_gemm_vparams *p, int sm_count,
                                       cudaStream_t stream)
{
    /* both designs: BLK_M in p0, BLK_N in p1, static shared memory */
    if (kd->design != SHOAL_DESIGN_VTILED && kd->design != SHOAL_DESIGN_VMMA) return cudaErrorInvalidValue;
    const long long tiles = ceil_div(p->m, kd->p[0]) * ceil_div(p->n, kd->p[1]);
    const long long rows = shoal_gemm_vbatched_rows(tiles, p->batch, sm_count);
    const long long y = rows < GRID_YZ_MAX ? rows : GRID_YZ_MAX;
    const long long z = ceil_div(rows, y);
    dim3 grid = {(unsigned)tiles, (unsigned)y, (unsigned)(z < GRID_YZ_MAX ? z : GRID_YZ_MAX)};
    dim3 block = {(unsigned)shoal_blas2_threads(kd), 1, 1};
    shoal_gemm_vparams args = *p;
    void *argv[] = {&args};
    return cudaLaunchKernel(kd->func, grid, block, argv, 0, stream);
}
