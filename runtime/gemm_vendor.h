/* The vendor candidate: cuBLAS batched GEMM, called on exactly the arguments a shoal call got.
 * Shared by the library (shapes cuBLAS won) and the tuner (cuBLAS timed as a candidate). */
#ifndef SHOAL_GEMM_VENDOR_H
#define SHOAL_GEMM_VENDOR_H

#include <cublas_v2.h>
#include "kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* variant = trans_a * 2 + trans_b; in c and z a transposed operand whose p->conj bit is set (bit 0
 * A, bit 1 B) is op C. cuBLAS takes int batch counts: larger batches go in chunks. */
cublasStatus_t shoal_gemm_vendor(cublasHandle_t h, char precision, int variant, const shoal_gemm_params *p);

#ifdef __cplusplus
}
#endif
#endif
