/* GPU correctness of the variable-size batched Cholesky factorization through the public API:
 * shoal_{s,d,c,z}potrf_vbatched (A_i = L L^H, uplo LOWER, or U^H U, uplo UPPER, in place in that
 * triangle; n, lda and info device arrays of batch ints, A a device array of device pointers,
 * max_n >= every n[i] a caller's bound up to 1024). Every case runs for s, d, c and z and both
 * uplo; judged on the host in double.
 *
 * Inputs: member i (order n) is A = B B^H + n I, B random lower triangular with entries uniform
 * in [-1, 1) (both parts in c and z), from a hash of the case name and i; rounded to the
 * precision, and the rounded values are what the checks read back. Around the referenced
 * triangle everything holds junk that must come back bit for bit: the other triangle (NaNs with
 * a payload and +-1e30, so a kernel that reads or writes it is caught either way), the padding
 * rows n..lda-1 (NaNs), the gaps between members and a guard after the last one (NaNs); in c and
 * z the diagonal's imaginary parts are NaNs too (potrf must not read them). Members lie at
 * 16-byte-aligned offsets (odd element offsets in the ld_pad, nonspd and nan cases); info is
 * poisoned (INFO_POISON) before every call.
 *
 * After every call: the status is SUCCESS; the n, lda and pointer arrays are unchanged; info[i]
 * is exactly LAPACK's value for every member; every element outside the referenced triangles of
 * the valid members is bit-identical to before; every member that factored (info 0, n >= 1)
 * has a real, positive diagonal (c, z: imaginary parts exactly 0) and
 *     ||A - L L^H||_F / (||A||_F n eps) <= RESIDUAL_LIMIT (30)
 * (the Hermitian matrices whole; eps 2^-24 for s and c, 2^-53 for d and z). The host work is
 * O(n^3) per member (making B B^H, multiplying L L^H out): OpenMP over the small members, then
 * one large member (order >= PARALLEL_ORDER) at a time, parallel inside; so the batches of the
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
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "gpu_test.h"
#include "host_elems.h"

#define RESIDUAL_LIMIT 30.0
#define MAX_SUPPORTED_N 1024
#define GAP 3             /* poisoned elements between members, and after the last one */
#define INFO_POISON (-777) /* info before a call: every entry must be written (or left, where no work) */
#define MAX_REPORTS 8     /* failure lines per run; the rest are counted */
#define JUNK_BIG 1e30     /* half of the other triangle: a read of it blows the residual up */
#define PARALLEL_ORDER 192 /* members from this order on are checked one at a time, in parallel inside */

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
            add(*p, uplo, K_BATCH1, MAX_SUPPORTED_N, 1, "batch1_1024");
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
/* Random numbers: a counter-based hash, so members can be drawn in any order (in parallel) */

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b) { return mix64(mix64(seed ^ mix64(a)) + b); }

static uint64_t hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return mix64(h);
}

/* uniform in [-1, 1), 24 significant bits (exact in float) */
static double urand(uint64_t seed, uint64_t a, uint64_t b) { return (double)(hash3(seed, a, b) >> 40) * 0x1p-23 - 1.0; }

