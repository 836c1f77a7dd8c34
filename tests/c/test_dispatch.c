/* Dispatch logic without a GPU: table selection along the fallback chain and the choice of a
 * kernel per call (runtime/dispatch.c), on hand-made tables.
 * Usage: test_dispatch [--list | --case NAME]; prints "ok NAME" / "FAILED NAME: why". */
#include "dispatch.h"
#include "host_cases.h"

/* kernel 9 "does not fit" anything larger than 16 in any dimension; the rest fit everything */
static int fits(const void *ctx, int index, const int dims[3])
{
    (void)ctx;
    return index != 9 || (dims[0] <= 16 && dims[1] <= 16 && dims[2] <= 16);
}

#define V SHOAL_KERNEL_VENDOR
static const shoal_rule h100_rules[] = {
    /* prec, mode, variant, dims, best, own */
    {'d', SHOAL_MODE_STRIDED, 0, {8, 8, 8}, 1, 1},
    {'d', SHOAL_MODE_STRIDED, 0, {16, 16, 16}, 9, 9},
    {'d', SHOAL_MODE_STRIDED, 0, {20, 20, 20}, 2, 2},
    {'d', SHOAL_MODE_STRIDED, 0, {24, 24, 24}, V, 3},
    {'d', SHOAL_MODE_STRIDED, 0, {32, 32, 32}, V, 4},
    {'d', SHOAL_MODE_STRIDED, 1, {8, 8, 8}, V, -1},
    {'d', SHOAL_MODE_ARRAY, 0, {8, 8, 8}, 5, 5},
    {'s', SHOAL_MODE_STRIDED, 0, {8, 8, 8}, 6, 6},
};
static const shoal_table tables[] = {
    {"gemm", "NVIDIA A100-SXM4-80GB", 8, 0, h100_rules, 1},
    {"gemm", "NVIDIA H100 80GB HBM3", 9, 0, h100_rules, (int)(sizeof h100_rules / sizeof h100_rules[0])},
    {"gemm", "NVIDIA H100 PCIe", 9, 0, h100_rules, 2},
    {"gemm", "empty", 7, 5, h100_rules, 0},
};
static const int n_tables = (int)(sizeof tables / sizeof tables[0]);

static int pick(char prec, int mode, int variant, int m, int n, int k, int vendor)
{
    const int dims[3] = {m, n, k};
    return shoal_pick_kernel(&tables[1], prec, mode, variant, dims, vendor, fits, NULL);
}

static void case_table_chain(void)
{
    int level = -1;
    CHECK(shoal_select_table(tables, n_tables, "NVIDIA H100 80GB HBM3", 9, 0, &level) == &tables[1] && level == 0);
    CHECK(shoal_select_table(tables, n_tables, "NVIDIA H100 NVL", 9, 0, &level) == &tables[1] && level == 1);
    CHECK(shoal_select_table(tables, n_tables, "NVIDIA H200", 9, 0, &level) == &tables[1] && level == 1);
    CHECK(shoal_select_table(tables, n_tables, "NVIDIA L40S", 8, 9, &level) == &tables[0] && level == 2);
    CHECK(shoal_select_table(tables, n_tables, "Tesla V100", 7, 0, &level) == NULL && level == 3);
    CHECK(shoal_select_table(tables, n_tables, "empty", 7, 5, &level) == NULL && level == 3); /* no rules */
}

/* A device's own table tuned in s only: its s calls dispatch from it, its d calls from the same
 * capability's other table (rather than the portable default), c from none */
static void case_table_chain_per_precision(void)
{
    static const shoal_rule s_only[] = {{'s', SHOAL_MODE_STRIDED, 0, {8, 8, 8}, 6, 6}};
    static const shoal_table partial[] = {
        {"gemm", "NVIDIA H100 80GB HBM3", 9, 0, h100_rules, (int)(sizeof h100_rules / sizeof h100_rules[0])},
        {"gemm", "NVIDIA H200", 9, 0, s_only, 1},
    };
    int level = -1;
    CHECK(shoal_select_table_for(partial, 2, "NVIDIA H200", 9, 0, 's', &level) == &partial[1] && level == 0);
    CHECK(shoal_select_table_for(partial, 2, "NVIDIA H200", 9, 0, 'd', &level) == &partial[0] && level == 1);
    CHECK(shoal_select_table_for(partial, 2, "NVIDIA H200", 9, 0, 'c', &level) == NULL && level == 3);
    CHECK(shoal_select_table(partial, 2, "NVIDIA H200", 9, 0, &level) == &partial[1] && level == 0);
    CHECK(shoal_precision_slot('s') == 0 && shoal_precision_slot('z') == 3 && shoal_precision_slot('x') == -1 &&
          shoal_precision_slot(0) == -1);
}

