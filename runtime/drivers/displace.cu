/* Pointer arrays of sub-matrices for the drivers (runtime/drivers/driver_steps.h). */
#include "driver_steps.h"

__global__ void shoal_displace_kernel(void **out, void *const *in, long long offset_bytes, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        out[i] = static_cast<char *>(in[i]) + offset_bytes;
}

extern "C" cudaError_t shoal_displace_pointers(void **out, void *const *in, long long offset_bytes, long long n,
                                               cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    const long long blocks = (n + 255) / 256;
    shoal_displace_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(out, in, offset_bytes, n);
    return cudaGetLastError();
}
