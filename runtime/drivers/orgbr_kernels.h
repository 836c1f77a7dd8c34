/* orgbr's own kernel (runtime/drivers/orgbr_qr.c): the shifted reflector layout of a bidiagonal
 * reduction moved into orgqr's. */
#ifndef SHOAL_ORGBR_KERNELS_H
#define SHOAL_ORGBR_KERNELS_H

#include <cuda_runtime_api.h>
#include "spec_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A (n x n) holds n - 1 reflectors below its subdiagonal, reflector j in column j with its unit
 * at row j + 1 (gebrd's layout of Q for m < n, and of P^H's conjugate transpose for m >= n).
 * LAPACK's orgbr shift: every column j >= 1 takes column j - 1's entries below row j, and the
 * first row and column become e_0's (A(0, 0) = 1), so that A(1:n, 1:n) holds the reflectors in
 * orgqr's layout and Q = diag(1, orgqr of it). One thread per row of each problem (a row's
 * moves go from right to left, reading only its own row). */
cudaError_t shoal_orgbr_shift(char prec, shoal_operand A, int n, long long batch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
