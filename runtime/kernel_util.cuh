/* Device helpers shared by the kernel templates. Included by generated and candidate modules
 * (nvcc and NVRTC alike), so it uses no system header. */
#ifndef SHOAL_KERNEL_UTIL_CUH
#define SHOAL_KERNEL_UTIL_CUH

/* Complex elements of the complex precisions (spec/precisions.toml rows c and z name these):
 * cuComplex's layout and names (float2 / double2: real part first, aligned to the element),
 * declared here because NVRTC compiles the tuning candidates without the CUDA headers; the
 * typedefs repeat cuComplex.h's exactly, so a translation unit may include both. The operations
 * are global functions named shoal_* (cuComplex.h's cuCmulf ... would clash where both are
 * included). Products and fused multiply-adds round like cuCfmaf: each part by fma; the
 * reciprocal is Smith's (no overflow or underflow of |x|^2); abs1 is |re| + |im|, the magnitude
 * of BLAS's icamax/izamax (cheaper than |x| and as good for choosing a pivot). */
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;

#define SHOAL_COMPLEX_OPS(C, R, S, FABS, FMA)                                                              \
    __device__ __forceinline__ C shoal_cmake##S(R re, R im)                                           \
    {                                                                                                \
        C z;                                                                                         \
        z.x = re;                                                                                    \
        z.y = im;                                                                                    \
        return z;                                                                                    \
    }                                                                                                \
    __device__ __forceinline__ C shoal_conj##S(C a) { return shoal_cmake##S(a.x, -a.y); }            \
    __device__ __forceinline__ C shoal_cneg##S(C a) { return shoal_cmake##S(-a.x, -a.y); }           \
    /* a b */                                                                                        \
    __device__ __forceinline__ C shoal_cmul##S(C a, C b)                                             \
    {                                                                                                \
        return shoal_cmake##S(FMA(a.x, b.x, -a.y * b.y), FMA(a.x, b.y, a.y * b.x));                   \
    }                                                                                                \
    /* a b + c */                                                                                    \
    __device__ __forceinline__ C shoal_cfma##S(C a, C b, C c)                                        \
    {                                                                                                \
        return shoal_cmake##S(FMA(a.x, b.x, FMA(-a.y, b.y, c.x)), FMA(a.x, b.y, FMA(a.y, b.x, c.y))); \
    }                                                                                                \
    /* 1 / a (Smith) */                                                                              \
    __device__ __forceinline__ C shoal_cinv##S(C a)                                                  \
    {                                                                                                \
        if (FABS(a.x) >= FABS(a.y)) {                                                                \
            const R r = a.y / a.x, d = a.x + a.y * r;                                                \
            return shoal_cmake##S(R(1) / d, -r / d);                                                 \
        }                                                                                            \
        const R r = a.x / a.y, d = a.x * r + a.y;                                                    \
        return shoal_cmake##S(r / d, R(-1) / d);                                                     \
    }                                                                                                \
    __device__ __forceinline__ R shoal_cabs1##S(C a) { return FABS(a.x) + FABS(a.y); }             \
    __device__ __forceinline__ C shoal_cadd##S(C a, C b) { return shoal_cmake##S(a.x + b.x, a.y + b.y); } \
    __device__ __forceinline__ C shoal_csub##S(C a, C b) { return shoal_cmake##S(a.x - b.x, a.y - b.y); } \
    /* warp shuffles of both parts (the level-2 designs' reductions and broadcasts) */               \
    __device__ __forceinline__ C shoal_shfl_xor_sync(unsigned mask, C a, int o, int w = 32)          \
    {                                                                                                \
        return shoal_cmake##S(__shfl_xor_sync(mask, a.x, o, w), __shfl_xor_sync(mask, a.y, o, w));   \
    }                                                                                                \
    __device__ __forceinline__ C shoal_shfl_sync(unsigned mask, C a, int j, int w = 32)              \
    {                                                                                                \
        return shoal_cmake##S(__shfl_sync(mask, a.x, j, w), __shfl_sync(mask, a.y, j, w));           \
    }

SHOAL_COMPLEX_OPS(cuFloatComplex, float, f, fabsf, fmaf)
SHOAL_COMPLEX_OPS(cuDoubleComplex, double, , fabs, fma)
#undef SHOAL_COMPLEX_OPS

