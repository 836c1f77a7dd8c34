/* Host images of device operands in any precision, for the GPU tests of the factorizations
 * (test_lu_gpu.c, test_chol_qr_gpu.c): an element is one real (s, d) or a (re, im) pair (c, z)
 * of floats (s, c) or doubles (d, z); the host references see elements as w doubles each
 * (oracle/lapack_ref.h: w = 2 for c and z). Header-only: small and shared by both programs. */
#ifndef SHOAL_TESTS_HOST_ELEMS_H
#define SHOAL_TESTS_HOST_ELEMS_H

#include <stdint.h>
#include <stddef.h>

/* Real parts in single precision (s, c); reals per element (2 for c, z). */
static inline int elem_single(char prec) { return prec == 's' || prec == 'c'; }
static inline int elem_reals(char prec) { return prec == 'c' || prec == 'z' ? 2 : 1; }

/* Real i of an image (element i / w, part i % w). */
static inline double elem_get_real(char prec, const void *x, int64_t i)
{
    return elem_single(prec) ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

static inline void elem_set_real(char prec, void *x, int64_t i, double v)
{
    if (elem_single(prec))
        ((float *)x)[i] = (float)v;
    else
        ((double *)x)[i] = v;
}

/* Element e of an image <- element j of a packed host array (w doubles each), and back. */
static inline void elem_put(char prec, void *x, int64_t e, const double *src, int64_t j)
{
    const int w = elem_reals(prec);
    for (int q = 0; q < w; ++q) elem_set_real(prec, x, e * w + q, src[j * w + q]);
}

static inline void elem_get(char prec, const void *x, int64_t e, double *dst, int64_t j)
{
    const int w = elem_reals(prec);
    for (int q = 0; q < w; ++q) dst[j * w + q] = elem_get_real(prec, x, e * w + q);
}

#endif