/* uniform in [lo, hi] */
static int irand(uint64_t seed, uint64_t a, uint64_t b, int lo, int hi)
{
    return lo + (int)(hash3(seed, a, b) % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------------------------------------ */
/* Members of a batch: what the call gets, where they lie, what info must say */

typedef enum defect {
    D_NONE,
    D_NEG_DIAG, D_ZERO_DIAG, D_NAN_DIAG, D_NAN_OFF, /* not positive definite: info = j + 1 */
    D_N_NEG, D_N_BIG, D_LDA_SMALL                   /* invalid: info -2 or -4, untouched */
} defect;

typedef struct member {
    int n, lda;       /* as passed */
    int sn, sld;      /* the order and leading dimension of what is stored (an invalid n stores
                         a stand-in, an lda too small stores n rows) */
    int64_t off;      /* element offset in the host image */
    int64_t count;    /* elements of storage: sld * sn, or to A(sn-1, sn-1) in the tail case */
    defect defect;
    int j, k;         /* the defect's row, and (D_NAN_OFF) its column k < j: lower-triangle terms */
    int want;         /* the info it must get */
} member;

typedef struct batchset {
    const pcase *c;
    char prec;
    int es, w;        /* element bytes; reals per element (2 in c, z) */
    int64_t batch;
    int max_n;
    int tail;         /* every member in an allocation of its own (gpu_test_tail_alloc) */
    member *m;
    int64_t total;    /* elements of the host image */
    uint64_t seed;
} batchset;

static int is_invalid(defect d) { return d >= D_N_NEG; }

/* Whether the call may write member m's referenced triangle (a valid member with work). */
static int may_write(const member *m) { return !is_invalid(m->defect) && m->n > 0; }

static int want_info(const member *m)
{
    switch (m->defect) {
    case D_NONE: return 0;
    case D_N_NEG:
    case D_N_BIG: return -2;
    case D_LDA_SMALL: return -4;
    default: return m->j + 1;
    }
}

/* The size of member i under the case's distribution. */
static int draw_size(const batchset *s, int64_t i)
{
    const int N = s->c->size;
    const uint64_t seed = s->seed;
    switch (s->c->kind) {
    case K_EQUAL:
    case K_BATCH1: return N;
    case K_SKEWED: {
        const double u = (urand(seed, (uint64_t)i, 1) + 1.0) / 2.0;
        return 1 + (int)floor((N - 1) * u * u * u);
    }
    case K_ZEROS: return i % 4 == 1 ? 0 : irand(seed, (uint64_t)i, 1, 0, N);
    case K_HUGE: return i == s->batch / 3 ? N : irand(seed, (uint64_t)i, 1, 1, 8);
    case K_SLACK: return irand(seed, (uint64_t)i, 1, 1, 40);
    case K_NONSPD:
    case K_NAN: return i % 50 == 7 ? 300 : irand(seed, (uint64_t)i, 1, 1, N);
    case K_TAIL: return i == s->batch / 2 ? 200 : irand(seed, (uint64_t)i, 1, 0, N);
    case K_STATUS: return (int)(i % 4) + 1;
    default: return irand(seed, (uint64_t)i, 1, 1, N); /* uniform, large, ld_pad, bad */
    }
}

/* lda - n for a valid member */
static int draw_pad(const batchset *s, int64_t i)
{
    switch (s->c->kind) {
    case K_LD_PAD: return irand(s->seed, (uint64_t)i, 2, 1, 7);
    case K_NONSPD:
    case K_NAN:
    case K_BAD:
    case K_TAIL: return irand(s->seed, (uint64_t)i, 2, 0, 3);
    default: return 0;
    }
}

/* The defect of member i of a nonspd or nan case (D_NONE for most), and its row j (and column k). */
static void draw_breakdown(const batchset *s, int64_t i, member *m)
{
    if (!(i % 6 == 1 || i % 100 == 7) || m->n < 1) return;
    const int n = m->n, pick = (int)((i / 6) % 3);
    m->j = pick == 0 ? 0 : pick == 1 ? n - 1 : irand(s->seed, (uint64_t)i, 3, 0, n - 1);
    if (s->c->kind == K_NONSPD) {
        m->defect = (i / 6) % 2 ? D_ZERO_DIAG : D_NEG_DIAG;
    } else if ((i / 6) % 2 && n >= 2) {
        m->defect = D_NAN_OFF;
        if (m->j == 0) m->j = n - 1;
        m->k = irand(s->seed, (uint64_t)i, 4, 0, m->j - 1);
    } else {
        m->defect = D_NAN_DIAG;
    }
}

/* Every fifth member of a bad case is invalid, in turn each of the kinds below. */
static void draw_invalid(const batchset *s, int64_t i, member *m)
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
static void plan(const pcase *c, batchset *s)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->prec = c->prec;
    s->es = c->prec == 's' ? 4 : c->prec == 'z' ? 16 : 8;
    s->w = elem_reals(c->prec);
    s->batch = gpu_test_batch(c->batch);
    s->tail = c->kind == K_TAIL;
    s->seed = hash_string(c->name);
    s->m = xmalloc(sizeof *s->m * (size_t)(s->batch ? s->batch : 1));
    int largest = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        member *m = &s->m[i];
        memset(m, 0, sizeof *m);
        m->n = m->sn = draw_size(s, i);
        m->lda = m->sld = (m->n > 1 ? m->n : 1) + draw_pad(s, i);
        if (m->n > largest) largest = m->n;
    }
    /* slack and bad fix max_n at the case's size: above every n, and what n = max_n + 1 exceeds */
    s->max_n = c->kind == K_SLACK || c->kind == K_BAD ? c->size : largest;
    const int align = 16 / s->es, odd = c->kind == K_LD_PAD || c->kind == K_NONSPD || c->kind == K_NAN;
    int64_t at = GAP;
    for (int64_t i = 0; i < s->batch; ++i) {
        member *m = &s->m[i];
        if (c->kind == K_NONSPD || c->kind == K_NAN) draw_breakdown(s, i, m);
        if (c->kind == K_BAD) draw_invalid(s, i, m);
        m->want = want_info(m);
        /* the tail layout ends at A(sn-1, sn-1): LAPACK's extent, nothing of the last column's padding */
        m->count = m->sn == 0 ? 0 : s->tail ? (int64_t)m->sld * (m->sn - 1) + m->sn : (int64_t)m->sld * m->sn;
        m->off = (at + align - 1) / align * align + (odd ? i % align : 0);
        at = m->off + m->count + GAP;
    }
    s->total = at;
}

