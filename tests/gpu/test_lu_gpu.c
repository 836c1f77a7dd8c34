/* GPU correctness of shoal's LU family through the public API: shoal_{s,d,c,z}getrf, getrs, gesv,
 * getri and getri_fused, _batched (pointer arrays) and _strided_batched.
 *
 * Inputs come from the routines' specs (tuner/spec_lu.c on oracle/lapack_ref.c: random entries in
 * [-1, 1], exactly representable in float; genuine LU factors and pivots for getrs and getri), at
 * most DISTINCT_MAX distinct problems per run, tiled over the batch. Every output is judged by the
 * spec's check (normalized residuals in units of eps, info as the inputs imply, pivots in range,
 * gesv's B unchanged and the inverses all NaN where info > 0) and must be <= LAPACK_ERROR_LIMIT.
 * Besides:
 *  - every element outside the matrices proper (rows beyond m when ld > rows, gaps between
 *    matrices, a guard after the last one) is a NaN with a recognizable payload and must come
 *    back bit for bit; an input-only operand (A of getrs/getri/getri_fused, the pivots of
 *    getrs/getri) must come back whole; pivot slots beyond min(m, n) and info beyond the batch
 *    must stay untouched;
 *  - pointer-array runs place the matrices in a shuffled order (in order in *_page_end runs);
 *  - the *_tail cases (issue 29) end every buffer (A, B, pivots, info) at the last element of its
 *    allocation; the *_page_end cases (last in the table) at the end of a mapped page with the
 *    next page unmapped (gpu_test_page_end_alloc), so that a read past them faults on the
 *    hardware even without compute-sanitizer;
 *  - singular matrices (an exactly zero column, or a zero lower-left block that makes U(j,j)
 *    exactly zero at a known j; for getri a zero U(j,j) in the factors) and matrices with NaN are
 *    mixed into batches of regular ones: each gets its info, and the others must still pass;
 *  - vendor dispatch is off (shoal's own kernels) except in a few runs marked "on";
 *  - c and z: the same cases with complex inputs (both parts random, the checks in complex
 *    arithmetic with eps of the real type), getrs with op N, T and C (the *_sizes_c case and
 *    every getrs case's op loop), and the NaN problems carry their NaN (or an Inf, every other
 *    one) in an imaginary part only, so a kernel that drops or mixes up the imaginary parts
 *    still has to keep them to their own problem;
 *  - shoal_lapack_kernel_name must answer every run's query (a failure fails the run).
 * The *_blocked* cases: getrf, getrs, gesv and getri above the kernels' 32 (m or n), served by the
 * drivers (runtime/drivers/lu_blocked.c) up to 1024: sizes around multiples of 32 up to the limit,
 * tall and wide getrf, ld > rows, gaps, tail and page-end layouts, getrs in every op with nrhs
 * small and n / 4, getri also on factors that shoal's getrf made, a batch of 70001 (d: past the
 * drivers' 65536-problem chunks). kernel_name must name the driver ("getrf_blocked", ...) and the
 * call must have been served by it. What the kernels' cases check holds, and besides:
 *  - exactly singular problems (a zero column j, or a zero block that makes U(j,j) exactly zero;
 *    getri: zero U(j,j) in the factors, or the factors shoal's getrf made of such matrices) at
 *    columns in the first panel, at the 32-column edges, in the middle, on both sides of the
 *    driver's top split and at the end: info exact, the factorization complete (its residual);
 *    gesv's B of such a matrix holds intermediate values above 32 (not checked: the driver solves
 *    every matrix), its A and pivots are judged as getrf's;
 *  - the contract's isolation: runs with singular or NaN problems make the same call again with
 *    those problems regular (the "twin"), and every other problem's A, B, pivots and info must
 *    come back bit for bit;
 *  - partial pivoting itself: every multiplier |L(i,j)| <= 1 (<= sqrt 2 in c and z, where the
 *    pivot is the largest |re| + |im|), and the *_blocked_ties cases plant exact ties, spread over
 *    the rows, that the pivot search must break to the first row (by |re| + |im| in c and z);
 *  - the host checks cost O(n^3) per problem: the batches of the large sizes are small and the
 *    problems are generated and checked in parallel.
 * A run prints one line: routine, precision, mode, m, n, nrhs, batch, the worst normalized error,
 * ok/FAILED, the kernel that served it and notes.
 *
 * Usage: test_lu_gpu              run every case
 *        test_lu_gpu --list       print the case names (needs no GPU)
 *        test_lu_gpu --case NAME  run one case
 * Environment: SHOAL_TEST_BIG_BATCH (default 1000000) is the batch of the *_batch cases' large
 * runs.
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device ("SKIP: ..." on stdout).
 *
 * Build: gcc -std=c11 -O2 -fopenmp -Iinclude -Iruntime -Ioracle -Ituner -I/usr/local/cuda/include
 *        tests/gpu/test_lu_gpu.c tuner/spec_lu.c oracle/lapack_ref.c oracle/lapack_check.c
 *        oracle/host_math.c -Llib -lshoal
 *        -L/usr/local/cuda/lib64 -lcudart -lm
 */
#define _POSIX_C_SOURCE 200809L

#include "host_math.h"
#include "lapack_ref.h"
#include "lapack_spec.h"
#include "gpu_test.h"
#include "host_elems.h"
#include "shoal.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const lapack_spec lapack_spec_getrf, lapack_spec_getrs, lapack_spec_gesv, lapack_spec_getri,
    lapack_spec_getri_fused;

#define MODE_STRIDED 1
#define MODE_ARRAY 2
#define GUARD 37           /* poisoned elements after the last matrix of every buffer */
#define DISTINCT_MAX 2048  /* distinct problems per run, tiled over larger batches */
#define POISON_INT (-7)    /* pivots and info before a call */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define KERNEL_MAX_N 32    /* above it (m or n) the LU routines are served by the blocked drivers */
#define MAX_BAD_COLS 18    /* columns of the blocked cases' singular and tie problems */
#define TIE_VALUE 65536.0  /* |a| of the planted ties: past every other candidate, a power of 2 */

/* Quiet NaNs with a payload naming the buffer (A, B). */
static const uint32_t POISON_S[2] = {0x7fc0aaaau, 0x7fc0bbbbu};
static const uint64_t POISON_D[2] = {0x7ff80000aaaaaaaaull, 0x7ff80000bbbbbbbbull};

enum routine { R_GETRF, R_GETRS, R_GESV, R_GETRI, R_GETRI_FUSED };
static const char *const RNAME[] = {"getrf", "getrs", "gesv", "getri", "getri_fused"};

enum special {
    SP_NONE,
    SP_SINGULAR, /* some problems exactly singular at a known column */
    SP_NAN,      /* some problems with NaN input */
    SP_TIES      /* getrf, gesv: some problems with exact pivot ties at a known column */
};

/* Per distinct problem. */
enum kind { KIND_REGULAR = 0, KIND_SINGULAR = 1, KIND_NAN = 2, KIND_TIE = 3 };
static const char *const KIND_NAME[] = {"regular", "singular", "NaN", "tie"};

typedef struct run_cfg {
    enum routine r;
    char prec;
    int m, n;           /* A is m x n (m == n except getrf) */
    int nrhs;           /* getrs, gesv */
    int trans;          /* getrs: 0 N, 1 T, 2 C (c and z) */
    int pad;            /* lda = m + pad, ldb = n + pad */
    int64_t gap;        /* extra poisoned elements between matrices */
    int pgap;           /* strided: extra pivot slots between problems */
    int64_t batch;
    int modes;          /* MODE_STRIDED | MODE_ARRAY */
    int vendor;         /* shoal_set_vendor_dispatch */
    enum special special;
    int tail;           /* 1..4: no guard, every buffer ends at its last matrix's last element and
                           starts tail - 1 elements into its allocation (gpu_test_tail_alloc) */
    int page_end;       /* no guard, every buffer ends at the end of a mapped page, the next page
                           unmapped (gpu_test_page_end_alloc); pointer arrays in order, so the
                           last problem's matrices end the pages */
    int bad_cols[MAX_BAD_COLS]; /* SP_SINGULAR, SP_TIES: the columns (0-based) of the odd */
    int n_bad_cols;             /* problems, in turn (singular_at); 0: (i / 4) % min(m, n) */
    int64_t nan_at;     /* a distinct problem with one NaN in A (-1: none) */
    int64_t nan_b_at;   /* getrs, gesv: a distinct problem with one NaN in B (-1: none) */
    int twin;           /* the call again with the singular and NaN problems regular: every other
                           problem's A, B, pivots and info must be bit-identical (twin_check) */
    int lu_first;       /* getri: its inputs are shoal's getrf of generated matrices (the singular
                           patterns then those of a matrix), factored in place before the call */
} run_cfg;

typedef struct run_data {
    const lapack_spec *spec;
    size_t es;                /* bytes per element */
    int w;                    /* reals per element: 2 for c and z (host doubles as (re, im)) */
    int mn;                   /* pivots per problem */
    int bcols;                /* columns of B: nrhs, n (inverses) or 0 (getrf) */
    int nrhs_spec;            /* nrhs as the spec sees it */
    int64_t lda, ldb, sta, stb, stp;
    int64_t na, nb, np, ni;   /* buffer lengths (elements), guards included */
    int64_t G;                /* distinct problems */
    double *A0, *B0;          /* distinct inputs, packed (w doubles per element) */
    double *A0good, *B0good;  /* twin runs: the same before make_special */
    int *P0;
    unsigned char *kind;      /* enum kind per distinct problem */
    void *hA, *hB, *oA, *oB;  /* host images: uploaded, read back */
    int *hP, *oP, *hI, *oI;
    void *dA, *dB;
    int *dP, *dI;
    void **dAp, **dBp;
    void *allocs[4];          /* what gpu_test_free takes for dA, dB, dP, dI */
    int64_t *slot;            /* array mode: matrix b lives in slot[b] */
} run_data;

static shoal_handle g_h;
static uint64_t g_case_seed;
static int g_run_index;
static int64_t g_big_batch = 1000000;

/* ------------------------------------------------------------------------------------------ */
/* Small utilities. */

static uint64_t hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t r = a ^ (b * 0x9e3779b97f4a7c15ull);
    return oracle_splitmix64(&r);
}

