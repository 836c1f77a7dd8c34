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
    SHOAL_OP_T = 1  /* op(X) = X^T */
} shoal_operation;

typedef struct shoal_context *shoal_handle;

/* Human-readable name of a status ("SHOAL_STATUS_INVALID_VALUE: ..."); never NULL. */
const char *shoal_status_string(shoal_status status);

/* Binds to the current CUDA device, picks the tuned dispatch table for it (this device ->
 * same compute capability -> nearest lower capability -> portable default) and creates the
 * cuBLAS handle used for shapes the vendor wins. Uses the legacy default stream until
 * shoal_set_stream. */
shoal_status shoal_create(shoal_handle *handle);
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

/* C_i = alpha * op(A_i) * op(B_i) + beta * C_i for i in [0, batch).
 * op(A_i) is m x k, op(B_i) is k x n, C_i is m x n.
 * lda >= max(1, transa == N ? m : k), ldb >= max(1, transb == N ? k : n), ldc >= max(1, m).
 * With beta == 0, C is not read (NaN in C does not propagate), as in BLAS.
 * With k == 0 or alpha == 0, C_i = beta * C_i and A, B are not read. */
shoal_status shoal_sgemm_batched(shoal_handle handle, shoal_operation transa, shoal_operation transb,
                                 int m, int n, int k, float alpha,
                                 const float *const A[], int64_t lda,
                                 const float *const B[], int64_t ldb, float beta,
                                 float *const C[], int64_t ldc, int64_t batch);
shoal_status shoal_dgemm_batched(shoal_handle handle, shoal_operation transa, shoal_operation transb,
                                 int m, int n, int k, double alpha,
                                 const double *const A[], int64_t lda,
                                 const double *const B[], int64_t ldb, double beta,
                                 double *const C[], int64_t ldc, int64_t batch);

/* Strided variant: A_i = A + i * strideA, etc. Strides are in elements and may be 0 for A and B
 * (one operand shared by the whole batch); strideC must keep the C_i apart
 * (strideC >= ldc * n) unless batch == 1. */
shoal_status shoal_sgemm_strided_batched(shoal_handle handle, shoal_operation transa, shoal_operation transb,
                                         int m, int n, int k, float alpha,
                                         const float *A, int64_t lda, int64_t strideA,
                                         const float *B, int64_t ldb, int64_t strideB, float beta,
                                         float *C, int64_t ldc, int64_t strideC, int64_t batch);
shoal_status shoal_dgemm_strided_batched(shoal_handle handle, shoal_operation transa, shoal_operation transb,
                                         int m, int n, int k, double alpha,
                                         const double *A, int64_t lda, int64_t strideA,
                                         const double *B, int64_t ldb, int64_t strideB, double beta,
                                         double *C, int64_t ldc, int64_t strideC, int64_t batch);

/* The kernel a call with these arguments would run ("cublas" where routed to the vendor);
 * for logs and tests. precision is 's' or 'd'; pointer_array selects the _batched table. */
shoal_status shoal_gemm_kernel_name(shoal_handle handle, char precision, int pointer_array,
                                    shoal_operation transa, shoal_operation transb,
                                    int m, int n, int k, const char **name);

#ifdef __cplusplus
}
#endif
#endif /* SHOAL_H */
