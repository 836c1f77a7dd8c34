/* Helpers shared by the GPU GEMM test and the benchmark: a seeded generator of test data and the
 * normalized GEMM error
 *     max |C - Cref| / ((|alpha| k max|A| max|B| + |beta| max|C0|) eps),
 * which a correct kernel keeps below a small constant (16 here) whatever the sizes and data. In
 * the complex precisions (c, z) every |.| is the complex modulus (sqrt(re^2 + im^2), through
 * hypot) and eps the unit roundoff of the real part's type (2^-24 for c, 2^-53 for z). */
#ifndef SHOAL_GEMM_CHECK_H
#define SHOAL_GEMM_CHECK_H

#include <stddef.h>
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

/* The complex precisions: 'c' holds (float re, float im) pairs, 'z' (double re, double im) pairs,
 * the layout of shoal_complex_float / shoal_complex_double. A gc_complex is laid out as
 * shoal_complex_double and double _Complex, so arrays of it pass to cblas_zgemm as they are. */
typedef struct gc_complex {
    double re, im;
} gc_complex;

static inline int gc_is_complex(char prec) { return prec == 'c' || prec == 'z'; }

/* Bytes per element: 4 s, 8 d and c, 16 z. */
static inline size_t gc_elem_size(char prec)
{
    return prec == 's' ? 4 : prec == 'z' ? 16 : 8;
}

/* Element i of a buffer of any precision, widened to double complex (im = 0 for 's' and 'd'). */
static inline gc_complex gc_cget(char prec, const void *x, int64_t i)
{
    gc_complex v = {0.0, 0.0};
    if (prec == 'c') {
        v.re = ((const float *)x)[2 * i];
        v.im = ((const float *)x)[2 * i + 1];
    } else if (prec == 'z') {
        v.re = ((const double *)x)[2 * i];
        v.im = ((const double *)x)[2 * i + 1];
    } else {
        v.re = gc_get(prec, x, i);
    }
    return v;
}

/* Stores v as element i (rounded to float for 's' and 'c'; the imaginary part is dropped for 's'
 * and 'd'). */
static inline void gc_cset(char prec, void *x, int64_t i, gc_complex v)
{
    if (prec == 'c') {
        ((float *)x)[2 * i] = (float)v.re;
        ((float *)x)[2 * i + 1] = (float)v.im;
    } else if (prec == 'z') {
        ((double *)x)[2 * i] = v.re;
        ((double *)x)[2 * i + 1] = v.im;
    } else {
        gc_set(prec, x, i, v.re);
    }
}

/* Random entries (gc_rng_uniform; in 'c' and 'z' the real part, then the imaginary part), or NaN
 * in every part with nan_fill, in the rows x cols part of a column-major matrix at x. */
void gc_fill_matrix(char prec, void *x, int64_t rows, int64_t cols, int64_t ld, gc_rng *r,
                    int nan_fill);

/* |v|, the modulus; NaN if either part is NaN */
double gc_cabs(gc_complex v);

/* max |X(i, j)| over a rows x cols column-major matrix of any precision (the modulus for 'c' and
 * 'z'); NaN if any entry (either part) is NaN; 0 if empty. */
double gc_max_abs(char prec, const void *x, int64_t rows, int64_t cols, int64_t ld);

/* The denominator of the normalized error (already multiplied by eps). Terms whose scalar is 0
 * (or k == 0) are left out, so that NaN in data that must not be read does not poison it. For 'c'
 * and 'z' pass the moduli |alpha| and |beta| (only they and whether they are 0 matter). */
double gc_gemm_scale(char prec, int k, double alpha, double beta, double max_a, double max_b,
                     double max_c0);

/* max |C - Cref| / scale over the m x n part; C is of precision prec, Cref double (for 'c' and
 * 'z' double complex: (re, im) pairs, ldr counted in elements) with leading dimension ldr. NaN or
 * Inf in C (or Cref) gives +Inf. With scale == 0 the result must be exact (0 or +Inf). */
double gc_gemm_error(char prec, int m, int n, const void *c, int64_t ldc, const double *cref,
                     int64_t ldr, double scale);

/* As gc_gemm_error, except that an entry of Cref that is NaN (in either part) is one where C must
 * be NaN (in either part): a NaN put into the data on purpose must reach exactly the entries that
 * depend on it. Such an entry of C that is not NaN gives +Inf (*nan_missed counts them, may be
 * NULL); the other entries are judged as by gc_gemm_error. */
double gc_gemm_error_nan(char prec, int m, int n, const void *c, int64_t ldc, const double *cref,
                         int64_t ldr, double scale, int64_t *nan_missed);

#endif
