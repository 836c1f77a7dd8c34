/* GPU correctness of the variable-size batched Cholesky solves through the public API:
 * shoal_{s,d,c,z}potrs_vbatched (B_i <- A_i^{-1} B_i with the factor potrf_vbatched left in A_i's
 * uplo triangle) and shoal_{s,d,c,z}posv_vbatched (A_i factored in place as potrf_vbatched does,
 * then the solve); n, nrhs, lda, ldb and info device arrays of batch ints, A and B device arrays
 * of device pointers, max_n (up to 1024) and max_nrhs (no limit) the caller's bounds. Every case
 * runs for s, d, c and z and both uplo; judged on the host in double.
 *
 * The members, images, device copies and checks are tests/gpu/vbatched_chol.{h,c}'s, shared with
 * test_potrf_vbatched_gpu.c (which see for the inputs: SPD members A = B B^H + n I, junk in the
 * other triangle, the padding rows, the gaps and a guard, NaN imaginary parts on a complex
 * diagonal); B_i holds uniform [-1, 1) entries, NaNs in its padding rows and around it.
 *
 * potrs: the factor is potrf_vbatched's, on the GPU, from the same image (a failure of that call
 * fails the case); then the factor's diagonal imaginary parts (c, z) are set to NaNs (potrs must
 * not read them) and potrs runs on that image: the whole A image must come back bit for bit.
 * posv: potrf_vbatched runs first on the same image as a reference; posv's A must then be
 * bit-identical to it in every member with info >= 0 (those with info -3 or -7, whose n and lda
 * potrf accepts, untouched instead).
 *
 * After every call: the status is SUCCESS; the n, nrhs, lda, ldb and pointer arrays are
 * unchanged; info[i] is exactly LAPACK's value (-2 n < 0 or > max_n, -3 nrhs < 0 or > max_nrhs,
 * -5 lda < max(1, n), -7 ldb < max(1, n), in that order; posv: j > 0 where pivot j fails); every
 * element of the A image outside the referenced triangles of the valid members (potrs: every
 * element) and of the B image outside the n x nrhs blocks of the members that solved (info 0) is
 * bit-identical to before; and every member that solved has
 *     ||A X - B||_F / (||A||_F ||X||_F n eps) <= VC_RESIDUAL_LIMIT (30)
 * with A the generated Hermitian matrix, B the right-hand sides uploaded, X what came back (eps
 * 2^-24 for s and c, 2^-53 for d and z).
 *
 * Cases, <p>{potrs,posv}_vbatched_{lower,upper}_NAME (nrhs per member in brackets):
 *  - equal_64: 50 members of 64 [4];  uniform_32: 1..32, batch 1000 [1..16];  uniform_128:
 *    1..128, batch 300 [1..8];  skewed_512: n = 1 + floor(511 u^3), batch 100 [1..4];  zeros_64:
 *    0..64 and every fourth 0, batch 300 [0..6, every third 0];  huge_1000: one member of 1000 [33]
 *    among 299 of 1..8 [1..3];  batch1_77 [5];  batch1_1024 [3] (the largest order served);
 *    nrhs_vary_48: 1..48, batch 400 [0..40, every fifth 0: several groups of right-hand sides a
 *    member];  ld_pad_100: 1..100, lda = n + 1..7, ldb = n + 1..5, odd element offsets, batch 200
 *    [1..6];  slack_700: 1..40 under max_n 700, batch 100 [1..4 under max_nrhs 300];
 *  - bad_40: max_n 40, max_nrhs 8, sizes 1..40 [0..8]; every fifth member invalid, in turn: n -1
 *    (-2), n max_n + 1 (-2), nrhs -1 (-3), nrhs max_nrhs + 1 (-3), lda n - 1 (-5), ldb n - 1 (-7),
 *    n 0 with lda 0 (-5), n 0 with ldb 0 (-7), n -1 and nrhs -1 (-2: n first), nrhs -1 and lda 0
 *    (-3), lda n - 1 and ldb 0 (-5); such a member's A and B are untouched;
 *  - tail_40: sizes 0..40 and one 200 [0..5], lda, ldb = n + 0..3; every member's A and B in
 *    allocations of their own that end at their last elements (gpu_test_tail_alloc), as do the
 *    size, info and pointer arrays, so that make sanitize's memcheck reports any access past them;
 *  - posv only: nonspd_64 and nan_64: 120 members of 1..64 (three of 300) [1..4], lda, ldb = n +
 *    0..3, odd offsets, a sixth of them not positive definite at a known pivot j (as in the potrf
 *    test: A(j, j) = -1, 0 or NaN with row j cleared, or a NaN in the referenced triangle):
 *    info = j + 1, B untouched;  nrhs0_100: max_nrhs 0 and every nrhs 0, 150 members of 1..100
 *    (three of 300), some not positive definite: every A_i factored all the same (bit for bit as
 *    potrf_vbatched), info exact, B untouched.
 *  The nonspd, nan and bad cases make a "twin" call first: the same batch with the defective
 *  members healthy (invalid ones: n = nrhs = 0); every other member's A, B and info must then be
 *  bit for bit the same in both calls.
 *  - <p>{potrs,posv}_vbatched_status: the host-level answers: uplo out of range, max_n,
 *    max_nrhs or batch < 0, each array NULL (n, nrhs, A, lda, B, ldb, info) -> INVALID_VALUE (also
 *    with a NULL handle: arguments first), posv with max_nrhs 0 and B, nrhs or ldb NULL ->
 *    INVALID_VALUE (it still factors); a NULL handle -> NOT_INITIALIZED (also with batch 0); max_n 0, batch 0 (also
 *    with NULL arrays) and, for potrs, max_nrhs 0 (also with NULL arrays, and with max_n 1025)
 *    -> SUCCESS; max_n 1025 -> NOT_SUPPORTED; none of them touches A, B or info; then valid calls
 *    on the same arrays, one with max_nrhs 2^20 (no upper limit).
 * SHOAL_TEST_QUICK (make sanitize) caps every batch at 129 (gpu_test_batch).
 *
 * Usage: test_posv_vbatched_gpu              run every case
 *        test_posv_vbatched_gpu --list       print the case names (needs no GPU)
 *        test_posv_vbatched_gpu --case NAME  run one case
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device (tests/gpu/gpu_test.h). */
#include <string.h>

