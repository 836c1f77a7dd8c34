/* runtime/drivers/gebrd_labrd.h: LAPACK's xLABRD for m >= n, one block of THREADS threads per
 * matrix (a grid-stride loop over the problems), the matrix in global memory. Step j of the panel
 * follows xLABRD's order and its conjugations (zlabrd's lacgv calls) operation for operation:
 *   column j updated by the earlier reflectors through X and Y (a thread a row), H(j) by larfg
 *   (block reductions), then Y(:, j) from the products of v with the trailing columns (a warp a
 *   column, its lanes down the rows: coalesced), with A's and X's earlier columns;
 *   row j updated the same way (a thread a column), G(j) by larfg along the row, then X(:, j)
 *   from the trailing rows times u (a thread a row, u broadcast from shared memory), with Y's
 *   and A's earlier rows (a warp each).
 * v and u sit in shared memory while they are used; the trailing matrix is only read: its update
 * is the driver's two GEMMs. */
#include "driver_elem.cuh"
#include "gebrd_labrd.h"

namespace {

using namespace shoal_elem;

constexpr int THREADS = SHOAL_GEBRD_LABRD_THREADS, WARPS = THREADS / 32;

template <typename R> __device__ __forceinline__ R block_reduce(R x, R *red, bool max)
{
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
        const R y = __shfl_xor_sync(0xffffffffu, x, o);
        x = max ? fmax(x, y) : x + y;
    }
    __syncthreads(); /* red is free: every read of the last reduction done */
    if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = x;
    __syncthreads();
    R s = red[0];
#pragma unroll
    for (int w = 1; w < WARPS; ++w) s = max ? fmax(s, red[w]) : s + red[w];
    return s;
}

template <typename T> __device__ __forceinline__ T warp_sum(T s)
{
#pragma unroll
    for (int o = 16; o > 0; o /= 2) s = add(s, shfl_xor(s, o, 32));
    return s;
}

/* LAPACK's larfg on (alpha, x), x of len elements at stride inc, all threads of the block:
 * tau, the real beta and the factor 1 / (alpha - beta) that turns x into v (the same in every
 * thread); tau = 0 and beta = alpha where x = 0 and alpha is real. ||x|| scaled by its largest
 * part, no overflow or underflow. Ends with the block synchronized (the reductions). */
template <typename T>
__device__ __forceinline__ void larfg(T alpha, const T *x, long long inc, int len, typename real_of<T>::type *red,
                                      T &tau, typename real_of<T>::type &beta, T &scale)
{
    typedef typename real_of<T>::type R;
    R amax = R(0);
    for (int k = threadIdx.x; k < len; k += THREADS) {
        const T v = x[k * inc];
        amax = fmax(amax, fmax(fabs(re(v)), fabs(im(v))));
    }
    amax = block_reduce(amax, red, true);
    R ss = R(0);
    if (amax > R(0)) { /* the same in every thread */
        const R r = R(1) / amax;
        for (int k = threadIdx.x; k < len; k += THREADS) {
            const T v = x[k * inc];
            ss += (re(v) * r) * (re(v) * r) + (im(v) * r) * (im(v) * r);
        }
        ss = block_reduce(ss, red, false);
    }
    const R xnorm = amax * sqrt(ss), alr = re(alpha), ali = im(alpha);
    if (xnorm == R(0) && ali == R(0)) {
        tau = zero_of<T>();
        beta = alr;
        scale = zero_of<T>();
        return;
    }
    const R big = fmax(fmax(fabs(alr), fabs(ali)), xnorm), ib = R(1) / big;
    const R nrm = big * sqrt((alr * ib) * (alr * ib) + (ali * ib) * (ali * ib) + (xnorm * ib) * (xnorm * ib));
    beta = alr >= R(0) ? -nrm : nrm;
    tau = from_parts<T>((beta - alr) / beta, -ali / beta);
    scale = div(one_of<T>(), from_parts<T>(alr - beta, ali));
}

