#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "bench: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

void *bench_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench: host allocation of %zu bytes failed\n", bytes);
        exit(1);
    }
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int64_t bench_clamp64(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : x > hi ? hi : x; }

int bench_is_complex(char prec) { return prec == 'c' || prec == 'z'; }
char bench_real_prec(char prec) { return prec == 's' || prec == 'c' ? 's' : 'd'; }
int64_t bench_reals_per(char prec) { return bench_is_complex(prec) ? 2 : 1; }
size_t bench_elem_size(char prec)
{
    return (size_t)bench_reals_per(prec) * (bench_real_prec(prec) == 's' ? sizeof(float) : sizeof(double));
}

double bench_copy_bandwidth(cudaStream_t stream, int runs)
{
    size_t free_b = 0, total_b = 0;
    check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    size_t bytes = (size_t)1 << 30;
    while (bytes > ((size_t)64 << 20) && 2 * bytes > free_b / 2) bytes /= 2;
    if (runs < 9) runs = 9;
    void *src, *dst;
    check(cudaMalloc(&src, bytes), "cudaMalloc");
    check(cudaMalloc(&dst, bytes), "cudaMalloc");
    check(cudaMemsetAsync(src, 1, bytes, stream), "cudaMemsetAsync");
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "cudaEventCreate");
    check(cudaEventCreate(&e1), "cudaEventCreate");
    double *t = bench_xmalloc(sizeof(double) * (size_t)runs);
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream), "warm-up copy");
    for (int r = 0; r < runs; ++r) {
        float ms;
        check(cudaEventRecord(e0, stream), "cudaEventRecord");
        check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream), "copy");
        check(cudaEventRecord(e1, stream), "cudaEventRecord");
        check(cudaEventSynchronize(e1), "cudaEventSynchronize");
        check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
        t[r] = ms;
    }
    const double gbs = 2.0 * (double)bytes / (bench_median(t, runs) * 1e6);
    free(t);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(src);
    cudaFree(dst);
    printf("# device-to-device copy: %.1f GB/s (bytes read + written; %zu MiB buffer, median of %d)\n", gbs,
           bytes >> 20, runs);
    return gbs;
}

void bench_to_double(char prec, const void *src, int64_t count, double *dst)
{
    if (prec == 's') {
        const float *s = src;
        for (int64_t i = 0; i < count; ++i)
            dst[i] = s[i];
    } else {
        memcpy(dst, src, (size_t)count * sizeof(double));
    }
}