/* count elements, every real part a NaN with the buffer's payload */
static void fill_poison(char prec, void *x, int64_t count, int which)
{
    for (int64_t i = 0; i < count * elem_reals(prec); ++i) {
        if (elem_single(prec))
            memcpy((char *)x + 4 * i, &POISON_S[which], 4);
        else
            memcpy((char *)x + 8 * i, &POISON_D[which], 8);
    }
}

static const lapack_spec *spec_of(enum routine r)
{
    switch (r) {
    case R_GETRF: return &lapack_spec_getrf;
    case R_GETRS: return &lapack_spec_getrs;
    case R_GESV: return &lapack_spec_gesv;
    case R_GETRI: return &lapack_spec_getri;
    case R_GETRI_FUSED: return &lapack_spec_getri_fused;
    }
    return NULL;
}

static int writes_a(enum routine r) { return r == R_GETRF || r == R_GESV; }
static int writes_pivots(enum routine r) { return r == R_GETRF || r == R_GESV; }
static int reads_pivots(enum routine r) { return r == R_GETRS || r == R_GETRI; }
static int has_info(enum routine r) { return r != R_GETRS; }

/* Whether the blocked driver serves the run (m or n above the kernels' 32). */
static int blocked(const run_cfg *c) { return c->m > KERNEL_MAX_N || c->n > KERNEL_MAX_N; }

/* Whether gesv leaves the B of a matrix whose factorization fails (info > 0) unchanged: so where
 * one kernel factors and solves (n <= 32); the blocked driver solves every matrix of the batch,
 * so the failed ones' B hold intermediate values there (not checked). */
static int gesv_keeps_failed_b(const run_cfg *c) { return !blocked(c); }

/* ------------------------------------------------------------------------------------------ */
/* Inputs. */

/* Which singular (or tie) pattern distinct problem i gets, 0 or 1, at which column *j; -1: none.
 * The odd problems: by default at column (i / 4) % min(m, n), the two patterns in turn; with
 * bad_cols (the blocked cases) through the listed columns, all with pattern 0, then all with 1. */
static int singular_at(const run_cfg *c, int mn, int64_t i, int *j)
{
    if (i % 2 == 0) return -1;
    if (c->n_bad_cols == 0) {
        *j = (int)((i / 4) % mn);
        return i % 4 == 3;
    }
    const int64_t k = i / 2;
    *j = c->bad_cols[k % c->n_bad_cols];
    return (int)((k / c->n_bad_cols) % 2);
}

/* The tie rows of a tie problem (SP_TIES) at column j, r[0] < r[1] < r[2], all >= j (m - j >= 4):
 * the first at j or a third of the way down, the others further down and at the last row, so
 * that a pivot search split over row blocks has to compare them across blocks. */
static void tie_rows(const run_cfg *c, int j, int pattern, int r[3])
{
    const int span = c->m - j;
    r[0] = j + (pattern ? span / 3 : 0);
    r[1] = j + 2 * span / 3;
    r[2] = c->m - 1;
}

/* Plants the ties of a tie problem in A (m x n, packed, w doubles per element): the tie rows are
 * zero in columns 0..j-1, so no step before j changes them (their multipliers are 0, and they are
 * never the pivot before j), and at step j they hold, exactly and still in their rows, the same
 * |a| = TIE_VALUE (|re| + |im| in c and z), far above every other candidate of the column: partial
 * pivoting must take the first, ipiv[j] = r[0] + 1. In c and z the first has the smallest modulus
 * of the three ((T/2, -T/2) against (T, 0) and (0, -T)), so that a pivot chosen by |a| instead of
 * |re| + |im| is another row. */
static void plant_ties(const run_cfg *c, int w, double *A, int j, int pattern)
{
    const int m = c->m;
    int r[3];
    tie_rows(c, j, pattern, r);
    static const double re[3] = {0.5, 1.0, 0.0}, im[3] = {-0.5, 0.0, -1.0}, sign[3] = {-1.0, 1.0, -1.0};
    for (int t = 0; t < 3; ++t) {
        for (int col = 0; col < j; ++col)
            for (int q = 0; q < w; ++q) A[(r[t] + (int64_t)col * m) * w + q] = 0.0;
        double *a = &A[(r[t] + (int64_t)j * m) * w];
        if (w == 2) {
            a[0] = re[t] * TIE_VALUE;
            a[1] = im[t] * TIE_VALUE;
        } else {
            a[0] = sign[t] * TIE_VALUE;
        }
    }
}

/* Makes distinct problem i special (in place, packed double inputs); returns its kind. Complex
 * problems: a zero is both parts; a NaN (or, every other one, an Inf) goes into an imaginary
 * part only. */
static int make_special(const run_cfg *c, run_data *d, int64_t i)
{
    const int m = c->m, n = c->n, mn = d->mn, w = d->w;
    double *A = d->A0 + i * (int64_t)w * m * n;
    if (i == c->nan_at) { /* one NaN in A (getrs, getri: in the factors) */
        A[(int64_t)(mix(g_case_seed, (uint64_t)i) % ((uint64_t)m * n)) * w + (w - 1)] = NAN;
        return KIND_NAN;
    }
    if (i == c->nan_b_at && d->B0 && (c->r == R_GETRS || c->r == R_GESV)) {
        d->B0[i * (int64_t)w * n * d->bcols + (int64_t)(mix(g_case_seed, (uint64_t)i) % ((uint64_t)n * d->bcols)) * w +
              (w - 1)] = NAN;
        return KIND_NAN;
    }
    /* element e of A set to 0 (both parts) */
#define ZERO(e)                                                                                         \
    do {                                                                                                \
        for (int q_ = 0; q_ < w; ++q_) A[(int64_t)(e)*w + q_] = 0.0;                                   \
    } while (0)
    int j = 0;
    const int pattern = singular_at(c, mn, i, &j);
    if (c->special == SP_SINGULAR && c->r != R_GETRS && pattern >= 0) {
        if (c->r == R_GETRI && !c->lu_first) { /* the factors: U(j,j) exactly zero */
            ZERO(j + (int64_t)j * m);
            if (pattern && j + 1 < n) ZERO((j + 1) + (int64_t)(j + 1) * m); /* a later one too */
        } else if (!pattern) { /* an exactly zero column */
            for (int r = 0; r < m; ++r) ZERO(r + (int64_t)j * m);
        } else { /* rows j.., columns 0..j zero: U(j,j) = 0 after j regular steps */
            for (int col = 0; col <= j; ++col)
                for (int r = j; r < m; ++r) ZERO(r + (int64_t)col * m);
        }
        return KIND_SINGULAR;
    }
#undef ZERO
    if (c->special == SP_TIES && pattern >= 0) {
        plant_ties(c, w, A, j, pattern);
        return KIND_TIE;
    }
    /* the poisoned part: the real one, or the imaginary one of a complex element */
    const double bad = w == 2 && (i / 5) % 2 ? INFINITY : NAN;
    if (c->special == SP_NAN) {
        /* every fifth problem poisoned: every other one of them all NaN, the rest in one element
         * (the all-NaN test first: i % 10 == 7 is also i % 5 == 2) */
        if (i % 10 == 7) {
            for (int64_t e = 0; e < (int64_t)m * n; ++e) A[e * w + (w - 1)] = NAN;
            return KIND_NAN;
        }
        if (i % 5 == 2) {
            A[((i / 5) % ((int64_t)m * n)) * w + (w - 1)] = bad;
            return KIND_NAN;
        }
        if (i % 10 == 9 && d->B0 && (c->r == R_GETRS || c->r == R_GESV)) {
            d->B0[i * (int64_t)w * n * d->bcols + (w - 1)] = bad;
            return KIND_NAN;
        }
    }
    return KIND_REGULAR;
}

