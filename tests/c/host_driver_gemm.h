/* Host versions of the drivers' GEMM steps (runtime/drivers/driver_steps.h: shoal_driver_gemm,
 * shoal_driver_gemm_complex) on operands in host memory, strided or pointer arrays, and the
 * element access the host tests of the drivers share (tests/c/test_drivers_host.c,
 * test_gebrd_host.c): 's' float, 'd' double, 'z' double complex (the complex precisions' stand-in). */
#ifndef SHOAL_HOST_DRIVER_GEMM_H
#define SHOAL_HOST_DRIVER_GEMM_H

#include <complex.h>

#include "driver_steps.h"

/* GEMM steps since the counter was last reset */
extern int host_gemm_calls;

/* element (i, j) of problem b of an operand */
double host_get(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j);
void host_put(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j, double v);
double complex host_zget(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j);
void host_zput(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j,
               double complex v);

#endif
