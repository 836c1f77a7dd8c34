/* The factorization entry points (include/shoal.h): check arguments, pick a kernel from the
 * routine's tuned table, launch it (or the vendor where the vendor won and can take the call). */
#include <limits.h>
#include <stddef.h>

#include "context.h"
#include "dispatch.h"
#include "lapack_launch.h"
#include "lapack_routines.h"
#include "lapack_vendor.h"

#define OK SHOAL_STATUS_SUCCESS
#define BAD SHOAL_STATUS_INVALID_VALUE

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }
static int min_int(int a, int b) { return a < b ? a : b; }

/* ---- argument checks (no handle, no device) ---- */

/* A strided output must not overlap the next problem's, or results would depend on the order
 * problems run in; inputs may be shared (stride 0). */
static int output_stride_ok(int64_t stride, int64_t min_stride, int64_t batch)
{
    return stride >= 0 && (batch <= 1 || stride >= min_stride);
}

/* ---- dispatch ---- */

/* ctx: the routine whose kernels are judged */
static int lapack_fits(const void *ctx, int index, const int dims[3])
{
    const shoal_lapack_routine_info *ri = ctx;
    return shoal_lapack_kernel_fits(&ri->kernels[index], dims[0], dims[1]);
}

/* Kernel index or SHOAL_KERNEL_VENDOR; cached per handle and routine for repeated shapes. */
static int choose_kernel(struct shoal_context *ctx, int routine, char prec, int mode, int variant, const int dims[3],
                         int vendor)
{
    return shoal_routine_choose(ctx, routine, prec, mode, variant, dims, vendor, lapack_fits,
                                &shoal_lapack_routines[routine]);
}

