#include "host_block_pointers.h"

int host_block_pointer_launches;

cudaError_t shoal_block_pointers(void **ws, const shoal_block_source *src, int n, long long nb, long long groups,
                                 cudaStream_t stream)
{
    (void)stream;
    if (n < 1 || n > SHOAL_WS_OPERANDS || nb * groups > SHOAL_WS_POINTERS) return cudaErrorInvalidValue;
    ++host_block_pointer_launches;
    for (long long b = 0; b < nb; ++b)
        for (long long g = 0; g < groups; ++g)
            for (int o = 0; o < n; ++o) {
                char *base = src[o].in ? (char *)src[o].in[b] : src[o].base + b * src[o].stride_bytes;
                ws[o * SHOAL_WS_POINTERS + b * groups + g] = base + src[o].offset_bytes + g * src[o].step_bytes;
            }
    return cudaSuccess;
}
