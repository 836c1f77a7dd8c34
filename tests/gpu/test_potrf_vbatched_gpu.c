/* GPU correctness of the variable-size batched Cholesky factorization through the public API:
 * shoal_{s,d,c,z}potrf_vbatched (A_i = L L^H, uplo LOWER, or U^H U, uplo UPPER, in place in that
 * triangle; n, lda and info device arrays of batch ints, A a device array of device pointers,
 * max_n >= every n[i] a caller's bound up to 1024). Every case runs for s, d, c and z and both
 * uplo; judged on the host in double.
 *
 * The members, images, device copies and checks are tests/gpu/vbatched_chol.{h,c}'s, shared with
 * test_posv_vbatched_gpu.c (potrs_vbatched, posv_vbatched).
 *
 * Inputs: member i (order n) is A = B B^H + n I, B random lower triangular with entries uniform
 * in [-1, 1) (both parts in c and z), from a hash of the case name and i; rounded to the
 * precision, and the rounded values are what the checks read back. Around the referenced
 * triangle everything holds junk that must come back bit for bit: the other triangle (NaNs with
 * a payload and +-1e30, so a kernel that reads or writes it is caught either way), the padding
 * rows n..lda-1 (NaNs), the gaps between members and a guard after the last one (NaNs); in c and
 * z the diagonal's imaginary parts are NaNs too (potrf must not read them). Members lie at
 * 16-byte-aligned offsets (odd element offsets in the ld_pad, nonspd and nan cases); info is
 * poisoned (VC_INFO_POISON) before every call.
 *
 * After every call: the status is SUCCESS; the n, lda and pointer arrays are unchanged; info[i]
 * is exactly LAPACK's value for every member; every element outside the referenced triangles of
 * the valid members is bit-identical to before; every member that factored (info 0, n >= 1)
 * has a real, positive diagonal (c, z: imaginary parts exactly 0) and
 *     ||A - L L^H||_F / (||A||_F n eps) <= VC_RESIDUAL_LIMIT (30)
 * (the Hermitian matrices whole; eps 2^-24 for s and c, 2^-53 for d and z). The host work is
 * O(n^3) per member (making B B^H, multiplying L L^H out): OpenMP over the small members, then
 * one large member (order >= VC_PARALLEL_ORDER) at a time, parallel inside; so the batches of the
 * large sizes are small.
 *
 * Cases, <p>potrf_vbatched_{lower,upper}_NAME:
 *  - equal_64: 50 members of 64;  uniform_{32,128,512}: sizes uniform in 1..N (batches 1000,
 *    400, 64: the host check is O(n^3) per member, so the 512 batch is small);  skewed_512: most
 *    small, a few large: n = 1 + floor(511 u^3), batch 200;  zeros_64: sizes 0..64 and every
 *    fourth member 0, batch 300;  huge_1000: one member of 1000 (a third into the batch) among
 *    499 of 1..8;  batch1_77, batch1_1024 (the largest order served);  large_3000: 3000 members
 *    of 1..32;  ld_pad_100: sizes 1..100, lda = n + 1..7;  slack_700: sizes 1..40, max_n 700;
 *  - nonspd_64: failure isolation. 120 members of 1..64 (three of 300), lda = n + 0..3; a sixth
 *    of them (two of the 300s) have row and column j's off-diagonal entries zeroed and
 *    A(j, j) = -1 or 0 (j = 0, n - 1 or random): the leading j x j block is SPD and pivot j is
 *    exactly A(j, j) (the row of L before it is exactly 0), so info = j + 1 for certain;
 *  - nan_64: as nonspd with NaNs: a NaN diagonal entry (row j cleared as above: info = j + 1) or
 *    a NaN below the diagonal at (j, k), k < j (in the referenced triangle; the leading j x j block
 *    is untouched SPD, pivot j is NaN: info = j + 1, LAPACK's isnan check);
 *  - bad_40: max_n 40, sizes 1..40; every fifth member is invalid: n = -1 (lda 3 or 0: info -2,
 *    the n check comes first), n = max_n + 1 (info -2), lda = n - 1 (info -4), n = 0 with lda 0
 *    (info -4: lda < max(1, n)); such a member's storage is untouched;
 *  - tail_40: sizes 0..40 and one 200, lda = n + 0..3; every member's storage in an allocation of
 *    its own that ends at its last element A(n-1, n-1) and starts 0..3 elements in
 *    (gpu_test_tail_alloc), as do the n, lda, info and pointer arrays (exactly batch entries), so
 *    that make sanitize's memcheck reports any access past them.
 *  The nonspd, nan and bad cases make a "twin" call first: the same batch with the defective
 *  members healthy (bad ones: n = 0); every other member's storage and info must then be bit
 *  for bit the same in both calls (the members are not coupled).
 *  - <p>potrf_vbatched_status: the host-level answers: uplo out of range, max_n < 0, batch < 0,
 *    NULL n, A, lda or info -> INVALID_VALUE (also with a NULL handle: arguments are checked
 *    first, include/shoal.h); a NULL handle -> NOT_INITIALIZED (also where there is no work);
 *    max_n 0 or batch 0 -> SUCCESS (also with NULL arrays); max_n 1025 -> NOT_SUPPORTED; none of
 *    them touches A or info; then a valid call on the same arrays factors them.
 * SHOAL_TEST_QUICK (make sanitize) caps every batch at 129 (gpu_test_batch).
 *
 * Usage: test_potrf_vbatched_gpu              run every case
 *        test_potrf_vbatched_gpu --list       print the case names (needs no GPU)
 *        test_potrf_vbatched_gpu --case NAME  run one case
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device (tests/gpu/gpu_test.h). */
#include <string.h>