/* Runs routine on p. m, n, nrhs > 0 and batch > 0 here; arguments are valid. */
static shoal_status run(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (p->m == 0 || p->n == 0 || p->batch == 0) return OK;
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[routine];
    if (ri->has_nrhs && p->nrhs == 0) return OK;
    if (p->m > SHOAL_LAPACK_MAX_N || p->n > SHOAL_LAPACK_MAX_N) return SHOAL_STATUS_NOT_SUPPORTED;
    const int mode = p->A_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    const int dims[3] = {p->m, p->n, ri->has_nrhs ? p->nrhs : 1};
    /* vendors take pointer arrays and int leading dimensions only */
    const int vendor = ctx->vendor_enabled && mode == SHOAL_MODE_ARRAY && p->lda <= INT_MAX && p->ldb <= INT_MAX;
    int kernel = choose_kernel(ctx, routine, prec, mode, variant, dims, vendor);
    if (kernel == SHOAL_KERNEL_VENDOR) {
        const shoal_vendor_handles vh = {ctx->cublas, ctx->cusolver};
        const int r = shoal_lapack_vendor(&vh, ri->name, prec, variant, p);
        ctx->served = shoal_lapack_vendor_name(ri->name);
        if (r == SHOAL_VENDOR_OK) return OK;
        if (r == SHOAL_VENDOR_FAILED) return SHOAL_STATUS_VENDOR_ERROR;
        kernel = choose_kernel(ctx, routine, prec, mode, variant, dims, 0); /* the vendor lacks this case */
    }
    const shoal_kernel_desc *kd = &ri->kernels[kernel];
    ctx->served = kd->name;
    /* a resident grid's blocks per SM: asked once while the call repeats the cached kernel */
    shoal_dispatch_cache *c = &ctx->lapack_cache[routine];
    int resident = c->kernel == kernel ? c->resident_blocks : 0;
    if (resident == 0 && shoal_lapack_resident_grid(kd)) {
        if (shoal_lapack_resident_blocks(kd, &resident) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
        if (c->kernel == kernel) c->resident_blocks = resident;
    }
    const cudaError_t e = shoal_lapack_launch(kd, p, resident, ctx->sm_count, ctx->stream);
    return e == cudaSuccess ? OK : SHOAL_STATUS_CUDA_ERROR;
}

static shoal_lapack_params make_params(int m, int n, int nrhs, int64_t lda, int64_t ldb, int64_t batch)
{
    shoal_lapack_params p = {0};
    p.m = m;
    p.n = n;
    p.nrhs = nrhs;
    p.lda = lda;
    p.ldb = ldb;
    p.batch = batch;
    return p;
}

static int is_op(shoal_operation op) { return op == SHOAL_OP_N || op == SHOAL_OP_T; }
static int is_uplo(shoal_fill_mode u) { return u == SHOAL_FILL_LOWER || u == SHOAL_FILL_UPPER; }

/* ---- getrf ---- */

static shoal_status getrf_check(int m, int n, const void *A, int64_t lda, const int *ipiv, const int *info,
                                int64_t batch)
{
    if (m < 0 || n < 0 || batch < 0 || lda < max1(m)) return BAD;
    if (m > 0 && n > 0 && batch > 0 && (!A || !ipiv || !info)) return BAD;
    return OK;
}

#define GETRF(P, T)                                                                                           \
    shoal_status shoal_##P##getrf_batched(shoal_handle handle, int m, int n, T *const A[], int64_t lda,     \
                                          int *ipiv, int *info, int64_t batch)                              \
    {                                                                                                         \
        shoal_status st = getrf_check(m, n, A, lda, ipiv, info, batch);                                       \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(m, n, 0, lda, 1, batch);                                          \
        p.A_array = (void *const *)A;                                                                         \
        p.ipiv = ipiv;                                                                                        \
        p.stride_ipiv = min_int(m, n);                                                                        \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_GETRF, #P[0], 0, &p);                                                        \
    }                                                                                                         \
    shoal_status shoal_##P##getrf_strided_batched(shoal_handle handle, int m, int n, T *A, int64_t lda,     \
                                                  int64_t strideA, int *ipiv, int64_t strideP, int *info,   \
                                                  int64_t batch)                                            \
    {                                                                                                         \
        shoal_status st = getrf_check(m, n, A, lda, ipiv, info, batch);                                       \
        if (st != OK) return st;                                                                              \
        if (!output_stride_ok(strideA, lda * n, batch) || !output_stride_ok(strideP, min_int(m, n), batch))  \
            return BAD;                                                                                       \
        shoal_lapack_params p = make_params(m, n, 0, lda, 1, batch);                                          \
        p.A = A;                                                                                              \
        p.stride_a = strideA;                                                                                 \
        p.ipiv = ipiv;                                                                                        \
        p.stride_ipiv = strideP;                                                                              \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_GETRF, #P[0], 0, &p);                                                        \
    }
GETRF(s, float)
GETRF(d, double)

/* ---- getrs ---- */

static shoal_status getrs_check(shoal_operation trans, int n, int nrhs, const void *A, int64_t lda, const int *ipiv,
                                const void *B, int64_t ldb, int64_t batch)
{
    if (!is_op(trans) || n < 0 || nrhs < 0 || batch < 0 || lda < max1(n) || ldb < max1(n)) return BAD;
    if (n > 0 && nrhs > 0 && batch > 0 && (!A || !ipiv || !B)) return BAD;
    return OK;
}

