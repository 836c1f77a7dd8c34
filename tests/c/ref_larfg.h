/* LAPACK's xLARFG in double complex (real data: imaginary parts 0), written from LAPACK's
 * conventions: the host references of the reflector-based tests share it (tests/c/test_oracle.c's
 * gebd2, tests/c/test_gebrd_host.c's twins of the blocked gebrd's kernels). */
#ifndef SHOAL_REF_LARFG_H
#define SHOAL_REF_LARFG_H

#include <complex.h>
#include <math.h>

/* xLARFG on (alpha, x(0:len-1) at stride): alpha becomes beta, x the vector's tail, returns tau;
 * tau = 0 (H = I, beta = alpha) when x is 0 and alpha real */
static inline double complex ref_larfg(double complex *alpha, double complex *x, int len, int stride)
{
    double xn2 = 0.0;
    for (int j = 0; j < len; ++j) xn2 += creal(x[j * stride]) * creal(x[j * stride]) + cimag(x[j * stride]) * cimag(x[j * stride]);
    const double ar = creal(*alpha), ai = cimag(*alpha);
    if (xn2 == 0.0 && ai == 0.0) return 0.0;
    const double beta = -copysign(sqrt(ar * ar + ai * ai + xn2), ar);
    const double complex scale = 1.0 / (*alpha - beta);
    for (int j = 0; j < len; ++j) x[j * stride] *= scale;
    *alpha = beta;
    return (beta - ar) / beta - I * (ai / beta);
}

#endif