#include "gpu_test.h"
#include "vbatched_chol.h"

/* ------------------------------------------------------------------------------------------ */
/* Cases */

typedef enum kind {
    K_EQUAL, K_UNIFORM, K_SKEWED, K_ZEROS, K_HUGE, K_BATCH1, K_LARGE, K_LD_PAD, K_SLACK,
    K_NONSPD, K_NAN, K_BAD, K_TAIL, K_STATUS
} kind;

typedef struct pcase {
    char name[64];
    char prec;
    shoal_fill_mode uplo;
    kind kind;
    int size;        /* N of the case's size distribution (max_n for slack and bad) */
    long long batch; /* wanted; gpu_test_batch caps it */
} pcase;

static pcase g_cases[160];
static int g_ncases;
static shoal_handle g_h;

static void add(char prec, shoal_fill_mode uplo, kind k, int size, long long batch, const char *what)
{
    pcase *c = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    *c = (pcase){"", prec, uplo, k, size, batch};
    if (k == K_STATUS)
        gpu_test_case_name(c->name, sizeof c->name, "%cpotrf_vbatched_status", prec);
    else
        gpu_test_case_name(c->name, sizeof c->name, "%cpotrf_vbatched_%s_%s", prec,
                           uplo == SHOAL_FILL_LOWER ? "lower" : "upper", what);
}

