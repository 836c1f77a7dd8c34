/* runtime/drivers/gels_small.h. A team of TEAM = pow2ceil(fm) lanes solves one problem (several
 * teams share a warp below 32 rows); lane i holds row i of F in registers (f[k] = F(i, k)) and,
 * one right-hand side at a time, element i of it. Every team of a warp runs the same steps (the
 * sizes are the batch's), so the shuffles span the whole warp and teams past the batch run on
 * zeros and store nothing. Step costs per right-hand side: a reflector is one product, a team
 * reduction (log2 TEAM shuffles) and one update; a row of the back substitution one broadcast
 * and one update; a row of the forward substitution with R^H (R's row j lies on lane j) one
 * reduction. */
#include "driver_elem.cuh"
#include "gels_small.h"

namespace {

using namespace shoal_elem;

constexpr int BLOCK = 128;

template <typename T, int TEAM> __device__ __forceinline__ T team_sum(T s)
{
#pragma unroll
    for (int o = TEAM / 2; o > 0; o /= 2) s = add(s, shfl_xor(s, o, TEAM));
    return s;
}

/* the bits of the team's lanes in a warp-wide ballot */
template <int TEAM> __device__ __forceinline__ unsigned team_bits(bool p, int first_lane)
{
    const unsigned all = __ballot_sync(0xffffffffu, p);
    return TEAM == 32 ? all : (all >> first_lane) & ((1u << TEAM) - 1u);
}

/* x <- H_k^H x (adjoint) or H_k x, H_k = I - tau_k v_k v_k^H, v_k = [0; 1; F(k+1:fm, k)] */
template <typename T, int TEAM>
__device__ __forceinline__ T reflect(T x, T fk, T tk, int lane, int k, bool adjoint)
{
    const T v = lane == k ? one_of<T>() : lane > k ? fk : zero_of<T>();
    const T s = team_sum<T, TEAM>(mul(conj_of(v), x));
    return sub_mul(x, mul(adjoint ? conj_of(tk) : tk, s), v);
}

/* LEAST: F X = B in the least-squares sense, else F^H X = B (a parameter: one path's registers a
 * kernel, which keeps z at 16 rows and d at 32 free of spills) */
template <typename T, int TEAM, bool LEAST> __global__ void __launch_bounds__(BLOCK) gels_small(shoal_gels_small_args a)
{
    const int lane = threadIdx.x % TEAM, first_lane = (threadIdx.x % 32) - lane;
    const long long teams = (long long)gridDim.x * (BLOCK / TEAM);
    const int fm = a.fm, fn = a.fn;
    const bool rowed = lane < fm;
    /* the loop runs per warp (its first team's problem), so all its teams take every step */
    for (long long w0 = ((long long)blockIdx.x * BLOCK + (threadIdx.x - threadIdx.x % 32)) / TEAM; w0 < a.batch;
         w0 += teams) {
        const long long b = w0 + first_lane / TEAM;
        const bool live = b < a.batch, mine = live && rowed;
        const T *F = live ? problem<T>(a.F, b) : nullptr;
        T f[TEAM];
#pragma unroll
        for (int k = 0; k < TEAM; ++k) f[k] = mine && k < fn ? F[lane + (long long)k * a.F.ld] : zero_of<T>();
        const T tl = live && lane < fn ? problem<T>(a.tau, b)[lane] : zero_of<T>();
        /* info: the first zero on R's diagonal; a zero matrix is all-zero R (X = 0, info 0) */
        bool diag_zero = false, nonzero = false;
#pragma unroll
        for (int k = 0; k < TEAM; ++k) {
            if (k == lane && k < fn) diag_zero = is_zero(f[k]);
            if (k >= lane && k < fn) nonzero |= !is_zero(f[k]);
        }
        const unsigned zeros = team_bits<TEAM>(mine && diag_zero, first_lane);
        const bool all_zero = team_bits<TEAM>(mine && nonzero, first_lane) == 0u;
        const int info = all_zero || !zeros ? 0 : __ffs(zeros);
        if (live && lane == 0) a.info[b] = info;
        if (mine && (a.A.ptr || a.A.array)) { /* A = F^H: lane i writes A's column i */
            T *A = problem<T>(a.A, b);
#pragma unroll
            for (int k = 0; k < TEAM; ++k)
                if (k < fn) A[k + (long long)lane * a.A.ld] = conj_of(f[k]);
        }
        T *B = live ? problem<T>(a.B, b) : nullptr;
        for (int c = 0; c < a.nrhs; ++c) {
            T *col = mine ? B + (long long)c * a.B.ld : nullptr;
            T x = mine ? col[lane] : zero_of<T>();
            if (a.conj_b) x = conj_of(x);
            T out;
            bool store;
            if (LEAST) {
#pragma unroll
                for (int k = 0; k < TEAM; ++k)
                    if (k < fn) x = reflect<T, TEAM>(x, f[k], shfl(tl, k, TEAM), lane, k, true);
                const T qx = x;
#pragma unroll
                for (int j = TEAM - 1; j >= 0; --j) {
                    if (j >= fn) continue;
                    const T xj = div(shfl(x, j, TEAM), shfl(f[j], j, TEAM));
                    x = lane < j ? sub_mul(x, f[j], xj) : lane == j ? xj : x;
                }
                out = info ? qx : x;
                store = true;
            } else {
                /* z_j = (b_j - sum_{i<j} conj(R(i, j)) z_i) / conj(R(j, j)): R(i, j) is f[j] of lane i */
#pragma unroll
                for (int j = 0; j < TEAM; ++j) {
                    if (j >= fn) continue;
                    const T s = team_sum<T, TEAM>(lane < j ? mul(conj_of(f[j]), x) : zero_of<T>());
                    if (lane == j) x = div(sub(x, s), conj_of(f[j]));
                }
                if (lane >= fn) x = zero_of<T>();
#pragma unroll
                for (int k = TEAM - 1; k >= 0; --k)
                    if (k < fn) x = reflect<T, TEAM>(x, f[k], shfl(tl, k, TEAM), lane, k, false);
                out = x;
                store = !info;
            }
            if (all_zero) out = zero_of<T>(), store = true;
            if (mine && store) col[lane] = a.conj_b ? conj_of(out) : out;
        }
    }
}

template <typename T, int TEAM> cudaError_t launch(const shoal_gels_small_args *a, cudaStream_t s)
{
    const long long per_block = BLOCK / TEAM, blocks = (a->batch + per_block - 1) / per_block;
    const unsigned grid = (unsigned)(blocks < (1LL << 20) ? blocks : (1LL << 20));
    if (a->least)
        gels_small<T, TEAM, true><<<grid, BLOCK, 0, s>>>(*a);
    else
        gels_small<T, TEAM, false><<<grid, BLOCK, 0, s>>>(*a);
    return cudaGetLastError();
}

template <typename T> cudaError_t launch_for(const shoal_gels_small_args *a, cudaStream_t s)
{
    if (a->fm <= 1) return launch<T, 1>(a, s);
    if (a->fm <= 2) return launch<T, 2>(a, s);
    if (a->fm <= 4) return launch<T, 4>(a, s);
    if (a->fm <= 8) return launch<T, 8>(a, s);
    if constexpr (sizeof(T) == 16) { /* z stops at 16 rows (shoal_gels_small_rows) */
        return launch<T, 16>(a, s);
    } else {
        if (a->fm <= 16) return launch<T, 16>(a, s);
        return launch<T, 32>(a, s);
    }
}

} // namespace

extern "C" cudaError_t shoal_gels_small(char prec, const shoal_gels_small_args *args, cudaStream_t stream)
{
    if (args->batch <= 0) return cudaSuccess;
    if (args->fm < args->fn || args->fn < 1 || args->fm > shoal_gels_small_rows(prec)) return cudaErrorInvalidValue;
#define SMALL(T) launch_for<T>(args, stream)
    BY_PRECISION(prec, SMALL)
#undef SMALL
}
