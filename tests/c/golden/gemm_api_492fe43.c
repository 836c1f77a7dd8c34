/* The GEMM entry points: check arguments, pick a kernel from the tuned table, launch. */
#include <limits.h>
#include <stddef.h>

#include "context.h"
#include "dispatch.h"
#include "gemm_launch.h"
#include "gemm_vendor.h"

static int is_op(shoal_operation op) { return op == SHOAL_OP_N || op == SHOAL_OP_T; }
static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

/* Everything that can be checked without a handle or a device. */
static shoal_status check_args(shoal_operation ta, shoal_operation tb, int m, int n, int k,
                               const void *A, int64_t lda, const void *B, int64_t ldb, const void *C,
                               int64_t ldc, int64_t batch)
{
    if (!is_op(ta) || !is_op(tb)) return SHOAL_STATUS_INVALID_VALUE;
    if (m < 0 || n < 0 || k < 0 || batch < 0) return SHOAL_STATUS_INVALID_VALUE;
    if (lda < max1(ta == SHOAL_OP_N ? m : k)) return SHOAL_STATUS_INVALID_VALUE;
    if (ldb < max1(tb == SHOAL_OP_N ? k : n)) return SHOAL_STATUS_INVALID_VALUE;
    if (ldc < max1(m)) return SHOAL_STATUS_INVALID_VALUE;
    const int work = m > 0 && n > 0 && batch > 0;
    if (work && !C) return SHOAL_STATUS_INVALID_VALUE;
    if (work && k > 0 && (!A || !B)) return SHOAL_STATUS_INVALID_VALUE;
    return SHOAL_STATUS_SUCCESS;
}

static shoal_status check_strides(int n, int64_t ldc, int64_t sa, int64_t sb, int64_t sc, int64_t batch)
{
    if (sa < 0 || sb < 0 || sc < 0) return SHOAL_STATUS_INVALID_VALUE;
    /* C_i must not overlap, or results would depend on the order problems run in */
    if (batch > 1 && n > 0 && sc < ldc * n) return SHOAL_STATUS_INVALID_VALUE;
    return SHOAL_STATUS_SUCCESS;
}

/* What a kernel must fit: the device (its opt-in shared memory limit) and the form of the batch
 * (a table may fall back to the other mode's rules, whose kernels may serve only that form). */
typedef struct gemm_fit_ctx {
    int smem_optin;
    int array;
} gemm_fit_ctx;

static int gemm_fits(const void *ctx, int index, const int dims[3])
{
    const gemm_fit_ctx *f = (const gemm_fit_ctx *)ctx;
    return shoal_gemm_kernel_fits(&shoal_gemm_kernels[index], dims[0], dims[1], dims[2], f->array, f->smem_optin);
}

/* Kernel index (or SHOAL_KERNEL_VENDOR) for this call; cached per handle for repeated shapes. */
static int choose_kernel(struct shoal_context *ctx, char prec, int mode, int variant, int m, int n, int k,
                         int vendor_usable)
{
    shoal_dispatch_cache *c = &ctx->gemm_cache;
    const int vendor = ctx->vendor_enabled && vendor_usable;
    if (c->valid && c->precision == prec && c->mode == mode && c->variant == variant &&
        c->vendor_enabled == vendor && c->dims[0] == m && c->dims[1] == n && c->dims[2] == k)
        return c->kernel;
    const int dims[3] = {m, n, k};
    const gemm_fit_ctx fit = {ctx->smem_optin, mode == SHOAL_MODE_ARRAY};
    int kernel = shoal_pick_kernel(ctx->gemm_table, prec, mode, variant, dims, vendor, gemm_fits, &fit);
    if (kernel == -2) /* portable default: the vendor where allowed, else shoal's default kernel */
        kernel = vendor ? SHOAL_KERNEL_VENDOR : shoal_gemm_default_kernel[(prec == 'd' ? 4 : 0) + variant];
    c->valid = 1;
    c->precision = prec;
    c->mode = (unsigned char)mode;
    c->variant = (unsigned char)variant;
    c->vendor_enabled = (unsigned char)vendor;
    c->dims[0] = m;
    c->dims[1] = n;
    c->dims[2] = k;
    c->kernel = (short)kernel;
    return kernel;
}