static void case_exact_and_nearest(void)
{
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 8, 8, 8, 1) == 1);
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 7, 8, 9, 1) == 1);    /* nearest: 8^3, then 16^3: both own */
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 24, 24, 24, 1) == V); /* exact */
    CHECK(pick('s', SHOAL_MODE_STRIDED, 0, 2, 2, 2, 1) == 6);
}

static void case_between_tuned_shapes_prefers_vendor(void)
{
    /* 22^3 lies between 20^3 (own) and 24^3 (vendor): the vendor, which is never slower than
     * itself; with vendor dispatch off, the nearest own kernel */
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 22, 22, 22, 1) == V);
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 22, 22, 22, 0) == 3); /* 24^3 is nearer than 20^3 */
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 20, 20, 20, 1) == 2); /* exact own win stays */
}

static void case_fits_and_own(void)
{
    /* kernel 9 (16^3's winner) cannot serve 17: the next rule serves */
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 17, 17, 17, 0) == 2);
    /* variant 1 has only a vendor rule with no valid own kernel: nothing serves without the vendor */
    CHECK(pick('d', SHOAL_MODE_STRIDED, 1, 8, 8, 8, 1) == V);
    CHECK(pick('d', SHOAL_MODE_STRIDED, 1, 8, 8, 8, 0) == -2);
}

static void case_mode_fallback(void)
{
    CHECK(pick('d', SHOAL_MODE_ARRAY, 0, 8, 8, 8, 1) == 5);
    CHECK(pick('d', SHOAL_MODE_ARRAY, 1, 8, 8, 8, 1) == V); /* no array rule: strided rules serve */
    CHECK(pick('z', SHOAL_MODE_STRIDED, 0, 8, 8, 8, 1) == -2);
    const int dims[3] = {8, 8, 8};
    CHECK(shoal_pick_kernel(NULL, 'd', SHOAL_MODE_STRIDED, 0, dims, 1, fits, NULL) == -2);
}

/* A kernel that serves one form of batch only (as the staged GEMM designs: strided or pointer
 * arrays) must not be taken through the fallback to the other mode's rules: the runtime's fits
 * check knows the call's form (here kernel 6, the s strided 8^3 winner, serves strided only). */
static int fits_form(const void *ctx, int index, const int dims[3])
{
    const int array = *(const int *)ctx;
    return fits(NULL, index, dims) && !(index == 6 && array);
}

static void case_mode_fallback_refused_by_form(void)
{
    const int dims[3] = {8, 8, 8}, strided = 0, array = 1;
    CHECK(shoal_pick_kernel(&tables[1], 's', SHOAL_MODE_STRIDED, 0, dims, 0, fits_form, &strided) == 6);
    /* no s array rule: the strided rules are consulted, and their kernel refuses pointer arrays */
    CHECK(shoal_pick_kernel(&tables[1], 's', SHOAL_MODE_ARRAY, 0, dims, 0, fits_form, &array) == -2);
    CHECK(shoal_pick_kernel(&tables[1], 's', SHOAL_MODE_ARRAY, 0, dims, 1, fits_form, &array) == -2);
}

/* Larger than every tuned shape of its form, a call follows the other form's nearer rule where
 * that chose the vendor: d pointer arrays are tuned at 8^3 only, strided to 32^3 (vendor from
 * 24^3). */