#define GETRS(P, T)                                                                                           \
    shoal_status shoal_##P##getrs_batched(shoal_handle handle, shoal_operation trans, int n, int nrhs,       \
                                          const T *const A[], int64_t lda, const int *ipiv, T *const B[],   \
                                          int64_t ldb, int64_t batch)                                       \
    {                                                                                                         \
        shoal_status st = getrs_check(trans, n, nrhs, A, lda, ipiv, B, ldb, batch);                           \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A_array = (void *const *)A;                                                                         \
        p.B_array = (void *const *)B;                                                                         \
        p.ipiv = (int *)ipiv;                                                                                 \
        p.stride_ipiv = n;                                                                                    \
        return run(handle, SHOAL_GETRS, #P[0], (int)trans, &p);                                               \
    }                                                                                                         \
    shoal_status shoal_##P##getrs_strided_batched(shoal_handle handle, shoal_operation trans, int n,         \
                                                  int nrhs, const T *A, int64_t lda, int64_t strideA,       \
                                                  const int *ipiv, int64_t strideP, T *B, int64_t ldb,      \
                                                  int64_t strideB, int64_t batch)                           \
    {                                                                                                         \
        shoal_status st = getrs_check(trans, n, nrhs, A, lda, ipiv, B, ldb, batch);                           \
        if (st != OK) return st;                                                                              \
        if (strideA < 0 || strideP < 0 || !output_stride_ok(strideB, ldb * nrhs, batch)) return BAD;          \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A = (void *)A;                                                                                      \
        p.stride_a = strideA;                                                                                 \
        p.B = B;                                                                                              \
        p.stride_b = strideB;                                                                                 \
        p.ipiv = (int *)ipiv;                                                                                 \
        p.stride_ipiv = strideP;                                                                              \
        return run(handle, SHOAL_GETRS, #P[0], (int)trans, &p);                                               \
    }
GETRS(s, float)
GETRS(d, double)

/* ---- gesv (nrhs == 0 is getrf: LAPACK still factors A) ---- */

static shoal_status gesv_check(int n, int nrhs, const void *A, int64_t lda, const int *ipiv, const void *B,
                               int64_t ldb, const int *info, int64_t batch)
{
    if (n < 0 || nrhs < 0 || batch < 0 || lda < max1(n) || ldb < max1(n)) return BAD;
    if (n > 0 && batch > 0 && (!A || !ipiv || !info || (nrhs > 0 && !B))) return BAD;
    return OK;
}

#define GESV(P, T)                                                                                            \
    shoal_status shoal_##P##gesv_batched(shoal_handle handle, int n, int nrhs, T *const A[], int64_t lda,    \
                                         int *ipiv, T *const B[], int64_t ldb, int *info, int64_t batch)     \
    {                                                                                                         \
        shoal_status st = gesv_check(n, nrhs, A, lda, ipiv, B, ldb, info, batch);                             \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A_array = (void *const *)A;                                                                         \
        p.B_array = (void *const *)B;                                                                         \
        p.ipiv = ipiv;                                                                                        \
        p.stride_ipiv = n;                                                                                    \
        p.info = info;                                                                                        \
        return run(handle, nrhs > 0 ? SHOAL_GESV : SHOAL_GETRF, #P[0], 0, &p);                                \
    }                                                                                                         \
    shoal_status shoal_##P##gesv_strided_batched(shoal_handle handle, int n, int nrhs, T *A, int64_t lda,    \
                                                 int64_t strideA, int *ipiv, int64_t strideP, T *B,         \
                                                 int64_t ldb, int64_t strideB, int *info, int64_t batch)    \
    {                                                                                                         \
        shoal_status st = gesv_check(n, nrhs, A, lda, ipiv, B, ldb, info, batch);                             \
        if (st != OK) return st;                                                                              \
        if (!output_stride_ok(strideA, lda * n, batch) || !output_stride_ok(strideP, n, batch) ||            \
            (nrhs > 0 && !output_stride_ok(strideB, ldb * nrhs, batch)))                                      \
            return BAD;                                                                                       \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A = A;                                                                                              \
        p.stride_a = strideA;                                                                                 \
        p.B = B;                                                                                              \
        p.stride_b = strideB;                                                                                 \
        p.ipiv = ipiv;                                                                                        \
        p.stride_ipiv = strideP;                                                                              \
        p.info = info;                                                                                        \
        return run(handle, nrhs > 0 ? SHOAL_GESV : SHOAL_GETRF, #P[0], 0, &p);                                \
    }
GESV(s, float)
GESV(d, double)

/* ---- getri (from LU) and getri_fused (from A) ---- */

static shoal_status getri_check(int n, const void *A, int64_t lda, int need_ipiv, const int *ipiv, const void *C,
                                int64_t ldc, const int *info, int64_t batch)
{
    if (n < 0 || batch < 0 || lda < max1(n) || ldc < max1(n)) return BAD;
    if (n > 0 && batch > 0 && (!A || (need_ipiv && !ipiv) || !C || !info)) return BAD;
    return OK;
}

#define GETRI(P, T)                                                                                           \
    shoal_status shoal_##P##getri_batched(shoal_handle handle, int n, const T *const A[], int64_t lda,      \
                                          const int *ipiv, T *const C[], int64_t ldc, int *info,            \
                                          int64_t batch)                                                    \
    {                                                                                                         \
        shoal_status st = getri_check(n, A, lda, 1, ipiv, C, ldc, info, batch);                               \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(n, n, 0, lda, ldc, batch);                                        \
        p.A_array = (void *const *)A;                                                                         \
        p.B_array = (void *const *)C;                                                                         \
        p.ipiv = (int *)ipiv;                                                                                 \
        p.stride_ipiv = n;                                                                                    \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_GETRI, #P[0], 0, &p);                                                        \
    }                                                                                                         \
    shoal_status shoal_##P##getri_strided_batched(shoal_handle handle, int n, const T *A, int64_t lda,      \
                                                  int64_t strideA, const int *ipiv, int64_t strideP, T *C,  \
                                                  int64_t ldc, int64_t strideC, int *info, int64_t batch)   \
    {                                                                                                         \
        shoal_status st = getri_check(n, A, lda, 1, ipiv, C, ldc, info, batch);                               \
        if (st != OK) return st;                                                                              \
        if (strideA < 0 || strideP < 0 || !output_stride_ok(strideC, ldc * n, batch)) return BAD;             \
        shoal_lapack_params p = make_params(n, n, 0, lda, ldc, batch);                                        \
        p.A = (void *)A;                                                                                      \
        p.stride_a = strideA;                                                                                 \
        p.B = C;                                                                                              \
        p.stride_b = strideC;                                                                                 \
        p.ipiv = (int *)ipiv;                                                                                 \
        p.stride_ipiv = strideP;                                                                              \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_GETRI, #P[0], 0, &p);                                                        \
    }                                                                                                         \
    shoal_status shoal_##P##getri_fused_batched(shoal_handle handle, int n, const T *const A[], int64_t lda,\
                                                T *const C[], int64_t ldc, int *info, int64_t batch)        \
    {                                                                                                         \
        shoal_status st = getri_check(n, A, lda, 0, NULL, C, ldc, info, batch);                               \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(n, n, 0, lda, ldc, batch);                                        \
        p.A_array = (void *const *)A;                                                                         \
        p.B_array = (void *const *)C;                                                                         \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_GETRI_FUSED, #P[0], 0, &p);                                                  \
    }                                                                                                         \
    shoal_status shoal_##P##getri_fused_strided_batched(shoal_handle handle, int n, const T *A, int64_t lda,\
                                                        int64_t strideA, T *C, int64_t ldc, int64_t strideC,\
                                                        int *info, int64_t batch)                           \
    {                                                                                                         \
        shoal_status st = getri_check(n, A, lda, 0, NULL, C, ldc, info, batch);                               \
        if (st != OK) return st;                                                                              \
        if (strideA < 0 || !output_stride_ok(strideC, ldc * n, batch)) return BAD;                            \
        shoal_lapack_params p = make_params(n, n, 0, lda, ldc, batch);                                        \
        p.A = (void *)A;                                                                                      \
        p.stride_a = strideA;                                                                                 \
        p.B = C;                                                                                              \
        p.stride_b = strideC;                                                                                 \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_GETRI_FUSED, #P[0], 0, &p);                                                  \
    }