#include "gpu_test.h"
#include "host_elems.h"
#include "vbatched_chol.h"

#define BIG_MAX_NRHS (1 << 20)

/* ------------------------------------------------------------------------------------------ */
/* Cases */

typedef enum routine { R_POTRS, R_POSV } routine;

typedef enum kind {
    K_EQUAL, K_UNIFORM, K_SKEWED, K_ZEROS, K_HUGE, K_BATCH1, K_NRHS_VARY, K_LD_PAD, K_SLACK, K_BAD, K_TAIL,
    K_NONSPD, K_NAN, K_NRHS0, K_STATUS
} kind;

typedef struct pcase {
    char name[64];
    routine r;
    char prec;
    shoal_fill_mode uplo;
    kind kind;
    int size;        /* N of the case's size distribution (max_n for slack and bad) */
    int nrhs;        /* the case's nrhs bound (see draw_nrhs) */
    long long batch; /* wanted; gpu_test_batch caps it */
} pcase;

static pcase g_cases[320];
static int g_ncases;
static shoal_handle g_h;

static const char *routine_name(routine r) { return r == R_POTRS ? "potrs" : "posv"; }

static void add(routine r, char prec, shoal_fill_mode uplo, kind k, int size, int nrhs, long long batch,
                const char *what)
{
    pcase *c = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    *c = (pcase){"", r, prec, uplo, k, size, nrhs, batch};
    if (k == K_STATUS)
        gpu_test_case_name(c->name, sizeof c->name, "%c%s_vbatched_status", prec, routine_name(r));
    else
        gpu_test_case_name(c->name, sizeof c->name, "%c%s_vbatched_%s_%s", prec, routine_name(r),
                           uplo == SHOAL_FILL_LOWER ? "lower" : "upper", what);
}