static void case_beyond_its_form_takes_the_other_forms_vendor(void)
{
    CHECK(pick('d', SHOAL_MODE_ARRAY, 0, 32, 32, 32, 1) == V);  /* strided 32^3: exact, vendor */
    CHECK(pick('d', SHOAL_MODE_ARRAY, 0, 64, 64, 64, 1) == V);  /* beyond both: strided nearer */
    CHECK(pick('d', SHOAL_MODE_ARRAY, 0, 32, 32, 32, 0) == 5);  /* without the vendor: its own rules */
    CHECK(pick('d', SHOAL_MODE_ARRAY, 0, 9, 9, 9, 1) == 5);     /* strided 8^3 no nearer, own kernel */
    CHECK(pick('d', SHOAL_MODE_ARRAY, 0, 16, 16, 16, 1) == 5);  /* strided 16^3 nearer, but own */
    CHECK(pick('d', SHOAL_MODE_ARRAY, 0, 8, 8, 8, 1) == 5);     /* exact in its form */
    /* within its form's range (pointer arrays tuned at 8^3 and 64^3), its own rules decide even
     * where a strided vendor rule (24^3, 32^3) is nearer */
    static const shoal_rule rules[] = {
        {'d', SHOAL_MODE_STRIDED, 0, {24, 24, 24}, V, 3},
        {'d', SHOAL_MODE_STRIDED, 0, {32, 32, 32}, V, 4},
        {'d', SHOAL_MODE_ARRAY, 0, {8, 8, 8}, 5, 5},
        {'d', SHOAL_MODE_ARRAY, 0, {64, 64, 64}, 6, 6},
    };
    const shoal_table t = {"gemm", "NVIDIA H100 80GB HBM3", 9, 0, rules, 4};
    const int inside[3] = {30, 30, 30}, beyond[3] = {128, 128, 128};
    CHECK(shoal_pick_kernel(&t, 'd', SHOAL_MODE_ARRAY, 0, inside, 1, fits, NULL) == 6);
    CHECK(shoal_pick_kernel(&t, 'd', SHOAL_MODE_ARRAY, 0, beyond, 1, fits, NULL) == 6); /* 64^3 nearer */
}

static void case_zero_k(void)
{
    CHECK(pick('d', SHOAL_MODE_STRIDED, 0, 8, 8, 0, 1) == 1); /* k = 0 measured as 1 */
}

/* The fallback scan (a call no tuned rule serves): the kernel holding the least among those of
 * the precision and variant that fit and that the device can run. Kernel i holds extents[i]
 * (p[0]); kernel 9 fits only up to 16 (fits above). */
static long long extent_of(const shoal_kernel_desc *kd)
{
    return kd->p[0];
}

static void case_smallest_fitting_skips_newer_architectures(void)
{
    shoal_kernel_desc k[10] = {{0}};
    for (int i = 0; i < 10; ++i) {
        k[i].precision = 'd';
        k[i].p[0] = (short)(1000 - 10 * i); /* later kernels hold less */
    }
    k[8].arch_floor = 900; /* tuned for an H100: a __trap() on an sm_80 device */
    k[7].variant = 1;
    k[6].precision = 's';
    const int small[3] = {8, 8, 8}, large[3] = {64, 64, 64};
    CHECK(shoal_smallest_fitting(k, 10, 'd', 0, 900, small, fits, NULL, extent_of) == 9);
    CHECK(shoal_smallest_fitting(k, 10, 'd', 0, 900, large, fits, NULL, extent_of) == 8);
    CHECK(shoal_smallest_fitting(k, 10, 'd', 0, 800, large, fits, NULL, extent_of) == 5); /* not 8: floor */
    CHECK(shoal_smallest_fitting(k, 10, 'd', 0, 890, large, fits, NULL, extent_of) == 5);
    CHECK(shoal_smallest_fitting(k, 10, 'd', 1, 800, large, fits, NULL, extent_of) == 7);
    CHECK(shoal_smallest_fitting(k, 10, 's', 0, 800, large, fits, NULL, extent_of) == 6);
    CHECK(shoal_smallest_fitting(k, 10, 'z', 0, 900, small, fits, NULL, extent_of) == -1);
    CHECK(shoal_device_arch(9, 0) == 900 && shoal_device_arch(8, 9) == 890);
}

static const test_case cases[] = {
    {"table_chain", case_table_chain},
    {"table_chain_per_precision", case_table_chain_per_precision},
    {"exact_and_nearest", case_exact_and_nearest},
    {"between_tuned_shapes_prefers_vendor", case_between_tuned_shapes_prefers_vendor},
    {"fits_and_own", case_fits_and_own},
    {"mode_fallback", case_mode_fallback},
    {"mode_fallback_refused_by_form", case_mode_fallback_refused_by_form},
    {"beyond_its_form_takes_the_other_forms_vendor", case_beyond_its_form_takes_the_other_forms_vendor},
    {"zero_k", case_zero_k},
    {"smallest_fitting_skips_newer_architectures", case_smallest_fitting_skips_newer_architectures},
};
static const int n_cases = (int)(sizeof cases / sizeof cases[0]);

int main(int argc, char **argv) { return host_cases_main(cases, n_cases, argc, argv); }
