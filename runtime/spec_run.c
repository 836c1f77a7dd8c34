/* The one dispatch path of the spec routines (runtime/spec_run.h). */
#include "spec_run.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "dispatch.h"

#define OK SHOAL_STATUS_SUCCESS

/* What a rule's kernel is judged by: the routine and the whole call (a kernel's bound may
 * depend on options, e.g. TRSM's triangle is m or n by side). */
typedef struct fits_ctx {
    const shoal_spec_routine *ri;
    const shoal_spec_call *c;
} fits_ctx;

static int precision_index(const shoal_spec_routine *ri, char prec)
{
    const char *p = strchr(ri->precisions, prec);
    return p ? (int)(p - ri->precisions) : -1;
}

/* A kernel entry serves the calls its fits rule accepts among those the spec gives the
 * kernels; the driver entry those the spec gives the driver (the two may overlap). */
static int entry_fits(const void *ctx, int index, const int dims[3])
{
    (void)dims;
    const fits_ctx *f = ctx;
    const shoal_kernel_desc *kd = &f->ri->kernels[index];
    if (kd->design == SHOAL_DESIGN_DRIVER) return f->ri->driver && f->ri->driver_serves(f->c);
    return f->ri->kernels_serve(f->c) && f->ri->fits(kd, f->c);
}

/* The fallback scan's test: a kernel (not the driver entry) that fits. */
static int kernel_fits(const void *ctx, int index, const int dims[3])
{
    const fits_ctx *f = ctx;
    return f->ri->kernels[index].design != SHOAL_DESIGN_DRIVER && entry_fits(ctx, index, dims);
}

static int vendor_can_take(const struct shoal_context *ctx, const shoal_spec_routine *ri, const shoal_spec_call *c)
{
    if (!ctx->vendor_enabled || !ri->vendor || c->mode != SHOAL_MODE_ARRAY || c->p.batch > INT_MAX) return 0;
    for (int o = 0; o < ri->n_operands; ++o)
        if (c->p.op[o].ld > INT_MAX) return 0;
    return 1;
}

/* Kernel index, SHOAL_KERNEL_VENDOR, or -2 (nothing in the tables: the caller decides).
 * Cached per handle and routine, so a repeated shape costs a comparison. */
static int choose(struct shoal_context *ctx, const shoal_spec_routine *ri, const shoal_spec_call *c, int vendor,
                  int kernels_only)
{
    int dims[3];
    ri->slots(c, dims);
    const int variant = c->p.opts[ri->variant_option];
    shoal_dispatch_cache *cache = &ctx->spec_cache[c->routine];
    /* the cache keys on (m, n, k), variant and mode; the other options must not change the
     * answer, which holds while fits rules depend only on the variant option and the dims */
    const int key_vendor = vendor | (kernels_only << 1);
    if (cache->valid && cache->precision == c->prec && cache->mode == c->mode && cache->variant == variant &&
        cache->vendor_enabled == key_vendor && cache->dims[0] == dims[0] && cache->dims[1] == dims[1] &&
        cache->dims[2] == dims[2])
        return cache->kernel;
    fits_ctx f = {ri, c};
    const int slot = shoal_precision_slot(c->prec);
    const shoal_table *table = slot < 0 ? NULL : ctx->spec_table[c->routine * SHOAL_N_PRECISIONS + slot];
    int kernel = kernels_only && !ri->kernels_serve(c)
                     ? -2
                     : shoal_pick_kernel(table, c->prec, c->mode, variant, dims, vendor, entry_fits, &f);
    if (kernel >= 0 && kernels_only && ri->kernels[kernel].design == SHOAL_DESIGN_DRIVER) kernel = -2;
    if (kernel == -2 && ri->kernels_serve(c)) {
        /* the shipped kernel of least extent that fits and runs here (where the designs declare
         * an extent: the routine's fallbacks and default), else the portable default where it
         * fits (else the driver, below, where it serves) */
        const int pi = precision_index(ri, c->prec);
        const int d = pi < 0 ? -1 : ri->default_kernel[pi * ri->n_variants + variant];
        if (ri->extent)
            kernel = shoal_smallest_fitting(ri->kernels, *ri->n_kernels, c->prec, variant,
                                            shoal_device_arch(ctx->cc_major, ctx->cc_minor), dims, kernel_fits, &f,
                                            ri->extent);
        if (kernel < 0 && d >= 0 && ri->fits(&ri->kernels[d], c)) kernel = d;
        if (kernel < 0) kernel = -2;
    }
    cache->valid = 1;
    cache->precision = c->prec;
    cache->mode = (unsigned char)c->mode;
    cache->variant = (unsigned char)variant;
    cache->vendor_enabled = (unsigned char)key_vendor;
    memcpy(cache->dims, dims, sizeof dims);
    cache->kernel = (short)kernel;
    return kernel;
}

static shoal_status launch(struct shoal_context *ctx, const shoal_spec_routine *ri, int kernel,
                           const shoal_spec_call *c)
{
    const shoal_kernel_desc *kd = &ri->kernels[kernel];
    const cudaError_t e = shoal_spec_launch(ri, kd, c, ctx->stream);
    return e == cudaSuccess ? OK : SHOAL_STATUS_CUDA_ERROR;
}

