/* The level-2 entry points (include/shoal.h, docs/blas2.md): check arguments, pick a kernel from
 * the routine's tuned table, launch it (or cuBLAS where it won and can take the call). */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "blas2_launch.h"
#include "blas2_vendor.h"
#include "context.h"
#include "lapack_routines.h"

#define OK SHOAL_STATUS_SUCCESS
#define BAD SHOAL_STATUS_INVALID_VALUE

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }
static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }
static int is_op(shoal_operation op) { return op == SHOAL_OP_N || op == SHOAL_OP_T; }

/* A strided output vector must not overlap the next problem's (len elements at increment inc). */
static int vector_stride_ok(int64_t stride, int len, int64_t inc, int64_t batch)
{
    if (stride < 0) return 0;
    return batch <= 1 || len == 0 || stride >= 1 + (int64_t)(len - 1) * abs64(inc);
}

/* What a kernel must fit: the device's opt-in shared memory and the form of the batch (a table
 * may fall back to the other mode's rules, whose kernels may serve only that form). */
typedef struct fits_ctx {
    const shoal_lapack_routine_info *ri;
    int smem_optin;
    int array;
} fits_ctx;

static int blas2_fits(const void *ctx, int index, const int dims[3])
{
    const fits_ctx *f = ctx;
    return shoal_blas2_kernel_fits(&f->ri->kernels[index], dims[0], dims[1], f->array, f->smem_optin);
}

static int choose(struct shoal_context *ctx, int routine, char prec, int mode, int variant, const int dims[3],
                  int vendor)
{
    const fits_ctx f = {&shoal_lapack_routines[routine], ctx->smem_optin, mode == SHOAL_MODE_ARRAY};
    return shoal_routine_choose(ctx, routine, prec, mode, variant, dims, vendor, blas2_fits, &f);
}

/* Whether cuBLAS can take a call at all (and the handle lets it): cuBLAS has no variable-size
 * GEMV, and its TRSV stand-in (trsm, one right-hand side) takes pointer arrays and incx = 1. */
static int vendor_allowed(const struct shoal_context *ctx, int routine, int pointer_array, int64_t lda, int64_t incx,
                          int64_t incy)
{
    if (!ctx->vendor_enabled || (routine != SHOAL_GEMV && routine != SHOAL_TRSV)) return 0;
    if (lda > INT_MAX || abs64(incx) > INT_MAX || abs64(incy) > INT_MAX) return 0;
    return routine == SHOAL_GEMV || (pointer_array && incx == 1);
}

/* Runs routine on p (arguments valid, work nonempty). */
static shoal_status run(struct shoal_context *ctx, int routine, char prec, int variant, shoal_blas2_params *p)
{
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[routine];
    const int mode = p->A_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED, array = mode == SHOAL_MODE_ARRAY;
    const int dims[3] = {p->m, p->n, 1};
    const int vendor = vendor_allowed(ctx, routine, p->A_array != 0, p->lda, p->incx, p->incy);
    int kernel = choose(ctx, routine, prec, mode, variant, dims, vendor);
    if (kernel == SHOAL_KERNEL_VENDOR || !shoal_blas2_kernel_fits(&ri->kernels[kernel], p->m, p->n, array, ctx->smem_optin)) {
        /* the vendor won, or no kernel of ours fits (sizes past the shared-memory limit) */
        const int r = vendor ? shoal_blas2_vendor(ctx->cublas, ri->name, prec, variant, p) : SHOAL_VENDOR_UNSUPPORTED;
        if (vendor) ctx->served = "cublas";
        if (r == SHOAL_VENDOR_OK) return OK;
        if (r == SHOAL_VENDOR_FAILED) return SHOAL_STATUS_VENDOR_ERROR;
        kernel = choose(ctx, routine, prec, mode, variant, dims, 0);
        if (!shoal_blas2_kernel_fits(&ri->kernels[kernel], p->m, p->n, array, ctx->smem_optin))
            return SHOAL_STATUS_NOT_SUPPORTED;
    }
    ctx->served = ri->kernels[kernel].name;
    const cudaError_t e = shoal_blas2_launch(&ri->kernels[kernel], p, ctx->sm_count, ctx->stream);
    return e == cudaSuccess ? OK : SHOAL_STATUS_CUDA_ERROR;
}

/* ---- gemv ---- */

static shoal_status gemv_check(shoal_operation trans, int m, int n, const void *A, int64_t lda, const void *x,
                               int64_t incx, const void *y, int64_t incy, int64_t batch)
{
    if (!is_op(trans) || m < 0 || n < 0 || batch < 0 || lda < max1(m) || incx == 0 || incy == 0) return BAD;
    if (m > 0 && n > 0 && batch > 0 && (!A || !x || !y)) return BAD;
    return OK;
}

