/* Moving operands between the host (double) and the device (oracle/host_transfer.h). */
#include "host_transfer.h"

#include <stdlib.h>

/* Single-precision real parts (s, c), and reals per element (2 for the complex c, z). */
static int single(char prec) { return prec == 's' || prec == 'c'; }
static long long reals(long long count, char prec) { return prec == 'c' || prec == 'z' ? 2 * count : count; }

double tuner_round(double x, char prec) { return single(prec) ? (double)(float)x : x; }

cudaError_t tuner_upload(void *dst, const double *src, long long count, char prec)
{
    const long long n = reals(count, prec);
    if (!single(prec)) return cudaMemcpy(dst, src, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
    float *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    if (!tmp) return cudaErrorMemoryAllocation;
    for (long long i = 0; i < n; ++i) tmp[i] = (float)src[i];
    cudaError_t e = cudaMemcpy(dst, tmp, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    free(tmp);
    return e;
}

cudaError_t tuner_download(double *dst, const void *src, long long count, char prec)
{
    const long long n = reals(count, prec);
    if (!single(prec)) return cudaMemcpy(dst, src, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
    float *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    if (!tmp) return cudaErrorMemoryAllocation;
    cudaError_t e = cudaMemcpy(tmp, src, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    for (long long i = 0; i < n && e == cudaSuccess; ++i) dst[i] = tmp[i];
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