GETRI(s, float)
GETRI(d, double)

/* ---- potrf, potrs, posv (posv with nrhs == 0 is potrf) ---- */

static shoal_status chol_check(shoal_fill_mode uplo, int n, int nrhs, const void *A, int64_t lda, const void *B,
                               int64_t ldb, int need_info, const int *info, int64_t batch)
{
    if (!is_uplo(uplo) || n < 0 || nrhs < 0 || batch < 0 || lda < max1(n) || ldb < max1(n)) return BAD;
    if (n > 0 && batch > 0 && (!A || (need_info && !info))) return BAD;
    if (n > 0 && batch > 0 && nrhs > 0 && !B) return BAD;
    return OK;
}

#define CHOL(P, T)                                                                                            \
    shoal_status shoal_##P##potrf_batched(shoal_handle handle, shoal_fill_mode uplo, int n, T *const A[],    \
                                          int64_t lda, int *info, int64_t batch)                            \
    {                                                                                                         \
        shoal_status st = chol_check(uplo, n, 0, A, lda, NULL, max1(n), 1, info, batch);                      \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(n, n, 0, lda, 1, batch);                                          \
        p.A_array = (void *const *)A;                                                                         \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_POTRF, #P[0], (int)uplo, &p);                                                \
    }                                                                                                         \
    shoal_status shoal_##P##potrf_strided_batched(shoal_handle handle, shoal_fill_mode uplo, int n, T *A,    \
                                                  int64_t lda, int64_t strideA, int *info, int64_t batch)   \
    {                                                                                                         \
        shoal_status st = chol_check(uplo, n, 0, A, lda, NULL, max1(n), 1, info, batch);                      \
        if (st != OK) return st;                                                                              \
        if (!output_stride_ok(strideA, lda * n, batch)) return BAD;                                           \
        shoal_lapack_params p = make_params(n, n, 0, lda, 1, batch);                                          \
        p.A = A;                                                                                              \
        p.stride_a = strideA;                                                                                 \
        p.info = info;                                                                                        \
        return run(handle, SHOAL_POTRF, #P[0], (int)uplo, &p);                                                \
    }                                                                                                         \
    shoal_status shoal_##P##potrs_batched(shoal_handle handle, shoal_fill_mode uplo, int n, int nrhs,       \
                                          const T *const A[], int64_t lda, T *const B[], int64_t ldb,       \
                                          int64_t batch)                                                    \
    {                                                                                                         \
        shoal_status st = chol_check(uplo, n, nrhs, A, lda, B, ldb, 0, NULL, batch);                          \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A_array = (void *const *)A;                                                                         \
        p.B_array = (void *const *)B;                                                                         \
        return run(handle, SHOAL_POTRS, #P[0], (int)uplo, &p);                                                \
    }                                                                                                         \
    shoal_status shoal_##P##potrs_strided_batched(shoal_handle handle, shoal_fill_mode uplo, int n,         \
                                                  int nrhs, const T *A, int64_t lda, int64_t strideA, T *B, \
                                                  int64_t ldb, int64_t strideB, int64_t batch)              \
    {                                                                                                         \
        shoal_status st = chol_check(uplo, n, nrhs, A, lda, B, ldb, 0, NULL, batch);                          \
        if (st != OK) return st;                                                                              \
        if (strideA < 0 || !output_stride_ok(strideB, ldb * nrhs, batch)) return BAD;                        \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A = (void *)A;                                                                                      \
        p.stride_a = strideA;                                                                                 \
        p.B = B;                                                                                              \
        p.stride_b = strideB;                                                                                 \
        return run(handle, SHOAL_POTRS, #P[0], (int)uplo, &p);                                                \
    }                                                                                                         \
    shoal_status shoal_##P##posv_batched(shoal_handle handle, shoal_fill_mode uplo, int n, int nrhs,        \
                                         T *const A[], int64_t lda, T *const B[], int64_t ldb, int *info,   \
                                         int64_t batch)                                                     \
    {                                                                                                         \
        shoal_status st = chol_check(uplo, n, nrhs, A, lda, B, ldb, 1, info, batch);                          \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A_array = (void *const *)A;                                                                         \
        p.B_array = (void *const *)B;                                                                         \
        p.info = info;                                                                                        \
        return run(handle, nrhs > 0 ? SHOAL_POSV : SHOAL_POTRF, #P[0], (int)uplo, &p);                        \
    }                                                                                                         \
    shoal_status shoal_##P##posv_strided_batched(shoal_handle handle, shoal_fill_mode uplo, int n, int nrhs,\
                                                 T *A, int64_t lda, int64_t strideA, T *B, int64_t ldb,     \
                                                 int64_t strideB, int *info, int64_t batch)                 \
    {                                                                                                         \
        shoal_status st = chol_check(uplo, n, nrhs, A, lda, B, ldb, 1, info, batch);                          \
        if (st != OK) return st;                                                                              \
        if (!output_stride_ok(strideA, lda * n, batch) ||                                                     \
            (nrhs > 0 && !output_stride_ok(strideB, ldb * nrhs, batch)))                                      \
            return BAD;                                                                                       \
        shoal_lapack_params p = make_params(n, n, nrhs, lda, ldb, batch);                                     \
        p.A = A;                                                                                              \
        p.stride_a = strideA;                                                                                 \
        p.B = B;                                                                                              \
        p.stride_b = strideB;                                                                                 \
        p.info = info;                                                                                        \
        return run(handle, nrhs > 0 ? SHOAL_POSV : SHOAL_POTRF, #P[0], (int)uplo, &p);                        \
    }
CHOL(s, float)
CHOL(d, double)

/* ---- geqrf ---- */

static shoal_status geqrf_check(int m, int n, const void *A, int64_t lda, const void *tau, int64_t batch)
{
    if (m < 0 || n < 0 || batch < 0 || lda < max1(m)) return BAD;
    if (m > 0 && n > 0 && batch > 0 && (!A || !tau)) return BAD;
    return OK;
}

#define GEQRF(P, T)                                                                                           \
    shoal_status shoal_##P##geqrf_batched(shoal_handle handle, int m, int n, T *const A[], int64_t lda,     \
                                          T *const tau[], int64_t batch)                                    \
    {                                                                                                         \
        shoal_status st = geqrf_check(m, n, A, lda, tau, batch);                                              \
        if (st != OK) return st;                                                                              \
        shoal_lapack_params p = make_params(m, n, 0, lda, 1, batch);                                          \
        p.A_array = (void *const *)A;                                                                         \
        p.tau_array = (void *const *)tau;                                                                     \
        return run(handle, SHOAL_GEQRF, #P[0], 0, &p);                                                        \
    }                                                                                                         \
    shoal_status shoal_##P##geqrf_strided_batched(shoal_handle handle, int m, int n, T *A, int64_t lda,     \
                                                  int64_t strideA, T *tau, int64_t strideTau, int64_t batch)\
    {                                                                                                         \
        shoal_status st = geqrf_check(m, n, A, lda, tau, batch);                                              \
        if (st != OK) return st;                                                                              \
        if (!output_stride_ok(strideA, lda * n, batch) || !output_stride_ok(strideTau, min_int(m, n), batch)) \
            return BAD;                                                                                       \
        shoal_lapack_params p = make_params(m, n, 0, lda, 1, batch);                                          \
        p.A = A;                                                                                              \
        p.stride_a = strideA;                                                                                 \
        p.tau = tau;                                                                                          \
        p.stride_tau = strideTau;                                                                             \
        return run(handle, SHOAL_GEQRF, #P[0], 0, &p);                                                        \
    }
GEQRF(s, float)
GEQRF(d, double)

/* ---- which kernel serves a call ---- */

shoal_status shoal_lapack_kernel_name(shoal_handle handle, const char *routine, char precision, int pointer_array,
                                      char variant, int m, int n, int nrhs, const char **name)
{
    const int r = shoal_lapack_routine_id(routine);
    if (r < 0 || r >= SHOAL_GEMV || (precision != 's' && precision != 'd') || m < 1 || n < 1 || nrhs < 0 || !name)
        return BAD;
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[r];
    const char name1[2] = {variant, 0};
    const int v = shoal_routine_variant_index(ri, name1);
    if (v < 0) return BAD;
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (m > SHOAL_LAPACK_MAX_N || n > SHOAL_LAPACK_MAX_N) return SHOAL_STATUS_NOT_SUPPORTED;
    const int dims[3] = {m, n, ri->has_nrhs ? nrhs : 1};
    const int mode = pointer_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    const int kernel = choose_kernel(ctx, r, precision, mode, v, dims, ctx->vendor_enabled && pointer_array);
    *name = kernel == SHOAL_KERNEL_VENDOR ? shoal_lapack_vendor_name(ri->name) : ri->kernels[kernel].name;
    return OK;
}
