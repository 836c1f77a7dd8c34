/* The variable-size Cholesky's kernels (runtime/drivers/potrf_vbatched.h says what each does).
 * Left-looking, as the seed's building-block kernel (paper 002): a step reads the factored
 * columns left of its panel and writes only the panel, so a problem's steps need no workspace and
 * a problem that has finished, or failed, is simply skipped by the later steps' blocks. Every
 * element is reached through the lower view L (the upper triangle's U^H), so one kernel serves both
 * triangles; in c and z the diagonal's imaginary parts are not read. */
#include "driver_elem.cuh"
#include "potrf_vbatched.h"

namespace {

using namespace shoal_elem;

constexpr int NB = SHOAL_POTRF_V_NB, ROWS = SHOAL_POTRF_V_ROWS, FACTOR_THREADS = 256, SMALL_WARPS = 4;
constexpr long long MAX_GRID_Y = 65535;

/* problem b's matrix as the lower triangle of a Hermitian matrix: L(r, c) = A(r, c) for LOWER,
 * conj(A(c, r)) for UPPER (whose factor U = L^H is then written in A's upper triangle) */
template <typename T> struct lower_view {
    T *A;
    long long ld;
    int upper;
    __device__ T get(int r, int c) const { return upper ? conj_of(A[c + r * ld]) : A[r + c * ld]; }
    __device__ void set(int r, int c, T v) const
    {
        if (upper) A[c + r * ld] = conj_of(v);
        else A[r + c * ld] = v;
    }
};

template <typename T> __device__ lower_view<T> view_of(const shoal_potrf_v_args &a, long long b)
{
    return lower_view<T>{static_cast<T *>(a.A[b]), (long long)a.lda[b], a.upper};
}

/* Different starts, same end (DSSE, paper 002): a problem's ceil(n / NB) panels are the call's
 * last steps, so every problem finishes at the last one, and the problems a step meets have
 * their remaining rows within NB of each other (same start, different ends, would leave the last
 * steps to the few largest problems, each a long chain of launches on a nearly idle GPU). The
 * first column of problem b's panel at this step, or -1 before its first. */
__device__ int panel_col(const shoal_potrf_v_args &a, int n)
{
    const int steps = (a.max_n + NB - 1) / NB, mine = n > 0 ? (n + NB - 1) / NB : 0, p = a.step - (steps - mine);
    return p < 0 ? -1 : p * NB;
}

/* the real part of a diagonal element, as an element */
template <typename T> __device__ T real_part(T v)
{
    typedef typename real_of<T>::type R;
    return from_parts<T>(re(v), R(0));
}

__global__ void check(shoal_potrf_v_args a)
{
    for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < a.batch;
         b += (long long)gridDim.x * blockDim.x) {
        const int n = a.n[b], ld = a.lda[b];
        a.info[b] = n < 0 || n > a.max_n ? -2 : ld < (n > 1 ? n : 1) ? -4 : 0;
    }
}

/* L(j0:n, j0:j0+w) -= L(j0:n, 0:j0) L(j0:j0+w, 0:j0)^H on and below the diagonal: a thread a row,
 * ROWS rows a block (grid.x), problems along grid.y. The left block's rows j0..j0+w (the GEMM's
 * B^H) go through shared memory NB columns at a time, stored so that the NB elements a thread
 * multiplies one of its row's elements by are contiguous and aligned: read as vectors (a
 * broadcast load a multiply-add otherwise). */