static void build_cases(void)
{
    for (int ri = 0; ri < 2; ++ri) {
        const routine r = ri ? R_POSV : R_POTRS;
        for (const char *p = "sdcz"; *p; ++p) {
            for (int u = 0; u < 2; ++u) {
                const shoal_fill_mode uplo = u ? SHOAL_FILL_UPPER : SHOAL_FILL_LOWER;
                add(r, *p, uplo, K_EQUAL, 64, 4, 50, "equal_64");
                add(r, *p, uplo, K_UNIFORM, 32, 16, 1000, "uniform_32");
                add(r, *p, uplo, K_UNIFORM, 128, 8, 300, "uniform_128");
                add(r, *p, uplo, K_SKEWED, 512, 4, 100, "skewed_512");
                add(r, *p, uplo, K_ZEROS, 64, 6, 300, "zeros_64");
                add(r, *p, uplo, K_HUGE, 1000, 3, 300, "huge_1000");
                add(r, *p, uplo, K_BATCH1, 77, 5, 1, "batch1_77");
                add(r, *p, uplo, K_BATCH1, VC_MAX_SUPPORTED_N, 3, 1, "batch1_1024");
                add(r, *p, uplo, K_NRHS_VARY, 48, 40, 400, "nrhs_vary_48");
                add(r, *p, uplo, K_LD_PAD, 100, 6, 200, "ld_pad_100");
                add(r, *p, uplo, K_SLACK, 700, 4, 100, "slack_700");
                add(r, *p, uplo, K_BAD, 40, 8, 110, "bad_40");
                add(r, *p, uplo, K_TAIL, 40, 5, 60, "tail_40");
                if (r == R_POSV) {
                    add(r, *p, uplo, K_NONSPD, 64, 4, 120, "nonspd_64");
                    add(r, *p, uplo, K_NAN, 64, 4, 120, "nan_64");
                    add(r, *p, uplo, K_NRHS0, 100, 0, 150, "nrhs0_100");
                }
            }
            add(r, *p, SHOAL_FILL_LOWER, K_STATUS, 4, 2, 4, "");
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Members of a batch: what the call gets, where they lie, what info must say */

#define SLACK_MAX_NRHS 300

static int want_info(const vc_member *m)
{
    switch (m->defect) {
    case D_NONE: return 0;
    case D_N_NEG:
    case D_N_BIG: return -2;
    case D_NRHS_NEG:
    case D_NRHS_BIG: return -3;
    case D_LDA_SMALL: return -5;
    case D_LDB_SMALL: return -7;
    default: return m->j + 1;
    }
}

/* nrhs of member i (of order n) */
static int draw_nrhs(const vc_batch *s, const pcase *c, int64_t i, int n)
{
    const uint64_t seed = s->seed;
    switch (c->kind) {
    case K_EQUAL:
    case K_BATCH1:
    case K_STATUS: return c->nrhs;
    case K_ZEROS: return i % 3 == 2 ? 0 : vc_irand(seed, (uint64_t)i, 6, 0, c->nrhs);
    case K_HUGE: return n == c->size ? 33 : vc_irand(seed, (uint64_t)i, 6, 1, c->nrhs);
    case K_NRHS_VARY: return i % 5 == 3 ? 0 : vc_irand(seed, (uint64_t)i, 6, 0, c->nrhs);
    case K_BAD:
    case K_TAIL: return vc_irand(seed, (uint64_t)i, 6, 0, c->nrhs);
    case K_NRHS0: return 0;
    default: return vc_irand(seed, (uint64_t)i, 6, 1, c->nrhs);
    }
}

/* ldb - max(1, n) for a valid member */
static int draw_ldb_pad(const vc_batch *s, const pcase *c, int64_t i)
{
    switch (c->kind) {
    case K_LD_PAD: return vc_irand(s->seed, (uint64_t)i, 5, 1, 5);
    case K_NONSPD:
    case K_NAN:
    case K_BAD:
    case K_TAIL: return vc_irand(s->seed, (uint64_t)i, 5, 0, 3);
    default: return 0;
    }
}

/* Every fifth member of a bad case is invalid, in turn each of the kinds below (the stored
 * shapes stay valid: a stand-in order, n rows, a column of right-hand sides). */
static void draw_invalid(const vc_batch *s, int64_t i, vc_member *m)
{
    if (i % 5 != 2) return;
    const int two = m->n < 2 ? 2 : m->n; /* an order that an ld of n - 1 can still express */
    switch ((i / 5) % 11) {
    case 0: m->defect = D_N_NEG, m->n = -1, m->lda = m->ldb = 3, m->sn = 3; break;
    case 1: m->defect = D_N_BIG, m->n = m->sn = s->max_n + 1, m->lda = m->ldb = m->n; break;
    case 2: m->defect = D_NRHS_NEG, m->nrhs = -1, m->snrhs = 2; break;
    case 3: m->defect = D_NRHS_BIG, m->nrhs = m->snrhs = s->max_nrhs + 1; break;
    case 4: m->defect = D_LDA_SMALL, m->n = m->sn = two, m->lda = two - 1, m->ldb = two; break;
    case 5: m->defect = D_LDB_SMALL, m->n = m->sn = two, m->lda = two, m->ldb = two - 1; break;
    case 6: m->defect = D_LDA_SMALL, m->n = m->sn = 0, m->lda = 0, m->ldb = 1; break; /* lda < max(1, n) */
    case 7: m->defect = D_LDB_SMALL, m->n = m->sn = 0, m->lda = 1, m->ldb = 0; break;
    case 8: m->defect = D_N_NEG, m->n = -1, m->nrhs = -1, m->lda = m->ldb = 3, m->sn = 3, m->snrhs = 2; break;
    case 9: m->defect = D_NRHS_NEG, m->nrhs = -1, m->lda = 0, m->snrhs = 2; break; /* nrhs before lda */
    default: m->defect = D_LDA_SMALL, m->n = m->sn = two, m->lda = two - 1, m->ldb = 0; break; /* lda before ldb */
    }
    /* stored: at least sn rows, and the ld's as passed where they are large enough */
    m->sld = m->lda >= m->sn && m->lda >= 1 ? m->lda : (m->sn > 1 ? m->sn : 1);
    m->sldb = m->ldb >= m->sn && m->ldb >= 1 ? m->ldb : (m->sn > 1 ? m->sn : 1);
}

/* Plans the members of case c (sizes, leading dimensions, defects, offsets in the images). */
static void plan(const pcase *c, vc_batch *s)
{
    vc_dist dist = VC_UNIFORM; /* uniform, ld_pad, nrhs_vary, bad */
    int size = c->size, pad_lo = 0, pad_hi = 0;
    switch (c->kind) {
    case K_EQUAL:
    case K_BATCH1: dist = VC_EQUAL; break;
    case K_SKEWED: dist = VC_SKEWED; break;
    case K_ZEROS: dist = VC_ZEROS; break;
    case K_HUGE: dist = VC_HUGE; break;
    case K_SLACK: size = 40; break; /* 1..40 under max_n 700 */
    case K_NONSPD:
    case K_NAN:
    case K_NRHS0: dist = VC_SPIKED; break;
    case K_TAIL: dist = VC_TAIL; break;
    case K_STATUS: dist = VC_CYCLE; break;
    default: break;
    }
    if (c->kind == K_LD_PAD) pad_lo = 1, pad_hi = 7;
    if (c->kind == K_NONSPD || c->kind == K_NAN || c->kind == K_BAD || c->kind == K_TAIL) pad_lo = 0, pad_hi = 3;
    vc_plan_sizes(s, c->prec, c->uplo, c->name, dist, size, c->batch, pad_lo, pad_hi);
    s->rhs = 1;
    s->tail = c->kind == K_TAIL;
    int largest = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        vc_member *m = &s->m[i];
        m->nrhs = m->snrhs = draw_nrhs(s, c, i, m->n);
        m->ldb = m->sldb = (m->n > 1 ? m->n : 1) + draw_ldb_pad(s, c, i);
        if (m->nrhs > largest) largest = m->nrhs;
    }
    s->max_nrhs = largest;
    /* slack and bad fix max_n at the case's size (and max_nrhs): above every n, and what n =
     * max_n + 1 exceeds */
    if (c->kind == K_SLACK || c->kind == K_BAD) s->max_n = c->size;
    if (c->kind == K_SLACK) s->max_nrhs = SLACK_MAX_NRHS;
    if (c->kind == K_BAD) s->max_nrhs = c->nrhs;
    for (int64_t i = 0; i < s->batch; ++i) {
        vc_member *m = &s->m[i];
        if (c->kind == K_NONSPD || c->kind == K_NRHS0) vc_draw_breakdown(s, i, m, 0);
        if (c->kind == K_NAN) vc_draw_breakdown(s, i, m, 1);
        if (c->kind == K_BAD) draw_invalid(s, i, m);
        if (m->snrhs == 0 && !s->tail) m->snrhs = 1; /* a column for a write past nrhs 0 to change */
        m->want = want_info(m);
    }
    vc_layout(s, c->kind == K_LD_PAD || c->kind == K_NONSPD || c->kind == K_NAN || c->kind == K_NRHS0);
}

/* ------------------------------------------------------------------------------------------ */
/* Calls */

static shoal_status call_potrf(shoal_handle h, const vc_batch *s, const vc_dev *d)
{
    void *const *A = d->dptrs;
    switch (s->prec) {
    case 's': return shoal_spotrf_vbatched(h, s->uplo, d->dn, s->max_n, (float *const *)A, d->dlda, d->dinfo, s->batch);
    case 'd': return shoal_dpotrf_vbatched(h, s->uplo, d->dn, s->max_n, (double *const *)A, d->dlda, d->dinfo, s->batch);
    case 'c':
        return shoal_cpotrf_vbatched(h, s->uplo, d->dn, s->max_n, (shoal_complex_float *const *)A, d->dlda, d->dinfo,
                                     s->batch);
    default:
        return shoal_zpotrf_vbatched(h, s->uplo, d->dn, s->max_n, (shoal_complex_double *const *)A, d->dlda, d->dinfo,
                                     s->batch);
    }
}

/* The arguments of a potrs or posv call, any of which a status run may replace. */
typedef struct args {
    shoal_handle h;
    shoal_fill_mode uplo;
    const int *n, *nrhs;
    int max_n, max_nrhs;
    void *const *A;
    const int *lda;
    void *const *B;
    const int *ldb;
    int *info;
    int64_t batch;
} args;

static args args_of(const vc_batch *s, const vc_dev *d)
{
    return (args){g_h, s->uplo, d->dn, d->dnrhs, s->max_n, s->max_nrhs, d->dptrs, d->dlda, d->dbptrs, d->dldb,
                  d->dinfo, s->batch};
}

static shoal_status call(routine r, char prec, args a)
{
#define POTRS(P, T)                                                                                                  \
    shoal_##P##potrs_vbatched(a.h, a.uplo, a.n, a.nrhs, a.max_n, a.max_nrhs, (const T *const *)a.A, a.lda,           \
                              (T *const *)a.B, a.ldb, a.info, a.batch)
#define POSV(P, T)                                                                                                   \
    shoal_##P##posv_vbatched(a.h, a.uplo, a.n, a.nrhs, a.max_n, a.max_nrhs, (T *const *)a.A, a.lda, (T *const *)a.B, \
                             a.ldb, a.info, a.batch)
    if (r == R_POTRS) {
        switch (prec) {
        case 's': return POTRS(s, float);
        case 'd': return POTRS(d, double);
        case 'c': return POTRS(c, shoal_complex_float);
        default: return POTRS(z, shoal_complex_double);
        }
    }
    switch (prec) {
    case 's': return POSV(s, float);
    case 'd': return POSV(d, double);
    case 'c': return POSV(c, shoal_complex_float);
    default: return POSV(z, shoal_complex_double);
    }
#undef POTRS
#undef POSV
}

