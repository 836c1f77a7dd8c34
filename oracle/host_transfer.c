/* Moving operands between the host (double) and the device (oracle/host_transfer.h). */
#include "host_transfer.h"

#include <stdlib.h>

double tuner_round(double x, char prec) { return prec == 's' ? (double)(float)x : x; }

cudaError_t tuner_upload(void *dst, const double *src, long long count, char prec)
{
    if (prec == 'd') return cudaMemcpy(dst, src, (size_t)count * sizeof(double), cudaMemcpyHostToDevice);
    float *tmp = malloc((size_t)count * sizeof(float));
    if (!tmp) return cudaErrorMemoryAllocation;
    for (long long i = 0; i < count; ++i) tmp[i] = (float)src[i];
    cudaError_t e = cudaMemcpy(dst, tmp, (size_t)count * sizeof(float), cudaMemcpyHostToDevice);
    free(tmp);
    return e;
}

cudaError_t tuner_download(double *dst, const void *src, long long count, char prec)
{
    if (prec == 'd') return cudaMemcpy(dst, src, (size_t)count * sizeof(double), cudaMemcpyDeviceToHost);
    float *tmp = malloc((size_t)count * sizeof(float));
    if (!tmp) return cudaErrorMemoryAllocation;
    cudaError_t e = cudaMemcpy(tmp, src, (size_t)count * sizeof(float), cudaMemcpyDeviceToHost);
    for (long long i = 0; i < count && e == cudaSuccess; ++i) dst[i] = tmp[i];
    free(tmp);
    return e;
}

cudaError_t tuner_tile(void *buf, long long have, long long total, size_t unit)
{
    char *b = buf;
    while (have < total) {
        const long long n = have < total - have ? have : total - have;
        cudaError_t e = cudaMemcpy(b + have * unit, b, (size_t)n * unit, cudaMemcpyDeviceToDevice);
        if (e != cudaSuccess) return e;
        have += n;
    }
    return cudaSuccess;
}

cudaError_t tuner_alloc(void **p, long long bytes) { return cudaMalloc(p, (size_t)(bytes > 0 ? bytes : 1) + 64); }