/* A reflector of the panel from head[0] (alpha) and head[inc], head[2 inc], ... (x, len entries):
 * larfg, x scaled into the reflector's vector in place, the vector staged in sh[0..len] with its
 * leading 1 (sh[0]), beta into *bd and tau into *tau_out; head[0] becomes the 1 where `one`.
 * Returns tau; ends with the block synchronized. */
template <typename T>
__device__ __forceinline__ T reflector(T *head, long long inc, int len, T *sh, typename real_of<T>::type *red,
                                       typename real_of<T>::type *bd, T *tau_out, bool one)
{
    typedef typename real_of<T>::type R;
    T tau, scale;
    R beta;
    larfg(*head, head + inc, inc, len, red, tau, beta, scale);
    const bool live = !is_zero(tau);
    for (int k = threadIdx.x; k < len; k += THREADS) {
        T v = head[(k + 1) * inc];
        if (live) {
            v = mul(v, scale);
            head[(k + 1) * inc] = v;
        }
        sh[k + 1] = v;
    }
    if (threadIdx.x == 0) {
        *bd = beta;
        *tau_out = tau;
        if (one) *head = one_of<T>();
        sh[0] = one_of<T>();
    }
    __syncthreads();
    return tau;
}

/* One matrix's panel: A(i:, i:) as an M x N matrix, X (M x nb) and Y (N x nb) in the workspace,
 * the panel's d, e, tauq, taup, and the block's shared vectors. */
template <typename T> struct panel {
    typedef typename real_of<T>::type R;
    T *A;
    long long lda;
    T *X, *Y;
    int M, N, nb;
    R *d, *e;
    T *tq, *tp;
    T *v, *u, *t1, *t2; /* shared: v (M), u (N), two nb-vectors */
    R *red;
    __device__ __forceinline__ T &a(int r, int c) const { return A[r + (long long)c * lda]; }
    __device__ __forceinline__ T &x(int r, int c) const { return X[r + (long long)c * M]; }
    __device__ __forceinline__ T &y(int r, int c) const { return Y[r + (long long)c * N]; }
};

/* Y(j+1:N, j) from v (rows r0..M-1, shared): tau (A(r0:M, j+1:N)^H v - Y(j+1:N, 0:j) t1 -
 * A(0:n2, j+1:N)^H t2), t1 = A(r0:M, 0:j)^H v, t2 = X(r0:M, 0:n2)^H v: the products a warp each,
 * then a thread a row of Y. Both branches' Y step (upper: r0 = j, n2 = j; lower: r0 = j + 1,
 * n2 = j + 1). Ends with the block synchronized. */
template <typename T> __device__ __forceinline__ void y_column(const panel<T> &P, int j, int r0, int n2, T tau)
{
    const int M = P.M, N = P.N, tid = threadIdx.x, lane = tid % 32, nc = N - j - 1;
    for (int q = tid / 32; q < nc + j + n2; q += WARPS) {
        T s = zero_of<T>();
        if (q < nc) {
            for (int r = r0 + lane; r < M; r += 32) s = add_mul(s, conj_of(P.a(r, j + 1 + q)), P.v[r]);
        } else if (q < nc + j) {
            for (int r = r0 + lane; r < M; r += 32) s = add_mul(s, conj_of(P.a(r, q - nc)), P.v[r]);
        } else {
            for (int r = r0 + lane; r < M; r += 32) s = add_mul(s, conj_of(P.x(r, q - nc - j)), P.v[r]);
        }
        s = warp_sum(s);
        if (lane == 0) {
            if (q < nc) P.y(j + 1 + q, j) = s;
            else if (q < nc + j) P.t1[q - nc] = s;
            else P.t2[q - nc - j] = s;
        }
    }
    __syncthreads();
    for (int c = j + 1 + tid; c < N; c += THREADS) {
        T y = P.y(c, j);
        for (int l = 0; l < j; ++l) y = sub_mul(y, P.y(c, l), P.t1[l]);
        for (int l = 0; l < n2; ++l) y = sub_mul(y, conj_of(P.a(l, c)), P.t2[l]);
        P.y(c, j) = mul(tau, y);
    }
    __syncthreads();
}