template <typename T> __global__ void __launch_bounds__(ROWS) update(shoal_potrf_v_args a)
{
    __shared__ __align__(16) T S[NB][NB]; /* S[k][c] = L(j0 + c, kc + k) */
    for (long long b = blockIdx.y; b < a.batch; b += gridDim.y) {
        const int n = a.n[b], j0 = panel_col(a, n);
        /* the same for every thread of the block: the skip is uniform. Nothing left of a first
         * panel (j0 = 0). */
        if (a.info[b] != 0 || j0 <= 0 || j0 + (int)blockIdx.x * ROWS >= n) continue;
        const lower_view<T> L = view_of<T>(a, b);
        const int w = n - j0 < NB ? n - j0 : NB, r = j0 + (int)blockIdx.x * ROWS + (int)threadIdx.x;
        T acc[NB];
#pragma unroll
        for (int c = 0; c < NB; ++c) acc[c] = zero_of<T>();
        for (int kc = 0; kc < j0; kc += NB) { /* j0 is a multiple of NB: whole chunks */
            for (int t = threadIdx.x; t < NB * NB; t += ROWS) {
                const int c = t % NB, k = t / NB; /* c fastest: consecutive rows of a lower A */
                S[k][c] = c < w ? L.get(j0 + c, kc + k) : zero_of<T>();
            }
            __syncthreads();
            if (r < n) {
#pragma unroll 2
                for (int k = 0; k < NB; ++k) {
                    const T x = L.get(r, kc + k);
#pragma unroll
                    for (int c = 0; c < NB; ++c) acc[c] = add_mul(acc[c], x, conj_of(S[k][c]));
                }
            }
            __syncthreads(); /* S read before the next chunk overwrites it */
        }
        if (r < n) {
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                if (c >= w || r - j0 < c) continue; /* the panel's columns, on or below the diagonal */
                const T v = L.get(r, j0 + c);
                L.set(r, j0 + c, sub(r == j0 + c ? real_part(v) : v, acc[c]));
            }
        }
    }
}

/* A problem of n <= NB whole, a warp a problem, SMALL_WARPS a block: lane r holds row r of the
 * lower view in registers, potf2's column steps broadcast column c's elements by shuffles. Where
 * the block-a-problem step below would leave most of its 256 threads idle on a small matrix,
 * this keeps every lane on one. */
template <typename T> __global__ void __launch_bounds__(32 * SMALL_WARPS) small(shoal_potrf_v_args a)
{
    typedef typename real_of<T>::type R;
    const int lane = threadIdx.x % 32;
    for (long long b = blockIdx.x * (long long)SMALL_WARPS + threadIdx.x / 32; b < a.batch;
         b += (long long)gridDim.x * SMALL_WARPS) {
        const int n = a.n[b];
        if (a.info[b] != 0 || n < 1 || n > NB) continue; /* the same for the warp's lanes */
        const lower_view<T> L = view_of<T>(a, b);
        T x[NB];
#pragma unroll
        for (int c = 0; c < NB; ++c) {
            x[c] = zero_of<T>();
            if (lane < n && c <= lane) x[c] = c == lane ? real_part(L.get(lane, c)) : L.get(lane, c);
        }
        int failed = 0;
#pragma unroll
        for (int c = 0; c < NB; ++c) {
            if (c >= n || failed) continue; /* uniform: the shuffles below see every lane */
            const R d = re(shfl(x[c], c, 32));
            if (!(d > R(0))) { /* LAPACK leaves the updated pivot on the diagonal: x keeps it */
                failed = c + 1;
                continue;
            }
            const R s = sqrt(d);
            if (lane == c) x[c] = from_parts<T>(s, R(0));
            else if (lane > c) x[c] = mul(x[c], from_parts<T>(R(1) / s, R(0)));
#pragma unroll
            for (int k = c + 1; k < NB; ++k) {
                if (k >= n) continue;
                const T lk = shfl(x[c], k, 32); /* L(k, c) */
                if (lane >= k) x[k] = sub_mul(x[k], x[c], conj_of(lk));
            }
        }
        if (lane < n) {
#pragma unroll
            for (int c = 0; c < NB; ++c)
                if (c <= lane) L.set(lane, c, x[c]);
        }
        if (failed && lane == 0) a.info[b] = failed;
    }
}

/* The panel's diagonal block factored in shared memory (potf2's column steps), then the rows below
 * it: X L11^H = L21, a thread a row. A block a problem. */