/* The twin of a batch: the defective members healthy, the invalid ones given n = 0 (storage kept,
 * so the images differ only inside the defective members' referenced triangles). */
static member *twin_members(const batchset *s)
{
    member *t = xmalloc(sizeof *t * (size_t)(s->batch ? s->batch : 1));
    memcpy(t, s->m, sizeof *t * (size_t)s->batch);
    for (int64_t i = 0; i < s->batch; ++i) {
        if (is_invalid(t[i].defect)) t[i].n = 0, t[i].lda = 1;
        t[i].defect = D_NONE;
        t[i].want = 0;
    }
    return t;
}

/* ------------------------------------------------------------------------------------------ */
/* Host images: element e of an image holds w reals of the precision */

enum poison { P_GAP, P_PAD, P_TRI, P_IMAG };
static const uint32_t POISON_S[4] = {0x7fc0a0a0u, 0x7fc0b1b1u, 0x7fc0c2c2u, 0x7fc0d3d3u};
static const uint64_t POISON_D[4] = {0x7ff80000a0a0a0a0ull, 0x7ff80000b1b1b1b1ull, 0x7ff80000c2c2c2c2ull,
                                     0x7ff80000d3d3d3d3ull};

/* part (0 real, 1 imaginary) of element e <- a NaN with p's payload */
static void poison_part(const batchset *s, unsigned char *img, int64_t e, int part, enum poison p)
{
    unsigned char *at = img + e * s->es + part * (s->es / s->w);
    if (elem_single(s->prec))
        memcpy(at, &POISON_S[p], 4);
    else
        memcpy(at, &POISON_D[p], 8);
}

static void poison_elem(const batchset *s, unsigned char *img, int64_t e, enum poison p)
{
    for (int part = 0; part < s->w; ++part) poison_part(s, img, e, part, p);
}

/* G(r, c) = sum_{q <= c} X(r, q) conj(X(c, q)) for r >= c: X lower triangular, row-major n x n
 * with w doubles an element. It makes the input (X = B) and multiplies the factor out (X = L). */
static void lower_gram(const double *X, int n, int w, double *G)
{
    /* parallel for a large member (each_member runs those one at a time); nested in a parallel
     * region (a small member) it runs on the calling thread alone */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) if (n >= PARALLEL_ORDER)
#endif
    for (int r = 0; r < n; ++r) {
        const double *xr = X + (size_t)r * n * w;
        for (int c = 0; c <= r; ++c) {
            const double *xc = X + (size_t)c * n * w;
            double re = 0.0, im = 0.0;
            if (w == 1) {
                for (int q = 0; q <= c; ++q) re += xr[q] * xc[q];
            } else {
                for (int q = 0; q <= c; ++q) {
                    re += xr[2 * q] * xc[2 * q] + xr[2 * q + 1] * xc[2 * q + 1];
                    im += xr[2 * q + 1] * xc[2 * q] - xr[2 * q] * xc[2 * q + 1];
                }
            }
            G[((size_t)r * n + c) * w] = re;
            if (w == 2) G[((size_t)r * n + c) * w + 1] = im;
        }
    }
}

/* Member i's matrix in lower-triangle terms (row-major n x n, w doubles an element, r >= c):
 * B B^H + n I, then its defect. */
static void member_matrix(const batchset *s, const member *m, int64_t i, double *B, double *A)
{
    const int n = m->sn, w = s->w;
    memset(B, 0, sizeof *B * (size_t)n * n * w);
    for (int r = 0; r < n; ++r)
        for (int q = 0; q < (r + 1) * w; ++q) /* the reals of B(r, 0..r) */
            B[(size_t)r * n * w + q] = urand(s->seed, (uint64_t)i, 16 + (uint64_t)r * n * w + q);
    lower_gram(B, n, w, A);
    for (int r = 0; r < n; ++r) A[((size_t)r * n + r) * w] += n;
    double *const Ajj = A + ((size_t)m->j * n + m->j) * w;
    switch (m->defect) {
    case D_NEG_DIAG:
    case D_ZERO_DIAG:
    case D_NAN_DIAG:
        /* row and column j cleared: row j of L is exactly 0 before it, so pivot j is A(j, j) itself */
        for (int q = 0; q < n; ++q)
            for (int p = 0; p < w; ++p) {
                if (q < m->j) A[((size_t)m->j * n + q) * w + p] = 0.0;
                if (q > m->j) A[((size_t)q * n + m->j) * w + p] = 0.0;
            }
        Ajj[0] = m->defect == D_NEG_DIAG ? -1.0 : m->defect == D_ZERO_DIAG ? 0.0 : NAN;
        break;
    case D_NAN_OFF: A[((size_t)m->j * n + m->k) * w] = NAN; break;
    default: break;
    }
}