/* X(j+1:M, j) from u (columns c0..N-1, shared): taup (A(j+1:M, c0:N) u - A(j+1:M, 0:n1) t1 -
 * X(j+1:M, 0:j) t2), t1 = Y(c0:N, 0:n1)^H u, t2 = A(0:j, c0:N) u: a thread a row for the first
 * product and the result, a warp each for t1 and t2; then row j back to its storage
 * (conjugated) from column cb. Both branches' X step (upper: c0 = j + 1, n1 = j + 1, cb = j + 2;
 * lower: c0 = j, n1 = j, cb = j + 1). Ends with the block synchronized. */
template <typename T> __device__ __forceinline__ void x_column(const panel<T> &P, int j, int c0, int n1, int cb, T taup)
{
    const int M = P.M, N = P.N, tid = threadIdx.x, lane = tid % 32;
    for (int r = j + 1 + tid; r < M; r += THREADS) {
        T s = zero_of<T>();
        for (int c = c0; c < N; ++c) s = add_mul(s, P.a(r, c), P.u[c]);
        P.x(r, j) = s;
    }
    for (int q = tid / 32; q < n1 + j; q += WARPS) {
        T s = zero_of<T>();
        if (q < n1) {
            for (int c = c0 + lane; c < N; c += 32) s = add_mul(s, conj_of(P.y(c, q)), P.u[c]);
        } else {
            for (int c = c0 + lane; c < N; c += 32) s = add_mul(s, P.a(q - n1, c), P.u[c]);
        }
        s = warp_sum(s);
        if (lane == 0) {
            if (q < n1) P.t1[q] = s;
            else P.t2[q - n1] = s;
        }
    }
    __syncthreads();
    for (int r = j + 1 + tid; r < M; r += THREADS) {
        T x = P.x(r, j);
        for (int l = 0; l < n1; ++l) x = sub_mul(x, P.a(r, l), P.t1[l]);
        for (int l = 0; l < j; ++l) x = sub_mul(x, P.x(r, l), P.t2[l]);
        P.x(r, j) = mul(taup, x);
    }
    for (int c = cb + tid; c < N; c += THREADS) P.a(j, c) = conj_of(P.a(j, c));
    __syncthreads();
}

/* m >= n (upper bidiagonal): zlabrd's first branch */
template <typename T> __device__ void upper_panel(const panel<T> &P)
{
    const int M = P.M, N = P.N, tid = threadIdx.x;
    for (int j = 0; j < P.nb; ++j) {
        /* A(j:M, j) -= A(j:M, 0:j) conj(Y(j, 0:j)) + X(j:M, 0:j) A(0:j, j) */
        if (j > 0)
            for (int r = j + tid; r < M; r += THREADS) {
                T s = P.a(r, j);
                for (int l = 0; l < j; ++l) {
                    s = sub_mul(s, P.a(r, l), conj_of(P.y(j, l)));
                    s = sub_mul(s, P.x(r, l), P.a(l, j));
                }
                P.a(r, j) = s;
            }
        __syncthreads();
        /* H(j) from A(j:M, j); v with its 1 */
        const T tau = reflector(&P.a(j, j), 1, M - j - 1, P.v + j, P.red, P.d + j, P.tq + j, true);
        if (j + 1 >= N) { /* the last column: no row reflector (LAPACK's taup = 0) */
            if (tid == 0) P.tp[j] = zero_of<T>();
            __syncthreads();
            continue;
        }
        /* Y(j+1:N, j) = tauq (A(j:M, j+1:N)^H v - Y(j+1:N, 0:j) t1 - A(0:j, j+1:N)^H t2) */
        y_column(P, j, j, j, tau);
        /* row j, conjugated (lacgv): conj(A(j, c)) - Y(c, 0:j+1) conj(A(j, 0:j+1)) -
         * A(0:j, c)^H conj(X(j, 0:j)), a thread a column */
        for (int c = j + 1 + tid; c < N; c += THREADS) {
            T w = conj_of(P.a(j, c));
            for (int l = 0; l <= j; ++l) w = sub_mul(w, P.y(c, l), conj_of(P.a(j, l)));
            for (int l = 0; l < j; ++l) w = sub_mul(w, conj_of(P.a(l, c)), conj_of(P.x(j, l)));
            P.a(j, c) = w;
        }
        __syncthreads();
        /* G(j) from A(j, j+1:N); u with its 1 */
        const T taup = reflector(&P.a(j, j + 1), P.lda, N - j - 2, P.u + j + 1, P.red, P.e + j, P.tp + j, true);
        /* X(j+1:M, j) = taup (A(j+1:M, j+1:N) u - A(j+1:M, 0:j+1) t1 - X(j+1:M, 0:j) t2); the row back to
         * its storage (LAPACK's conj(u)), its 1 kept */
        x_column(P, j, j + 1, j + 1, j + 2, taup);
    }
}

