/* The argument block of every kernel of a spec routine (spec/routines/<r>.toml), passed by value.
 *
 * Plain C types only: compiled by nvcc (shipped kernels), NVRTC (tuning candidates) and C.
 * The routine's spec names what each slot means: dims[] in the spec's `dims` order, opts[] in
 * its `options` order (the public enum values: side 0 = left, 1 = right; uplo 0 = lower,
 * 1 = upper; op 0 = N, 1 = T, 2 = C (conjugate transpose: only complex calls carry it, the real
 * entry points make it T); diag 0 = non-unit, 1 = unit), op[] in its `operands` order.
 * Scalars: alpha and beta are the real parts; the complex precisions (c, z) add the imaginary
 * parts alpha_im and beta_im (0 in real calls, which never read them). They follow the fields
 * the real kernels use, so those keep their offsets.
 * Problem i of operand o starts at op[o].array ? op[o].array[i] : op[o].ptr + i * op[o].stride
 * (elements); column j of it at + j * op[o].ld. */
#ifndef SHOAL_SPEC_ABI_H
#define SHOAL_SPEC_ABI_H

#define SHOAL_SPEC_MAX_OPERANDS 5

typedef struct shoal_operand {
    void *ptr;                      /* strided form: problem 0 */
    void *const *array;             /* pointer-array form (then ptr and stride are unused) */
    long long ld, stride;           /* elements */
} shoal_operand;

typedef struct shoal_spec_params {
    int dims[4];                    /* e.g. trsm: m, n; syrk: n, k */
    int opts[4];                    /* e.g. trsm: side, uplo, trans, diag; syrk: uplo, trans */
    double alpha, beta;             /* real parts; the kernel converts to its element type */
    shoal_operand op[SHOAL_SPEC_MAX_OPERANDS];
    int *info;                      /* per problem, NULL for routines without numerical info */
    long long batch;
    double alpha_im, beta_im;       /* imaginary parts (complex precisions; 0 otherwise) */
} shoal_spec_params;

#endif