/* Whether (r, c) of a stored member is in the triangle uplo references (diagonal included). */
static int referenced(shoal_fill_mode uplo, int r, int c) { return uplo == SHOAL_FILL_LOWER ? r >= c : r <= c; }

/* Writes member i's storage into the image: the matrix in the referenced triangle (the upper
 * triangle holds A^H's entries), junk everywhere else. */
static void fill_member(const batchset *s, const member *m, int64_t i, unsigned char *img)
{
    const int n = m->sn, w = s->w;
    double *B = xmalloc(sizeof *B * ((size_t)n * n * w + 1)), *A = xmalloc(sizeof *A * ((size_t)n * n * w + 1));
    member_matrix(s, m, i, B, A);
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m->sld; ++r) {
            const int64_t at = (int64_t)r + (int64_t)c * m->sld, e = m->off + at;
            if (at >= m->count) break;
            if (r >= n) {
                poison_elem(s, img, e, P_PAD);
            } else if (!referenced(s->c->uplo, r, c)) {
                if ((r + 2 * c) % 3 == 0) {
                    for (int p = 0; p < w; ++p) elem_set_real(s->prec, img, e * w + p, (r + p) % 2 ? -JUNK_BIG : JUNK_BIG);
                } else {
                    poison_elem(s, img, e, P_TRI);
                }
            } else {
                const int lo = r > c ? r : c, hi = r > c ? c : r; /* lower-triangle position */
                const double *v = A + ((size_t)lo * n + hi) * w;
                elem_set_real(s->prec, img, e * w, v[0]);
                if (w == 2 && r == c) poison_part(s, img, e, 1, P_IMAG); /* potrf must not read it */
                else if (w == 2) elem_set_real(s->prec, img, e * w + 1, s->c->uplo == SHOAL_FILL_LOWER ? v[1] : -v[1]);
            }
        }
    free(B);
    free(A);
}

/* fn(ctx, i) for every member i of mem: the small ones in parallel, then the large ones one at a
 * time, each parallel inside (lower_gram): a batch of one large member among small ones (huge,
 * batch1) uses every core too. */
static void each_member(const batchset *s, const member *mem, void (*fn)(void *ctx, int64_t i), void *ctx)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int64_t i = 0; i < s->batch; ++i)
        if (mem[i].sn < PARALLEL_ORDER) fn(ctx, i);
    for (int64_t i = 0; i < s->batch; ++i)
        if (mem[i].sn >= PARALLEL_ORDER) fn(ctx, i);
}

typedef struct fill_ctx {
    const batchset *s;
    const member *mem;
    unsigned char *img;
} fill_ctx;

static void fill_one(void *ctx, int64_t i)
{
    const fill_ctx *f = ctx;
    fill_member(f->s, &f->mem[i], i, f->img);
}

/* The image of a batch: every member, the gaps and the guard. */
static unsigned char *make_image(const batchset *s, const member *mem)
{
    unsigned char *img = xmalloc((size_t)s->total * s->es);
    for (int64_t e = 0; e < s->total; ++e) poison_elem(s, img, e, P_GAP);
    fill_ctx f = {s, mem, img};
    each_member(s, mem, fill_one, &f);
    return img;
}

/* ------------------------------------------------------------------------------------------ */
/* Device side */

typedef struct dev {
    void *buf, *buf_alloc; /* one buffer holding the image (not tail) */
    void **allocs;         /* tail: each member's own allocation */
    void **ptrs;           /* the device address of each member's storage */
    int *dn, *dlda, *dinfo;
    void **dptrs;
    void *n_alloc, *lda_alloc, *info_alloc, *ptrs_alloc;
} dev;

