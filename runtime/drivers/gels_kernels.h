/* The least-squares driver's own small kernels (runtime/drivers/gels_qr.c): moving A^H into the
 * workspace and back, the per-matrix info from the triangular factor, and row blocks of B set to
 * zero or conjugated. Each takes its operands as pointer arrays or strided (shoal_operand), any
 * batch, and is queued on stream. */
#ifndef SHOAL_GELS_KERNELS_H
#define SHOAL_GELS_KERNELS_H

#include <cuda_runtime_api.h>
#include "spec_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst(j, i) = conj(src(i, j)) (a plain transpose in s and d) for i < rows, j < cols:
 * src is rows x cols, dst cols x rows. */
cudaError_t shoal_gels_conj_transpose(char prec, shoal_operand src, shoal_operand dst, int rows, int cols,
                                      long long batch, cudaStream_t stream);

/* From R, an n x n upper triangle: info[b] = the first j (1-based) with R(j, j) == 0, else 0;
 * zero[b] = 1 where the whole triangle is zero (A was a zero matrix: then info[b] = 0, as LAPACK's
 * gels, which returns X = 0), else 0. */
cudaError_t shoal_gels_info(char prec, shoal_operand R, int n, long long batch, int *info, int *zero,
                            cudaStream_t stream);

enum { SHOAL_ROWS_ZERO = 0, SHOAL_ROWS_CONJ = 1 };

/* Rows [row0, row1) of the first cols columns of B: set to zero (SHOAL_ROWS_ZERO) or conjugated
 * (SHOAL_ROWS_CONJ, complex precisions only), in every problem, or only where only[b] != 0
 * (only != NULL). */
cudaError_t shoal_gels_rows(char prec, shoal_operand B, int row0, int row1, int cols, long long batch,
                            const int *only, int op, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
