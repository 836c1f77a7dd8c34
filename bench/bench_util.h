/* Host helpers shared by the benchmark programs (shoal_bench, shoal_lapack_bench). */
#ifndef SHOAL_BENCH_UTIL_H
#define SHOAL_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

/* malloc that exits with a message on failure (benchmarks have no way to go on). */
void *bench_xmalloc(size_t bytes);
/* Median of v[0..n) (sorts v). */
double bench_median(double *v, int n);
/* dst[i] = src[i] for i < count, src float ('s') or double (any other prec). */
void bench_to_double(char prec, const void *src, int64_t count, double *dst);
int64_t bench_clamp64(int64_t x, int64_t lo, int64_t hi);
/* The precisions' element shapes: c and z are (re, im) pairs of s and d reals. */
int bench_is_complex(char prec);         /* 1 for 'c' and 'z' */
char bench_real_prec(char prec);         /* 's' for s and c, 'd' for d and z */
int64_t bench_reals_per(char prec);      /* reals per element: 2 for c and z, else 1 */
size_t bench_elem_size(char prec);       /* bytes per element: 4, 8, 8, 16 */
/* Device-to-device copy bandwidth (bytes read + written, GB/s) on stream: the roof's memory
 * ceiling, measured in the same run as the kernels it judges. Median of `runs` (>= 9) copies of
 * up to 1 GiB after a warm-up; prints one "# device-to-device copy" line. */
double bench_copy_bandwidth(cudaStream_t stream, int runs);

#endif