/* Device storage for batch s: the arrays of exactly batch entries at the end of their allocations. */
static void dev_setup(const batchset *s, dev *d)
{
    memset(d, 0, sizeof *d);
    const size_t b = (size_t)s->batch;
    d->ptrs = xmalloc(sizeof(void *) * (b ? b : 1));
    if (s->tail) {
        d->allocs = xmalloc(sizeof(void *) * (b ? b : 1));
        for (size_t i = 0; i < b; ++i)
            d->ptrs[i] = gpu_test_tail_alloc(&d->allocs[i], (size_t)s->m[i].count, (size_t)s->es, (int)(i % 4));
    } else {
        d->buf = gpu_test_tail_alloc(&d->buf_alloc, (size_t)s->total, (size_t)s->es, 0);
        for (size_t i = 0; i < b; ++i) d->ptrs[i] = (char *)d->buf + (size_t)s->m[i].off * s->es;
    }
    d->dn = gpu_test_tail_alloc(&d->n_alloc, b, sizeof(int), 1);
    d->dlda = gpu_test_tail_alloc(&d->lda_alloc, b, sizeof(int), 2);
    d->dinfo = gpu_test_tail_alloc(&d->info_alloc, b, sizeof(int), 3);
    d->dptrs = gpu_test_tail_alloc(&d->ptrs_alloc, b, sizeof(void *), 0);
}

static void dev_free(const batchset *s, dev *d)
{
    for (int64_t i = 0; s->tail && i < s->batch; ++i) gpu_test_free(d->allocs[i]);
    gpu_test_free(d->buf_alloc);
    gpu_test_free(d->n_alloc);
    gpu_test_free(d->lda_alloc);
    gpu_test_free(d->info_alloc);
    gpu_test_free(d->ptrs_alloc);
    free(d->allocs);
    free(d->ptrs);
}

/* Copies the image, mem's n and lda, the pointers and a poisoned info to the device. */
static void upload(const batchset *s, const dev *d, const member *mem, const unsigned char *img)
{
    const size_t b = (size_t)s->batch;
    int *hn = xmalloc(sizeof(int) * (b ? b : 1)), *hlda = xmalloc(sizeof(int) * (b ? b : 1));
    int *hinfo = xmalloc(sizeof(int) * (b ? b : 1));
    for (size_t i = 0; i < b; ++i) hn[i] = mem[i].n, hlda[i] = mem[i].lda, hinfo[i] = INFO_POISON;
    if (s->tail) {
        for (size_t i = 0; i < b; ++i)
            CUDA_CHECK(cudaMemcpy(d->ptrs[i], img + (size_t)mem[i].off * s->es, (size_t)mem[i].count * s->es,
                                  cudaMemcpyHostToDevice));
    } else {
        CUDA_CHECK(cudaMemcpy(d->buf, img, (size_t)s->total * s->es, cudaMemcpyHostToDevice));
    }
    CUDA_CHECK(cudaMemcpy(d->dn, hn, sizeof(int) * b, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dlda, hlda, sizeof(int) * b, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dinfo, hinfo, sizeof(int) * b, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dptrs, d->ptrs, sizeof(void *) * b, cudaMemcpyHostToDevice));
    free(hn), free(hlda), free(hinfo);
}

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

/* What came back from a call: the storage (the image with the device's members copied over it),
 * info, and whether the n, lda and pointer arrays are as they went. */
typedef struct result {
    unsigned char *out;
    int *info;
    int arrays_kept;
} result;

static void download(const batchset *s, const dev *d, const member *mem, const unsigned char *img, result *res)
{
    const size_t b = (size_t)s->batch, bb = b ? b : 1;
    res->out = xmalloc((size_t)s->total * s->es);
    res->info = xmalloc(sizeof(int) * bb);
    if (s->tail) {
        memcpy(res->out, img, (size_t)s->total * s->es); /* the gaps exist on the host only */
        for (size_t i = 0; i < b; ++i)
            CUDA_CHECK(cudaMemcpy(res->out + (size_t)mem[i].off * s->es, d->ptrs[i], (size_t)mem[i].count * s->es,
                                  cudaMemcpyDeviceToHost));
    } else {
        CUDA_CHECK(cudaMemcpy(res->out, d->buf, (size_t)s->total * s->es, cudaMemcpyDeviceToHost));
    }
    CUDA_CHECK(cudaMemcpy(res->info, d->dinfo, sizeof(int) * b, cudaMemcpyDeviceToHost));
    int *hn = xmalloc(sizeof(int) * bb), *hlda = xmalloc(sizeof(int) * bb);
    void **hp = xmalloc(sizeof(void *) * bb);
    CUDA_CHECK(cudaMemcpy(hn, d->dn, sizeof(int) * b, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hlda, d->dlda, sizeof(int) * b, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hp, d->dptrs, sizeof(void *) * b, cudaMemcpyDeviceToHost));
    res->arrays_kept = memcmp(hp, d->ptrs, sizeof(void *) * b) == 0;
    for (size_t i = 0; i < b; ++i) res->arrays_kept &= hn[i] == mem[i].n && hlda[i] == mem[i].lda;
    free(hn), free(hlda), free(hp);
}

static void result_free(result *r)
{
    free(r->out);
    free(r->info);
}

