/* shoal: batched dense linear algebra for many small matrices on NVIDIA GPUs.
 *
 * Conventions (cuBLAS / MAGMA / LAPACK):
 *  - column-major storage, LAPACK argument order;
 *  - batch counts, leading dimensions and strides are 64-bit;
 *  - every call is asynchronous on the handle's stream: no host synchronization, no allocation,
 *    no host-side search over the batch, so calls can be captured in CUDA graphs;
 *  - argument errors are detected before anything is touched, in this order:
 *      1. invalid arguments            -> SHOAL_STATUS_INVALID_VALUE
 *      2. NULL handle                  -> SHOAL_STATUS_NOT_INITIALIZED
 *      3. no work (m, n or batch == 0) -> SHOAL_STATUS_SUCCESS at once
 *    Arguments are checked first so that a caller learns about a bad call even before it has a
 *    handle (and so that the checks can be tested on machines without a GPU).
 */
#ifndef SHOAL_H
#define SHOAL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHOAL_VERSION_MAJOR 0
#define SHOAL_VERSION_MINOR 1
#define SHOAL_VERSION_PATCH 0

typedef enum shoal_status {
    SHOAL_STATUS_SUCCESS = 0,
    SHOAL_STATUS_NOT_INITIALIZED = 1, /* NULL or destroyed handle */
    SHOAL_STATUS_INVALID_VALUE = 2,   /* an argument is out of range; nothing was touched */
    SHOAL_STATUS_NOT_SUPPORTED = 3,   /* valid request this build cannot serve */
    SHOAL_STATUS_ALLOC_FAILED = 4,    /* only shoal_create allocates */
    SHOAL_STATUS_NO_DEVICE = 5,       /* no usable CUDA device (shoal_create) */
    SHOAL_STATUS_CUDA_ERROR = 6,      /* a CUDA runtime call or kernel launch failed */
    SHOAL_STATUS_VENDOR_ERROR = 7     /* cuBLAS failed on a shape dispatched to it */
} shoal_status;

typedef enum shoal_operation {
    SHOAL_OP_N = 0, /* op(X) = X   */
    SHOAL_OP_T = 1, /* op(X) = X^T */
    SHOAL_OP_C = 2  /* op(X) = X^H, the conjugate transpose; the same as SHOAL_OP_T in the real
                       precisions (s, d), as in BLAS */
} shoal_operation;

/* Complex elements and scalars of the complex precisions (c: single, z: double; their routines
 * are being added): the layout of cuComplex / cuDoubleComplex (real part first, aligned to the
 * whole element) and of C99 float _Complex / double _Complex, so that arrays of any of them pass
 * by a pointer cast. tests/c/test_complex_layout.c checks it. */
#ifdef __cplusplus
#define SHOAL_ALIGNED(n) alignas(n)
#else
#define SHOAL_ALIGNED(n) _Alignas(n)
#endif
typedef struct shoal_complex_float {
    SHOAL_ALIGNED(8) float re;
    float im;
} shoal_complex_float;
typedef struct shoal_complex_double {
    SHOAL_ALIGNED(16) double re;
    double im;
} shoal_complex_double;

typedef struct shoal_context *shoal_handle;

/* Human-readable name of a status ("SHOAL_STATUS_INVALID_VALUE: ..."); never NULL. */
const char *shoal_status_string(shoal_status status);

/* The version of the library that is linked (which may differ from the header's
 * SHOAL_VERSION_* macros): major * 10000 + minor * 100 + patch, as cublasGetVersion encodes it. */
shoal_status shoal_get_version(int *version);

/* Binds to the current CUDA device, picks the tuned dispatch table for it (this device ->
 * same compute capability -> nearest lower capability -> portable default) and creates the
 * cuBLAS handle used for shapes the vendor wins. Uses the legacy default stream until
 * shoal_set_stream. */
shoal_status shoal_create(shoal_handle *handle);

