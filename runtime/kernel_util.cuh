/* Device helpers shared by the kernel templates. Included by generated and candidate modules
 * (nvcc and NVRTC alike), so it uses no system header. */
#ifndef SHOAL_KERNEL_UTIL_CUH
#define SHOAL_KERNEL_UTIL_CUH

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
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

} /* namespace shoal_util */

#endif
