/* Pointer arrays of sub-matrices (runtime/block_pointers.h): one launch writes every operand's
 * array of a step. */
#include "block_pointers.h"

typedef struct block_sources {
    shoal_block_source s[SHOAL_WS_OPERANDS];
} block_sources;

__global__ void shoal_block_pointers_kernel(block_sources src, int n, long long nb, long long groups, void **ws)
{
    const long long total = nb * groups;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)gridDim.x * blockDim.x) {
        const long long b = i / groups, g = i - b * groups;
        for (int o = 0; o < n; ++o) {
            const shoal_block_source &s = src.s[o];
            char *base = s.in ? static_cast<char *>(s.in[b]) : s.base + b * s.stride_bytes;
            ws[(long long)o * SHOAL_WS_POINTERS + i] = base + s.offset_bytes + g * s.step_bytes;
        }
    }
}

extern "C" cudaError_t shoal_block_pointers(void **ws, const shoal_block_source *src, int n, long long nb,
                                            long long groups, cudaStream_t stream)
{
    if (n < 1 || n > SHOAL_WS_OPERANDS || nb * groups > SHOAL_WS_POINTERS) return cudaErrorInvalidValue;
    if (nb * groups <= 0) return cudaSuccess;
    block_sources all;
    for (int o = 0; o < n; ++o) all.s[o] = src[o];
    const long long blocks = (nb * groups + 255) / 256;
    shoal_block_pointers_kernel<<<(unsigned)blocks, 256, 0, stream>>>(all, n, nb, groups, ws);
    return cudaGetLastError();
}
