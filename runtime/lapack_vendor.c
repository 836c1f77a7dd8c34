#include "lapack_vendor.h"

#include <string.h>

static int is_lu(const char *r)
{
    return !strcmp(r, "getrf") || !strcmp(r, "getrs") || !strcmp(r, "gesv") || !strcmp(r, "getri") ||
           !strcmp(r, "getri_fused");
}

static int is_chol_qr(const char *r)
{
    return !strcmp(r, "potrf") || !strcmp(r, "potrs") || !strcmp(r, "posv") || !strcmp(r, "geqrf");
}

int shoal_lapack_vendor(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                        const shoal_lapack_params *p)
{
    if (!shoal_vendor_precision_ok(precision)) return SHOAL_VENDOR_UNSUPPORTED;
    if (is_lu(routine)) return shoal_vendor_lu(h, routine, precision, variant, p);
    if (is_chol_qr(routine)) return shoal_vendor_chol_qr(h, routine, precision, variant, p);
    return SHOAL_VENDOR_UNSUPPORTED;
}

const char *shoal_lapack_vendor_name(const char *routine)
{
    return (!strcmp(routine, "potrf") || !strcmp(routine, "potrs") || !strcmp(routine, "posv")) ? "cusolver"
                                                                                                : "cublas";
}
