/* The CUDA source of the cuSolverDx peer's batched kernel (bench/dx_wrapper.c). */
#ifndef SHOAL_DX_WRAPPER_H
#define SHOAL_DX_WRAPPER_H

/* Kernel `dx_batched(T *A, int *ipiv, T *tau, int *info, long long batch)`, configured by -D
 * macros (see bench/dx_wrapper.c). */
extern const char dx_wrapper_source[];

#endif