static shoal_status run_gemm(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb,
                             shoal_gemm_params *p)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (p->m == 0 || p->n == 0 || p->batch == 0) return SHOAL_STATUS_SUCCESS;
    const int variant = (int)ta * 2 + (int)tb;
    const int mode = p->A_array || p->C_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    /* cuBLAS takes int leading dimensions, and its pointer-array GEMM reads A and B even when
     * alpha == 0 (NaN there would leak into C), which BLAS semantics and shoal.h rule out */
    const int vendor_usable = p->lda <= INT_MAX && p->ldb <= INT_MAX && p->ldc <= INT_MAX && p->k > 0 &&
                              p->alpha[0] != 0.0;
    const int kernel = choose_kernel(ctx, prec, mode, variant, p->m, p->n, p->k, vendor_usable);
    ctx->served = kernel == SHOAL_KERNEL_VENDOR ? "cublas" : shoal_gemm_kernels[kernel].name;
    if (kernel == SHOAL_KERNEL_VENDOR)
        return shoal_gemm_vendor(ctx->cublas, prec, variant, p) == CUBLAS_STATUS_SUCCESS ? SHOAL_STATUS_SUCCESS
                                                                                          : SHOAL_STATUS_VENDOR_ERROR;
    return shoal_gemm_launch(&shoal_gemm_kernels[kernel], p, ctx->sm_count, ctx->stream) == cudaSuccess ? SHOAL_STATUS_SUCCESS
                                                                                         : SHOAL_STATUS_CUDA_ERROR;
}

static shoal_gemm_params make_params(int m, int n, int k, double alpha, double beta, int64_t lda, int64_t ldb,
                                     int64_t ldc, int64_t batch)
{
    shoal_gemm_params p = {0};
    p.m = m;
    p.n = n;
    p.k = k;
    p.alpha[0] = alpha;
    p.beta[0] = beta;
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = ldc;
    p.batch = batch;
    return p;
}

#define SHOAL_GEMM_BATCHED(NAME, PREC, T)                                                                     \
    shoal_status NAME(shoal_handle handle, shoal_operation transa, shoal_operation transb, int m, int n, int k, \
                      T alpha, const T *const A[], int64_t lda, const T *const B[], int64_t ldb, T beta,        \
                      T *const C[], int64_t ldc, int64_t batch)                                                 \
    {                                                                                                           \
        shoal_status st = check_args(transa, transb, m, n, k, A, lda, B, ldb, C, ldc, batch);                   \
        if (st != SHOAL_STATUS_SUCCESS) return st;                                                              \
        shoal_gemm_params p = make_params(m, n, k, alpha, beta, lda, ldb, ldc, batch);                          \
        p.A_array = (const void *const *)A;                                                                     \
        p.B_array = (const void *const *)B;                                                                     \
        p.C_array = (void *const *)C;                                                                           \
        return run_gemm(handle, PREC, transa, transb, &p);                                                      \
    }

#define SHOAL_GEMM_STRIDED(NAME, PREC, T)                                                                       \
    shoal_status NAME(shoal_handle handle, shoal_operation transa, shoal_operation transb, int m, int n, int k,   \
                      T alpha, const T *A, int64_t lda, int64_t strideA, const T *B, int64_t ldb,                 \
                      int64_t strideB, T beta, T *C, int64_t ldc, int64_t strideC, int64_t batch)                 \
    {                                                                                                             \
        shoal_status st = check_args(transa, transb, m, n, k, A, lda, B, ldb, C, ldc, batch);                     \
        if (st == SHOAL_STATUS_SUCCESS) st = check_strides(n, ldc, strideA, strideB, strideC, batch);             \
        if (st != SHOAL_STATUS_SUCCESS) return st;                                                                \
        shoal_gemm_params p = make_params(m, n, k, alpha, beta, lda, ldb, ldc, batch);                            \
        p.A = A;                                                                                                  \
        p.B = B;                                                                                                  \
        p.C = C;                                                                                                  \
        p.stride_a = strideA;                                                                                     \
        p.stride_b = strideB;                                                                                     \
        p.stride_c = strideC;                                                                                     \
        return run_gemm(handle, PREC, transa, transb, &p);                                                        \
    }

SHOAL_GEMM_BATCHED(shoal_sgemm_batched, 's', float)
SHOAL_GEMM_BATCHED(shoal_dgemm_batched, 'd', double)
SHOAL_GEMM_STRIDED(shoal_sgemm_strided_batched, 's', float)
SHOAL_GEMM_STRIDED(shoal_dgemm_strided_batched, 'd', double)

shoal_status shoal_gemm_kernel_name(shoal_handle handle, char precision, int pointer_array, shoal_operation transa,
                                    shoal_operation transb, int m, int n, int k, const char **name)
{
    if ((precision != 's' && precision != 'd') || !is_op(transa) || !is_op(transb) || m < 1 || n < 1 || k < 0 ||
        !name)
        return SHOAL_STATUS_INVALID_VALUE;
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    const int kernel = choose_kernel(ctx, precision, pointer_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED,
                                     (int)transa * 2 + (int)transb, m, n, k, 1);
    *name = kernel == SHOAL_KERNEL_VENDOR ? "cublas" : shoal_gemm_kernels[kernel].name;
    return SHOAL_STATUS_SUCCESS;
}