static void setup(const run_cfg *c, run_data *d)
{
    memset(d, 0, sizeof *d);
    d->spec = spec_of(c->r);
    d->w = elem_reals(c->prec);
    d->es = (size_t)d->w * (elem_single(c->prec) ? 4 : 8);
    d->mn = c->m < c->n ? c->m : c->n;
    d->bcols = c->r == R_GETRF ? 0 : (c->r == R_GETRI || c->r == R_GETRI_FUSED) ? c->n : c->nrhs;
    d->nrhs_spec = (c->r == R_GETRS || c->r == R_GESV) ? c->nrhs : 0;
    d->lda = c->m + c->pad;
    d->ldb = c->n + c->pad;
    d->sta = d->lda * c->n + c->gap;
    d->stb = d->bcols ? d->ldb * d->bcols + c->gap : 0;
    d->stp = d->mn + c->pgap;
    d->na = c->batch * d->sta + GUARD;
    d->nb = c->batch * d->stb + GUARD;
    d->np = c->batch * d->stp + GUARD; /* the larger of the two modes' pivot layouts */
    d->ni = c->batch + GUARD;
    if ((c->tail || c->page_end) && c->batch > 0) { /* nothing after the last matrix's last element */
        d->na = (c->batch - 1) * d->sta + (c->n > 0 && c->m > 0 ? d->lda * (c->n - 1) + c->m : 0);
        d->nb = d->bcols ? (c->batch - 1) * d->stb + d->ldb * (d->bcols - 1) + c->n : 0;
        d->np = (c->batch - 1) * d->stp + d->mn;
        d->ni = c->batch;
    }
    d->G = c->batch < DISTINCT_MAX ? c->batch : DISTINCT_MAX;

    const int64_t a_el = (int64_t)c->m * c->n, b_el = (int64_t)c->n * d->bcols;
    d->A0 = xmalloc((size_t)(d->w * d->G * a_el) * sizeof(double));
    d->B0 = d->bcols ? xmalloc((size_t)(d->w * d->G * b_el) * sizeof(double)) : NULL;
    d->P0 = xmalloc((size_t)(d->G * d->mn) * sizeof(int));
    d->kind = xmalloc((size_t)d->G);
    if (c->twin) {
        d->A0good = xmalloc((size_t)(d->w * d->G * a_el) * sizeof(double));
        d->B0good = d->bcols ? xmalloc((size_t)(d->w * d->G * b_el) * sizeof(double)) : NULL;
    }
    const unsigned f = d->spec->flags;
    /* lu_first: getri's input is a matrix that shoal's getrf factors (layout), as getri_fused's */
    const lapack_spec *gen = c->lu_first ? &lapack_spec_getri_fused : d->spec;
    const int ipiv_in = (f & LAPACK_IPIV_IN) && !c->lu_first;
    /* each problem from its own seed, so in parallel: O(n^3) each at the blocked sizes (getrs and
     * getri generate factors) */
#pragma omp parallel for schedule(dynamic, blocked(c) ? 1 : 64)
    for (int64_t i = 0; i < d->G; ++i) {
        const uint64_t seed = mix(mix(g_case_seed, (uint64_t)g_run_index), (uint64_t)i);
        gen->generate(c->m, c->n, d->nrhs_spec, c->trans ? 1 : 0, d->w == 2, seed, d->A0 + d->w * i * a_el,
                      (f & LAPACK_B_IN) ? d->B0 + d->w * i * b_el : NULL, ipiv_in ? d->P0 + i * d->mn : NULL);
        if (c->twin) {
            memcpy(d->A0good + d->w * i * a_el, d->A0 + d->w * i * a_el, (size_t)(d->w * a_el) * sizeof(double));
            if (d->bcols)
                memcpy(d->B0good + d->w * i * b_el, d->B0 + d->w * i * b_el, (size_t)(d->w * b_el) * sizeof(double));
        }
        d->kind[i] = (unsigned char)make_special(c, d, i);
    }

    d->hA = xmalloc((size_t)d->na * d->es);
    d->oA = xmalloc((size_t)d->na * d->es);
    d->hB = xmalloc((size_t)d->nb * d->es);
    d->oB = xmalloc((size_t)d->nb * d->es);
    d->hP = xmalloc((size_t)d->np * sizeof(int));
    d->oP = xmalloc((size_t)d->np * sizeof(int));
    d->hI = xmalloc((size_t)d->ni * sizeof(int));
    d->oI = xmalloc((size_t)d->ni * sizeof(int));
    d->slot = xmalloc((size_t)c->batch * sizeof(int64_t));
    const int shift = c->tail ? c->tail - 1 : 0;
    if (c->page_end) {
        d->dA = gpu_test_page_end_alloc(&d->allocs[0], (size_t)d->na, d->es);
        d->dB = gpu_test_page_end_alloc(&d->allocs[1], (size_t)d->nb, d->es);
        d->dP = gpu_test_page_end_alloc(&d->allocs[2], (size_t)d->np, sizeof(int));
        d->dI = gpu_test_page_end_alloc(&d->allocs[3], (size_t)d->ni, sizeof(int));
    } else {
        d->dA = gpu_test_tail_alloc(&d->allocs[0], (size_t)d->na, d->es, shift);
        d->dB = gpu_test_tail_alloc(&d->allocs[1], (size_t)d->nb, d->es, shift);
        d->dP = gpu_test_tail_alloc(&d->allocs[2], (size_t)d->np, sizeof(int), shift);
        d->dI = gpu_test_tail_alloc(&d->allocs[3], (size_t)d->ni, sizeof(int), shift);
    }
    if (c->modes & MODE_ARRAY) {
        CUDA_CHECK(cudaMalloc((void **)&d->dAp, (size_t)c->batch * sizeof(void *)));
        CUDA_CHECK(cudaMalloc((void **)&d->dBp, (size_t)c->batch * sizeof(void *)));
    }
}

static void release(run_data *d)
{
    free(d->A0);
    free(d->B0);
    free(d->A0good);
    free(d->B0good);
    free(d->P0);
    free(d->kind);
    free(d->hA);
    free(d->oA);
    free(d->hB);
    free(d->oB);
    free(d->hP);
    free(d->oP);
    free(d->hI);
    free(d->oI);
    free(d->slot);
    for (int i = 0; i < COUNT(d->allocs); ++i) gpu_test_free(d->allocs[i]);
    cudaFree(d->dAp);
    cudaFree(d->dBp);
}

/* Pivot stride of a mode: the pointer-array calls take min(m, n) (cuBLAS layout). */
static int64_t pivot_stride(const run_data *d, int mode) { return mode == MODE_ARRAY ? d->mn : d->stp; }

static shoal_status call_shoal(const run_cfg *c, const run_data *d, int mode);

/* Fills the host images for a mode and uploads them. lu_first: then factors A in place with
 * shoal's getrf (the same mode and layout) and takes A and the pivots as they come back for the
 * images, the input of the call; returns getrf's status (else SUCCESS). */
