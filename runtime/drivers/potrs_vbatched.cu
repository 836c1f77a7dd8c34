/* The variable-size Cholesky solve's kernels (runtime/drivers/potrs_vbatched.h). A block takes a
 * problem and a group of its right-hand sides, copied into shared memory (the group as wide as
 * max_n rows of it fit in 48 KB), and runs the two substitutions column by column: L y = b, a
 * column of L a step (coalesced for a lower factor), then L^H x = y, a row of L a step. Every
 * element of the factor is read through the lower view, as potrf_vbatched writes it. */
#include "driver_elem.cuh"
#include "potrs_vbatched.h"

namespace {

using namespace shoal_elem;

constexpr int THREADS = 256, MAX_GROUP = 8;
constexpr long long MAX_GRID_Y = 65535;
constexpr size_t SHARED_BYTES = 48 * 1024;

/* the factor's element L(r, c) of the lower view (conj(A(c, r)) for an upper factor) */
template <typename T> __device__ T lower(const T *A, long long ld, int upper, int r, int c)
{
    return upper ? conj_of(A[c + r * ld]) : A[r + c * ld];
}

__global__ void check(shoal_potrs_v_args a)
{
    for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < a.batch;
         b += (long long)gridDim.x * blockDim.x) {
        const int n = a.n[b], nrhs = a.nrhs[b], least = n > 1 ? n : 1;
        a.info[b] = n < 0 || n > a.max_n ? -2
                    : nrhs < 0 || nrhs > a.max_nrhs ? -3
                    : a.lda[b] < least ? -5
                    : a.ldb[b] < least ? -7
                    : 0;
    }
}

template <typename T> __global__ void __launch_bounds__(THREADS) solve(shoal_potrs_v_args a, int group)
{
    typedef typename real_of<T>::type R;
    extern __shared__ unsigned char shared_bytes[];
    T *X = reinterpret_cast<T *>(shared_bytes); /* the group's columns, ld max_n */
    const int ldx = a.max_n;
    for (long long b = blockIdx.y; b < a.batch; b += gridDim.y) {
        const int n = a.n[b], nrhs = a.nrhs[b], j0 = (int)blockIdx.x * group;
        if (a.info[b] != 0 || n < 1 || j0 >= nrhs) continue; /* uniform */
        const int g = nrhs - j0 < group ? nrhs - j0 : group;
        const T *A = static_cast<const T *>(a.A[b]);
        T *B = static_cast<T *>(a.B[b]) + (long long)j0 * a.ldb[b];
        const long long lda = a.lda[b], ldb = a.ldb[b];
        for (int t = threadIdx.x; t < n * g; t += THREADS) X[t % n + (t / n) * ldx] = B[t % n + (t / n) * ldb];
        __syncthreads();
        for (int c = 0; c < n; ++c) { /* L y = b: y_c, then the rows below it */
            const T inv = from_parts<T>(R(1) / re(lower(A, lda, a.upper, c, c)), R(0));
            if (threadIdx.x < g) X[c + threadIdx.x * ldx] = mul(X[c + threadIdx.x * ldx], inv);
            __syncthreads();
            for (int r = c + 1 + threadIdx.x; r < n; r += THREADS) {
                const T l = lower(A, lda, a.upper, r, c);
                for (int j = 0; j < g; ++j) X[r + j * ldx] = sub_mul(X[r + j * ldx], l, X[c + j * ldx]);
            }
            __syncthreads();
        }
        for (int c = n - 1; c >= 0; --c) { /* L^H x = y: x_c, then the rows above it */
            const T inv = from_parts<T>(R(1) / re(lower(A, lda, a.upper, c, c)), R(0));
            if (threadIdx.x < g) X[c + threadIdx.x * ldx] = mul(X[c + threadIdx.x * ldx], inv);
            __syncthreads();
            for (int r = threadIdx.x; r < c; r += THREADS) {
                const T u = conj_of(lower(A, lda, a.upper, c, r)); /* L^H(r, c) */
                for (int j = 0; j < g; ++j) X[r + j * ldx] = sub_mul(X[r + j * ldx], u, X[c + j * ldx]);
            }
            __syncthreads();
        }
        for (int t = threadIdx.x; t < n * g; t += THREADS) B[t % n + (t / n) * ldb] = X[t % n + (t / n) * ldx];
        __syncthreads(); /* X written back before the next problem's copy */
    }
}

template <typename T> cudaError_t launch_solve(const shoal_potrs_v_args *a, cudaStream_t s)
{
    /* as many right-hand sides a block as max_n rows of them fit in SHARED_BYTES, a power of 2 */
    int group = 1;
    while (group < MAX_GROUP && (size_t)(2 * group) * a->max_n * sizeof(T) <= SHARED_BYTES) group *= 2;
    const long long groups = (a->max_nrhs + group - 1) / group;
    if (groups > 0x7fffffffLL) return cudaErrorInvalidValue;
    const dim3 grid((unsigned)groups, (unsigned)(a->batch < MAX_GRID_Y ? a->batch : MAX_GRID_Y));
    solve<T><<<grid, THREADS, (size_t)group * a->max_n * sizeof(T), s>>>(*a, group);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t shoal_potrs_v_check(const shoal_potrs_v_args *a, cudaStream_t stream)
{
    if (a->batch <= 0) return cudaSuccess;
    check<<<grid_of(a->batch, 256), 256, 0, stream>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t shoal_potrs_v_solve(char prec, const shoal_potrs_v_args *a, cudaStream_t stream)
{
    if (a->batch <= 0 || a->max_n < 1 || a->max_nrhs < 1) return cudaSuccess;
    if (a->max_n * 16LL > (long long)SHARED_BYTES) return cudaErrorInvalidValue; /* one z column must fit */
#define SOLVE(T) launch_solve<T>(a, stream)
    BY_PRECISION(prec, SOLVE)
#undef SOLVE
}
