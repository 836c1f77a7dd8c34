/* runtime/drivers/orgbr_kernels.h. One template over the element type; the precision letter
 * picks the instance (a complex element is a float2 / double2 pair). */
#include "driver_elem.cuh"
#include "orgbr_kernels.h"

namespace {

using namespace shoal_elem;

/* a flat grid-stride loop over (problem, row) */
template <typename T> __global__ void shift(shoal_operand A, int n, long long batch)
{
    for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < batch * n;
         g += (long long)gridDim.x * blockDim.x) {
        const long long b = g / n;
        const int i = (int)(g - b * n);
        T *a = problem<T>(A, b);
        if (i == 0) {
            a[0] = one_of<T>();
            for (int j = 1; j < n; ++j) a[(long long)j * A.ld] = zero_of<T>();
            continue;
        }
        for (int j = i - 1; j >= 1; --j) a[i + (long long)j * A.ld] = a[i + (long long)(j - 1) * A.ld];
        a[i] = zero_of<T>();
    }
}

template <typename T> cudaError_t launch(shoal_operand A, int n, long long batch, cudaStream_t s)
{
    const int threads = 256;
    const long long blocks = (batch * n + threads - 1) / threads;
    shift<T><<<(unsigned)(blocks < 8192 ? blocks : 8192), threads, 0, s>>>(A, n, batch);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t shoal_orgbr_shift(char prec, shoal_operand A, int n, long long batch, cudaStream_t stream)
{
    if (n <= 0 || batch <= 0) return cudaSuccess;
#define SHIFT(T) launch<T>(A, n, batch, stream)
    BY_PRECISION(prec, SHIFT)
#undef SHIFT
}