/* ------------------------------------------------------------------------------------------ */
/* Runs */

/* Every check of one potrs or posv call on image img (A as the call got it; the original matrices
 * in orig) and bimg; fac: posv's reference, potrf_vbatched's result on img (NULL for potrs,
 * whose A must come back whole). Returns the number of failures. */
static int judge(const vc_batch *s, const vc_member *mem, const unsigned char *img, const unsigned char *orig,
                 const unsigned char *bimg, const vc_result *fac, shoal_status st, const vc_result *res, const char *run)
{
    int bad = 0;
    if (st != SHOAL_STATUS_SUCCESS) vc_report(&bad, run, "status %s", shoal_status_string(st));
    if (!res->arrays_kept) vc_report(&bad, run, "the n, nrhs, lda, ldb or a pointer array changed");
    vc_check_info(s, mem, res, run, &bad);
    vc_check_untouched(s, mem, img, res->out, fac != NULL, run, &bad);
    for (int64_t i = 0; fac && i < s->batch; ++i) {
        const vc_member *m = &mem[i];
        if (!vc_may_write(m)) continue;
        if (fac->info[i] != m->want)
            vc_report(&bad, run, "member %lld (n %d): potrf_vbatched's info on the same matrix is %d, want %d",
                      (long long)i, m->n, fac->info[i], m->want);
        if (memcmp(res->out + (size_t)m->off * s->es, fac->out + (size_t)m->off * s->es, (size_t)m->count * s->es))
            vc_report(&bad, run, "member %lld (n %d, lda %d): A differs from potrf_vbatched's factor of it",
                      (long long)i, m->n, m->lda);
    }
    vc_check_rhs_untouched(s, mem, bimg, res->bout, run, &bad);
    vc_check_solutions(s, mem, orig, bimg, res, run, &bad);
    vc_report_total(run, bad);
    return bad;
}

