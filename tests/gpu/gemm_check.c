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

double gc_eps(char prec) { return oracle_eps(prec); }

double gc_max_abs(char prec, const void *x, int64_t rows, int64_t cols, int64_t ld)
{
    double m = 0.0;
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) {
            double v = fabs(gc_get(prec, x, i + j * ld));
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
    return s * gc_eps(prec);
}

double gc_gemm_error(char prec, int m, int n, const void *c, int64_t ldc, const double *cref,
                     int64_t ldr, double scale)
{
    double worst = 0.0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            double v = gc_get(prec, c, i + j * ldc);
            double r = cref[i + j * ldr];
            if (!isfinite(v) || !isfinite(r))
                return INFINITY;
            double d = fabs(v - r);
            if (d > worst)
                worst = d;
        }
    if (scale == 0.0)
        return worst == 0.0 ? 0.0 : INFINITY;
    return worst / scale;
}