/* BLAS quick return: nothing to do when m, n or batch is 0, or when alpha = 0 and beta = 1. */
static int gemv_noop(int m, int n, int64_t batch, double alpha, double beta)
{
    return m == 0 || n == 0 || batch == 0 || (alpha == 0 && beta == 1);
}

static shoal_blas2_params gemv_params(int m, int n, double alpha, int64_t lda, int64_t incx, double beta, int64_t incy,
                                      int64_t batch)
{
    shoal_blas2_params p;
    memset(&p, 0, sizeof p);
    p.m = m;
    p.n = n;
    p.alpha[0] = alpha;
    p.beta[0] = beta;
    p.lda = lda;
    p.incx = incx;
    p.incy = incy;
    p.batch = batch;
    return p;
}

#define GEMV(P, T)                                                                                            \
    shoal_status shoal_##P##gemv_batched(shoal_handle handle, shoal_operation trans, int m, int n, T alpha,   \
                                         const T *const A[], int64_t lda, const T *const x[], int64_t incx, \
                                         T beta, T *const y[], int64_t incy, int64_t batch)                 \
    {                                                                                                         \
        shoal_status st = gemv_check(trans, m, n, A, lda, x, incx, y, incy, batch);                           \
        if (st != OK) return st;                                                                              \
        struct shoal_context *ctx = shoal_context_get(handle);                                                \
        if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;                                                        \
        if (gemv_noop(m, n, batch, alpha, beta)) return OK;                                                   \
        shoal_blas2_params p = gemv_params(m, n, alpha, lda, incx, beta, incy, batch);                        \
        p.A_array = (const void *const *)A;                                                                   \
        p.x_array = (void *const *)x;                                                                         \
        p.y_array = (void *const *)y;                                                                         \
        return run(ctx, SHOAL_GEMV, #P[0], (int)trans, &p);                                                   \
    }                                                                                                         \
    shoal_status shoal_##P##gemv_strided_batched(shoal_handle handle, shoal_operation trans, int m, int n,   \
                                                 T alpha, const T *A, int64_t lda, int64_t strideA,         \
                                                 const T *x, int64_t incx, int64_t stridex, T beta, T *y,   \
                                                 int64_t incy, int64_t stridey, int64_t batch)              \
    {                                                                                                         \
        shoal_status st = gemv_check(trans, m, n, A, lda, x, incx, y, incy, batch);                           \
        if (st != OK) return st;                                                                              \
        if (strideA < 0 || stridex < 0 ||                                                                     \
            !vector_stride_ok(stridey, trans == SHOAL_OP_N ? m : n, incy, batch))                             \
            return BAD;                                                                                       \
        struct shoal_context *ctx = shoal_context_get(handle);                                                \
        if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;                                                        \
        if (gemv_noop(m, n, batch, alpha, beta)) return OK;                                                   \
        shoal_blas2_params p = gemv_params(m, n, alpha, lda, incx, beta, incy, batch);                        \
        p.A = A;                                                                                              \
        p.stride_a = strideA;                                                                                 \
        p.x = (void *)x;                                                                                      \
        p.stride_x = stridex;                                                                                 \
        p.y = y;                                                                                              \
        p.stride_y = stridey;                                                                                 \
        return run(ctx, SHOAL_GEMV, #P[0], (int)trans, &p);                                                   \
    }
GEMV(s, float)
GEMV(d, double)

/* ---- trsv ---- */

static shoal_status trsv_check(shoal_fill_mode uplo, shoal_operation trans, shoal_diag diag, int n, const void *A,
                               int64_t lda, const void *x, int64_t incx, int64_t batch)
{
    if ((uplo != SHOAL_FILL_LOWER && uplo != SHOAL_FILL_UPPER) || !is_op(trans) ||
        (diag != SHOAL_DIAG_NON_UNIT && diag != SHOAL_DIAG_UNIT))
        return BAD;
    if (n < 0 || batch < 0 || lda < max1(n) || incx == 0) return BAD;
    if (n > 0 && batch > 0 && (!A || !x)) return BAD;
    return OK;
}

static int trsv_variant(shoal_fill_mode uplo, shoal_operation trans)
{
    return (uplo == SHOAL_FILL_UPPER ? 2 : 0) + (trans == SHOAL_OP_T ? 1 : 0); /* ln lt un ut */
}

static shoal_blas2_params trsv_params(int n, shoal_diag diag, int64_t lda, int64_t incx, int64_t batch)
{
    shoal_blas2_params p;
    memset(&p, 0, sizeof p);
    p.m = n;
    p.n = n;
    p.diag_unit = diag == SHOAL_DIAG_UNIT;
    p.lda = lda;
    p.incx = incx;
    p.incy = 1;
    p.batch = batch;
    return p;
}

#define TRSV(P, T)                                                                                            \
    shoal_status shoal_##P##trsv_batched(shoal_handle handle, shoal_fill_mode uplo, shoal_operation trans,    \
                                         shoal_diag diag, int n, const T *const A[], int64_t lda,           \
                                         T *const x[], int64_t incx, int64_t batch)                         \
    {                                                                                                         \
        shoal_status st = trsv_check(uplo, trans, diag, n, A, lda, x, incx, batch);                           \
        if (st != OK) return st;                                                                              \
        struct shoal_context *ctx = shoal_context_get(handle);                                                \
        if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;                                                        \
        if (n == 0 || batch == 0) return OK;                                                                  \
        shoal_blas2_params p = trsv_params(n, diag, lda, incx, batch);                                        \
        p.A_array = (const void *const *)A;                                                                   \
        p.x_array = (void *const *)x;                                                                         \
        return run(ctx, SHOAL_TRSV, #P[0], trsv_variant(uplo, trans), &p);                                    \
    }                                                                                                         \
    shoal_status shoal_##P##trsv_strided_batched(shoal_handle handle, shoal_fill_mode uplo,                   \
                                                 shoal_operation trans, shoal_diag diag, int n, const T *A, \
                                                 int64_t lda, int64_t strideA, T *x, int64_t incx,          \
                                                 int64_t stridex, int64_t batch)                            \
    {                                                                                                         \
        shoal_status st = trsv_check(uplo, trans, diag, n, A, lda, x, incx, batch);                           \
        if (st != OK) return st;                                                                              \
        if (strideA < 0 || !vector_stride_ok(stridex, n, incx, batch)) return BAD;                            \
        struct shoal_context *ctx = shoal_context_get(handle);                                                \
        if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;                                                        \
        if (n == 0 || batch == 0) return OK;                                                                  \
        shoal_blas2_params p = trsv_params(n, diag, lda, incx, batch);                                        \
        p.A = A;                                                                                              \
        p.stride_a = strideA;                                                                                 \
        p.x = x;                                                                                              \
        p.stride_x = stridex;                                                                                 \
        return run(ctx, SHOAL_TRSV, #P[0], trsv_variant(uplo, trans), &p);                                    \
    }
TRSV(s, float)
TRSV(d, double)

/* ---- gemv_vbatched ---- */

static shoal_status gemv_v_check(shoal_operation trans, const int *m, const int *n, int max_m, int max_n,
                                 const void *A, const int *lda, const void *x, const int *incx, const void *y,
                                 const int *incy, int64_t batch)
{
    if (!is_op(trans) || max_m < 0 || max_n < 0 || batch < 0) return BAD;
    if (max_m > 0 && max_n > 0 && batch > 0 && (!m || !n || !A || !lda || !x || !incx || !y || !incy)) return BAD;
    return OK;
}

#define GEMV_V(P, T)                                                                                          \
    shoal_status shoal_##P##gemv_vbatched(shoal_handle handle, shoal_operation trans, const int *m,           \
                                          const int *n, int max_m, int max_n, T alpha, const T *const A[],  \
                                          const int *lda, const T *const x[], const int *incx, T beta,      \
                                          T *const y[], const int *incy, int64_t batch)                     \
    {                                                                                                         \
        shoal_status st = gemv_v_check(trans, m, n, max_m, max_n, A, lda, x, incx, y, incy, batch);           \
        if (st != OK) return st;                                                                              \
        struct shoal_context *ctx = shoal_context_get(handle);                                                \
        if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;                                                        \
        if (gemv_noop(max_m, max_n, batch, alpha, beta)) return OK;                                           \
        shoal_blas2_params p = gemv_params(max_m, max_n, alpha, max1(max_m), 1, beta, 1, batch);              \
        p.A_array = (const void *const *)A;                                                                   \
        p.x_array = (void *const *)x;                                                                         \
        p.y_array = (void *const *)y;                                                                         \
        p.m_v = m;                                                                                            \
        p.n_v = n;                                                                                            \
        p.lda_v = lda;                                                                                        \
        p.incx_v = incx;                                                                                      \
        p.incy_v = incy;                                                                                      \
        return run(ctx, SHOAL_GEMV_VBATCHED, #P[0], (int)trans, &p);                                          \
    }
GEMV_V(s, float)
GEMV_V(d, double)

/* ---- gemm_vbatched ---- */

static shoal_status gemm_v_check(shoal_operation ta, shoal_operation tb, const int *m, const int *n, const int *k,
                                 int max_m, int max_n, int max_k, const void *A, const int *lda, const void *B,
                                 const int *ldb, const void *C, const int *ldc, int64_t batch)
{
    if (!is_op(ta) || !is_op(tb) || max_m < 0 || max_n < 0 || max_k < 0 || batch < 0) return BAD;
    if (max_m > 0 && max_n > 0 && batch > 0 && (!m || !n || !k || !A || !lda || !B || !ldb || !C || !ldc)) return BAD;
    return OK;
}

static shoal_status gemm_v_run(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (p->m == 0 || p->n == 0 || p->batch == 0) return OK;
    const int dims[3] = {p->m, p->n, p->k};
    const int kernel = choose(ctx, SHOAL_GEMM_VBATCHED, prec, SHOAL_MODE_ARRAY, variant, dims, 0);
    ctx->served = shoal_lapack_routines[SHOAL_GEMM_VBATCHED].kernels[kernel].name;
    const cudaError_t e = shoal_gemm_vbatched_launch(&shoal_lapack_routines[SHOAL_GEMM_VBATCHED].kernels[kernel], p,
                                                     ctx->sm_count, ctx->stream);
    return e == cudaSuccess ? OK : SHOAL_STATUS_CUDA_ERROR;
}

#define GEMM_V(P, T)                                                                                          \
    shoal_status shoal_##P##gemm_vbatched(shoal_handle handle, shoal_operation transa, shoal_operation transb, \
                                          const int *m, const int *n, const int *k, int max_m, int max_n,   \
                                          int max_k, T alpha, const T *const A[], const int *lda,           \
                                          const T *const B[], const int *ldb, T beta, T *const C[],         \
                                          const int *ldc, int64_t batch)                                    \
    {                                                                                                         \
        shoal_status st = gemm_v_check(transa, transb, m, n, k, max_m, max_n, max_k, A, lda, B, ldb, C, ldc,  \
                                       batch);                                                                \
        if (st != OK) return st;                                                                              \
        shoal_gemm_vparams p;                                                                                 \
        memset(&p, 0, sizeof p);                                                                              \
        p.m = max_m;                                                                                          \
        p.n = max_n;                                                                                          \
        p.k = max_k;                                                                                          \
        p.alpha[0] = alpha;                                                                                   \
        p.beta[0] = beta;                                                                                     \
        p.A_array = (const void *const *)A;                                                                   \
        p.B_array = (const void *const *)B;                                                                   \
        p.C_array = (void *const *)C;                                                                         \
        p.m_v = m;                                                                                            \
        p.n_v = n;                                                                                            \
        p.k_v = k;                                                                                            \
        p.lda_v = lda;                                                                                        \
        p.ldb_v = ldb;                                                                                        \
        p.ldc_v = ldc;                                                                                        \
        p.batch = batch;                                                                                      \
        return gemm_v_run(handle, #P[0], (int)transa * 2 + (int)transb, &p);                                  \
    }
GEMM_V(s, float)
GEMM_V(d, double)

/* ---- which kernel serves a call ---- */

shoal_status shoal_blas2_kernel_name(shoal_handle handle, const char *routine, char precision, int pointer_array,
                                     const char *variant, int m, int n, const char **name)
{
    const int r = shoal_lapack_routine_id(routine);
    if ((r != SHOAL_GEMV && r != SHOAL_TRSV && r != SHOAL_GEMV_VBATCHED && r != SHOAL_GEMM_VBATCHED) || (precision != 's' && precision != 'd') ||
        m < 1 || n < 1 || !name)
        return BAD;
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[r];
    const int v = shoal_routine_variant_index(ri, variant);
    if (v < 0) return BAD;
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    const int dims[3] = {m, n, r == SHOAL_GEMM_VBATCHED ? n : 1};
    const int vbatched = r == SHOAL_GEMV_VBATCHED || r == SHOAL_GEMM_VBATCHED;
    const int mode = pointer_array || vbatched ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    const int vendor = vendor_allowed(ctx, r, pointer_array, m, 1, 1); /* a call with unit increments */
    const int kernel = choose(ctx, r, precision, mode, v, dims, vendor);
    *name = kernel == SHOAL_KERNEL_VENDOR ? "cublas" : ri->kernels[kernel].name;
    return OK;
}