/* Why the last shoal_create of the calling thread failed, naming the CUDA, cuBLAS or cuSOLVER
 * call and its error, e.g. "cudaGetDeviceCount: cudaErrorInsufficientDriver: CUDA driver version
 * is insufficient for CUDA runtime version"; "" after a successful shoal_create (or before any).
 * Never NULL; valid until the thread's next shoal_create. */
const char *shoal_create_error_string(void);
shoal_status shoal_destroy(shoal_handle handle);
shoal_status shoal_set_stream(shoal_handle handle, cudaStream_t stream);
shoal_status shoal_get_stream(shoal_handle handle, cudaStream_t *stream);

/* Which tuned table serves this handle: the device name it was tuned on (or "portable") and
 * how it was matched: 0 same device, 1 same compute capability, 2 lower capability,
 * 3 portable default. Either pointer may be NULL. */
shoal_status shoal_get_dispatch_info(shoal_handle handle, const char **table_device, int *match_level);

/* With enabled = 0 the handle never routes a call to cuBLAS, even where cuBLAS won the tuning:
 * it uses shoal's best own kernel for the shape. Default 1. Meant for benchmarks and tests. */
shoal_status shoal_set_vendor_dispatch(shoal_handle handle, int enabled);

/* The prototypes of shoal_<p>gemm_batched and _strided_batched, with their doc comments, are
 * generated from spec/routines/gemm.toml (abi = "gemm") into shoal_routines.h (included at the
 * end of this file). */

/* The kernel a call with these arguments would run ("cublas" where routed to the vendor);
 * for logs and tests. precision is 's', 'd', 'c' or 'z'; pointer_array selects the _batched table. */
shoal_status shoal_gemm_kernel_name(shoal_handle handle, char precision, int pointer_array,
                                    shoal_operation transa, shoal_operation transb,
                                    int m, int n, int k, const char **name);

/* ======================================================================================
 * Factorizations, solves and inversion of small matrices (n <= 32; m, n <= 32 for getrf and
 * geqrf; potrf, potrs and posv up to n = 1024 through their blocked drivers: each routine's
 * limit is in its comment in shoal_routines.h). Larger sizes return SHOAL_STATUS_NOT_SUPPORTED.
 * LAPACK semantics per matrix:
 *  - ipiv is 1-based; row i was interchanged with row ipiv[i]. In the _batched (pointer-array)
 *    calls the pivots of matrix b are ipiv[b * min(m, n) ...] (cuBLAS layout); the
 *    _strided_batched calls take an explicit strideP >= min(m, n).
 *  - info (device array, one int per matrix) is 0 on success; getrf/gesv/getri: i > 0 when
 *    U(i,i) is exactly zero (the factorization still completes, as LAPACK's); potrf/posv: i > 0
 *    when the leading minor of order i is not positive definite. A failure in one matrix never
 *    affects another. What a failed matrix's outputs hold is documented per routine (shoal_routines.h).
 *  - strides are in elements; output strides must keep the matrices apart.
 * ====================================================================================== */

typedef enum shoal_fill_mode {
    SHOAL_FILL_LOWER = 0,           /* uplo = 'L' */
    SHOAL_FILL_UPPER = 1            /* uplo = 'U' */
} shoal_fill_mode;

/* Which orthogonal (unitary) factor of a bidiagonal reduction orgbr forms (LAPACK's vect). */
typedef enum shoal_vect {
    SHOAL_VECT_Q = 0,               /* vect = 'Q': Q, from gebrd's tauq */
    SHOAL_VECT_P = 1                /* vect = 'P': P^H, from gebrd's taup */
} shoal_vect;

/* The factorizations' prototypes, shoal_<p>{getrf, getrs, gesv, getri, getri_fused, potrf, potrs,
 * posv, geqrf}_batched and _strided_batched, with their doc comments, are generated from
 * spec/routines/<r>.toml into shoal_routines.h (included at the end of this file). */