template <typename T> __global__ void __launch_bounds__(FACTOR_THREADS) factor(shoal_potrf_v_args a)
{
    typedef typename real_of<T>::type R;
    __shared__ T D[NB][NB + 1];
    __shared__ int failed;
    for (long long b = blockIdx.x; b < a.batch; b += gridDim.x) {
        const int n = a.n[b], j0 = panel_col(a, n);
        /* uniform; the small kernel serves n <= NB whole */
        if (a.info[b] != 0 || j0 < 0 || n <= NB) continue;
        const lower_view<T> L = view_of<T>(a, b);
        const int w = n - j0 < NB ? n - j0 : NB;
        for (int t = threadIdx.x; t < NB * NB; t += FACTOR_THREADS) {
            const int r = t % NB, c = t / NB;
            if (r < w && c <= r) {
                const T v = L.get(j0 + r, j0 + c);
                D[r][c] = r == c ? real_part(v) : v;
            }
        }
        if (threadIdx.x == 0) failed = 0;
        __syncthreads();
        for (int c = 0; c < w; ++c) {
            const R d = re(D[c][c]);
            /* every thread reads the same pivot: the break is uniform. NaN fails too. LAPACK
             * leaves the failing pivot's updated value on the diagonal: D keeps it. */
            if (!(d > R(0))) {
                if (threadIdx.x == 0) failed = c + 1;
                break;
            }
            const R s = sqrt(d);
            const T inv = from_parts<T>(R(1) / s, R(0));
            __syncthreads(); /* the pivot read by all before it is replaced */
            if (threadIdx.x == 0) D[c][c] = from_parts<T>(s, R(0));
            for (int r = c + 1 + threadIdx.x; r < w; r += FACTOR_THREADS) D[r][c] = mul(D[r][c], inv);
            __syncthreads();
            for (int t = threadIdx.x; t < NB * NB; t += FACTOR_THREADS) {
                const int r = t % NB, k = t / NB;
                if (k > c && k <= r && r < w) D[r][k] = sub_mul(D[r][k], D[r][c], conj_of(D[k][c]));
            }
            __syncthreads();
        }
        __syncthreads(); /* failed, and D, as the loop left them */
        for (int t = threadIdx.x; t < NB * NB; t += FACTOR_THREADS) {
            const int r = t % NB, c = t / NB;
            if (r < w && c <= r) L.set(j0 + r, j0 + c, D[r][c]);
        }
        if (failed) {
            if (threadIdx.x == 0) a.info[b] = j0 + failed;
        } else {
            /* rows below the block (there are some only where w == NB), a column at a time from
             * the row's own solved elements, read back (a row of 32 elements held in registers
             * through the unrolled solve spilled 3 to 90 KB of stack a thread) */
            for (int r = j0 + NB + (int)threadIdx.x; r < n; r += FACTOR_THREADS) {
                for (int c = 0; c < NB; ++c) {
                    T v = L.get(r, j0 + c);
                    for (int k = 0; k < c; ++k) v = sub_mul(v, L.get(r, j0 + k), conj_of(D[c][k]));
                    L.set(r, j0 + c, mul(v, from_parts<T>(R(1) / re(D[c][c]), R(0))));
                }
            }
        }
        __syncthreads(); /* D and failed read before the next problem's */
    }
}

template <typename T> cudaError_t launch_step(const shoal_potrf_v_args *a, int steps, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    if (a->step > 0) { /* step 0 meets only first panels */
        /* a problem's rows from its panel on: at most its panels left, steps - step, of NB */
        const long long rows = (long long)(steps - a->step) * NB < a->max_n ? (long long)(steps - a->step) * NB : a->max_n;
        const dim3 grid((unsigned)((rows + ROWS - 1) / ROWS), (unsigned)(a->batch < MAX_GRID_Y ? a->batch : MAX_GRID_Y));
        update<T><<<grid, ROWS, 0, s>>>(*a);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    if (a->max_n > NB) {
        factor<T><<<grid_of(a->batch, 1), FACTOR_THREADS, 0, s>>>(*a);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    if (a->step == steps - 1) { /* the problems of n <= NB: one panel, the last step's */
        small<T><<<grid_of(a->batch, SMALL_WARPS), 32 * SMALL_WARPS, 0, s>>>(*a);
        e = cudaGetLastError();
    }
    return e;
}

} // namespace

extern "C" cudaError_t shoal_potrf_v_check(char prec, const shoal_potrf_v_args *a, cudaStream_t stream)
{
    (void)prec; /* sizes only */
    if (a->batch <= 0) return cudaSuccess;
    check<<<grid_of(a->batch, 256), 256, 0, stream>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t shoal_potrf_v_step(char prec, const shoal_potrf_v_args *a, cudaStream_t stream)
{
    const int steps = shoal_potrf_v_steps(a->max_n);
    if (a->batch <= 0 || a->step >= steps) return cudaSuccess;
    if (a->step < 0) return cudaErrorInvalidValue;
#define STEP(T) launch_step<T>(a, steps, stream)
    BY_PRECISION(prec, STEP)
#undef STEP
}
