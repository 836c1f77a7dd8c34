/* runtime/drivers/gels_kernels.h. One template per kernel over the element type; the precision
 * letter picks the instance (a complex element is a float2 / double2 pair). The transpose runs
 * problems along grid.y (looping past its 65535) and tiles along grid.x; the others are flat
 * grid-stride loops. */
#include "driver_elem.cuh"
#include "gels_kernels.h"

namespace {

using namespace shoal_elem;

constexpr int TILE = 32, ROWS_PER_PASS = 8;
constexpr unsigned MAX_GRID_Y = 65535;

/* a 32 x 32 tile per block through shared memory, so that reads and writes both run along
 * columns; grid.x counts the tiles of src */
template <typename T>
__global__ void conj_transpose(shoal_operand src, shoal_operand dst, int rows, int cols, long long batch)
{
    __shared__ T tile[TILE][TILE + 1];
    const int tiles_r = (rows + TILE - 1) / TILE;
    const int i0 = (int)(blockIdx.x % tiles_r) * TILE, j0 = (int)(blockIdx.x / tiles_r) * TILE;
    for (long long b = blockIdx.y; b < batch; b += gridDim.y) {
        const T *s = problem<T>(src, b);
        T *d = problem<T>(dst, b);
        for (int jj = threadIdx.y; jj < TILE; jj += ROWS_PER_PASS) {
            const int i = i0 + threadIdx.x, j = j0 + jj;
            if (i < rows && j < cols) tile[jj][threadIdx.x] = conj_of(s[i + (long long)j * src.ld]);
        }
        __syncthreads();
        for (int ii = threadIdx.y; ii < TILE; ii += ROWS_PER_PASS) {
            const int j = j0 + threadIdx.x, i = i0 + ii;
            if (i < rows && j < cols) d[j + (long long)i * dst.ld] = tile[threadIdx.x][ii];
        }
        __syncthreads();
    }
}

/* one thread per problem: the diagonal (n reads); the triangle only where the diagonal is all
 * zero (a zero matrix, or a rank-deficient one of zero diagonal) */
template <typename T>
__global__ void gels_info(shoal_operand R, int n, long long batch, int *info, int *zero)
{
    for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < batch;
         b += (long long)gridDim.x * blockDim.x) {
        const T *r = problem<T>(R, b);
        int first = 0, any = 0;
        for (int j = 0; j < n; ++j) {
            const bool z = is_zero(r[j + (long long)j * R.ld]);
            if (z && first == 0) first = j + 1;
            any |= !z;
        }
        for (int j = 1; j < n && !any; ++j)
            for (int i = 0; i < j && !any; ++i) any = !is_zero(r[i + (long long)j * R.ld]);
        info[b] = any ? first : 0;
        zero[b] = !any;
    }
}

/* one flat grid-stride loop over every problem's elements: a block of a few rows (3 x 1 at
 * n = 3) would leave a block per problem nearly idle */
template <typename T>
__global__ void rows_op(shoal_operand B, int row0, int row1, int cols, long long batch, const int *only, int op)
{
    const long long h = row1 - row0, count = h * cols;
    for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < batch * count;
         g += (long long)gridDim.x * blockDim.x) {
        const long long b = g / count, e = g - b * count;
        if (only && !only[b]) continue;
        T *at = problem<T>(B, b) + (row0 + e % h) + (e / h) * B.ld;
        *at = op == SHOAL_ROWS_ZERO ? zero_of<T>() : conj_of(*at);
    }
}

unsigned grid_y(long long batch)
{
    return (unsigned)(batch < MAX_GRID_Y ? batch : MAX_GRID_Y);
}

template <typename T>
cudaError_t launch_transpose(shoal_operand src, shoal_operand dst, int rows, int cols, long long batch, cudaStream_t s)
{
    const unsigned tiles = (unsigned)(((rows + TILE - 1) / TILE) * ((cols + TILE - 1) / TILE));
    conj_transpose<T><<<dim3(tiles, grid_y(batch)), dim3(TILE, ROWS_PER_PASS), 0, s>>>(src, dst, rows, cols, batch);
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_info(shoal_operand R, int n, long long batch, int *info, int *zero, cudaStream_t s)
{
    const int threads = 128;
    const long long blocks = (batch + threads - 1) / threads;
    gels_info<T><<<(unsigned)(blocks < 4096 ? blocks : 4096), threads, 0, s>>>(R, n, batch, info, zero);
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_rows(shoal_operand B, int row0, int row1, int cols, long long batch, const int *only, int op,
                        cudaStream_t s)
{
    const int threads = 256;
    const long long count = (long long)(row1 - row0) * cols * batch, blocks = (count + threads - 1) / threads;
    rows_op<T><<<(unsigned)(blocks < 8192 ? blocks : 8192), threads, 0, s>>>(B, row0, row1, cols, batch, only, op);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t shoal_gels_conj_transpose(char prec, shoal_operand src, shoal_operand dst, int rows, int cols,
                                                 long long batch, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0 || batch <= 0) return cudaSuccess;
#define TRANSPOSE(T) launch_transpose<T>(src, dst, rows, cols, batch, stream)
    BY_PRECISION(prec, TRANSPOSE)
#undef TRANSPOSE
}

extern "C" cudaError_t shoal_gels_info(char prec, shoal_operand R, int n, long long batch, int *info, int *zero,
                                       cudaStream_t stream)
{
    if (batch <= 0) return cudaSuccess;
#define INFO(T) launch_info<T>(R, n, batch, info, zero, stream)
    BY_PRECISION(prec, INFO)
#undef INFO
}

extern "C" cudaError_t shoal_gels_rows(char prec, shoal_operand B, int row0, int row1, int cols, long long batch,
                                       const int *only, int op, cudaStream_t stream)
{
    if (row1 <= row0 || cols <= 0 || batch <= 0) return cudaSuccess;
#define ROWS(T) launch_rows<T>(B, row0, row1, cols, batch, only, op, stream)
    BY_PRECISION(prec, ROWS)
#undef ROWS
}