/* One call on batch s as mem describes it, from image img; the device sync catches kernel faults. */
static shoal_status run_once(const batchset *s, const dev *d, const member *mem, const unsigned char *img, result *res)
{
    upload(s, d, mem, img);
    const shoal_status st = call(g_h, s->prec, s->c->uplo, d->dn, s->max_n, d->dptrs, d->dlda, d->dinfo, s->batch);
    CUDA_CHECK(cudaDeviceSynchronize());
    download(s, d, mem, img, res);
    return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Judging a call */

/* A failure line of the current run, the first MAX_REPORTS of them; *count counts them all. */
static void report(int *count, const char *run, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void report(int *count, const char *run, const char *fmt, ...)
{
    if ((*count)++ >= MAX_REPORTS) return;
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("  %s: %s: %s\n", gpu_test_case, run, line);
}

/* Member m of an image in lower-triangle terms (row-major n x n, w doubles an element, r >= c):
 * the upper triangle's entries conjugated; the diagonal's imaginary parts as stored (the caller
 * clears them for the input, checks them for the factor). */
static void load_lower(const batchset *s, const member *m, const unsigned char *img, double *X)
{
    const int n = m->n, w = s->w;
    memset(X, 0, sizeof *X * (size_t)n * n * w);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c <= r; ++c) {
            const int64_t e = s->c->uplo == SHOAL_FILL_LOWER ? m->off + r + (int64_t)c * m->lda : m->off + c + (int64_t)r * m->lda;
            double *x = X + ((size_t)r * n + c) * w;
            elem_get(s->prec, img, e, x, 0);
            if (w == 2 && s->c->uplo == SHOAL_FILL_UPPER) x[1] = -x[1];
        }
}

/* The factor of a member that succeeded: a diagonal that is real (exactly) and positive, and the
 * scaled residual ||A - L L^H||_F / (||A||_F n eps) into *ratio. 0 when the diagonal is wrong. */
static int check_factor(const batchset *s, const member *m, const unsigned char *img, const unsigned char *out,
                        double *ratio)
{
    const int n = m->n, w = s->w;
    const size_t sz = (size_t)n * n * w;
    double *A = xmalloc(sizeof *A * sz), *L = xmalloc(sizeof *L * sz), *G = xmalloc(sizeof *G * sz);
    load_lower(s, m, img, A);
    load_lower(s, m, out, L);
    int diag_ok = 1;
    for (int r = 0; r < n; ++r) {
        double *a = A + ((size_t)r * n + r) * w, *l = L + ((size_t)r * n + r) * w;
        if (w == 2) {
            a[1] = 0.0; /* not read: the input's is a NaN */
            diag_ok &= l[1] == 0.0;
        }
        diag_ok &= l[0] > 0.0 && isfinite(l[0]);
    }
    lower_gram(L, n, w, G);
    double rr = 0.0, aa = 0.0;
    for (int r = 0; r < n; ++r)
        for (int c = 0; c <= r; ++c)
            for (int p = 0; p < w; ++p) {
                const size_t at = ((size_t)r * n + c) * w + p;
                const double d = A[at] - G[at], mult = r == c ? 1.0 : 2.0; /* the upper half mirrors it */
                rr += mult * d * d;
                aa += mult * A[at] * A[at];
            }
    const double eps = elem_single(s->prec) ? 0x1p-24 : 0x1p-53;
    *ratio = sqrt(rr) / (sqrt(aa) * n * eps);
    free(A), free(L), free(G);
    return diag_ok;
}

/* Every element outside the referenced triangles of the members the call may write is bit for
 * bit as uploaded: the other triangles, padding rows, invalid members, gaps and the guard. */
static void check_untouched(const batchset *s, const member *mem, const unsigned char *img, const unsigned char *out,
                            const char *run, int *bad)
{
    unsigned char *may = xmalloc((size_t)s->total);
    memset(may, 0, (size_t)s->total);
    for (int64_t i = 0; i < s->batch; ++i) {
        const member *m = &mem[i];
        if (!may_write(m)) continue;
        for (int c = 0; c < m->n; ++c)
            for (int r = 0; r < m->n; ++r)
                if (referenced(s->c->uplo, r, c)) may[m->off + r + (int64_t)c * m->lda] = 1;
    }
    int64_t member_at = 0;
    for (int64_t e = 0; e < s->total; ++e) {
        if (may[e] || memcmp(out + e * s->es, img + e * s->es, (size_t)s->es) == 0) continue;
        while (member_at + 1 < s->batch && mem[member_at + 1].off <= e) ++member_at;
        const member *m = s->batch ? &mem[member_at] : NULL;
        if (m && e >= m->off && e < m->off + m->count)
            report(bad, run, "member %lld (n %d, lda %d): element (%lld, %lld) outside what it may write changed",
                   (long long)member_at, m->n, m->lda, (long long)((e - m->off) % m->sld),
                   (long long)((e - m->off) / m->sld));
        else
            report(bad, run, "image element %lld (a gap or the guard) changed", (long long)e);
    }
    free(may);
}

typedef struct factor_ctx {
    const batchset *s;
    const member *mem;
    const unsigned char *img;
    const result *res;
    double *ratio;
    int *diag_ok;
} factor_ctx;

static void check_one(void *ctx, int64_t i)
{
    const factor_ctx *f = ctx;
    const member *m = &f->mem[i];
    f->ratio[i] = 0.0, f->diag_ok[i] = 1;
    if (may_write(m) && m->want == 0 && f->res->info[i] == 0)
        f->diag_ok[i] = check_factor(f->s, m, f->img, f->res->out, &f->ratio[i]);
}

/* Residuals and diagonals of every member that factored; reports the failures. */
static void check_factors(const batchset *s, const member *mem, const unsigned char *img, const result *res,
                          const char *run, int *bad)
{
    double *ratio = xmalloc(sizeof *ratio * (size_t)(s->batch ? s->batch : 1));
    int *diag_ok = xmalloc(sizeof *diag_ok * (size_t)(s->batch ? s->batch : 1));
    factor_ctx f = {s, mem, img, res, ratio, diag_ok};
    each_member(s, mem, check_one, &f);
    double worst = 0.0;
    for (int64_t i = 0; i < s->batch; ++i) {
        if (!diag_ok[i]) report(bad, run, "member %lld (n %d): the factor's diagonal is not real and positive",
                                (long long)i, mem[i].n);
        if (!(ratio[i] <= RESIDUAL_LIMIT))
            report(bad, run, "member %lld (n %d, lda %d): ||A - L L^H|| / (||A|| n eps) = %.3g > %g", (long long)i,
                   mem[i].n, mem[i].lda, ratio[i], RESIDUAL_LIMIT);
        if (ratio[i] > worst) worst = ratio[i];
    }
    if (*bad) printf("  %s: %s: worst residual %.3g (limit %g)\n", gpu_test_case, run, worst, RESIDUAL_LIMIT);
    free(ratio);
    free(diag_ok);
}

/* Every check of one call; returns the number of failures (0: the run passed). */
static int judge(const batchset *s, const member *mem, const unsigned char *img, shoal_status st, const result *res,
                 const char *run)
{
    int bad = 0;
    if (st != SHOAL_STATUS_SUCCESS) report(&bad, run, "status %s", shoal_status_string(st));
    if (!res->arrays_kept) report(&bad, run, "the n, lda or pointer array changed");
    for (int64_t i = 0; i < s->batch; ++i)
        if (res->info[i] != mem[i].want)
            report(&bad, run, "member %lld (n %d, lda %d, max_n %d): info %d, want %d", (long long)i, mem[i].n,
                   mem[i].lda, s->max_n, res->info[i], mem[i].want);
    check_untouched(s, mem, img, res->out, run, &bad);
    check_factors(s, mem, img, res, run, &bad);
    if (bad > MAX_REPORTS) printf("  %s: %s: %d failures in all\n", gpu_test_case, run, bad);
    return bad;
}

/* The members of the run that are not defective must come out as in the twin run, storage and
 * info alike. Returns the number of differences. */
static int compare_twin(const batchset *s, const result *twin, const result *res)
{
    int bad = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        const member *m = &s->m[i];
        if (m->defect != D_NONE) continue;
        if (memcmp(twin->out + (size_t)m->off * s->es, res->out + (size_t)m->off * s->es, (size_t)m->count * s->es) ||
            twin->info[i] != res->info[i])
            report(&bad, "twin", "member %lld (n %d): differs from the twin call, where the defective members were "
                   "healthy", (long long)i, m->n);
    }
    return bad;
}

