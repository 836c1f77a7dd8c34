#include "lapack_routines.h"

#include <string.h>

#include "context.h"

#define ROUTINE(r, variants, n_variants, has_nrhs)                                                      \
    {#r, variants, n_variants, has_nrhs, shoal_##r##_kernels, &shoal_##r##_n_kernels, shoal_##r##_tables,          \
     &shoal_##r##_n_tables, shoal_##r##_default_kernel, shoal_##r##_precisions}

/* a routine its driver serves whole (gels, gelqf, orgbr): no kernels, no tables */
static const int no_kernels = 0;
#define DRIVER_ONLY(r, variants, n_variants, has_nrhs, precisions)                                     \
    {#r, variants, n_variants, has_nrhs, NULL, &no_kernels, NULL, &no_kernels, NULL, precisions}

const shoal_lapack_routine_info shoal_lapack_routines[SHOAL_LAPACK_N_ROUTINES] = {
    [SHOAL_GETRF] = ROUTINE(getrf, "n", 1, 0),
    [SHOAL_GETRS] = ROUTINE(getrs, "n t", 2, 1),
    [SHOAL_GESV] = ROUTINE(gesv, "n", 1, 1),
    [SHOAL_GETRI] = ROUTINE(getri, "n", 1, 0),
    [SHOAL_GETRI_FUSED] = ROUTINE(getri_fused, "n", 1, 0),
    [SHOAL_POTRF] = ROUTINE(potrf, "l u", 2, 0),
    [SHOAL_POTRS] = ROUTINE(potrs, "l u", 2, 1),
    [SHOAL_POSV] = ROUTINE(posv, "l u", 2, 1),
    [SHOAL_GEQRF] = ROUTINE(geqrf, "n", 1, 0),
    [SHOAL_GELS] = DRIVER_ONLY(gels, "n t", 2, 1, "sdcz"),
    [SHOAL_GELQF] = DRIVER_ONLY(gelqf, "n", 1, 0, "sdcz"),
    /* k (in nrhs) = 0 is work: the identity's columns */
    [SHOAL_ORGBR] = DRIVER_ONLY(orgbr, "q p", 2, 0, "sdcz"),
    /* variable size: the sizes in device arrays, m and n the maxima (runtime/drivers/potrf_vbatched.c) */
    [SHOAL_POTRF_VBATCHED] = DRIVER_ONLY(potrf_vbatched, "l u", 2, 0, "sdcz"),
    [SHOAL_POTRS_VBATCHED] = DRIVER_ONLY(potrs_vbatched, "l u", 2, 1, "sdcz"),
    /* max_nrhs = 0 still factors (LAPACK's posv): not the run path's "no right-hand sides" */
    [SHOAL_POSV_VBATCHED] = DRIVER_ONLY(posv_vbatched, "l u", 2, 0, "sdcz"),
    [SHOAL_GEMV] = ROUTINE(gemv, "n t", 2, 0),
    [SHOAL_TRSV] = ROUTINE(trsv, "ln lt un ut", 4, 0),
    [SHOAL_GEMV_VBATCHED] = ROUTINE(gemv_vbatched, "n t", 2, 0),
    [SHOAL_GEMM_VBATCHED] = ROUTINE(gemm_vbatched, "nn nt tn tt", 4, 0),
};

int shoal_lapack_routine_id(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < SHOAL_LAPACK_N_ROUTINES; ++i)
        if (strcmp(shoal_lapack_routines[i].name, name) == 0) return i;
    return -1;
}

int shoal_routine_variant_index(const shoal_lapack_routine_info *ri, const char *variant)
{
    if (!variant) return -1;
    const size_t len = strlen(variant);
    const char *s = ri->variants;
    for (int i = 0; i < ri->n_variants; ++i) {
        const char *end = strchr(s, ' ');
        const size_t tok = end ? (size_t)(end - s) : strlen(s);
        if (tok == len && strncmp(s, variant, len) == 0) return i;
        s = end ? end + 1 : s + tok;
    }
    return -1;
}

int shoal_routine_precision_index(const shoal_lapack_routine_info *ri, char prec)
{
    const char *p = prec ? strchr(ri->precisions, prec) : NULL;
    return p ? (int)(p - ri->precisions) : -1;
}

int shoal_routine_choose(struct shoal_context *ctx, int routine, char prec, int mode, int variant, const int dims[3],
                         int vendor, shoal_fits_fn fits, const void *fits_ctx)
{
    shoal_dispatch_cache *c = &ctx->lapack_cache[routine];
    if (c->valid && c->precision == prec && c->mode == mode && c->variant == variant && c->vendor_enabled == vendor &&
        c->dims[0] == dims[0] && c->dims[1] == dims[1] && c->dims[2] == dims[2])
        return c->kernel;
    const shoal_lapack_routine_info *ri = &shoal_lapack_routines[routine];
    const int slot = shoal_precision_slot(prec);
    int kernel = shoal_pick_kernel(slot < 0 ? NULL : ctx->lapack_table[routine][slot], prec, mode, variant, dims,
                                   vendor, fits, fits_ctx);
    if (kernel < 0 && kernel != SHOAL_KERNEL_VENDOR)
        kernel = ri->default_kernel[shoal_routine_precision_index(ri, prec) * ri->n_variants + variant];
    c->valid = 1;
    c->precision = prec;
    c->mode = (unsigned char)mode;
    c->variant = (unsigned char)variant;
    c->vendor_enabled = (unsigned char)vendor;
    c->dims[0] = dims[0];
    c->dims[1] = dims[1];
    c->dims[2] = dims[2];
    c->kernel = (short)kernel;
    c->resident_blocks = 0;
    return kernel;
}
