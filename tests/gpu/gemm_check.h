/* Helpers shared by the GPU GEMM test and the benchmark: a seeded generator of test data and the
 * normalized GEMM error
 *     max |C - Cref| / ((|alpha| k max|A| max|B| + |beta| max|C0|) eps),
 * which a correct kernel keeps below a small constant (16 here) whatever the sizes and data. */
#ifndef SHOAL_GEMM_CHECK_H
#define SHOAL_GEMM_CHECK_H

#include <stdint.h>

#define GC_ERROR_LIMIT 16.0

/* splitmix64: tiny, seedable, good enough for test data, identical on every machine. */
typedef struct gc_rng {
    uint64_t state;
} gc_rng;

uint64_t gc_hash_string(const char *s);          /* FNV-1a, to derive a seed from a case name */
uint64_t gc_mix(uint64_t a, uint64_t b);         /* combine two seeds */
void gc_rng_seed(gc_rng *r, uint64_t seed);
uint64_t gc_rng_next(gc_rng *r);
double gc_rng_uniform(gc_rng *r);                /* in [-1, 1], never 0 */


/* Element access for 's' (float) or 'd' (double) buffers. */
static inline double gc_get(char prec, const void *x, int64_t i)
{
    return prec == 's' ? (double)((const float *)x)[i] : ((const double *)x)[i];
}
static inline void gc_set(char prec, void *x, int64_t i, double v)
{
    if (prec == 's')
        ((float *)x)[i] = (float)v;
    else
        ((double *)x)[i] = v;
}

/* max |X(i, j)| over a rows x cols column-major matrix; NaN if any entry is NaN; 0 if empty. */
double gc_max_abs(char prec, const void *x, int64_t rows, int64_t cols, int64_t ld);

/* The denominator of the normalized error (already multiplied by eps). Terms whose scalar is 0
 * (or k == 0) are left out, so that NaN in data that must not be read does not poison it. */
double gc_gemm_scale(char prec, int k, double alpha, double beta, double max_a, double max_b,
                     double max_c0);

/* max |C - Cref| / scale over the m x n part; C is 's' or 'd', Cref double with leading dimension
 * ldr. NaN or Inf in C (or Cref) gives +Inf. With scale == 0 the result must be exact (0 or +Inf). */
double gc_gemm_error(char prec, int m, int n, const void *c, int64_t ldc, const double *cref,
                     int64_t ldr, double scale);

#endif
