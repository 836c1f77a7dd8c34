/* The level-2 dispatch (docs/blas2.md): shoal_blas2_run picks a kernel from the routine's tuned
 * table and launches it (or cuBLAS where it won and can take the call). The entry points of
 * gemv, trsv and gemv_vbatched, which check and pack the arguments, are generated from
 * spec/routines/<r>.toml (abi = "blas2") into generated/blas2_entry.c. shoal_gemm_vbatched_run
 * serves gemm_vbatched, whose entry points come from spec/routines/gemm_vbatched.toml
 * (abi = "gemm", generated/gemm_entry.c). */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "blas2_launch.h"
#include "blas2_run.h"
#include "blas2_vendor.h"
#include "gemm_run.h"
#include "context.h"
#include "lapack_routines.h"

#define OK SHOAL_STATUS_SUCCESS
#define BAD SHOAL_STATUS_INVALID_VALUE

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

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

/* Runs routine on p (arguments valid, work nonempty): runtime/blas2_run.h. */
shoal_status shoal_blas2_run(struct shoal_context *ctx, int routine, char prec, int variant, shoal_blas2_params *p)
{
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[routine];
    /* op C (c and z): the entry points pass the t variant with p->conj set; the kernels and the
     * vendor conjugate A as they read it. s and d have no conjugate. */
    if (prec != 'c' && prec != 'z') p->conj = 0;
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

/* ---- gemm_vbatched ---- */

/* runtime/gemm_run.h */
shoal_status shoal_gemm_vbatched_run(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (p->m == 0 || p->n == 0 || p->batch == 0) return OK;
    /* op C (c and z): the entry points pass the t variant with p->conj's bits set; s and d have
     * no conjugate */
    if (prec != 'c' && prec != 'z') p->conj = 0;
    const int dims[3] = {p->m, p->n, p->k};
    const int kernel = choose(ctx, SHOAL_GEMM_VBATCHED, prec, SHOAL_MODE_ARRAY, variant, dims, 0);
    ctx->served = shoal_lapack_routines[SHOAL_GEMM_VBATCHED].kernels[kernel].name;
    const cudaError_t e = shoal_gemm_vbatched_launch(&shoal_lapack_routines[SHOAL_GEMM_VBATCHED].kernels[kernel], p,
                                                     ctx->sm_count, ctx->stream);
    return e == cudaSuccess ? OK : SHOAL_STATUS_CUDA_ERROR;
}

/* ---- which kernel serves a call ---- */

shoal_status shoal_blas2_kernel_name(shoal_handle handle, const char *routine, char precision, int pointer_array,
                                     const char *variant, int m, int n, const char **name)
{
    const int r = shoal_lapack_routine_id(routine);
    if ((r != SHOAL_GEMV && r != SHOAL_TRSV && r != SHOAL_GEMV_VBATCHED && r != SHOAL_GEMM_VBATCHED) || m < 1 ||
        n < 1 || !name)
        return BAD;
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[r];
    /* the precisions the routine's search space lists (those with entry points) */
    if (shoal_routine_precision_index(ri, precision) < 0) return BAD;
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
