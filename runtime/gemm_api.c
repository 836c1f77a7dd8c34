/* GEMM's dispatch: shoal_gemm_run picks a kernel from the tuned table and launches it (or
 * cuBLAS where it won). The entry points, which check and pack the arguments, are generated
 * from spec/routines/gemm.toml (abi = "gemm") into generated/gemm_entry.c. */
#include <limits.h>
#include <stddef.h>

#include "context.h"
#include "dispatch.h"
#include "gemm_launch.h"
#include "gemm_run.h"
#include "gemm_vendor.h"

static int is_op(shoal_operation op) { return op == SHOAL_OP_N || op == SHOAL_OP_T || op == SHOAL_OP_C; }
/* The kernels' variant bit of an op: T and C share the transposed layout (in s and d C is T; in c
 * and z the kernel conjugates as it reads, from shoal_gemm_params.conj) */
static int real_op(shoal_operation op) { return op == SHOAL_OP_N ? 0 : 1; }
static int is_precision(char p) { return p == 's' || p == 'd' || p == 'c' || p == 'z'; }
/* the table's precision order (search_space/gemm.toml): the default kernels' row */
static int precision_index(char p) { return p == 's' ? 0 : p == 'd' ? 1 : p == 'c' ? 2 : 3; }

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
    const int slot = shoal_precision_slot(prec);
    int kernel = shoal_pick_kernel(slot < 0 ? NULL : ctx->gemm_tables[slot], prec, mode, variant, dims, vendor,
                                   gemm_fits, &fit);
    if (kernel == -2) /* portable default: the vendor where allowed, else shoal's default kernel */
        kernel = vendor ? SHOAL_KERNEL_VENDOR : shoal_gemm_default_kernel[precision_index(prec) * 4 + variant];
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

/* runtime/gemm_run.h */
shoal_status shoal_gemm_run(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb,
                            shoal_gemm_params *p)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (p->m == 0 || p->n == 0 || p->batch == 0) return SHOAL_STATUS_SUCCESS;
    const int variant = real_op(ta) * 2 + real_op(tb);
    const int complex_prec = prec == 'c' || prec == 'z';
    p->conj = complex_prec ? (ta == SHOAL_OP_C) | (tb == SHOAL_OP_C) << 1 : 0;
    const int mode = p->A_array || p->C_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    /* cuBLAS takes int leading dimensions, and its pointer-array GEMM reads A and B even when
     * alpha == 0 (NaN there would leak into C), which BLAS semantics and shoal.h rule out */
    const int vendor_usable = p->lda <= INT_MAX && p->ldb <= INT_MAX && p->ldc <= INT_MAX && p->k > 0 &&
                              (p->alpha[0] != 0.0 || p->alpha[1] != 0.0);
    const int kernel = choose_kernel(ctx, prec, mode, variant, p->m, p->n, p->k, vendor_usable);
    ctx->served = kernel == SHOAL_KERNEL_VENDOR ? "cublas" : shoal_gemm_kernels[kernel].name;
    if (kernel == SHOAL_KERNEL_VENDOR)
        return shoal_gemm_vendor(ctx->cublas, prec, variant, p) == CUBLAS_STATUS_SUCCESS ? SHOAL_STATUS_SUCCESS
                                                                                          : SHOAL_STATUS_VENDOR_ERROR;
    return shoal_gemm_launch(&shoal_gemm_kernels[kernel], p, ctx->sm_count, ctx->stream) == cudaSuccess ? SHOAL_STATUS_SUCCESS
                                                                                         : SHOAL_STATUS_CUDA_ERROR;
}

shoal_status shoal_gemm_kernel_name(shoal_handle handle, char precision, int pointer_array, shoal_operation transa,
                                    shoal_operation transb, int m, int n, int k, const char **name)
{
    if (!is_precision(precision) || !is_op(transa) || !is_op(transb) || m < 1 || n < 1 || k < 0 ||
        !name)
        return SHOAL_STATUS_INVALID_VALUE;
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    const int kernel = choose_kernel(ctx, precision, pointer_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED,
                                     real_op(transa) * 2 + real_op(transb), m, n, k, 1);
    *name = kernel == SHOAL_KERNEL_VENDOR ? "cublas" : shoal_gemm_kernels[kernel].name;
    return SHOAL_STATUS_SUCCESS;
}
