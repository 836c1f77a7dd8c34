/* The blocked LU driver's own small kernels (runtime/drivers/lu_steps.h): row interchanges
 * (LAPACK's laswp), a panel's pivots and info brought into the whole matrix's numbering, and
 * the start of the inverse. They move elements or test them for zero, no arithmetic, so they
 * are written once over the element types. */
#include "lu_steps.h"

#include <math.h>

#include "driver_elem.cuh"

using shoal_elem::is_zero;

enum { SWAP_THREADS = 256, SWAP_WARPS = SWAP_THREADS / 32, SWAP_COLS_PER_WARP = 8 };

template <typename T>
__device__ __forceinline__ T *problem(void *base, void *const *array, long long stride, long long b)
{
    return array ? static_cast<T *>(array[b]) : static_cast<T *>(base) + b * stride;
}

/* One block per (problem, 64 columns): the interchanges of pivots [k1, k2) composed into one
 * permutation of the rows [k1, rows) in shared memory (new row r = old row perm[r]), then each
 * warp moves the rows that change, a column at a time, gathering before it scatters. A column's
 * rows are contiguous, so a warp's loads and stores stay within one column. */
template <typename T>
__global__ void __launch_bounds__(SWAP_THREADS) laswp(shoal_lu_rows x, const int *ipiv, long long stride_ipiv,
                                                      long long batch, int c0, int nc, int k1, int k2, int backward)
{
    __shared__ int perm[SHOAL_LU_MAX_ROWS];
    __shared__ int moved[SHOAL_LU_MAX_ROWS];
    __shared__ int piv[SHOAL_LU_MAX_ROWS];
    __shared__ int n_moved;
    const int span = x.rows - k1, t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (long long b = blockIdx.x; b < batch; b += gridDim.x) {
        const int *pv = ipiv + b * stride_ipiv;
        for (int r = t; r < span; r += SWAP_THREADS) perm[r] = r;
        for (int i = t; i < k2 - k1; i += SWAP_THREADS) piv[i] = pv[k1 + i] - 1 - k1;
        if (t == 0) n_moved = 0;
        __syncthreads();
        if (t == 0)
            for (int s = 0; s < k2 - k1; ++s) {
                const int i = backward ? k2 - k1 - 1 - s : s, j = piv[i];
                const int v = perm[i];
                perm[i] = perm[j];
                perm[j] = v;
            }
        __syncthreads();
        for (int r = t; r < span; r += SWAP_THREADS)
            if (perm[r] != r) moved[atomicAdd(&n_moved, 1)] = r;
        __syncthreads();
        const int n = n_moved;
        T *base = problem<T>(x.ptr, x.array, x.stride, b) + k1;
        const int cfirst = c0 + (blockIdx.y * SWAP_WARPS + warp) * SWAP_COLS_PER_WARP;
        for (int c = cfirst; c < cfirst + SWAP_COLS_PER_WARP && c < c0 + nc; ++c) {
            T *col = base + c * x.ld;
            T v[SHOAL_LU_MAX_ROWS / 32];
#pragma unroll
            for (int q = 0; q < SHOAL_LU_MAX_ROWS / 32; ++q)
                if (lane + 32 * q < n) v[q] = col[perm[moved[lane + 32 * q]]];
            __syncwarp();
#pragma unroll
            for (int q = 0; q < SHOAL_LU_MAX_ROWS / 32; ++q)
                if (lane + 32 * q < n) col[moved[lane + 32 * q]] = v[q];
        }
        __syncthreads(); /* the shared permutation is rebuilt for the next problem */
    }
}

static unsigned grid_x(long long batch) { return (unsigned)(batch < (1LL << 20) ? batch : (1LL << 20)); }