/* potrf_vbatched on img (and bimg uploaded alongside) into *fac; a status other than SUCCESS is
 * a failure of the run. */
static void factor(const vc_batch *s, const vc_dev *d, const vc_member *mem, const unsigned char *img,
                   const unsigned char *bimg, vc_result *fac, const char *run, int *bad)
{
    vc_upload(s, d, mem, img, bimg);
    const shoal_status st = call_potrf(g_h, s, d);
    CUDA_CHECK(cudaDeviceSynchronize());
    vc_download(s, d, mem, img, bimg, fac);
    if (st != SHOAL_STATUS_SUCCESS) vc_report(bad, run, "potrf_vbatched (the factor): status %s", shoal_status_string(st));
}

/* One potrs or posv call on the batch as mem describes it (with a max_nrhs of max_nrhs), from
 * images img and bimg, with everything around it (above); judged. Returns the failures. */
static int run_once(routine r, const vc_batch *s, const vc_dev *d, const vc_member *mem, const unsigned char *img,
                    const unsigned char *bimg, int max_nrhs, const char *run, vc_result *res)
{
    int bad = 0;
    vc_result fac;
    factor(s, d, mem, img, bimg, &fac, run, &bad);
    const unsigned char *in = img;
    if (r == R_POTRS) {
        /* the factor, its diagonal's imaginary parts NaNs: potrs must not read them */
        for (int64_t i = 0; i < s->batch; ++i) {
            const vc_member *m = &mem[i];
            if (m->want == 0 && m->n > 0 && fac.info[i] != 0)
                vc_report(&bad, run, "member %lld (n %d): potrf_vbatched (the factor) gave info %d", (long long)i, m->n,
                          fac.info[i]);
            if (s->w == 2 && fac.info[i] == 0)
                for (int q = 0; q < m->n; ++q) vc_poison_part(s, fac.out, m->off + q + (int64_t)q * m->lda, 1, P_IMAG);
        }
        in = fac.out;
    }
    vc_upload(s, d, mem, in, bimg);
    args a = args_of(s, d);
    a.max_nrhs = max_nrhs;
    const shoal_status st = call(r, s->prec, a);
    CUDA_CHECK(cudaDeviceSynchronize());
    vc_download(s, d, mem, in, bimg, res);
    bad += judge(s, mem, in, img, bimg, r == R_POSV ? &fac : NULL, st, res, run);
    vc_result_free(&fac);
    return bad;
}

