/* The factorizations' dispatch: their entry points (generated/lapack_entry.c, emitted from
 * spec/routines/<r>.toml with abi = "lapack") check and pack the arguments, then
 * shoal_lapack_run picks a kernel from the routine's tuned table and launches it (or the vendor
 * where the vendor won and can take the call); sizes above the kernels' go to the routine's
 * driver (runtime/lapack_drivers.h), whose steps come back here for their small blocks. */
#include <limits.h>
#include <stddef.h>

#include "context.h"
#include "dispatch.h"
#include "lapack_drivers.h"
#include "lapack_launch.h"
#include "lapack_routines.h"
#include "lapack_run.h"
#include "lapack_vendor.h"

#define OK SHOAL_STATUS_SUCCESS
#define BAD SHOAL_STATUS_INVALID_VALUE

/* ---- dispatch ---- */

/* ctx: the routine whose kernels are judged */
static int lapack_fits(const void *ctx, int index, const int dims[3])
{
    const shoal_lapack_routine_info *ri = ctx;
    return shoal_lapack_kernel_fits(&ri->kernels[index], dims[0], dims[1]);
}

static int is_tall(const shoal_lapack_routine_info *ri, int index)
{
    return ri->kernels[index].design == SHOAL_DESIGN_TALL;
}

/* How much a kernel holds: its rows, then (tall panels) its columns. The fallback scan takes the
 * smallest that fits: a 40-row panel in a 1024-row kernel leaves most of the block's threads
 * idle and its registers cap the SM at one block. */
static long long kernel_extent(const shoal_kernel_desc *kd)
{
    return (long long)kd->p[0] * 4096 + (kd->design == SHOAL_DESIGN_TALL ? kd->p[1] : 0);
}

/* The fallback scan's test: fits, and a tall panel where only one serves (tall_only). */
typedef struct fallback_ctx {
    const shoal_lapack_routine_info *ri;
    int tall_only;
} fallback_ctx;

static int fallback_fits(const void *ctx, int index, const int dims[3])
{
    const fallback_ctx *f = ctx;
    return lapack_fits(f->ri, index, dims) && (!f->tall_only || is_tall(f->ri, index));
}

/* Kernel index or SHOAL_KERNEL_VENDOR; cached per handle and routine for repeated shapes.
 * Where neither a tuned rule's kernel nor the default fits (getrf's and geqrf's tall panels on a
 * device without tuned ones), the smallest shipped kernel of the precision and variant that
 * fits and that the device can run (not a kernel that only a newer architecture's table names:
 * a __trap() here): the search space's fallbacks are shipped in every build for that. tall_only:
 * a geqrf panel after the first (p->col0 > 0), which only the tall design takes. */
static int choose_kernel(struct shoal_context *ctx, int routine, char prec, int mode, int variant, const int dims[3],
                         int vendor, int tall_only)
{
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[routine];
    const int kernel = shoal_routine_choose(ctx, routine, prec, mode, variant, dims, vendor, lapack_fits, ri);
    const fallback_ctx f = {ri, tall_only};
    if (kernel == SHOAL_KERNEL_VENDOR || fallback_fits(&f, kernel, dims)) return kernel;
    const int best = shoal_smallest_fitting(ri->kernels, *ri->n_kernels, prec, variant,
                                            shoal_device_arch(ctx->cc_major, ctx->cc_minor), dims, fallback_fits, &f,
                                            kernel_extent);
    return best >= 0 ? best : kernel; /* none: its launch refuses the call */
}

/* lapack_run.h's shoal_lapack_run_kernel: the tuned kernel (or the vendor, where vendor != 0 and
 * it won) for m, n <= SHOAL_LAPACK_MAX_N. */
