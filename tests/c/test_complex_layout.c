/* shoal's complex element types (include/shoal.h) have the layout of cuComplex /
 * cuDoubleComplex and of C99 _Complex: size, alignment, real part first. Compiled as C11 and as
 * C++ by tests/test_complex_layout.py (no library, no GPU); the static assertions are the test,
 * the run checks a value through a pointer cast each way. Last line: "N passed, M failed". */
#include <complex.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cuComplex.h>

#include "shoal.h"

_Static_assert(sizeof(shoal_complex_float) == sizeof(cuComplex), "size of cuComplex");
_Static_assert(_Alignof(shoal_complex_float) == _Alignof(cuComplex), "alignment of cuComplex");
_Static_assert(sizeof(shoal_complex_double) == sizeof(cuDoubleComplex), "size of cuDoubleComplex");
_Static_assert(_Alignof(shoal_complex_double) == _Alignof(cuDoubleComplex), "alignment of cuDoubleComplex");
_Static_assert(offsetof(shoal_complex_float, im) == sizeof(float), "imaginary part second");
_Static_assert(offsetof(shoal_complex_double, im) == sizeof(double), "imaginary part second");
_Static_assert(sizeof(shoal_complex_float) == sizeof(float _Complex), "size of float _Complex");
_Static_assert(sizeof(shoal_complex_double) == sizeof(double _Complex), "size of double _Complex");

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok) ++passed;
    else {
        ++failed;
        printf("FAILED %s\n", what);
    }
}

int main(void)
{
    cuComplex cf[2] = {make_cuComplex(1.5f, -2.0f), make_cuComplex(3.0f, 4.25f)};
    const shoal_complex_float *sf = (const shoal_complex_float *)cf;
    check(sf[1].re == 3.0f && sf[1].im == 4.25f, "cuComplex array read as shoal_complex_float");
    shoal_complex_double sd[2] = {{1.0, 2.0}, {-0.5, 8.0}};
    const cuDoubleComplex *cd = (const cuDoubleComplex *)sd;
    check(cuCreal(cd[1]) == -0.5 && cuCimag(cd[1]) == 8.0, "shoal_complex_double array read as cuDoubleComplex");
    double _Complex z[2] = {1.0 + 2.0 * I, 3.0 - 1.0 * I};
    const shoal_complex_double *zs = (const shoal_complex_double *)z;
    check(zs[1].re == 3.0 && zs[1].im == -1.0, "double _Complex array read as shoal_complex_double");
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
