#include "dispatch.h"

#include <math.h>
#include <string.h>

int shoal_precision_slot(char precision)
{
    const char *at = precision ? strchr("sdcz", precision) : NULL;
    return at ? (int)(at - "sdcz") : -1;
}

/* precision 0: any rule */
static int has_rules(const shoal_table *t, char precision)
{
    for (int i = 0; i < t->n_rules; ++i)
        if (!precision || t->rules[i].precision == precision) return 1;
    return 0;
}

const shoal_table *shoal_select_table(const shoal_table *tables, int n_tables, const char *device_name,
                                      int cc_major, int cc_minor, int *match_level)
{
    return shoal_select_table_for(tables, n_tables, device_name, cc_major, cc_minor, 0, match_level);
}

const shoal_table *shoal_select_table_for(const shoal_table *tables, int n_tables, const char *device_name,
                                          int cc_major, int cc_minor, char precision, int *match_level)
{
    const shoal_table *same_cc = NULL, *lower = NULL;
    const int cc = cc_major * 10 + cc_minor;
    int lower_cc = -1;
    for (int i = 0; i < n_tables; ++i) {
        const shoal_table *t = &tables[i];
        if (!has_rules(t, precision)) continue;
        const int tcc = t->cc_major * 10 + t->cc_minor;
        if (tcc == cc && strcmp(t->device_name, device_name) == 0) {
            *match_level = 0;
            return t;
        }
        if (tcc == cc && !same_cc) same_cc = t;
        if (tcc < cc && tcc > lower_cc) {
            lower = t;
            lower_cc = tcc;
        }
    }
    if (same_cc) {
        *match_level = 1;
        return same_cc;
    }
    if (lower) {
        *match_level = 2;
        return lower;
    }
    *match_level = 3;
    return NULL;
}

static double shape_distance(const int a[3], const int b[3])
{
    double d = 0.0;
    for (int i = 0; i < 3; ++i) {
        /* k may be 0 (C = beta C); treat sizes below 1 as 1 */
        const double x = a[i] > 1 ? a[i] : 1, y = b[i] > 1 ? b[i] : 1;
        d += fabs(log2(x / y));
    }
    return d;
}

/* The nearest rule decides, except between tuned shapes: a call that matches no tuned shape
 * exactly goes to the vendor when either of its two nearest rules chose the vendor, since own
 * kernels only won where they were measured and the vendor is never slower than itself. */
static double volume(const int d[3])
{
    double v = 1.0;
    for (int i = 0; i < 3; ++i) v *= d[i] > 1 ? d[i] : 1;
    return v;
}

/* distance: the nearest rule's; largest: the largest m n k among the rules considered. */
static int pick_in_mode(const shoal_table *t, char precision, int mode, int variant, const int dims[3],
                        int vendor, shoal_fits_fn fits, const void *fits_ctx, double *distance, double *largest)
{
    int first = -2, second = -2;
    double d_first = INFINITY, d_second = INFINITY;
    *largest = 0.0;
    for (int i = 0; i < t->n_rules; ++i) {
        const shoal_rule *r = &t->rules[i];
        if (r->precision != precision || r->mode != mode || r->variant != variant) continue;
        const int kernel = vendor ? r->best : r->own;
        /* own == -1 means "no own kernel was valid", which must not read as "vendor" */
        if (!vendor && kernel < 0) continue;
        if (kernel != SHOAL_KERNEL_VENDOR && (kernel < 0 || !fits(fits_ctx, kernel, dims))) continue;
        const double d = shape_distance(r->dims, dims);
        if (volume(r->dims) > *largest) *largest = volume(r->dims);
        /* ties: first rule in table order, which is sorted: deterministic */
        if (d < d_first) {
            second = first;
            d_second = d_first;
            first = kernel;
            d_first = d;
        } else if (d < d_second) {
            second = kernel;
            d_second = d;
        }
    }
    *distance = d_first;
    if (vendor && d_first > 0.0 && second == SHOAL_KERNEL_VENDOR) return SHOAL_KERNEL_VENDOR;
    return first;
}

int shoal_pick_kernel(const shoal_table *table, char precision, int mode, int variant, const int dims[3],
                      int vendor, shoal_fits_fn fits, const void *fits_ctx)
{
    if (!table) return -2;
    double d_own, d_other, own_largest, other_largest;
    const int k = pick_in_mode(table, precision, mode, variant, dims, vendor, fits, fits_ctx, &d_own, &own_largest);
    if (k == -2)
        return pick_in_mode(table, precision, !mode, variant, dims, vendor, fits, fits_ctx, &d_other, &other_largest);
    /* A call larger than every tuned shape of its own form (pointer-array GEMM is tuned to 32,
     * strided to 512; a driver's steps reach 512): where the other form has a rule nearer to the
     * call and that rule chose the vendor, the vendor, which takes either form. Within its own
     * form's range the form's own rules decide. */
    if (vendor && k != SHOAL_KERNEL_VENDOR && volume(dims) > own_largest &&
        pick_in_mode(table, precision, !mode, variant, dims, vendor, fits, fits_ctx, &d_other, &other_largest) ==
            SHOAL_KERNEL_VENDOR &&
        d_other < d_own)
        return SHOAL_KERNEL_VENDOR;
    return k;
}

int shoal_smallest_fitting(const shoal_kernel_desc *kernels, int n, char precision, int variant, int arch,
                           const int dims[3], shoal_fits_fn fits, const void *fits_ctx,
                           long long (*extent)(const shoal_kernel_desc *))
{
    int best = -1;
    long long least = 0;
    for (int i = 0; i < n; ++i) {
        const shoal_kernel_desc *kd = &kernels[i];
        if (kd->precision != precision || kd->variant != variant || kd->arch_floor > arch || !fits(fits_ctx, i, dims))
            continue;
        const long long e = extent(kd);
        if (best < 0 || e < least) {
            best = i;
            least = e;
        }
    }
    return best;
}
