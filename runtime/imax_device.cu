/* shoal_imax_device: the maximum of a device int array, for callers of the variable-size
 * routines who do not know their maximum sizes. Not a tuned kernel: a grid-stride reduction
 * into one device int (the handle's scratch), then a copy to the host. */
#include "context.h"

static __global__ void imax_kernel(const int *v, long long count, int *out)
{
    int best = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        best = max(best, v[i]);
    for (int o = 16; o > 0; o /= 2) best = max(best, __shfl_xor_sync(0xffffffffu, best, o));
    if ((threadIdx.x & 31) == 0 && best > 0) atomicMax(out, best);
}

extern "C" shoal_status shoal_imax_device(shoal_handle handle, const int *values, int64_t count, int *result)
{
    if (count < 0 || !result || (count > 0 && !values)) return SHOAL_STATUS_INVALID_VALUE;
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    *result = 0;
    if (count == 0) return SHOAL_STATUS_SUCCESS;
    cudaError_t e = cudaMemsetAsync(ctx->scratch, 0, sizeof(int), ctx->stream);
    if (e == cudaSuccess) {
        const long long blocks = (count + 255) / 256;
        imax_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, ctx->stream>>>(values, count, ctx->scratch);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(result, ctx->scratch, sizeof(int), cudaMemcpyDeviceToHost, ctx->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(ctx->stream);
    return e == cudaSuccess ? SHOAL_STATUS_SUCCESS : SHOAL_STATUS_CUDA_ERROR;
}