/* m < n (lower bidiagonal): zlabrd's second branch, the same steps with rows and columns
 * exchanged: the row first (G(j) from A(j, j:N), its 1 on the diagonal), then the column below
 * the subdiagonal (H(j) from A(j+1:M, j)) */
template <typename T> __device__ void lower_panel(const panel<T> &P)
{
    const int M = P.M, N = P.N, tid = threadIdx.x;
    for (int j = 0; j < P.nb; ++j) {
        /* row j, conjugated: conj(A(j, c)) - Y(c, 0:j) conj(A(j, 0:j)) - A(0:j, c)^H conj(X(j, 0:j)) */
        for (int c = j + tid; c < N; c += THREADS) {
            T w = conj_of(P.a(j, c));
            for (int l = 0; l < j; ++l) {
                w = sub_mul(w, P.y(c, l), conj_of(P.a(j, l)));
                w = sub_mul(w, conj_of(P.a(l, c)), conj_of(P.x(j, l)));
            }
            P.a(j, c) = w;
        }
        __syncthreads();
        /* G(j) from A(j, j:N); u with its 1 (in A too, unless no column reflector follows) */
        const T taup = reflector(&P.a(j, j), P.lda, N - j - 1, P.u + j, P.red, P.d + j, P.tp + j, j + 1 < M);
        if (j + 1 >= M) { /* the last row: no column reflector (LAPACK's tauq = 0); the row back */
            for (int c = j + tid; c < N; c += THREADS) P.a(j, c) = conj_of(P.a(j, c));
            if (tid == 0) P.tq[j] = zero_of<T>();
            __syncthreads();
            continue;
        }
        /* X(j+1:M, j) = taup (A(j+1:M, j:N) u - A(j+1:M, 0:j) t1 - X(j+1:M, 0:j) t2); the row back to
         * its storage, its 1 kept */
        x_column(P, j, j, j, j + 1, taup);
        /* A(j+1:M, j) -= A(j+1:M, 0:j) conj(Y(j, 0:j)) + X(j+1:M, 0:j+1) A(0:j+1, j) */
        for (int r = j + 1 + tid; r < M; r += THREADS) {
            T s = P.a(r, j);
            for (int l = 0; l < j; ++l) s = sub_mul(s, P.a(r, l), conj_of(P.y(j, l)));
            for (int l = 0; l <= j; ++l) s = sub_mul(s, P.x(r, l), P.a(l, j));
            P.a(r, j) = s;
        }
        __syncthreads();
        /* H(j) from A(j+1:M, j); v with its 1 */
        const T tau = reflector(&P.a(j + 1, j), 1, M - j - 2, P.v + j + 1, P.red, P.e + j, P.tq + j, true);
        /* Y(j+1:N, j) = tauq (A(j+1:M, j+1:N)^H v - Y(j+1:N, 0:j) t1 - A(0:j+1, j+1:N)^H t2) */
        y_column(P, j, j + 1, j + 1, tau);
    }
}