static shoal_status layout(const run_cfg *c, run_data *d, int mode)
{
    const char p = c->prec;
    const int m = c->m, n = c->n;
    const int64_t a_el = (int64_t)m * n, b_el = (int64_t)n * d->bcols, stp = pivot_stride(d, mode);
    for (int64_t b = 0; b < c->batch; ++b) d->slot[b] = b;
    if (mode == MODE_ARRAY && !c->page_end) { /* shuffled placement */
        uint64_t r = mix(g_case_seed, 0xa77a7ull + (uint64_t)g_run_index);
        for (int64_t i = c->batch - 1; i > 0; --i) {
            const int64_t j = (int64_t)(oracle_splitmix64(&r) % (uint64_t)(i + 1));
            const int64_t t = d->slot[i];
            d->slot[i] = d->slot[j];
            d->slot[j] = t;
        }
    }
    fill_poison(p, d->hA, d->na, 0);
    fill_poison(p, d->hB, d->nb, 1);
    for (int64_t i = 0; i < d->np; ++i) d->hP[i] = POISON_INT;
    for (int64_t i = 0; i < d->ni; ++i) d->hI[i] = POISON_INT;
    const unsigned f = d->spec->flags;
    const int ipiv_in = (f & LAPACK_IPIV_IN) && !c->lu_first;
    /* every problem in its own slot: in parallel (70001 problems of 40 x 40 in the large cases) */
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < c->batch; ++b) {
        const int64_t i = b % d->G;
        const int64_t offa = d->slot[b] * d->sta, offb = d->slot[b] * d->stb;
        for (int col = 0; col < n; ++col)
            for (int r = 0; r < m; ++r) elem_put(p, d->hA, offa + r + col * d->lda, d->A0, i * a_el + r + (int64_t)col * m);
        if (f & LAPACK_B_IN)
            for (int col = 0; col < d->bcols; ++col)
                for (int r = 0; r < n; ++r)
                    elem_put(p, d->hB, offb + r + col * d->ldb, d->B0, i * b_el + r + (int64_t)col * n);
        if (ipiv_in)
            for (int j = 0; j < d->mn; ++j) d->hP[b * stp + j] = d->P0[i * d->mn + j];
    }
    CUDA_CHECK(cudaMemcpy(d->dA, d->hA, (size_t)d->na * d->es, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dB, d->hB, (size_t)d->nb * d->es, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dP, d->hP, (size_t)d->np * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dI, d->hI, (size_t)d->ni * sizeof(int), cudaMemcpyHostToDevice));
    if (mode == MODE_ARRAY) {
        void **h = xmalloc((size_t)c->batch * sizeof(void *));
        for (int64_t b = 0; b < c->batch; ++b) h[b] = (char *)d->dA + (size_t)(d->slot[b] * d->sta) * d->es;
        CUDA_CHECK(cudaMemcpy(d->dAp, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
        for (int64_t b = 0; b < c->batch; ++b) h[b] = (char *)d->dB + (size_t)(d->slot[b] * d->stb) * d->es;
        CUDA_CHECK(cudaMemcpy(d->dBp, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
        free(h);
    }
    if (c->lu_first) {
        run_cfg g = *c;
        g.r = R_GETRF;
        const shoal_status st = call_shoal(&g, d, mode);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaGetLastError());
        if (st != SHOAL_STATUS_SUCCESS) return st;
        CUDA_CHECK(cudaMemcpy(d->hA, d->dA, (size_t)d->na * d->es, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(d->hP, d->dP, (size_t)d->np * sizeof(int), cudaMemcpyDeviceToHost));
        /* getrf's info is not the call's: poisoned again */
        CUDA_CHECK(cudaMemcpy(d->dI, d->hI, (size_t)d->ni * sizeof(int), cudaMemcpyHostToDevice));
    }
    return SHOAL_STATUS_SUCCESS;
}

/* The outputs of a call, read back into the o* images. */
static void download(run_data *d)
{
    CUDA_CHECK(cudaMemcpy(d->oA, d->dA, (size_t)d->na * d->es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d->oB, d->dB, (size_t)d->nb * d->es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d->oP, d->dP, (size_t)d->np * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d->oI, d->dI, (size_t)d->ni * sizeof(int), cudaMemcpyDeviceToHost));
}

/* ------------------------------------------------------------------------------------------ */
/* Calling shoal. */

static shoal_status call_shoal(const run_cfg *c, const run_data *d, int mode)
{
    const int m = c->m, n = c->n, nrhs = c->nrhs;
    const int64_t lda = d->lda, ldb = d->ldb, sta = d->sta, stb = d->stb, stp = d->stp, batch = c->batch;
    const shoal_operation op = c->trans == 2 ? SHOAL_OP_C : c->trans ? SHOAL_OP_T : SHOAL_OP_N;
    int *P = d->dP, *I = d->dI;
    const int arr = mode == MODE_ARRAY;
    /* one dispatch per precision: the pointer types differ, the argument lists do not */
#define LU_CALLS(p, T)                                                                                            \
    do {                                                                                                          \
        T *A = d->dA, *B = d->dB;                                                                                 \
        T *const *Ap = (T *const *)d->dAp, *const *Bp = (T *const *)d->dBp;                                       \
        const T *const *cAp = (const T *const *)d->dAp;                                                           \
        switch (c->r) {                                                                                           \
        case R_GETRF:                                                                                             \
            return arr ? shoal_##p##getrf_batched(g_h, m, n, Ap, lda, P, I, batch)                                \
                       : shoal_##p##getrf_strided_batched(g_h, m, n, A, lda, sta, P, stp, I, batch);              \
        case R_GETRS:                                                                                             \
            return arr ? shoal_##p##getrs_batched(g_h, op, n, nrhs, cAp, lda, P, Bp, ldb, batch)                  \
                       : shoal_##p##getrs_strided_batched(g_h, op, n, nrhs, A, lda, sta, P, stp, B, ldb, stb, batch); \
        case R_GESV:                                                                                              \
            return arr ? shoal_##p##gesv_batched(g_h, n, nrhs, Ap, lda, P, Bp, ldb, I, batch)                     \
                       : shoal_##p##gesv_strided_batched(g_h, n, nrhs, A, lda, sta, P, stp, B, ldb, stb, I, batch); \
        case R_GETRI:                                                                                             \
            return arr ? shoal_##p##getri_batched(g_h, n, cAp, lda, P, Bp, ldb, I, batch)                         \
                       : shoal_##p##getri_strided_batched(g_h, n, A, lda, sta, P, stp, B, ldb, stb, I, batch);    \
        case R_GETRI_FUSED:                                                                                       \
            return arr ? shoal_##p##getri_fused_batched(g_h, n, cAp, lda, Bp, ldb, I, batch)                      \
                       : shoal_##p##getri_fused_strided_batched(g_h, n, A, lda, sta, B, ldb, stb, I, batch);      \
        }                                                                                                         \
    } while (0)
    if (c->prec == 'c') LU_CALLS(c, shoal_complex_float);
    if (c->prec == 'z') LU_CALLS(z, shoal_complex_double);
#undef LU_CALLS
    if (c->prec == 's') {
        float *A = d->dA, *B = d->dB;
        float *const *Ap = (float *const *)d->dAp, *const *Bp = (float *const *)d->dBp;
        const float *const *cAp = (const float *const *)d->dAp;
        switch (c->r) {
        case R_GETRF:
            return arr ? shoal_sgetrf_batched(g_h, m, n, Ap, lda, P, I, batch)
                       : shoal_sgetrf_strided_batched(g_h, m, n, A, lda, sta, P, stp, I, batch);
        case R_GETRS:
            return arr ? shoal_sgetrs_batched(g_h, op, n, nrhs, cAp, lda, P, Bp, ldb, batch)
                       : shoal_sgetrs_strided_batched(g_h, op, n, nrhs, A, lda, sta, P, stp, B, ldb, stb, batch);
        case R_GESV:
            return arr ? shoal_sgesv_batched(g_h, n, nrhs, Ap, lda, P, Bp, ldb, I, batch)
                       : shoal_sgesv_strided_batched(g_h, n, nrhs, A, lda, sta, P, stp, B, ldb, stb, I, batch);
        case R_GETRI:
            return arr ? shoal_sgetri_batched(g_h, n, cAp, lda, P, Bp, ldb, I, batch)
                       : shoal_sgetri_strided_batched(g_h, n, A, lda, sta, P, stp, B, ldb, stb, I, batch);
        case R_GETRI_FUSED:
            return arr ? shoal_sgetri_fused_batched(g_h, n, cAp, lda, Bp, ldb, I, batch)
                       : shoal_sgetri_fused_strided_batched(g_h, n, A, lda, sta, B, ldb, stb, I, batch);
        }
    } else {
        double *A = d->dA, *B = d->dB;
        double *const *Ap = (double *const *)d->dAp, *const *Bp = (double *const *)d->dBp;
        const double *const *cAp = (const double *const *)d->dAp;
        switch (c->r) {
        case R_GETRF:
            return arr ? shoal_dgetrf_batched(g_h, m, n, Ap, lda, P, I, batch)
                       : shoal_dgetrf_strided_batched(g_h, m, n, A, lda, sta, P, stp, I, batch);
        case R_GETRS:
            return arr ? shoal_dgetrs_batched(g_h, op, n, nrhs, cAp, lda, P, Bp, ldb, batch)
                       : shoal_dgetrs_strided_batched(g_h, op, n, nrhs, A, lda, sta, P, stp, B, ldb, stb, batch);
        case R_GESV:
            return arr ? shoal_dgesv_batched(g_h, n, nrhs, Ap, lda, P, Bp, ldb, I, batch)
                       : shoal_dgesv_strided_batched(g_h, n, nrhs, A, lda, sta, P, stp, B, ldb, stb, I, batch);
        case R_GETRI:
            return arr ? shoal_dgetri_batched(g_h, n, cAp, lda, P, Bp, ldb, I, batch)
                       : shoal_dgetri_strided_batched(g_h, n, A, lda, sta, P, stp, B, ldb, stb, I, batch);
        case R_GETRI_FUSED:
            return arr ? shoal_dgetri_fused_batched(g_h, n, cAp, lda, Bp, ldb, I, batch)
                       : shoal_dgetri_fused_strided_batched(g_h, n, A, lda, sta, B, ldb, stb, I, batch);
        }
    }
    return SHOAL_STATUS_INVALID_VALUE;
}

/* ------------------------------------------------------------------------------------------ */
/* Judging a run. */

/* Whether element e of a buffer of `batch` matrices (stride st, ld, rows x cols) belongs to a
 * matrix proper; the shuffled placement of pointer-array runs covers the same slots. */
static int covered(int64_t e, int64_t batch, int64_t st, int64_t ld, int64_t rows, int64_t cols)
{
    if (st <= 0 || e >= batch * st) return 0;
    const int64_t r = e % st;
    return r < ld * cols && r % ld < rows;
}

/* Elements of x and y (es bytes each) that differ where keep(e) holds; the first in *first. */
static int64_t changed(const void *x, const void *y, size_t es, int64_t count, int64_t batch, int64_t st,
                       int64_t ld, int64_t rows, int64_t cols, int all, int64_t *first)
{
    int64_t n = 0;
    *first = -1;
    for (int64_t e = 0; e < count; ++e) {
        if (!all && covered(e, batch, st, ld, rows, cols)) continue;
        if (memcmp((const char *)x + (size_t)e * es, (const char *)y + (size_t)e * es, es)) {
            if (*first < 0) *first = e;
            ++n;
        }
    }
    return n;
}

/* A NaN problem: no residual, only sane pivots and info. */
static double nan_problem_check(const run_cfg *c, const run_data *d, const int *ipiv, int info)
{
    if (has_info(c->r) && (info < 0 || info > d->mn)) return INFINITY;
    if (writes_pivots(c->r))
        for (int j = 0; j < d->mn; ++j)
            if (ipiv[j] < j + 1 || ipiv[j] > c->m) return INFINITY;
    return 0.0;
}

/* Partial pivoting bounds the multipliers of the m x n factors LU (packed): |L(r,j)| <= 1 in s
 * and d; in c and z, where the pivot has the largest |re| + |im| of its column, |a / pivot| <=
 * (|re| + |im|)(a) / |pivot| <= sqrt 2; up to the rounding of the reciprocal (8 eps). A pivot
 * search that misses rows (a block of them, say) breaks the bound while the residual may pass. */
static int multipliers_bounded(const double *LU, int m, int n, int w, double eps)
{
    const double bound = (w == 2 ? sqrt(2.0) : 1.0) * (1.0 + 8.0 * eps);
    const int mn = m < n ? m : n;
    for (int j = 0; j < mn; ++j)
        for (int r = j + 1; r < m; ++r) {
            const double *x = &LU[(r + (int64_t)j * m) * w];
            if (!((w == 2 ? hypot(x[0], x[1]) : fabs(x[0])) <= bound)) return 0;
        }
    return 1;
}

/* A tie problem (plant_ties): the pivot of its column is the first of the tie rows. */
static int tie_pivot_ok(const run_cfg *c, const run_data *d, int64_t i, const int *ipiv)
{
    int j = 0, r[3];
    const int pattern = singular_at(c, d->mn, i, &j);
    tie_rows(c, j, pattern, r);
    return ipiv[j] == r[0] + 1;
}

/* Worst normalized error over the batch (after download); layout violations give Inf and a note
 * in why. Above 32 (the drivers) the pivots are also held to partial pivoting
 * (multipliers_bounded, and the ties' first row), and a failed gesv's B is not judged. */
static double judge(const run_cfg *c, run_data *d, int mode, char *why, size_t why_len)
{
    const char p = c->prec;
    const int m = c->m, n = c->n;
    const int64_t a_el = (int64_t)m * n, b_el = (int64_t)n * d->bcols, stp = pivot_stride(d, mode);
    const unsigned f = d->spec->flags;
    const double eps = oracle_eps(p);
    const int w = d->w;
    double worst = 0.0;
    int64_t worst_b = -1, unbounded = 0, bad_ties = 0;
    size_t u = 0;
    why[0] = '\0';
    /* a check costs O(n^3): the blocked sizes' few problems one per thread */
    const int chunk = blocked(c) ? 1 : 256;

#pragma omp parallel reduction(+ : unbounded, bad_ties)
    {
        double *A0 = xmalloc((size_t)(w * a_el + 1) * sizeof(double));
        double *Ao = xmalloc((size_t)(w * a_el + 1) * sizeof(double));
        double *Bo = xmalloc((size_t)(w * b_el + 1) * sizeof(double));
        int *ipiv = xmalloc((size_t)(d->mn + 1) * sizeof(int));
        int *ipiv0 = xmalloc((size_t)(d->mn + 1) * sizeof(int));
        double my_worst = 0.0;
        int64_t my_b = -1;
#pragma omp for schedule(dynamic, chunk)
        for (int64_t b = 0; b < c->batch; ++b) {
            const int64_t i = b % d->G;
            const int64_t offa = d->slot[b] * d->sta, offb = d->slot[b] * d->stb;
            for (int col = 0; col < n; ++col)
                for (int r = 0; r < m; ++r) elem_get(p, d->oA, offa + r + col * d->lda, Ao, r + (int64_t)col * m);
            for (int col = 0; col < d->bcols; ++col)
                for (int r = 0; r < n; ++r) elem_get(p, d->oB, offb + r + col * d->ldb, Bo, r + (int64_t)col * n);
            for (int j = 0; j < d->mn; ++j) ipiv[j] = d->oP[b * stp + j];
            /* the input pivots as uploaded (lu_first: as shoal's getrf wrote them) */
            for (int j = 0; j < d->mn; ++j) ipiv0[j] = d->hP[b * stp + j];
            /* the inputs as the kernel saw them (rounded to the precision: exact for generated
             * data, which is float-representable) */
            for (int64_t e = 0; e < a_el; ++e) elem_get(p, d->hA, offa + (e % m) + (e / m) * d->lda, A0, e);
            const int info = d->oI[b];
            double e;
            if (d->kind[i] == KIND_NAN) {
                e = nan_problem_check(c, d, ipiv, info);
            } else {
                lapack_problem pr;
                memset(&pr, 0, sizeof pr);
                pr.m = m;
                pr.n = n;
                pr.nrhs = d->nrhs_spec;
                pr.variant = c->trans ? 1 : 0;
                pr.is_complex = w == 2;
                pr.conj = c->trans == 2;
                pr.A0 = A0;
                pr.B0 = (f & LAPACK_B_IN) ? d->B0 + w * i * b_el : NULL;
                pr.ipiv0 = (f & LAPACK_IPIV_IN) ? ipiv0 : NULL;
                pr.A = Ao;
                pr.B = d->bcols ? Bo : NULL;
                pr.ipiv = (f & LAPACK_IPIV_OUT) ? ipiv : NULL;
                pr.info = (f & LAPACK_INFO_OUT) ? info : 0;
                /* a failed gesv above 32: its factors, pivots and info as getrf's, B not judged */
                const lapack_spec *spec =
                    c->r == R_GESV && info > 0 && !gesv_keeps_failed_b(c) ? &lapack_spec_getrf : d->spec;
                e = spec->check(&pr, eps);
                if (isnan(e)) e = INFINITY;
                if (blocked(c) && writes_pivots(c->r) && !multipliers_bounded(Ao, m, n, w, eps)) {
                    e = INFINITY;
                    ++unbounded;
                }
                if (d->kind[i] == KIND_TIE && !tie_pivot_ok(c, d, i, ipiv)) {
                    e = INFINITY;
                    ++bad_ties;
                }
            }
            if (my_b < 0 || e > my_worst) {
                my_worst = e;
                my_b = b;
            }
        }
#pragma omp critical
        {
            if (my_b >= 0 && (my_worst > worst || worst_b < 0)) {
                worst = my_worst > worst ? my_worst : worst;
                worst_b = my_b;
            }
        }
        free(A0);
        free(Ao);
        free(Bo);
        free(ipiv);
        free(ipiv0);
    }
    if (worst > LAPACK_ERROR_LIMIT && u < why_len)
        u += (size_t)snprintf(why + u, why_len - u, " worst at problem %lld (distinct %lld, %s)", (long long)worst_b,
                              (long long)(worst_b % d->G), KIND_NAME[d->kind[worst_b % d->G]]);
    if (unbounded && u < why_len)
        u += (size_t)snprintf(why + u, why_len - u, " %lld problem(s) with a multiplier |L(i,j)| above the bound",
                              (long long)unbounded);
    if (bad_ties && u < why_len)
        u += (size_t)snprintf(why + u, why_len - u, " %lld tie problem(s) pivoted on another row than the first",
                              (long long)bad_ties);

    /* what must come back bit for bit */
    int64_t first, k;
    k = changed(d->oA, d->hA, d->es, d->na, c->batch, d->sta, d->lda, m, n, !writes_a(c->r), &first);
    if (k) {
        worst = INFINITY;
        if (u < why_len)
            u += (size_t)snprintf(why + u, why_len - u, " A: %lld element(s) %s changed, first at %lld", (long long)k,
                                  writes_a(c->r) ? "of padding" : "of an input", (long long)first);
    }
    k = changed(d->oB, d->hB, d->es, d->nb, c->batch, d->stb, d->ldb, n, d->bcols, d->bcols == 0, &first);
    if (k) {
        worst = INFINITY;
        if (u < why_len)
            u += (size_t)snprintf(why + u, why_len - u, " B: %lld padding element(s) changed, first at %lld",
                                  (long long)k, (long long)first);
    }
    k = changed(d->oP, d->hP, sizeof(int), d->np, c->batch, stp, stp, d->mn, 1, !writes_pivots(c->r), &first);
    if (k) {
        worst = INFINITY;
        if (u < why_len)
            u += (size_t)snprintf(why + u, why_len - u, " ipiv: %lld %s slot(s) changed, first at %lld", (long long)k,
                                  reads_pivots(c->r) ? "input" : "spare", (long long)first);
    }
    k = changed(d->oI, d->hI, sizeof(int), d->ni, c->batch, 1, 1, has_info(c->r) ? 1 : 0, 1, 0, &first);
    if (k) {
        worst = INFINITY;
        if (u < why_len)
            u += (size_t)snprintf(why + u, why_len - u, " info: %lld entr(ies) %s changed, first at %lld",
                                  (long long)k, has_info(c->r) ? "beyond the batch" : "of a routine without info",
                                  (long long)first);
    }
    return worst;
}

/* The contract's isolation of singular and NaN problems (test_chol_qr_gpu.c's twin): after the
 * checked call (d holds its outputs), the same call on the same layout with those problems left
 * regular. Every other problem's A, B (the matrices proper), pivots and info must come back bit
 * for bit. Returns the number of problems that differ (-1: the twin call failed; why says so);
 * d then holds the twin run's images. */
static int64_t twin_check(const run_cfg *c, run_data *d, int mode, char *why, size_t len)
{
    const size_t es = d->es;
    const int64_t stp = pivot_stride(d, mode);
    char *oA = xmalloc((size_t)d->na * es), *oB = xmalloc((size_t)d->nb * es);
    int *oP = xmalloc((size_t)d->np * sizeof(int)), *oI = xmalloc((size_t)d->ni * sizeof(int));
    memcpy(oA, d->oA, (size_t)d->na * es);
    memcpy(oB, d->oB, (size_t)d->nb * es);
    memcpy(oP, d->oP, (size_t)d->np * sizeof(int));
    memcpy(oI, d->oI, (size_t)d->ni * sizeof(int));
    double *t = d->A0;
    d->A0 = d->A0good, d->A0good = t;
    t = d->B0;
    d->B0 = d->B0good, d->B0good = t;
    shoal_status st = layout(c, d, mode); /* the same slots: the shuffle's seed is the run's */
    if (st == SHOAL_STATUS_SUCCESS) st = call_shoal(c, d, mode);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    t = d->A0;
    d->A0 = d->A0good, d->A0good = t;
    t = d->B0;
    d->B0 = d->B0good, d->B0good = t;
    int64_t differ = 0, first = -1;
    if (st != SHOAL_STATUS_SUCCESS) {
        snprintf(why, len, " twin call returned %s", shoal_status_string(st));
        differ = -1;
    } else {
        download(d);
        for (int64_t b = 0; b < c->batch; ++b) {
            if (d->kind[b % d->G] != KIND_REGULAR) continue;
            const int64_t s = d->slot[b];
            int same = !has_info(c->r) || oI[b] == d->oI[b];
            for (int col = 0; col < c->n && same; ++col) {
                const size_t o = (size_t)(s * d->sta + col * d->lda) * es;
                same = !memcmp(oA + o, (char *)d->oA + o, (size_t)c->m * es);
            }
            for (int col = 0; col < d->bcols && same; ++col) {
                const size_t o = (size_t)(s * d->stb + col * d->ldb) * es;
                same = !memcmp(oB + o, (char *)d->oB + o, (size_t)c->n * es);
            }
            if (same && writes_pivots(c->r)) same = !memcmp(oP + b * stp, d->oP + b * stp, (size_t)d->mn * sizeof(int));
            if (!same && differ++ == 0) first = b;
        }
        if (differ)
            snprintf(why, len, " %lld problem(s) differ from the twin run's (without the singular and NaN ones), first %lld",
                     (long long)differ, (long long)first);
    }
    free(oA);
    free(oB);
    free(oP);
    free(oI);
    return differ;
}

static void notes_of(const run_cfg *c, int vendor, char *buf, size_t len)
{
    size_t u = 0;
    buf[0] = '\0';
#define NOTE(cond, ...)                                                                       \
    if ((cond) && u < len) u += (size_t)snprintf(buf + u, len - u, __VA_ARGS__);
    NOTE(c->r == R_GETRS, " op=%c", "NTC"[c->trans])
    NOTE(c->pad, " ld+%d", c->pad)
    NOTE(c->gap, " gap%lld", (long long)c->gap)
    NOTE(c->pgap, " pgap%d", c->pgap)
    NOTE(c->special == SP_SINGULAR, " +singular")
    NOTE(c->special == SP_NAN, " +NaN")
    NOTE(c->special == SP_TIES, " +ties")
    NOTE(c->n_bad_cols, " cols=%d", c->n_bad_cols)
    NOTE(c->nan_at >= 0, " NaN@%lld", (long long)c->nan_at)
    NOTE(c->nan_b_at >= 0, " NaN(B)@%lld", (long long)c->nan_b_at)
    NOTE(c->lu_first, " A=getrf(A)")
    NOTE(c->tail, " tail+%d", c->tail - 1)
    NOTE(c->page_end, " page_end")
    NOTE(c->twin, " twin")
    NOTE(vendor, " vendor=on")
#undef NOTE
}

static void print_header(void)
{
    printf("# %-11s %-2s %-7s %5s %5s %5s %8s %10s %-6s %s\n", "routine", "p", "mode", "m", "n", "nrhs", "batch",
           "error", "status", "kernel / notes");
}

static void run(const run_cfg *wanted)
{
    run_cfg q = *wanted;
    q.batch = gpu_test_batch(q.batch); /* SHOAL_TEST_QUICK */
    const run_cfg *c = &q;
    run_data d;
    setup(c, &d);
    /* above 32 the routine's driver serves, and kernel_name names it */
    char driver[32] = "";
    if (blocked(c)) snprintf(driver, sizeof driver, "%s_blocked", RNAME[c->r]);
    for (int mode = MODE_STRIDED; mode <= MODE_ARRAY; ++mode) {
        if (!(c->modes & mode)) continue;
        const shoal_status lst = layout(c, &d, mode);
        shoal_set_vendor_dispatch(g_h, c->vendor);
        const char *kernel = NULL;
        const char variant = c->trans ? 't' : 'n'; /* op C: the t variant's kernels */
        const int nrhs_dim = (c->r == R_GETRS || c->r == R_GESV) ? c->nrhs : 1;
        const shoal_status kst = shoal_lapack_kernel_name(g_h, RNAME[c->r], c->prec, mode == MODE_ARRAY, variant,
                                                          c->m, c->n, nrhs_dim, &kernel);
        if (kst != SHOAL_STATUS_SUCCESS) kernel = NULL;
        /* runs with vendor dispatch on check who served: the kernel or vendor the dispatch names,
         * or, where it names the vendor and the vendor declines the call, the kernel it names
         * with vendor dispatch off; so do the blocked runs (the driver) */
        const char *kernel_off = NULL;
        if (c->vendor) {
            shoal_set_vendor_dispatch(g_h, 0);
            if (shoal_lapack_kernel_name(g_h, RNAME[c->r], c->prec, mode == MODE_ARRAY, variant, c->m, c->n,
                                         nrhs_dim, &kernel_off) != SHOAL_STATUS_SUCCESS)
                kernel_off = NULL;
            shoal_set_vendor_dispatch(g_h, 1);
        }
        char why[640] = "";
        int name_ok = 1;
        if (driver[0] && kst == SHOAL_STATUS_SUCCESS && (!kernel || strcmp(kernel, driver) != 0)) {
            name_ok = 0;
            snprintf(why, sizeof why, " kernel_name names %s, not the driver %s", kernel ? kernel : "nothing", driver);
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        gpu_test_served_reset(g_h);
        const shoal_status st = lst != SHOAL_STATUS_SUCCESS ? lst : call_shoal(c, &d, mode);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaGetLastError());
        const char *served = NULL;
        const int served_ok = !(c->vendor || driver[0]) ||
                              gpu_test_check_served(g_h, kernel, kernel_off, &served, why + strlen(why),
                                                    sizeof why - strlen(why));
        if (served) kernel = served;
        double err = INFINITY;
        int twin_ok = 1;
        if (st != SHOAL_STATUS_SUCCESS) {
            const size_t u = strlen(why);
            snprintf(why + u, sizeof why - u, " returned %s%s", shoal_status_string(st),
                     lst != SHOAL_STATUS_SUCCESS ? " (getrf, factoring the input)" : "");
        } else {
            download(&d);
            size_t u = strlen(why);
            err = judge(c, &d, mode, why + u, sizeof why - u);
            u = strlen(why);
            if (c->twin && twin_check(c, &d, mode, why + u, sizeof why - u) != 0) twin_ok = 0;
        }
        if (kst != SHOAL_STATUS_SUCCESS) {
            const size_t u = strlen(why);
            snprintf(why + u, sizeof why - u, " kernel_name: %s", shoal_status_string(kst));
        }
        const int ok = st == SHOAL_STATUS_SUCCESS && err <= LAPACK_ERROR_LIMIT && served_ok && name_ok && twin_ok &&
                       kst == SHOAL_STATUS_SUCCESS;
        char notes[192];
        notes_of(c, c->vendor, notes, sizeof notes);
        printf("  %-11s %-2c %-7s %5d %5d %5d %8lld %10.3e %-6s %s%s%s\n", RNAME[c->r], c->prec,
               mode == MODE_STRIDED ? "strided" : "array", c->m, c->n, (c->r == R_GETRS || c->r == R_GESV) ? c->nrhs : 0,
               (long long)c->batch, err, ok ? "ok" : "FAILED", kernel ? kernel : "?", notes, why);
        fflush(stdout);
        gpu_test_record(ok);
    }
    shoal_set_vendor_dispatch(g_h, 0);
    release(&d);
    ++g_run_index;
}

/* ------------------------------------------------------------------------------------------ */
/* Cases. */

/* The largest op a routine takes in a precision: getrs N, T (and C in c and z); else N. */
static int max_op(enum routine r, char p) { return r != R_GETRS ? 0 : elem_reals(p) == 2 ? 2 : 1; }

static run_cfg base_cfg(enum routine r, char p, int m, int n, int nrhs, int64_t batch)
{
    run_cfg c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.prec = p;
    c.m = m;
    c.n = n;
    c.nrhs = nrhs;
    c.batch = batch;
    c.modes = MODE_STRIDED | MODE_ARRAY;
    c.nan_at = -1;
    c.nan_b_at = -1;
    return c;
}

/* Every size 1..32, strided and pointer arrays; a few with vendor dispatch on as well (in both
 * forms: a strided call the vendor serves gets its pointer arrays written by the library). */
static void case_sizes(enum routine r, char p, int trans)
{
    for (int n = 1; n <= 32; ++n) {
        run_cfg c = base_cfg(r, p, n, n, 1, 257);
        c.trans = trans;
        run(&c);
    }
    static const int vendor_sizes[] = {2, 8, 17, 32};
    for (int i = 0; i < COUNT(vendor_sizes); ++i) {
        run_cfg c = base_cfg(r, p, vendor_sizes[i], vendor_sizes[i], 1, 129);
        c.trans = trans;
        c.vendor = 1;
        run(&c);
    }
}

/* getrf, m != n. */
static void case_rect(char p)
{
    static const int shapes[][2] = {{32, 16}, {16, 32}, {8, 4}, {4, 8}, {5, 3}, {3, 5}, {1, 7}, {7, 1},
                                    {32, 1}, {1, 32}, {17, 31}, {31, 17}, {2, 32}, {32, 2}, {9, 16}, {16, 9}};
    for (int i = 0; i < COUNT(shapes); ++i) {
        run_cfg c = base_cfg(R_GETRF, p, shapes[i][0], shapes[i][1], 1, 200);
        c.pad = i % 2 ? 3 : 0;
        run(&c);
    }
}

/* ld > rows with poisoned padding, gaps between matrices and between pivot sets. */
static void case_ld(enum routine r, char p)
{
    static const int sizes[] = {1, 2, 3, 5, 8, 13, 16, 23, 31, 32};
    for (int i = 0; i < COUNT(sizes); ++i) {
        run_cfg c = base_cfg(r, p, sizes[i], sizes[i], i % 2 ? 3 : 1, 150);
        c.pad = 3;
        c.gap = 5;
        c.pgap = 2;
        run(&c);
    }
    if (r == R_GETRF) {
        static const int shapes[][2] = {{7, 3}, {3, 7}, {32, 20}, {20, 32}};
        for (int i = 0; i < COUNT(shapes); ++i) {
            run_cfg c = base_cfg(r, p, shapes[i][0], shapes[i][1], 1, 150);
            c.pad = 3;
            c.gap = 5;
            c.pgap = 2;
            run(&c);
        }
    }
}

/* getrs / gesv: nrhs in {1, 3, n + 5}, both ops for getrs, with and without padding. */
static void case_nrhs(enum routine r, char p)
{
    static const int sizes[] = {1, 2, 4, 7, 8, 16, 31, 32};
    for (int i = 0; i < COUNT(sizes); ++i) {
        const int n = sizes[i];
        const int nrhs_list[3] = {1, 3, n + 5};
        for (int k = 0; k < 3; ++k)
            for (int trans = 0; trans <= max_op(r, p); ++trans) {
                run_cfg c = base_cfg(r, p, n, n, nrhs_list[k], 100);
                c.trans = trans;
                if ((i + k) % 2) {
                    c.pad = 3;
                    c.gap = 2;
                    c.pgap = 1;
                }
                run(&c);
            }
    }
}

/* Singular and NaN problems mixed into batches of regular ones. */
static void case_special(enum routine r, char p)
{
    static const int sizes[] = {1, 2, 3, 5, 8, 16, 17, 32};
    if (r != R_GETRS)
        for (int i = 0; i < COUNT(sizes); ++i) {
            run_cfg c = base_cfg(r, p, sizes[i], sizes[i], 3, 120);
            c.special = SP_SINGULAR;
            run(&c);
        }
    if (r == R_GETRF) {
        static const int shapes[][2] = {{8, 4}, {4, 8}, {32, 16}, {16, 32}};
        for (int i = 0; i < COUNT(shapes); ++i) {
            run_cfg c = base_cfg(r, p, shapes[i][0], shapes[i][1], 1, 120);
            c.special = SP_SINGULAR;
            run(&c);
        }
    }
    static const int nan_sizes[] = {3, 4, 16, 32};
    for (int i = 0; i < COUNT(nan_sizes); ++i)
        for (int trans = 0; trans <= max_op(r, p); ++trans) {
            run_cfg c = base_cfg(r, p, nan_sizes[i], nan_sizes[i], 2, 120);
            c.special = SP_NAN;
            c.trans = trans;
            run(&c);
        }
}

/* Batch 1, and a large batch (strided for one size, pointer arrays for another). */
static void case_batch(enum routine r, char p)
{
    static const int one[] = {1, 5, 32};
    for (int i = 0; i < COUNT(one); ++i) {
        run_cfg c = base_cfg(r, p, one[i], one[i], 2, 1);
        run(&c);
    }
    run_cfg c = base_cfg(r, p, 5, 5, 1, g_big_batch);
    c.modes = MODE_STRIDED;
    run(&c);
    c = base_cfg(r, p, 16, 16, 1, g_big_batch);
    c.modes = MODE_ARRAY;
    c.trans = max_op(r, p); /* getrs: its last op (C in c and z) */
    run(&c);
}

/* Issue 29: every operand ends at the last element of its allocation and starts 0..3 elements
 * into it (pivots and info too); a read past an operand leaves the allocation, which memcheck
 * (make sanitize) reports; the checks judge the results as usual. */
static void case_tail(enum routine r, char p)
{
    static const int sizes[][2] = {{1, 1}, {3, 3}, {5, 5}, {17, 17}, {31, 31}, {32, 32}, {7, 3}, {3, 7}};
    for (int tail = 1; tail <= 4; ++tail)
        for (int i = 0; i < COUNT(sizes); ++i) {
            const int m = sizes[i][0], n = sizes[i][1];
            if (m != n && r != R_GETRF) continue;
            run_cfg c = base_cfg(r, p, m, n, 1 + i % 3, 129);
            c.tail = tail;
            c.pad = i % 2 ? tail : 0;
            c.trans = i % (max_op(r, p) + 1);
            run(&c);
        }
}

/* Issue 29, page ends: A, B, pivots and info each end at the end of a mapped page, the next page
 * unmapped (gpu_test_page_end_alloc); strided and in-order pointer arrays, odd sizes, ld > rows:
 * a kernel that reads past an operand dies with an illegal address even without
 * compute-sanitizer (CUDA_CHECK fails the case and stops the process). */
static void case_page_end(enum routine r, char p)
{
    if (!gpu_test_page_end_ready()) return;
    static const int sizes[][2] = {{1, 1}, {3, 3}, {17, 17}, {32, 32}, {7, 3}, {3, 7}};
    for (int i = 0; i < COUNT(sizes); ++i) {
        const int m = sizes[i][0], n = sizes[i][1];
        if (m != n && r != R_GETRF) continue;
        run_cfg c = base_cfg(r, p, m, n, 1 + i % 3, 129);
        c.page_end = 1;
        c.pad = i % 2 ? 1 + i % 3 : 0;
        c.trans = i % (max_op(r, p) + 1);
        run(&c);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* m or n above 32: the blocked drivers (getrf, getrs, gesv, getri). */

/* The sizes: below and above the block edges (32 k +- 1), several blocks, up to the limit 1024.
 * batch: small where n is large (the host checks cost O(n^3) per problem), 1 at some sizes; pad:
 * ld = rows + pad for A and B; rhs: the small nrhs of getrs / gesv (the other runs take n / 4);
 * gap between matrices (and 2 spare pivot slots with it); tail: the buffers end at their last
 * element (case_tail's layout; 0: a guard after them). */
static const struct blocked_size {
    int n, batch, pad, rhs, gap, tail;
} BLOCKED[] = {
    {33, 67, 0, 1, 0, 0},   {47, 1, 3, 3, 0, 0},    {48, 33, 0, 3, 5, 2},    {63, 29, 1, 1, 0, 0},
    {64, 31, 0, 2, 0, 0},   {65, 17, 2, 1, 3, 1},   {96, 13, 0, 5, 0, 0},    {100, 11, 5, 1, 0, 0},
    {127, 9, 0, 1, 1, 4},   {128, 8, 0, 2, 0, 0},   {129, 1, 7, 1, 0, 0},    {200, 6, 0, 2, 7, 0},
    {255, 5, 1, 1, 0, 3},   {256, 4, 0, 3, 0, 0},   {257, 3, 0, 1, 0, 0},    {333, 1, 11, 1, 0, 0},
    {511, 8, 0, 1, 0, 0},   {512, 2, 3, 2, 0, 2},   {700, 3, 0, 1, 2, 0},    {1000, 2, 9, 1, 0, 0},
    {1024, 5, 0, 1, 0, 0},
};
#define BLOCKED_FEW_N 500 /* from here on (min(m, n)): one getrs op per size (in turn), fewer
                             singular columns, one singular pattern */

/* The top split of a recursive driver: half of mn rounded up to a multiple of its panel width
 * (runtime/drivers/lu_blocked.c: 64, 32, 16 or 8, by the panel's rows and the element size). */
static int top_split(int mn, int width) { return ((mn + 1) / 2 + width - 1) / width * width; }

/* The columns (0-based) where the blocked cases put their singular or tie problems, for mn =
 * min(m, n): in the first panel (0, 5, its last column 31), the next ones (32, 33), the edges of
 * the second 32-wide block (63, 64), the middle, both sides of the driver's top split (panel
 * widths 64 and 32; 8 and 16 too), the last two; fewer from mn = BLOCKED_FEW_N on (small batches).
 * Columns at or past limit are taken as limit - 1 (ties need 4 rows from j on: limit = m - 3),
 * each column once. Returns the count. */
static int blocked_cols(int mn, int limit, int *cols)
{
    const int s64 = top_split(mn, 64), s32 = top_split(mn, 32), s16 = top_split(mn, 16), s8 = top_split(mn, 8);
    const int many[] = {0, 5, 31, 32, 33, 63, 64, mn / 2, s64 - 1, s64, s32 - 1, s32, s16, s8 - 1, s8, mn - 2, mn - 1};
    const int few[] = {5, mn / 2, s32, s8, mn - 1};
    const int *want = mn >= BLOCKED_FEW_N ? few : many;
    const int count = mn >= BLOCKED_FEW_N ? COUNT(few) : COUNT(many);
    if (limit > mn) limit = mn;
    int k = 0;
    for (int i = 0; i < count && k < MAX_BAD_COLS; ++i) {
        const int j = want[i] < limit ? want[i] : limit - 1;
        int dup = j < 0;
        for (int q = 0; q < k; ++q) dup |= cols[q] == j;
        if (!dup) cols[k++] = j;
    }
    return k;
}

/* A blocked run with special problems at the blocked columns: the odd problems (singular_at),
 * every column once per pattern (two patterns below BLOCKED_FEW_N, one from there on), then
 * three more problems; limit as blocked_cols takes it. */
static void blocked_special(run_cfg *c, enum special sp, int limit)
{
    const int mn = c->m < c->n ? c->m : c->n;
    c->special = sp;
    c->n_bad_cols = blocked_cols(mn, limit, c->bad_cols);
    c->batch = 2 * c->n_bad_cols * (mn < BLOCKED_FEW_N ? 2 : 1) + 3;
}

/* Every blocked size on clean inputs, strided and pointer arrays: getrs in every op (one per size
 * from BLOCKED_FEW_N on), nrhs small and n / 4 in turn, gesv likewise; getri on generated factors
 * and, at every third size, on the factors shoal's getrf made (lu_first). Then two sizes with
 * vendor dispatch on: the driver serves all the same. */
static void case_blocked(enum routine r, char p)
{
    for (int i = 0; i < COUNT(BLOCKED); ++i) {
        const struct blocked_size *z = &BLOCKED[i];
        for (int op = 0; op <= max_op(r, p); ++op) {
            if (z->n >= BLOCKED_FEW_N && op != i % (max_op(r, p) + 1)) continue;
            run_cfg c = base_cfg(r, p, z->n, z->n, (i + op) % 2 ? z->n / 4 : z->rhs, z->batch);
            c.trans = op;
            c.pad = z->pad;
            c.gap = z->gap;
            c.pgap = z->gap ? 2 : 0;
            c.tail = z->tail;
            c.lu_first = r == R_GETRI && i % 3 == 2;
            run(&c);
        }
    }
    static const int vendor_sizes[] = {65, 200};
    for (int i = 0; i < COUNT(vendor_sizes); ++i) {
        const int n = vendor_sizes[i];
        run_cfg c = base_cfg(r, p, n, n, i ? n / 4 : 1, 7);
        c.trans = max_op(r, p);
        c.vendor = 1;
        run(&c);
    }
}

/* getrf, tall and wide (m != n), one side or both above 32, down to a single column or row. */
static void case_blocked_rect(char p)
{
    static const struct {
        int m, n, batch, pad, gap;
    } shapes[] = {{1000, 40, 17, 0, 0}, {40, 1000, 17, 3, 0}, {33, 1024, 9, 0, 7}, {1024, 33, 9, 1, 0},
                  {100, 64, 33, 0, 0},  {64, 100, 33, 2, 3},  {33, 32, 65, 0, 0},  {32, 33, 65, 1, 0},
                  {1024, 1, 33, 0, 0},  {1, 1024, 33, 0, 1},  {65, 47, 33, 0, 2},  {200, 129, 9, 3, 0},
                  {129, 300, 7, 0, 0},  {700, 256, 3, 0, 0}};
    for (int i = 0; i < COUNT(shapes); ++i) {
        run_cfg c = base_cfg(R_GETRF, p, shapes[i].m, shapes[i].n, 1, shapes[i].batch);
        c.pad = shapes[i].pad;
        c.gap = shapes[i].gap;
        c.pgap = shapes[i].gap ? 1 : 0;
        c.tail = i % 4 == 3 ? 1 + i % 3 : 0;
        run(&c);
    }
}

/* getrf, gesv, getri: singular problems at the blocked columns (blocked_special) and one NaN
 * problem (gesv: one more with a NaN in B) among regular ones, twin; getrf also tall and wide.
 * getri: on the factors shoal's getrf makes of such matrices (lu_first), and below BLOCKED_FEW_N
 * once more on generated factors with zero diagonal entries. */
static void case_blocked_singular(enum routine r, char p)
{
    static const struct {
        int m, n, pad, rhs;
    } sizes[] = {{33, 33, 0, 1},    {47, 47, 2, 3},     {64, 64, 0, 1},   {65, 65, 1, 0},    {100, 100, 0, 1},
                 {129, 129, 3, 2},  {256, 256, 0, 0},   {333, 333, 0, 1}, {512, 512, 1, 1},  {1000, 1000, 0, 0},
                 {1000, 40, 0, 0},  {40, 1000, 1, 0},   {33, 1024, 0, 0}, {1024, 33, 2, 0},  {100, 64, 0, 0}};
    for (int i = 0; i < COUNT(sizes); ++i) {
        const int m = sizes[i].m, n = sizes[i].n;
        if (m != n && r != R_GETRF) continue;
        for (int lu_first = r == R_GETRI; lu_first >= 0; --lu_first) {
            if (r == R_GETRI && !lu_first && n >= BLOCKED_FEW_N) continue;
            run_cfg c = base_cfg(r, p, m, n, sizes[i].rhs ? sizes[i].rhs : n / 4, 0);
            c.pad = sizes[i].pad;
            c.lu_first = lu_first;
            blocked_special(&c, SP_SINGULAR, m < n ? m : n);
            c.nan_at = 2 * (c.n_bad_cols / 2); /* an even (regular) problem, in the middle */
            if (r == R_GESV) c.nan_b_at = c.batch - 1;
            c.twin = 1;
            run(&c);
        }
    }
}

/* getrs: a NaN in one problem's factors and one in another's B among regular ones, every op;
 * the others right and bit-identical to a run without them (twin). */
static void case_blocked_nan(enum routine r, char p)
{
    static const struct {
        int n, pad, rhs;
    } sizes[] = {{33, 0, 1}, {47, 2, 3}, {64, 0, 1}, {65, 1, 0}, {100, 0, 1}, {129, 3, 2},
                 {256, 0, 0}, {333, 0, 1}, {512, 1, 1}, {1000, 0, 0}};
    for (int i = 0; i < COUNT(sizes); ++i) {
        const int n = sizes[i].n;
        for (int op = 0; op <= max_op(r, p); ++op) {
            if (n >= BLOCKED_FEW_N && op != i % (max_op(r, p) + 1)) continue;
            run_cfg c = base_cfg(r, p, n, n, sizes[i].rhs ? sizes[i].rhs : n / 4, n >= BLOCKED_FEW_N ? 5 : 9);
            c.trans = op;
            c.pad = sizes[i].pad;
            c.nan_at = c.batch / 2;
            c.nan_b_at = 1;
            c.twin = 1;
            run(&c);
        }
    }
}

/* getrf, gesv: exact pivot ties (plant_ties) at the blocked columns, the tie rows spread over
 * the column down to the last row: the pivot must be the first of them; getrf also tall and
 * wide. */
static void case_blocked_ties(enum routine r, char p)
{
    static const int shapes[][2] = {{33, 33}, {64, 64}, {100, 100}, {129, 129}, {256, 256}, {1000, 1000},
                                    {1000, 40}, {40, 1000}, {1024, 33}};
    for (int i = 0; i < COUNT(shapes); ++i) {
        const int m = shapes[i][0], n = shapes[i][1];
        if (m != n && r != R_GETRF) continue;
        run_cfg c = base_cfg(r, p, m, n, i % 2 ? n / 4 : 1, 0);
        c.pad = i % 3 == 1 ? 2 : 0;
        blocked_special(&c, SP_TIES, m - 3);
        run(&c);
    }
}

/* d getrf, gesv: batch 70001 at n = 40, past the drivers' 65536-problem chunks (the second chunk
 * partial): singular problems (every other one, at every column) in both chunks, NaN problems
 * (distinct problem 0: matrix 65536, the second chunk's first, is one), strided and pointer
 * arrays, twin; then n = 48, ld > n, clean, strided. */
static void case_blocked_batch_large(enum routine r, char p)
{
    run_cfg c = base_cfg(r, p, 40, 40, 2, 70001);
    c.special = SP_SINGULAR;
    c.nan_at = 0;
    c.twin = 1;
    run(&c);
    c = base_cfg(r, p, 48, 48, 1, 70001);
    c.pad = 1;
    c.modes = MODE_STRIDED;
    run(&c);
}

/* Page ends (case_page_end's layout) at blocked sizes, tall and wide getrf: a read or write past
 * an operand by any step faults on the hardware; singular problems (at the last column) in some
 * runs; getri once on shoal's getrf of its input (that call at the page ends too). */
static void case_blocked_page_end(enum routine r, char p)
{
    if (!gpu_test_page_end_ready()) return;
    static const int shapes[][2] = {{33, 33}, {100, 100}, {100, 33}, {33, 100}};
    for (int i = 0; i < COUNT(shapes); ++i) {
        const int m = shapes[i][0], n = shapes[i][1];
        if (m != n && r != R_GETRF) continue;
        run_cfg c = base_cfg(r, p, m, n, i % 2 ? n / 4 : 1, 5);
        c.page_end = 1;
        c.pad = i % 2 ? 1 + i : 0;
        c.trans = i % (max_op(r, p) + 1);
        c.lu_first = r == R_GETRI && i == 1;
        if (r != R_GETRS && i % 2 == 0) {
            c.special = SP_SINGULAR;
            c.n_bad_cols = 1;
            c.bad_cols[0] = (m < n ? m : n) - 1;
        }
        run(&c);
    }
}

enum case_kind {
    K_SIZES, K_SIZES_T, K_SIZES_C, K_RECT, K_LD, K_NRHS, K_SPECIAL, K_BATCH, K_TAIL, K_PAGE_END,
    K_BLOCKED, K_BLOCKED_RECT, K_BLOCKED_SINGULAR, K_BLOCKED_NAN, K_BLOCKED_TIES, K_BLOCKED_LARGE, K_BLOCKED_PAGE_END
};

typedef struct tcase {
    char name[48];
    enum case_kind kind;
    enum routine r;
    char prec;
} tcase;

static tcase g_cases[256];
static int g_ncases;

static void add_case(enum case_kind kind, enum routine r, char p, const char *suffix)
{
    tcase *t = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    t->kind = kind;
    t->r = r;
    t->prec = p;
    gpu_test_case_name(t->name, sizeof t->name, "%c_%s_%s", p, RNAME[r], suffix);
}

static const char PRECS[] = "sdcz";

static void build_cases(void)
{
    for (int pi = 0; pi < 4; ++pi) {
        const char p = PRECS[pi];
        add_case(K_SIZES, R_GETRF, p, "sizes");
        add_case(K_RECT, R_GETRF, p, "rect");
        add_case(K_LD, R_GETRF, p, "ld");
        add_case(K_SPECIAL, R_GETRF, p, "singular_nan");
        add_case(K_BATCH, R_GETRF, p, "batch");
        add_case(K_TAIL, R_GETRF, p, "tail");
        add_case(K_SIZES, R_GETRS, p, "sizes_n");
        add_case(K_SIZES_T, R_GETRS, p, "sizes_t");
        if (max_op(R_GETRS, p) == 2) add_case(K_SIZES_C, R_GETRS, p, "sizes_c");
        add_case(K_NRHS, R_GETRS, p, "nrhs_ld");
        add_case(K_SPECIAL, R_GETRS, p, "nan");
        add_case(K_BATCH, R_GETRS, p, "batch");
        add_case(K_TAIL, R_GETRS, p, "tail");
        add_case(K_SIZES, R_GESV, p, "sizes");
        add_case(K_NRHS, R_GESV, p, "nrhs_ld");
        add_case(K_SPECIAL, R_GESV, p, "singular_nan");
        add_case(K_BATCH, R_GESV, p, "batch");
        add_case(K_TAIL, R_GESV, p, "tail");
        add_case(K_SIZES, R_GETRI, p, "sizes");
        add_case(K_LD, R_GETRI, p, "ld");
        add_case(K_SPECIAL, R_GETRI, p, "singular_nan");
        add_case(K_BATCH, R_GETRI, p, "batch");
        add_case(K_TAIL, R_GETRI, p, "tail");
        add_case(K_SIZES, R_GETRI_FUSED, p, "sizes");
        add_case(K_LD, R_GETRI_FUSED, p, "ld");
        add_case(K_SPECIAL, R_GETRI_FUSED, p, "singular_nan");
        add_case(K_BATCH, R_GETRI_FUSED, p, "batch");
        add_case(K_TAIL, R_GETRI_FUSED, p, "tail");
        /* m or n > 32: the blocked drivers (getri_fused has none) */
        add_case(K_BLOCKED, R_GETRF, p, "blocked");
        add_case(K_BLOCKED_RECT, R_GETRF, p, "blocked_rect");
        add_case(K_BLOCKED_SINGULAR, R_GETRF, p, "blocked_singular");
        add_case(K_BLOCKED_TIES, R_GETRF, p, "blocked_ties");
        if (p == 'd') add_case(K_BLOCKED_LARGE, R_GETRF, p, "blocked_batch_large");
        add_case(K_BLOCKED, R_GETRS, p, "blocked");
        add_case(K_BLOCKED_NAN, R_GETRS, p, "blocked_nan");
        add_case(K_BLOCKED, R_GESV, p, "blocked");
        add_case(K_BLOCKED_SINGULAR, R_GESV, p, "blocked_singular");
        add_case(K_BLOCKED_TIES, R_GESV, p, "blocked_ties");
        if (p == 'd') add_case(K_BLOCKED_LARGE, R_GESV, p, "blocked_batch_large");
        add_case(K_BLOCKED, R_GETRI, p, "blocked");
        add_case(K_BLOCKED_SINGULAR, R_GETRI, p, "blocked_singular");
    }
    /* last: a kernel fault there loses the CUDA context (and the cases after it) */
    for (int pi = 0; pi < 4; ++pi)
        for (int r = R_GETRF; r <= R_GETRI_FUSED; ++r) add_case(K_PAGE_END, (enum routine)r, PRECS[pi], "page_end");
    for (int pi = 0; pi < 4; ++pi)
        for (int r = R_GETRF; r <= R_GETRI; ++r) add_case(K_BLOCKED_PAGE_END, (enum routine)r, PRECS[pi], "blocked_page_end");
}

static void run_case(const tcase *t)
{
    g_case_seed = hash_string(t->name);
    g_run_index = 0;
    print_header();
    switch (t->kind) {
    case K_SIZES: case_sizes(t->r, t->prec, 0); break;
    case K_SIZES_T: case_sizes(t->r, t->prec, 1); break;
    case K_SIZES_C: case_sizes(t->r, t->prec, 2); break;
    case K_RECT: case_rect(t->prec); break;
    case K_LD: case_ld(t->r, t->prec); break;
    case K_NRHS: case_nrhs(t->r, t->prec); break;
    case K_SPECIAL: case_special(t->r, t->prec); break;
    case K_TAIL: case_tail(t->r, t->prec); break;
    case K_PAGE_END: case_page_end(t->r, t->prec); break;
    case K_BATCH: case_batch(t->r, t->prec); break;
    case K_BLOCKED: case_blocked(t->r, t->prec); break;
    case K_BLOCKED_RECT: case_blocked_rect(t->prec); break;
    case K_BLOCKED_SINGULAR: case_blocked_singular(t->r, t->prec); break;
    case K_BLOCKED_NAN: case_blocked_nan(t->r, t->prec); break;
    case K_BLOCKED_TIES: case_blocked_ties(t->r, t->prec); break;
    case K_BLOCKED_LARGE: case_blocked_batch_large(t->r, t->prec); break;
    case K_BLOCKED_PAGE_END: case_blocked_page_end(t->r, t->prec); break;
    }
}

static const char *case_name(int i) { return g_cases[i].name; }
static void run_index(int i) { run_case(&g_cases[i]); }

/* Cases judge shoal's own kernels: the vendor serves only where a case asks for it. */
static int start(shoal_handle h)
{
    g_big_batch = gpu_test_env_count("SHOAL_TEST_BIG_BATCH", g_big_batch);
    shoal_set_vendor_dispatch(h, 0);
    return 0;
}

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_index, start, NULL};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