/* The kernel a factorization call would run ("cublas"/"cusolver" where routed to the vendor);
 * routine is one of "getrf", "getrs", "gesv", "getri", "getri_fused", "potrf", "potrs", "posv",
 * "geqrf"; precision 's', 'd', 'c' or 'z' (one the routine serves: else INVALID_VALUE); variant
 * is the option letter ('n'/'t' for getrs, whose op C in c and z is 't' too; 'l'/'u' for the
 * Cholesky routines, 'n' otherwise). For logs, tests and the query tool. */
shoal_status shoal_lapack_kernel_name(shoal_handle handle, const char *routine, char precision,
                                      int pointer_array, char variant, int m, int n, int nrhs,
                                      const char **name);


/* ---- level 2: GEMV, TRSV, variable-size GEMV (docs/blas2.md) ----
 * Vectors take BLAS increments: nonzero, negative allowed (element i of a length-L vector then
 * sits at x[(L - 1 - i) * |inc|], the pointer given is the lowest address, as in BLAS).
 * Strided batches: problem i uses A + i * strideA, x + i * stridex, y + i * stridey. */

typedef enum shoal_diag {
    SHOAL_DIAG_NON_UNIT = 0, /* the diagonal of A is used */
    SHOAL_DIAG_UNIT = 1      /* the diagonal is taken as ones and not read */
} shoal_diag;

/* The prototypes of shoal_<p>gemv_batched / _strided_batched, shoal_<p>trsv_batched /
 * _strided_batched and shoal_<p>gemv_vbatched, with their doc comments, are generated from
 * spec/routines/{gemv,trsv,gemv_vbatched}.toml (abi = "blas2") into shoal_routines.h (included
 * at the end of this file). */

/* shoal_<p>gemm_vbatched (variable-size GEMM): generated from spec/routines/gemm_vbatched.toml
 * (abi = "gemm") into shoal_routines.h. */

/* Convenience for variable-size calls: *result = max(0, values[0..count)) over a DEVICE array,
 * computed on the device on the handle's stream. Unlike every other call it synchronizes that
 * stream (the result comes back to the host). */
shoal_status shoal_imax_device(shoal_handle handle, const int *values, int64_t count, int *result);

/* Which kernel serves a level-2 or variable-size call: routine "gemv", "trsv", "gemv_vbatched" or
 * "gemm_vbatched", variant as in its search space ("n"/"t"; trsv "ln", "lt", "un", "ut";
 * gemm_vbatched "nn", "nt", "tn", "tt"), m x n (trsv: m = n; vbatched: the maxima; gemm_vbatched:
 * k = n is assumed). *name is a static string (a kernel name, or "cublas"). */
shoal_status shoal_blas2_kernel_name(shoal_handle handle, const char *routine, char precision, int pointer_array,
                                     const char *variant, int m, int n, const char **name);

typedef enum shoal_side {
    SHOAL_SIDE_LEFT = 0,    /* side = 'L': op(A) X = alpha B */
    SHOAL_SIDE_RIGHT = 1    /* side = 'R': X op(A) = alpha B */
} shoal_side;

/* Which kernel serves a call of a spec routine (include/shoal_routines.h): "vendor",
 * "driver" (a sequence of dispatched steps) or a kernel name; the call's arguments as the
 * routine's entry point takes them are not needed: routine, precision, pointer_array, the
 * option values in the spec's order (NULL: all 0) and the dimensions in the spec's order.
 * *name is a static string. For tests and benchmarks. */
shoal_status shoal_spec_kernel_name(shoal_handle handle, const char *routine, char precision, int pointer_array,
                                    const int *options, const int *dims, const char **name);

/* Device workspace of a handle, allocated by shoal_create and used by the routines served by a
 * driver (pointer arrays of sub-matrices), by strided factorization calls the vendor serves
 * (the pointer arrays it takes) and by the least-squares solver (32 MiB of reflector scalars and,
 * for wide matrices, their transposes); calls never allocate. Bytes held. */
shoal_status shoal_get_workspace_size(shoal_handle handle, size_t *bytes);

#ifdef __cplusplus
}
#endif

/* The routines declared by specs (generated from spec/routines/). */
#include "shoal_routines.h"

#endif /* SHOAL_H */