int shoal_spec_operand_elem_bytes(const shoal_spec_call *c, int o)
{
    const int elem = shoal_spec_elem_bytes(c->prec);
    return shoal_spec_routines[c->routine].operand_kinds[o] == 'r' && shoal_spec_is_complex(c->prec) ? elem / 2 : elem;
}

/* The driver's leaf when no tuned rule chose one: the largest triangle the kernels take. */
#define DEFAULT_LEAF 32

shoal_status shoal_spec_run_kernel(struct shoal_context *ctx, const shoal_spec_call *c)
{
    const shoal_spec_routine *ri = &shoal_spec_routines[c->routine];
    if (ri->quick_return(c) || c->p.batch == 0) return OK;
    const int kernel = choose(ctx, ri, c, 0, 1);
    if (kernel < 0) return SHOAL_STATUS_NOT_SUPPORTED;
    return launch(ctx, ri, kernel, c);
}

shoal_status shoal_spec_run(shoal_handle handle, const shoal_spec_call *c)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    const shoal_spec_routine *ri = &shoal_spec_routines[c->routine];
    if (ri->quick_return(c) || c->p.batch == 0) return OK;
    const int vendor = vendor_can_take(ctx, ri, c);
    int kernel = choose(ctx, ri, c, vendor, 0);
    if (kernel == SHOAL_KERNEL_VENDOR) {
        const int r = ri->vendor(ctx->cublas, c);
        ctx->served = "cublas";
        if (r == SHOAL_SPEC_VENDOR_OK) return OK;
        if (r == SHOAL_SPEC_VENDOR_FAILED) return SHOAL_STATUS_VENDOR_ERROR;
        kernel = choose(ctx, ri, c, 0, 0); /* the vendor lacks this case */
    }
    /* a driver's steps record what served them; the call as a whole was served by the driver */
    shoal_status st = SHOAL_STATUS_NOT_SUPPORTED;
    if (kernel >= 0 && ri->kernels[kernel].design == SHOAL_DESIGN_DRIVER)
        st = ri->driver(ctx, c, ri->kernels[kernel].p[0]);
    else if (kernel >= 0) st = launch(ctx, ri, kernel, c);
    else if (ri->driver && ri->driver_serves(c)) st = ri->driver(ctx, c, DEFAULT_LEAF);
    ctx->served = kernel >= 0 && ri->kernels[kernel].design != SHOAL_DESIGN_DRIVER ? ri->kernels[kernel].name : "driver";
    return st;
}

shoal_status shoal_spec_run_driver(shoal_handle handle, const shoal_spec_call *c, int leaf)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    const shoal_spec_routine *ri = &shoal_spec_routines[c->routine];
    if (!ri->driver) return SHOAL_STATUS_NOT_SUPPORTED;
    if (ri->quick_return(c) || c->p.batch == 0) return OK;
    return ri->driver(ctx, c, leaf);
}

const char *shoal_spec_served_by(shoal_handle handle, const shoal_spec_call *c)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return "";
    const shoal_spec_routine *ri = &shoal_spec_routines[c->routine];
    const int vendor = vendor_can_take(ctx, ri, c);
    const int kernel = choose(ctx, ri, c, vendor, 0);
    if (kernel == SHOAL_KERNEL_VENDOR) return "vendor";
    if (kernel >= 0 && ri->kernels[kernel].design == SHOAL_DESIGN_DRIVER) return "driver";
    if (kernel >= 0) return ri->kernels[kernel].name;
    return ri->driver && ri->driver_serves(c) ? "driver" : "";
}

int shoal_spec_routine_id(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < shoal_spec_n_routines; ++i)
        if (strcmp(shoal_spec_routines[i].name, name) == 0) return i;
    return -1;
}

shoal_status shoal_spec_kernel_name(shoal_handle handle, const char *routine, char precision, int pointer_array,
                                    const int *options, const int *dims, const char **name)
{
    const int r = shoal_spec_routine_id(routine);
    if (r < 0 || !dims || !name || shoal_spec_elem_bytes(precision) == 0) return SHOAL_STATUS_INVALID_VALUE;
    if (!shoal_context_get(handle)) return SHOAL_STATUS_NOT_INITIALIZED;
    const shoal_spec_routine *ri = &shoal_spec_routines[r];
    shoal_spec_call c;
    memset(&c, 0, sizeof c);
    c.routine = r;
    c.prec = precision;
    c.mode = pointer_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    for (int i = 0; i < ri->n_dims; ++i) c.p.dims[i] = dims[i];
    for (int i = 0; i < ri->n_options; ++i) c.p.opts[i] = options ? options[i] : 0;
    for (int o = 0; o < ri->n_operands; ++o) {
        long long rows = 0, cols = 0;
        ri->operand_shape(&c, o, &rows, &cols);
        c.p.op[o].ld = rows > 1 ? rows : 1;
    }
    c.p.batch = 1;
    *name = shoal_spec_served_by(handle, &c);
    return OK;
}

int shoal_spec_design_id(const shoal_spec_routine *ri, const char *design)
{
    const size_t len = strlen(design);
    const char *s = ri->designs;
    for (int i = 0; *s; ++i) {
        const char *end = strchr(s, ' ');
        const size_t tok = end ? (size_t)(end - s) : strlen(s);
        if (tok == len && strncmp(s, design, len) == 0) return SHOAL_DESIGN_SPEC + i;
        if (!end) break;
        s = end + 1;
    }
    return -1;
}