/* ------------------------------------------------------------------------------------------ */
/* Cases */

static int has_twin(kind k) { return k == K_NONSPD || k == K_NAN || k == K_BAD; }

static void run_factor_case(const pcase *c)
{
    batchset s;
    plan(c, &s);
    dev d;
    dev_setup(&s, &d);
    result twin = {0};
    if (has_twin(c->kind)) {
        member *tm = twin_members(&s);
        unsigned char *timg = make_image(&s, tm);
        const shoal_status st = run_once(&s, &d, tm, timg, &twin);
        gpu_test_record(judge(&s, tm, timg, st, &twin, "twin call") == 0);
        free(timg);
        free(tm);
    }
    unsigned char *img = make_image(&s, s.m);
    result res;
    const shoal_status st = run_once(&s, &d, s.m, img, &res);
    int bad = judge(&s, s.m, img, st, &res, "call");
    if (has_twin(c->kind)) {
        bad += compare_twin(&s, &twin, &res);
        result_free(&twin);
    }
    gpu_test_record(bad == 0);
    result_free(&res);
    free(img);
    dev_free(&s, &d);
    free(s.m);
}

/* One host-level answer of the status case: a run of its own. */
static void expect(const char *what, shoal_status got, shoal_status want)
{
    if (got != want) printf("  %s: %s: got %s, want %s\n", gpu_test_case, what, shoal_status_string(got), shoal_status_string(want));
    gpu_test_record(got == want);
}

