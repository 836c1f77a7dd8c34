#include "gemm_check.h"

#include "host_math.h"

#include <math.h>

uint64_t gc_hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t gc_mix(uint64_t a, uint64_t b)
{
    gc_rng r = {a ^ (b * 0x9e3779b97f4a7c15ull)};
    return gc_rng_next(&r);
}

void gc_rng_seed(gc_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t gc_rng_next(gc_rng *r) { return oracle_splitmix64(&r->state); }

double gc_rng_uniform(gc_rng *r)
{
    /* 53 random bits -> [0, 1) -> [-1, 1); zero would hide a missing term, so it is replaced. */
    double u = (double)(gc_rng_next(r) >> 11) * 0x1.0p-53;
    double v = 2.0 * u - 1.0;
    return v == 0.0 ? 0.5 : v;
}

void gc_fill_matrix(char prec, void *x, int64_t rows, int64_t cols, int64_t ld, gc_rng *r,
                    int nan_fill)
{
    const int cplx = gc_is_complex(prec);
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) {
            if (!cplx) {
                gc_set(prec, x, i + j * ld, nan_fill ? NAN : gc_rng_uniform(r));
                continue;
            }
            gc_complex v = {NAN, NAN};
            if (!nan_fill) {
                v.re = gc_rng_uniform(r);
                v.im = gc_rng_uniform(r);
            }
            gc_cset(prec, x, i + j * ld, v);
        }
}

double gc_cabs(gc_complex v)
{
    if (isnan(v.re) || isnan(v.im))
        return NAN;
    return hypot(v.re, v.im);
}

double gc_max_abs(char prec, const void *x, int64_t rows, int64_t cols, int64_t ld)
{
    const int cplx = gc_is_complex(prec);
    double m = 0.0;
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) {
            double v = cplx ? gc_cabs(gc_cget(prec, x, i + j * ld)) : fabs(gc_get(prec, x, i + j * ld));
            if (isnan(v))
                return NAN;
            if (v > m)
                m = v;
        }
    return m;
}

double gc_gemm_scale(char prec, int k, double alpha, double beta, double max_a, double max_b,
                     double max_c0)
{
    double s = 0.0;
    if (alpha != 0.0 && k > 0)
        s += fabs(alpha) * (double)k * max_a * max_b;
    if (beta != 0.0)
        s += fabs(beta) * max_c0;
    return s * oracle_eps(prec);
}

/* Reference entry e (element index) as a complex number: cref holds (re, im) pairs for 'c' and
 * 'z', plain doubles otherwise. */
static gc_complex ref_at(char prec, const double *cref, int64_t e)
{
    gc_complex r = {cref[e], 0.0};
    if (gc_is_complex(prec)) {
        r.re = cref[2 * e];
        r.im = cref[2 * e + 1];
    }
    return r;
}

static int cfinite(gc_complex v) { return isfinite(v.re) && isfinite(v.im); }
static int cnan(gc_complex v) { return isnan(v.re) || isnan(v.im); }

/* expect_nan: a NaN in Cref asks for a NaN in C (gc_gemm_error_nan); else it fails the check. */
static double gemm_error(char prec, int m, int n, const void *c, int64_t ldc, const double *cref,
                         int64_t ldr, double scale, int expect_nan, int64_t *nan_missed)
{
    double worst = 0.0;
    int64_t missed = 0;
    int bad = 0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            gc_complex v = gc_cget(prec, c, i + j * ldc);
            gc_complex r = ref_at(prec, cref, i + j * ldr);
            if (expect_nan && cnan(r)) {
                if (!cnan(v))
                    ++missed;
                continue;
            }
            if (!cfinite(v) || !cfinite(r)) {
                if (!expect_nan)
                    return INFINITY;
                bad = 1;
                continue;
            }
            gc_complex dv = {v.re - r.re, v.im - r.im};
            double d = gc_is_complex(prec) ? hypot(dv.re, dv.im) : fabs(dv.re);
            if (d > worst)
                worst = d;
        }
    if (nan_missed)
        *nan_missed = missed;
    if (bad || missed)
        return INFINITY;
    if (scale == 0.0)
        return worst == 0.0 ? 0.0 : INFINITY;
    return worst / scale;
}

double gc_gemm_error(char prec, int m, int n, const void *c, int64_t ldc, const double *cref,
                     int64_t ldr, double scale)
{
    return gemm_error(prec, m, n, c, ldc, cref, ldr, scale, 0, NULL);
}

double gc_gemm_error_nan(char prec, int m, int n, const void *c, int64_t ldc, const double *cref,
                         int64_t ldr, double scale, int64_t *nan_missed)
{
    return gemm_error(prec, m, n, c, ldc, cref, ldr, scale, 1, nan_missed);
}
