/* The argument block every GEMM kernel takes by value.
 *
 * Plain C types only: this header is compiled by nvcc for the shipped kernels, by NVRTC for the
 * tuning candidates (which cannot see system headers) and by the C host code that fills it.
 * Scalars are carried as double[2] (real, imaginary) so that c/z precisions fit the same block;
 * a float kernel narrows them once per launch. */
#ifndef SHOAL_KERNEL_ABI_H
#define SHOAL_KERNEL_ABI_H

typedef struct shoal_gemm_params {
    int m, n, k;
    /* complex precisions: bit 0 conjugates A, bit 1 B (op C is op T with this bit: the kernels of
     * a transpose variant serve it); 0 in s and d. Also keeps the 64-bit fields aligned. */
    int conj;
    double alpha[2], beta[2];
    /* Strided mode: A_i = A + i * stride_a (elements). Pointer-array mode when A_array != 0. */
    const void *A, *B;
    void *C;
    const void *const *A_array, *const *B_array;
    void *const *C_array;
    long long lda, ldb, ldc;
    long long stride_a, stride_b, stride_c;
    long long batch;
} shoal_gemm_params;

#endif