namespace shoal_util {

/* floor(x / d) without a division: one multiply-high by ceil(2^32 / d) is exact while
 * x * (ceil(2^32 / d) * d - 2^32) < 2^32, which holds for x < 2^22 and d <= 1024 (the sizes
 * and per-block element counts the small-problem kernels accept). */
struct fastdiv {
    unsigned d, magic;
    __device__ explicit fastdiv(unsigned d_) : d(d_), magic(d_ > 1 ? 0xFFFFFFFFu / d_ + 1u : 0u) {}
    __device__ __forceinline__ unsigned div(unsigned x) const { return d > 1 ? __umulhi(x, magic) : x; }
};

/* Asynchronous global -> shared copies (sm_80+): the copy engine moves the bytes while the
 * threads go on computing, so many loads stay in flight without registers to hold them. */
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void cp_async16(void *dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
}
template <int BYTES>
__device__ __forceinline__ void cp_async_elem(void *dst, const void *src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem_addr(dst)), "l"(src), "n"(BYTES));
}
/* The same to a shared-window address from smem_addr(): a loop of copies then offsets one
 * converted address instead of converting each destination (a conversion under each copy's
 * predicate is not shared between the copies). */
template <int BYTES>
__device__ __forceinline__ void cp_async_elem(unsigned dst, const void *src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(BYTES));
}
/* The same with a predicate: where `in` is false nothing is read (src may be any valid address)
 * and BYTES zeros are written, so a tile's edge needs no separate store. */
template <int BYTES>
__device__ __forceinline__ void cp_async_elem_zfill(void *dst, const void *src, bool in)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem_addr(dst)), "l"(src), "n"(BYTES),
                 "r"(in ? BYTES : 0));
}
/* 16 bytes into shared memory, the first `bytes` of them from src and the rest zero-filled
 * (bytes = 0: nothing read, src any valid address). */
__device__ __forceinline__ void cp_async16_zfill(void *dst, const void *src, int bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

/* 1 / x and 1 / sqrt(x) without the special-case code of '/', __drcp_rn, sqrt and rsqrt: the
 * hardware approximation refined by Newton steps (within an ulp, and on most inputs the
 * correctly rounded value). They hold where the argument and the result are normal and finite,
 * which nr_ok() tells (|x| in [2^-125, 2^125] or [2^-1021, 2^1021]); callers keep the exact
 * operation for the rest. In the unrolled factorizations the special-case branches and their
 * call sites were a third of each step's code and a fifth of its instructions. */
__device__ __forceinline__ bool nr_ok(float x)
{
    const float ax = fabsf(x);
    return ax >= 2.35098870e-38f && ax <= 4.25352958e+37f;
}
__device__ __forceinline__ bool nr_ok(double x)
{
    const double ax = fabs(x);
    return ax >= 4.4501477170144028e-308 && ax <= 2.2471164185778949e+307;
}
__device__ __forceinline__ float rcp_nr(float x)
{
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return fmaf(y, fmaf(-x, y, 1.0f), y);
}
__device__ __forceinline__ double rcp_nr(double x)
{
    double y;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    y = fma(y, fma(-x, y, 1.0), y);
    return fma(y, fma(-x, y, 1.0), y);
}
__device__ __forceinline__ float rsqrt_nr(float x)
{
    const float y = rsqrtf(x);
    return y * fmaf(-0.5f * x * y, y, 1.5f);
}
__device__ __forceinline__ double rsqrt_nr(double x)
{
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    y = y * fma(-0.5 * x * y, y, 1.5);
    return y * fma(-0.5 * x * y, y, 1.5);
}

/* Packed runs of tiny matrices for the designs that give each thread a whole problem (getrf and
 * geqrf `serial`): the block's NT threads copy the run's count elements with coalesced element
 * loads and stores, element e of matrix q = e / el going to slot q of PS elements in shared
 * memory. PS odd: the per-thread reads and writes of a slot that follow are free of bank
 * conflicts. count < 2^22 and el <= 1024, as fastdiv needs. */
template <typename T>
__device__ __forceinline__ void slots_in(T *S, const T *run, int count, int el, int PS, int tid, int NT)
{
    const fastdiv d_el((unsigned)el);
#pragma unroll 4
    for (int e = tid; e < count; e += NT) {
        const int q = (int)d_el.div((unsigned)e);
        S[q * PS + (e - q * el)] = run[e];
    }
}
/* slots_in by asynchronous copies (cp.async, one per element; the caller commits and waits), so
 * that a block can fetch its next run while it computes on the current one (the serial designs'
 * PF). */
template <typename T>
__device__ __forceinline__ void slots_in_async(T *S, const T *run, int count, int el, int PS, int tid, int NT)
{
    const fastdiv d_el((unsigned)el);
    const unsigned base = smem_addr(S);
#pragma unroll 4
    for (int e = tid; e < count; e += NT) {
        const int q = (int)d_el.div((unsigned)e);
        cp_async_elem<sizeof(T)>(base + (unsigned)((q * PS + (e - q * el)) * (int)sizeof(T)), run + e);
    }
}
template <typename T>
__device__ __forceinline__ void slots_out(const T *S, T *run, int count, int el, int PS, int tid, int NT)
{
    const fastdiv d_el((unsigned)el);
#pragma unroll 4
    for (int e = tid; e < count; e += NT) {
        const int q = (int)d_el.div((unsigned)e);
        run[e] = S[q * PS + (e - q * el)];
    }
}

/* A whole m x n matrix (m, n <= N; column-major, leading dimension ld) into a thread's registers
 * and back, for the same designs: unrolled over N x N so the array stays in registers; outside
 * m x n (and everywhere when !valid) the registers hold zeros, which the factorizations keep. */
template <int N, typename T>
__device__ __forceinline__ void regs_load(T (&a)[N][N], const T *src, int ld, int m, int n, bool valid)
{
#pragma unroll
    for (int j = 0; j < N; ++j)
#pragma unroll
        for (int i = 0; i < N; ++i) a[i][j] = (valid && i < m && j < n) ? src[i + j * ld] : T();
}
template <int N, typename T>
__device__ __forceinline__ void regs_store(const T (&a)[N][N], T *dst, int ld, int m, int n)
{
#pragma unroll
    for (int j = 0; j < N; ++j)
#pragma unroll
        for (int i = 0; i < N; ++i)
            if (i < m && j < n) dst[i + j * ld] = a[i][j];
}

} /* namespace shoal_util */