template <typename T> __global__ void __launch_bounds__(THREADS) labrd(shoal_gebrd_labrd_args a)
{
    typedef typename real_of<T>::type R;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ R red[WARPS];
    const bool upper = a.m >= a.n;
    panel<T> P;
    P.M = a.m - a.i;
    P.N = a.n - a.i;
    P.nb = a.nb;
    P.v = reinterpret_cast<T *>(smem);
    P.u = P.v + P.M;
    P.t1 = P.u + P.N;
    P.t2 = P.t1 + P.nb;
    P.red = red;
    P.lda = a.A.ld;
    for (long long b = blockIdx.x; b < a.batch; b += gridDim.x) {
        P.A = problem<T>(a.A, b) + a.i + a.i * P.lda;
        P.d = problem<R>(a.d, b) + a.i;
        P.e = problem<R>(a.e, b) + a.i;
        P.tq = problem<T>(a.tauq, b) + a.i;
        P.tp = problem<T>(a.taup, b) + a.i;
        P.X = static_cast<T *>(a.X) + b * P.M * P.nb;
        P.Y = static_cast<T *>(a.Y) + b * P.N * P.nb;
        if (upper) upper_panel(P);
        else lower_panel(P);
        /* B's elements back in place, but the leading 1 of the update's reflector (A(nb-1, nb) of
         * U, upper; A(nb, nb-1) of V, lower) */
        for (int j = threadIdx.x; j < P.nb; j += THREADS) {
            P.a(j, j) = from_parts<T>(P.d[j], R(0));
            if (j + 1 < P.nb) {
                if (upper) P.a(j, j + 1) = from_parts<T>(P.e[j], R(0));
                else P.a(j + 1, j) = from_parts<T>(P.e[j], R(0));
            }
        }
        __syncthreads(); /* shared vectors and d, e read before the next problem */
    }
}

template <typename T>
__global__ void restore(shoal_operand A, shoal_operand e, int upper, int nb, int end, long long batch)
{
    typedef typename real_of<T>::type R;
    const long long panels = (end + nb - 1) / nb, total = batch * panels;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
        const long long b = t / panels, j = (t % panels) * nb + nb - 1;
        if (j >= end) continue;
        const long long at = upper ? j + (j + 1) * A.ld : j + 1 + j * A.ld;
        problem<T>(A, b)[at] = from_parts<T>(problem<R>(e, b)[j], R(0));
    }
}

template <typename T> cudaError_t launch_labrd(const shoal_gebrd_labrd_args *a, cudaStream_t s)
{
    const size_t smem = sizeof(T) * (size_t)(a->m - a->i + a->n - a->i + 2 * a->nb);
    labrd<T><<<grid_of(a->batch, 1), THREADS, smem, s>>>(*a);
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_restore(shoal_operand A, shoal_operand e, int upper, int nb, int end, long long batch,
                           cudaStream_t s)
{
    const long long panels = (end + nb - 1) / nb;
    restore<T><<<grid_of(batch * panels, 256), 256, 0, s>>>(A, e, upper, nb, end, batch);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t shoal_gebrd_labrd(char prec, const shoal_gebrd_labrd_args *a, cudaStream_t stream)
{
    if (a->batch <= 0) return cudaSuccess;
    const int M = a->m - a->i, N = a->n - a->i, k = M < N ? M : N;
    if (k < 1 || a->nb < 1 || a->nb > k || M + N > 2 * SHOAL_GEBRD_LABRD_MAX_ROWS) return cudaErrorInvalidValue;
#define LABRD(T) launch_labrd<T>(a, stream)
    BY_PRECISION(prec, LABRD)
#undef LABRD
}

extern "C" cudaError_t shoal_gebrd_restore(char prec, shoal_operand A, shoal_operand e, int upper, int nb, int end,
                                           long long batch, cudaStream_t stream)
{
    if (batch <= 0 || end < 1) return cudaSuccess;
    if (nb < 1) return cudaErrorInvalidValue;
#define RESTORE(T) launch_restore<T>(A, e, upper, nb, end, batch, stream)
    BY_PRECISION(prec, RESTORE)
#undef RESTORE
}