shoal_status shoal_lapack_run_kernel(struct shoal_context *ctx, int routine, char prec, int variant,
                                     shoal_lapack_params *p, int vendor)
{
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[routine];
    const int mode = p->A_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    const int dims[3] = {p->m, p->n, ri->has_nrhs ? p->nrhs : 1};
    /* vendors take int leading dimensions only, and pointer arrays: a strided call gets them
     * written into the handle's workspace */
    const int tall_only = p->col0 > 0;
    vendor = vendor && !tall_only && ctx->vendor_enabled && p->lda <= INT_MAX && p->ldb <= INT_MAX;
    int kernel = choose_kernel(ctx, routine, prec, mode, variant, dims, vendor, tall_only);
    if (kernel == SHOAL_KERNEL_VENDOR) {
        const shoal_vendor_handles vh = {ctx->cublas, ctx->cusolver};
        const int r = mode == SHOAL_MODE_ARRAY
                          ? shoal_lapack_vendor(&vh, ri->name, prec, variant, p)
                          : shoal_lapack_vendor_strided(&vh, ctx->vendor_ptrs, ctx->stream, ri->name, prec, variant, p);
        ctx->served = shoal_lapack_vendor_name(ri->name);
        if (r == SHOAL_VENDOR_OK) return OK;
        if (r == SHOAL_VENDOR_FAILED) return SHOAL_STATUS_VENDOR_ERROR;
        kernel = choose_kernel(ctx, routine, prec, mode, variant, dims, 0, 0); /* the vendor lacks this case */
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

/* lapack_run.h */
int shoal_lapack_kernel_holds(struct shoal_context *ctx, int routine, char prec, int variant,
                              const shoal_lapack_params *p)
{
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[routine];
    const int mode = p->A_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    const int dims[3] = {p->m, p->n, ri->has_nrhs ? p->nrhs : 1};
    const int kernel = choose_kernel(ctx, routine, prec, mode, variant, dims, 0, p->col0 > 0);
    return kernel >= 0 && lapack_fits(ri, kernel, dims);
}

/* The routine's driver for a matrix above the kernels' sizes (any size for a driver of
 * all_sizes); NULL where none takes m x n. */
static const shoal_lapack_driver *driver_for(int routine, long long m, long long n)
{
    const shoal_lapack_driver *d = &shoal_lapack_drivers[routine];
    return d->run && m <= d->max_n && n <= d->max_n ? d : NULL;
}

static int driver_only(int routine)
{
    return shoal_lapack_drivers[routine].run && shoal_lapack_drivers[routine].all_sizes;
}

/* lapack_run.h; the arguments have been checked by the entry point (which, in c and z, turned
 * op C into the t variant with p->conj set: the kernels and the vendor conjugate A as they read
 * it; s and d have no conjugate). */
shoal_status shoal_lapack_run(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (p->batch == 0 || (shoal_lapack_routines[routine].has_nrhs && p->nrhs == 0)) return OK;
    /* a driver of all sizes sees m or n = 0 too (gels zeroes B there) */
    if ((p->m == 0 || p->n == 0) && !driver_only(routine)) return OK;
    if (!driver_only(routine) && p->m <= SHOAL_LAPACK_MAX_N && p->n <= SHOAL_LAPACK_MAX_N)
        return shoal_lapack_run_kernel(ctx, routine, prec, variant, p, 1);
    const shoal_lapack_driver *d = driver_for(routine, p->m, p->n);
    if (!d) return SHOAL_STATUS_NOT_SUPPORTED;
    const shoal_status st = d->run(ctx, prec, variant, p);
    ctx->served = d->name; /* after its steps, which name their own kernels */
    return st;
}

/* lapack_run.h */
shoal_status shoal_lapack_run_ctx(struct shoal_context *ctx, int routine, char prec, int variant,
                                  shoal_lapack_params *p)
{
    if (p->m == 0 || p->n == 0 || p->batch == 0) return OK;
    if (p->m <= SHOAL_LAPACK_MAX_N && p->n <= SHOAL_LAPACK_MAX_N && !driver_only(routine))
        return shoal_lapack_run_kernel(ctx, routine, prec, variant, p, 0);
    const shoal_lapack_driver *d = driver_for(routine, p->m, p->n);
    return d ? d->run(ctx, prec, variant, p) : SHOAL_STATUS_NOT_SUPPORTED;
}

/* ---- which kernel serves a call ---- */

shoal_status shoal_lapack_kernel_name(shoal_handle handle, const char *routine, char precision, int pointer_array,
                                      char variant, int m, int n, int nrhs, const char **name)
{
    const int r = shoal_lapack_routine_id(routine);
    if (r < 0 || r >= SHOAL_GEMV || m < 1 || n < 1 || nrhs < 0 || !name) return BAD;
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[r];
    /* s and d, and c and z where the routine's search space lists them; op C of a c/z getrs is
     * its variant 't' (the entry point sets p.conj, which picks no other kernel) */
    if (shoal_routine_precision_index(ri, precision) < 0) return BAD;
    const char name1[2] = {variant, 0};
    const int v = shoal_routine_variant_index(ri, name1);
    if (v < 0) return BAD;
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (m > SHOAL_LAPACK_MAX_N || n > SHOAL_LAPACK_MAX_N || driver_only(r)) {
        const shoal_lapack_driver *d = driver_for(r, m, n);
        if (!d) return SHOAL_STATUS_NOT_SUPPORTED;
        *name = d->name;
        return OK;
    }
    const int dims[3] = {m, n, ri->has_nrhs ? nrhs : 1};
    const int mode = pointer_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    const int kernel = choose_kernel(ctx, r, precision, mode, v, dims, ctx->vendor_enabled, 0);
    *name = kernel == SHOAL_KERNEL_VENDOR ? shoal_lapack_vendor_name(ri->name) : ri->kernels[kernel].name;
    return OK;
}