cudaError_t shoal_lu_laswp(int elem_bytes, shoal_lu_rows x, const int *ipiv, long long stride_ipiv, long long batch,
                           int c0, int nc, int k1, int k2, int backward, cudaStream_t stream)
{
    if (batch <= 0 || nc <= 0 || k2 <= k1) return cudaSuccess;
    if (x.rows - k1 > SHOAL_LU_MAX_ROWS) return cudaErrorInvalidValue;
    const int per_block = SWAP_WARPS * SWAP_COLS_PER_WARP;
    const dim3 grid(grid_x(batch), (unsigned)((nc + per_block - 1) / per_block));
    switch (elem_bytes) {
    case 4: laswp<float><<<grid, SWAP_THREADS, 0, stream>>>(x, ipiv, stride_ipiv, batch, c0, nc, k1, k2, backward); break;
    case 8: laswp<double><<<grid, SWAP_THREADS, 0, stream>>>(x, ipiv, stride_ipiv, batch, c0, nc, k1, k2, backward); break;
    case 16: laswp<double2><<<grid, SWAP_THREADS, 0, stream>>>(x, ipiv, stride_ipiv, batch, c0, nc, k1, k2, backward); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ipiv[k .. k + kb) of each problem += k (a panel's pivots count from its first row, the
 * diagonal k); info = step + k where the problem has none yet */
static __global__ void panel_merge(int *ipiv, long long stride_ipiv, int *info, const int *step, long long batch, int k,
                                   int kb)
{
    for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < batch; b += (long long)gridDim.x * blockDim.x) {
        int *pv = ipiv + b * stride_ipiv + k;
        for (int i = 0; i < kb; ++i) pv[i] += k;
        if (info && info[b] == 0 && step[b] > 0) info[b] = step[b] + k;
    }
}

cudaError_t shoal_lu_panel_merge(int *ipiv, long long stride_ipiv, int *info, const int *step, long long batch, int k,
                                 int kb, cudaStream_t stream)
{
    if (batch <= 0) return cudaSuccess;
    const long long blocks = (batch + 255) / 256;
    panel_merge<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(ipiv, stride_ipiv, info, step, batch, k, kb);
    return cudaGetLastError();
}

/* The element type's one and NaN (its zero test: driver_elem.cuh) */
template <typename T> __device__ __forceinline__ T value_of(double re, double im);
template <> __device__ __forceinline__ float value_of<float>(double re, double) { return (float)re; }
template <> __device__ __forceinline__ double value_of<double>(double re, double) { return re; }
template <> __device__ __forceinline__ float2 value_of<float2>(double re, double im) { return make_float2((float)re, (float)im); }
template <> __device__ __forceinline__ double2 value_of<double2>(double re, double im) { return make_double2(re, im); }

/* One block per problem: info = the first exactly zero U(j, j) (1-based), and C = I, or all NaN
 * where U is singular (the solves that follow keep NaN NaN, so C ends all NaN, the kernels'
 * contract for n <= 32). */
template <typename T>
__global__ void inverse_start(shoal_lu_rows a, shoal_lu_rows c, int *info, long long batch)
{
    __shared__ int first;
    const int n = a.rows;
    const double nan = __longlong_as_double(0x7ff8000000000000ll);
    for (long long b = blockIdx.x; b < batch; b += gridDim.x) {
        const T *A = problem<T>(a.ptr, a.array, a.stride, b);
        T *C = problem<T>(c.ptr, c.array, c.stride, b);
        if (threadIdx.x == 0) first = n;
        __syncthreads();
        for (int j = threadIdx.x; j < n; j += blockDim.x)
            if (is_zero(A[j + j * a.ld])) atomicMin(&first, j);
        __syncthreads();
        const bool singular = first < n;
        if (threadIdx.x == 0 && info) info[b] = singular ? first + 1 : 0;
        const T zero = value_of<T>(singular ? nan : 0.0, singular ? nan : 0.0), one = value_of<T>(singular ? nan : 1.0, singular ? nan : 0.0);
        for (long long e = threadIdx.x; e < (long long)n * n; e += blockDim.x) {
            const int i = (int)(e % n), j = (int)(e / n);
            C[i + j * c.ld] = i == j ? one : zero;
        }
        __syncthreads(); /* `first` is reset for the next problem */
    }
}

cudaError_t shoal_lu_inverse_start(int elem_bytes, int is_complex, shoal_lu_rows a, shoal_lu_rows c, int *info,
                                   long long batch, cudaStream_t stream)
{
    if (batch <= 0) return cudaSuccess;
    const unsigned grid = grid_x(batch), threads = 256;
    if (elem_bytes == 4) inverse_start<float><<<grid, threads, 0, stream>>>(a, c, info, batch);
    else if (elem_bytes == 8 && !is_complex) inverse_start<double><<<grid, threads, 0, stream>>>(a, c, info, batch);
    else if (elem_bytes == 8) inverse_start<float2><<<grid, threads, 0, stream>>>(a, c, info, batch);
    else if (elem_bytes == 16) inverse_start<double2><<<grid, threads, 0, stream>>>(a, c, info, batch);
    else return cudaErrorInvalidValue;
    return cudaGetLastError();
}