/* ---- LU family (getrf, getrs, gesv, getri) in c and z ---- */

/* a / b (Smith: no overflow or underflow of |b|^2): the LU designs divide by a pivot whose
 * reciprocal would not be finite (abs1 below the smallest normal), as zgetf2 does. */
#define SHOAL_COMPLEX_DIV(C, R, S, FABS)                                                                   \
    __device__ __forceinline__ C shoal_cdiv##S(C a, C b)                                              \
    {                                                                                                \
        if (FABS(b.x) >= FABS(b.y)) {                                                                \
            const R r = b.y / b.x, d = b.x + b.y * r;                                                \
            return shoal_cmake##S((a.x + a.y * r) / d, (a.y - a.x * r) / d);                          \
        }                                                                                            \
        const R r = b.x / b.y, d = b.x * r + b.y;                                                    \
        return shoal_cmake##S((a.x * r + a.y) / d, (a.y * r - a.x) / d);                              \
    }

SHOAL_COMPLEX_DIV(cuFloatComplex, float, f, fabsf)
SHOAL_COMPLEX_DIV(cuDoubleComplex, double, , fabs)
#undef SHOAL_COMPLEX_DIV

/* ---- QR (geqrf) in c and z ---- */
namespace shoal_util {

/* 1 / a of a complex a: Smith's formula (no |a|^2, which could overflow or underflow) with
 * rcp_nr for its two divisions, so it holds where rcp_nr does for the larger part of a and for
 * the denominator, which lies between that part and twice it. geqrf's fast path takes
 * 1 / (alpha - beta) from it: there the real part |Re alpha| + ||(alpha, x)|| is the larger one
 * and lies in [sqrt(SMALL), 2 sqrt(BIG)], inside rcp_nr's range. */
#define SHOAL_CRCP_NR(C, R)                                                                         \
    __device__ __forceinline__ C rcp_nr(C a)                                                        \
    {                                                                                               \
        C z;                                                                                        \
        if (fabs(a.x) >= fabs(a.y)) {                                                               \
            const R r = a.y * rcp_nr(a.x), d = rcp_nr(fma(a.y, r, a.x));                            \
            z.x = d;                                                                                \
            z.y = -r * d;                                                                           \
        } else {                                                                                    \
            const R r = a.x * rcp_nr(a.y), d = rcp_nr(fma(a.x, r, a.y));                            \
            z.x = r * d;                                                                            \
            z.y = -d;                                                                               \
        }                                                                                           \
        return z;                                                                                   \
    }
SHOAL_CRCP_NR(cuFloatComplex, float)
SHOAL_CRCP_NR(cuDoubleComplex, double)
#undef SHOAL_CRCP_NR

} /* namespace shoal_util */

#endif
