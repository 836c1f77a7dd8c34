/* A factorization driver's per-step info merged into the call's (runtime/drivers/lapack_steps.h). */
#include "lapack_steps.h"

static __global__ void merge(int *info, const int *step, long long n, int offset)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        if (info[i] == 0 && step[i] > 0) info[i] = step[i] + offset;
}

cudaError_t shoal_info_merge(int *info, const int *step, long long n, int offset, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    const int threads = 256;
    const long long blocks = (n + threads - 1) / threads;
    merge<<<(unsigned)(blocks < 4096 ? blocks : 4096), threads, 0, stream>>>(info, step, n, offset);
    return cudaGetLastError();
}