static void build_cases(void)
{
    for (const char *p = "sdcz"; *p; ++p) {
        for (int u = 0; u < 2; ++u) {
            const shoal_fill_mode uplo = u ? SHOAL_FILL_UPPER : SHOAL_FILL_LOWER;
            add(*p, uplo, K_EQUAL, 64, 50, "equal_64");
            add(*p, uplo, K_UNIFORM, 32, 1000, "uniform_32");
            add(*p, uplo, K_UNIFORM, 128, 400, "uniform_128");
            add(*p, uplo, K_UNIFORM, 512, 64, "uniform_512");
            add(*p, uplo, K_SKEWED, 512, 200, "skewed_512");
            add(*p, uplo, K_ZEROS, 64, 300, "zeros_64");
            add(*p, uplo, K_HUGE, 1000, 500, "huge_1000");
            add(*p, uplo, K_BATCH1, 77, 1, "batch1_77");
            add(*p, uplo, K_BATCH1, VC_MAX_SUPPORTED_N, 1, "batch1_1024");
            add(*p, uplo, K_LARGE, 32, 3000, "large_3000");
            add(*p, uplo, K_LD_PAD, 100, 200, "ld_pad_100");
            add(*p, uplo, K_SLACK, 700, 100, "slack_700");
            add(*p, uplo, K_NONSPD, 64, 120, "nonspd_64");
            add(*p, uplo, K_NAN, 64, 120, "nan_64");
            add(*p, uplo, K_BAD, 40, 100, "bad_40");
            add(*p, uplo, K_TAIL, 40, 60, "tail_40");
        }
        add(*p, SHOAL_FILL_LOWER, K_STATUS, 4, 4, "");
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Members of a batch: what the call gets, where they lie, what info must say */

static int want_info(const vc_member *m)
{
    switch (m->defect) {
    case D_NONE: return 0;
    case D_N_NEG:
    case D_N_BIG: return -2;
    case D_LDA_SMALL: return -4;
    default: return m->j + 1;
    }
}

/* Every fifth member of a bad case is invalid, in turn each of the kinds below. */
static void draw_invalid(const vc_batch *s, int64_t i, vc_member *m)
{
    if (i % 5 != 2) return;
    switch ((i / 5) % 5) {
    case 0: m->defect = D_N_NEG, m->n = -1, m->lda = 3, m->sn = 3, m->sld = 3; break;
    case 1: m->defect = D_N_BIG, m->n = s->max_n + 1, m->lda = m->sld = m->sn = m->n; break;
    case 2: /* lda one short of n */
        m->defect = D_LDA_SMALL;
        if (m->n < 2) m->n = m->sn = 2;
        m->lda = m->n - 1, m->sld = m->n;
        break;
    case 3: m->defect = D_LDA_SMALL, m->n = m->sn = 0, m->lda = 0, m->sld = 1; break; /* lda < max(1, n) */
    default: m->defect = D_N_NEG, m->n = -1, m->lda = 0, m->sn = 3, m->sld = 3; break; /* n is checked first */
    }
}

/* Plans the members of case c (sizes, leading dimensions, defects, offsets in the image). */
static void plan(const pcase *c, vc_batch *s)
{
    vc_dist dist = VC_UNIFORM; /* uniform, large, ld_pad, bad */
    int size = c->size, pad_lo = 0, pad_hi = 0;
    switch (c->kind) {
    case K_EQUAL:
    case K_BATCH1: dist = VC_EQUAL; break;
    case K_SKEWED: dist = VC_SKEWED; break;
    case K_ZEROS: dist = VC_ZEROS; break;
    case K_HUGE: dist = VC_HUGE; break;
    case K_SLACK: size = 40; break; /* 1..40 under max_n 700 */
    case K_NONSPD:
    case K_NAN: dist = VC_SPIKED; break;
    case K_TAIL: dist = VC_TAIL; break;
    case K_STATUS: dist = VC_CYCLE; break;
    default: break;
    }
    if (c->kind == K_LD_PAD) pad_lo = 1, pad_hi = 7;
    if (c->kind == K_NONSPD || c->kind == K_NAN || c->kind == K_BAD || c->kind == K_TAIL) pad_lo = 0, pad_hi = 3;
    vc_plan_sizes(s, c->prec, c->uplo, c->name, dist, size, c->batch, pad_lo, pad_hi);
    s->tail = c->kind == K_TAIL;
    /* slack and bad fix max_n at the case's size: above every n, and what n = max_n + 1 exceeds */
    if (c->kind == K_SLACK || c->kind == K_BAD) s->max_n = c->size;
    for (int64_t i = 0; i < s->batch; ++i) {
        vc_member *m = &s->m[i];
        if (c->kind == K_NONSPD || c->kind == K_NAN) vc_draw_breakdown(s, i, m, c->kind == K_NAN);
        if (c->kind == K_BAD) draw_invalid(s, i, m);
        m->want = want_info(m);
    }
    vc_layout(s, c->kind == K_LD_PAD || c->kind == K_NONSPD || c->kind == K_NAN);
}

/* ------------------------------------------------------------------------------------------ */
/* Calls */

static shoal_status call(shoal_handle h, char prec, shoal_fill_mode uplo, const int *n, int max_n, void *const *A,
                         const int *lda, int *info, int64_t batch)
{
    switch (prec) {
    case 's': return shoal_spotrf_vbatched(h, uplo, n, max_n, (float *const *)A, lda, info, batch);
    case 'd': return shoal_dpotrf_vbatched(h, uplo, n, max_n, (double *const *)A, lda, info, batch);
    case 'c': return shoal_cpotrf_vbatched(h, uplo, n, max_n, (shoal_complex_float *const *)A, lda, info, batch);
    default: return shoal_zpotrf_vbatched(h, uplo, n, max_n, (shoal_complex_double *const *)A, lda, info, batch);
    }
}

/* One call on batch s as mem describes it, from image img; the device sync catches kernel faults. */
static shoal_status run_once(const vc_batch *s, const vc_dev *d, const vc_member *mem, const unsigned char *img,
                             vc_result *res)
{
    vc_upload(s, d, mem, img, NULL);
    const shoal_status st = call(g_h, s->prec, s->uplo, d->dn, s->max_n, d->dptrs, d->dlda, d->dinfo, s->batch);
    CUDA_CHECK(cudaDeviceSynchronize());
    vc_download(s, d, mem, img, NULL, res);
    return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Judging a call */

/* Every check of one call; returns the number of failures (0: the run passed). */
static int judge(const vc_batch *s, const vc_member *mem, const unsigned char *img, shoal_status st,
                 const vc_result *res, const char *run)
{
    int bad = 0;
    if (st != SHOAL_STATUS_SUCCESS) vc_report(&bad, run, "status %s", shoal_status_string(st));
    if (!res->arrays_kept) vc_report(&bad, run, "the n, lda or pointer array changed");
    vc_check_info(s, mem, res, run, &bad);
    vc_check_untouched(s, mem, img, res->out, 1, run, &bad);
    vc_check_factors(s, mem, img, res, run, &bad);
    vc_report_total(run, bad);
    return bad;
}

/* ------------------------------------------------------------------------------------------ */
/* Cases */

static int has_twin(kind k) { return k == K_NONSPD || k == K_NAN || k == K_BAD; }

static void run_factor_case(const pcase *c)
{
    vc_batch s;
    plan(c, &s);
    vc_dev d;
    vc_dev_setup(&s, &d);
    vc_result twin = {0};
    if (has_twin(c->kind)) {
        vc_member *tm = vc_twin_members(&s);
        unsigned char *timg = vc_make_image(&s, tm);
        const shoal_status st = run_once(&s, &d, tm, timg, &twin);
        gpu_test_record(judge(&s, tm, timg, st, &twin, "twin call") == 0);
        free(timg);
        free(tm);
    }
    unsigned char *img = vc_make_image(&s, s.m);
    vc_result res;
    const shoal_status st = run_once(&s, &d, s.m, img, &res);
    int bad = judge(&s, s.m, img, st, &res, "call");
    if (has_twin(c->kind)) {
        bad += vc_compare_twin(&s, &twin, &res);
        vc_result_free(&twin);
    }
    gpu_test_record(bad == 0);
    vc_result_free(&res);
    free(img);
    vc_dev_free(&s, &d);
    free(s.m);
}

/* Calls that must return at once without touching anything, then a valid call on the same arrays. */
static void run_status_case(const pcase *c)
{
    vc_batch s;
    plan(c, &s);
    vc_dev d;
    vc_dev_setup(&s, &d);
    unsigned char *img = vc_make_image(&s, s.m);
    vc_upload(&s, &d, s.m, img, NULL);
    const char p = s.prec;
    const int mx = s.max_n;
    const int64_t b = s.batch;
    const shoal_fill_mode lo = SHOAL_FILL_LOWER;
    void *const *A = d.dptrs;
    vc_expect("uplo 2", call(g_h, p, (shoal_fill_mode)2, d.dn, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("uplo -1", call(g_h, p, (shoal_fill_mode)-1, d.dn, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("max_n -1", call(g_h, p, lo, d.dn, -1, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("batch -1", call(g_h, p, lo, d.dn, mx, A, d.dlda, d.dinfo, -1), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("n NULL", call(g_h, p, lo, NULL, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("A NULL", call(g_h, p, lo, d.dn, mx, NULL, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("lda NULL", call(g_h, p, lo, d.dn, mx, A, NULL, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("info NULL", call(g_h, p, lo, d.dn, mx, A, d.dlda, NULL, b), SHOAL_STATUS_INVALID_VALUE);
    vc_expect("NULL handle, uplo 2 (arguments first)", call(NULL, p, (shoal_fill_mode)2, d.dn, mx, A, d.dlda, d.dinfo, b),
              SHOAL_STATUS_INVALID_VALUE);
    vc_expect("NULL handle", call(NULL, p, lo, d.dn, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_NOT_INITIALIZED);
    vc_expect("NULL handle, batch 0", call(NULL, p, lo, d.dn, mx, A, d.dlda, d.dinfo, 0), SHOAL_STATUS_NOT_INITIALIZED);
    vc_expect("max_n 0", call(g_h, p, lo, d.dn, 0, A, d.dlda, d.dinfo, b), SHOAL_STATUS_SUCCESS);
    vc_expect("batch 0", call(g_h, p, lo, d.dn, mx, A, d.dlda, d.dinfo, 0), SHOAL_STATUS_SUCCESS);
    vc_expect("max_n 0, NULL arrays", call(g_h, p, lo, NULL, 0, NULL, NULL, NULL, b), SHOAL_STATUS_SUCCESS);
    vc_expect("batch 0, NULL arrays", call(g_h, p, lo, NULL, mx, NULL, NULL, NULL, 0), SHOAL_STATUS_SUCCESS);
    vc_expect("max_n 1025", call(g_h, p, lo, d.dn, VC_MAX_SUPPORTED_N + 1, A, d.dlda, d.dinfo, b),
              SHOAL_STATUS_NOT_SUPPORTED);
    /* none of those may have touched A or info (the refused ones enqueue nothing either) */
    CUDA_CHECK(cudaDeviceSynchronize());
    vc_result res;
    vc_download(&s, &d, s.m, img, NULL, &res);
    int bad = 0;
    for (int64_t i = 0; i < b; ++i)
        if (res.info[i] != VC_INFO_POISON)
            vc_report(&bad, "refused calls", "info[%lld] written (%d)", (long long)i, res.info[i]);
    if (memcmp(res.out, img, (size_t)s.total * s.es)) vc_report(&bad, "refused calls", "A changed");
    if (!res.arrays_kept) vc_report(&bad, "refused calls", "the n, lda or pointer array changed");
    gpu_test_record(bad == 0);
    vc_result_free(&res);
    /* the arrays still work: the valid call factors them */
    const shoal_status st = run_once(&s, &d, s.m, img, &res);
    gpu_test_record(judge(&s, s.m, img, st, &res, "valid call") == 0);
    vc_result_free(&res);
    free(img);
    vc_dev_free(&s, &d);
    free(s.m);
}

static void run_case(int i)
{
    if (g_cases[i].kind == K_STATUS)
        run_status_case(&g_cases[i]);
    else
        run_factor_case(&g_cases[i]);
}

static const char *case_name(int i) { return g_cases[i].name; }

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_case, NULL, NULL};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