static int has_twin(kind k) { return k == K_NONSPD || k == K_NAN || k == K_BAD; }

static void run_solve_case(const pcase *c)
{
    vc_batch s;
    plan(c, &s);
    vc_dev d;
    vc_dev_setup(&s, &d);
    unsigned char *bimg = vc_make_rhs_image(&s, s.m);
    vc_result twin = {0};
    if (has_twin(c->kind)) {
        vc_member *tm = vc_twin_members(&s);
        unsigned char *timg = vc_make_image(&s, tm);
        gpu_test_record(run_once(c->r, &s, &d, tm, timg, bimg, s.max_nrhs, "twin call", &twin) == 0);
        free(timg);
        free(tm);
    }
    unsigned char *img = vc_make_image(&s, s.m);
    vc_result res;
    int bad = run_once(c->r, &s, &d, s.m, img, bimg, s.max_nrhs, "call", &res);
    if (has_twin(c->kind)) {
        bad += vc_compare_twin(&s, &twin, &res);
        vc_result_free(&twin);
    }
    gpu_test_record(bad == 0);
    vc_result_free(&res);
    free(img);
    free(bimg);
    vc_dev_free(&s, &d);
    free(s.m);
}

/* Calls that must return at once without touching anything, then valid calls on the same arrays. */
static void run_status_case(const pcase *c)
{
    vc_batch s;
    plan(c, &s);
    vc_dev d;
    vc_dev_setup(&s, &d);
    unsigned char *img = vc_make_image(&s, s.m), *bimg = vc_make_rhs_image(&s, s.m);
    vc_upload(&s, &d, s.m, img, bimg);
    const routine r = c->r;
    const char p = s.prec;
    const args ok = args_of(&s, &d);
    const shoal_status INVALID = SHOAL_STATUS_INVALID_VALUE, SUCCESS = SHOAL_STATUS_SUCCESS;
    args a;
#define EXPECT(what, change, want) (a = ok, change, vc_expect(what, call(r, p, a), want))
    EXPECT("uplo 2", a.uplo = (shoal_fill_mode)2, INVALID);
    EXPECT("uplo -1", a.uplo = (shoal_fill_mode)-1, INVALID);
    EXPECT("max_n -1", a.max_n = -1, INVALID);
    EXPECT("max_nrhs -1", a.max_nrhs = -1, INVALID);
    EXPECT("batch -1", a.batch = -1, INVALID);
    EXPECT("n NULL", a.n = NULL, INVALID);
    EXPECT("nrhs NULL", a.nrhs = NULL, INVALID);
    EXPECT("A NULL", a.A = NULL, INVALID);
    EXPECT("lda NULL", a.lda = NULL, INVALID);
    EXPECT("B NULL", a.B = NULL, INVALID);
    EXPECT("ldb NULL", a.ldb = NULL, INVALID);
    EXPECT("info NULL", a.info = NULL, INVALID);
    EXPECT("NULL handle, uplo 2 (arguments first)", (a.h = NULL, a.uplo = (shoal_fill_mode)2), INVALID);
    EXPECT("NULL handle, A NULL (arguments first)", (a.h = NULL, a.A = NULL), INVALID);
    EXPECT("NULL handle", a.h = NULL, SHOAL_STATUS_NOT_INITIALIZED);
    EXPECT("NULL handle, batch 0", (a.h = NULL, a.batch = 0), SHOAL_STATUS_NOT_INITIALIZED);
    EXPECT("max_n 0", a.max_n = 0, SUCCESS);
    EXPECT("batch 0", a.batch = 0, SUCCESS);
    EXPECT("max_n 0, NULL arrays",
           (a.max_n = 0, a.n = a.nrhs = a.lda = a.ldb = NULL, a.A = a.B = NULL, a.info = NULL), SUCCESS);
    EXPECT("batch 0, NULL arrays",
           (a.batch = 0, a.n = a.nrhs = a.lda = a.ldb = NULL, a.A = a.B = NULL, a.info = NULL), SUCCESS);
    if (r == R_POTRS) {
        EXPECT("max_nrhs 0 (no work)", a.max_nrhs = 0, SUCCESS);
        EXPECT("max_nrhs 0, NULL arrays",
               (a.max_nrhs = 0, a.n = a.nrhs = a.lda = a.ldb = NULL, a.A = a.B = NULL, a.info = NULL), SUCCESS);
        EXPECT("max_nrhs 0, max_n 1025 (no work first)", (a.max_nrhs = 0, a.max_n = VC_MAX_SUPPORTED_N + 1), SUCCESS);
    } else {
        /* posv factors with max_nrhs 0: there is work, and every array is still needed */
        EXPECT("max_nrhs 0, B NULL", (a.max_nrhs = 0, a.B = NULL), INVALID);
        EXPECT("max_nrhs 0, nrhs NULL", (a.max_nrhs = 0, a.nrhs = NULL), INVALID);
        EXPECT("max_nrhs 0, ldb NULL", (a.max_nrhs = 0, a.ldb = NULL), INVALID);
    }
    EXPECT("max_n 1025", a.max_n = VC_MAX_SUPPORTED_N + 1, SHOAL_STATUS_NOT_SUPPORTED);
#undef EXPECT
    /* none of those may have touched A, B or info (the refused ones enqueue nothing either) */
    CUDA_CHECK(cudaDeviceSynchronize());
    vc_result res;
    vc_download(&s, &d, s.m, img, bimg, &res);
    int bad = 0;
    for (int64_t i = 0; i < s.batch; ++i)
        if (res.info[i] != VC_INFO_POISON)
            vc_report(&bad, "refused calls", "info[%lld] written (%d)", (long long)i, res.info[i]);
    if (memcmp(res.out, img, (size_t)s.total * s.es)) vc_report(&bad, "refused calls", "A changed");
    if (memcmp(res.bout, bimg, (size_t)s.btotal * s.es)) vc_report(&bad, "refused calls", "B changed");
    if (!res.arrays_kept) vc_report(&bad, "refused calls", "the n, nrhs, lda, ldb or a pointer array changed");
    gpu_test_record(bad == 0);
    vc_result_free(&res);
    /* the arrays still work: valid calls solve (max_nrhs has no upper limit) */
    gpu_test_record(run_once(r, &s, &d, s.m, img, bimg, s.max_nrhs, "valid call", &res) == 0);
    vc_result_free(&res);
    gpu_test_record(run_once(r, &s, &d, s.m, img, bimg, BIG_MAX_NRHS, "valid call, max_nrhs 2^20", &res) == 0);
    vc_result_free(&res);
    free(img);
    free(bimg);
    vc_dev_free(&s, &d);
    free(s.m);
}

static void run_case(int i)
{
    if (g_cases[i].kind == K_STATUS)
        run_status_case(&g_cases[i]);
    else
        run_solve_case(&g_cases[i]);
}

static const char *case_name(int i) { return g_cases[i].name; }

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_case, NULL, NULL};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