/* Calls that must return at once without touching anything, then a valid call on the same arrays. */
static void run_status_case(const pcase *c)
{
    batchset s;
    plan(c, &s);
    dev d;
    dev_setup(&s, &d);
    unsigned char *img = make_image(&s, s.m);
    upload(&s, &d, s.m, img);
    const char p = s.prec;
    const int mx = s.max_n;
    const int64_t b = s.batch;
    const shoal_fill_mode lo = SHOAL_FILL_LOWER;
    void *const *A = d.dptrs;
    expect("uplo 2", call(g_h, p, (shoal_fill_mode)2, d.dn, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    expect("uplo -1", call(g_h, p, (shoal_fill_mode)-1, d.dn, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    expect("max_n -1", call(g_h, p, lo, d.dn, -1, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    expect("batch -1", call(g_h, p, lo, d.dn, mx, A, d.dlda, d.dinfo, -1), SHOAL_STATUS_INVALID_VALUE);
    expect("n NULL", call(g_h, p, lo, NULL, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    expect("A NULL", call(g_h, p, lo, d.dn, mx, NULL, d.dlda, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    expect("lda NULL", call(g_h, p, lo, d.dn, mx, A, NULL, d.dinfo, b), SHOAL_STATUS_INVALID_VALUE);
    expect("info NULL", call(g_h, p, lo, d.dn, mx, A, d.dlda, NULL, b), SHOAL_STATUS_INVALID_VALUE);
    expect("NULL handle, uplo 2 (arguments first)", call(NULL, p, (shoal_fill_mode)2, d.dn, mx, A, d.dlda, d.dinfo, b),
           SHOAL_STATUS_INVALID_VALUE);
    expect("NULL handle", call(NULL, p, lo, d.dn, mx, A, d.dlda, d.dinfo, b), SHOAL_STATUS_NOT_INITIALIZED);
    expect("NULL handle, batch 0", call(NULL, p, lo, d.dn, mx, A, d.dlda, d.dinfo, 0), SHOAL_STATUS_NOT_INITIALIZED);
    expect("max_n 0", call(g_h, p, lo, d.dn, 0, A, d.dlda, d.dinfo, b), SHOAL_STATUS_SUCCESS);
    expect("batch 0", call(g_h, p, lo, d.dn, mx, A, d.dlda, d.dinfo, 0), SHOAL_STATUS_SUCCESS);
    expect("max_n 0, NULL arrays", call(g_h, p, lo, NULL, 0, NULL, NULL, NULL, b), SHOAL_STATUS_SUCCESS);
    expect("batch 0, NULL arrays", call(g_h, p, lo, NULL, mx, NULL, NULL, NULL, 0), SHOAL_STATUS_SUCCESS);
    expect("max_n 1025", call(g_h, p, lo, d.dn, MAX_SUPPORTED_N + 1, A, d.dlda, d.dinfo, b), SHOAL_STATUS_NOT_SUPPORTED);
    /* none of those may have touched A or info (the refused ones enqueue nothing either) */
    CUDA_CHECK(cudaDeviceSynchronize());
    result res;
    download(&s, &d, s.m, img, &res);
    int bad = 0;
    for (int64_t i = 0; i < b; ++i)
        if (res.info[i] != INFO_POISON) report(&bad, "refused calls", "info[%lld] written (%d)", (long long)i, res.info[i]);
    if (memcmp(res.out, img, (size_t)s.total * s.es)) report(&bad, "refused calls", "A changed");
    if (!res.arrays_kept) report(&bad, "refused calls", "the n, lda or pointer array changed");
    gpu_test_record(bad == 0);
    result_free(&res);
    /* the arrays still work: the valid call factors them */
    const shoal_status st = run_once(&s, &d, s.m, img, &res);
    gpu_test_record(judge(&s, s.m, img, st, &res, "valid call") == 0);
    result_free(&res);
    free(img);
    dev_free(&s, &d);
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
