/* GPU correctness of shoal's Cholesky (potrf, potrs, posv) and QR (geqrf) calls, strided and
 * pointer-array, against the host checks of tuner/spec_chol_qr.c (oracle/lapack_check.c).
 *
 * Every run draws its inputs with the spec generators (SPD matrices for the Cholesky routines,
 * a genuine Cholesky factor for potrs, uniform [-1, 1] for geqrf; a pool of distinct problems
 * tiled over large batches), lays them out with ld = rows + pad and gaps between matrices, and
 * fills everything else with NaNs carrying a recognizable payload: padding, gaps, a guard after
 * the last matrix and, where asked, the triangle that the Cholesky routines do not reference.
 * After the call:
 *  - every element outside what the routine may write (the stored triangle for potrf/posv, all
 *    of A for geqrf, B for potrs and for posv where info = 0, tau) is bit-identical to before;
 *  - info (poisoned with -7 before the call) is 0 for every SPD matrix, and for the matrices
 *    made not positive definite on purpose (a negative diagonal entry at column j, or a NaN) it
 *    is exactly the host Cholesky's j; their factor columns 1..j-1 match the host's, the pivot
 *    A(j, j) is not positive, and posv leaves their B unchanged (bit for bit);
 *  - every other matrix passes the spec's check (normalized residual <= LAPACK_ERROR_LIMIT).
 * Vendor dispatch is off (shoal_set_vendor_dispatch(h, 0)) except in the *_vendor cases.
 * c and z (issue 28): the same cases with complex inputs; the Cholesky inputs are Hermitian
 * positive definite with a stray nonzero imaginary part on the diagonal, which the routines must
 * not read (the checks use the Hermitian matrix with the real diagonal, and the factor's diagonal
 * must come back exactly real, a failed pivot included); the *_diag_imag cases make that part a
 * NaN in every matrix, which must change nothing. A NaN matrix carries its NaN in an imaginary
 * part only (a NaN there on the diagonal is ignored like the stray part: info 0 and a passing
 * factor). geqrf is zgeqrf: complex tau and R's diagonal real. shoal_lapack_kernel_name must
 * answer every run's query (a failure fails the run).
 * The *_tail cases (issue 29) drop the guard: A, B, tau and info each end at their last matrix's
 * last element (info: the last entry) and start 0..3 elements into their own allocation, so a
 * read past an operand leaves the allocation, which memcheck (make sanitize) reports; the checks
 * above apply unchanged. The *_page_end cases (last in the table) end them at the end of a mapped
 * page with the next page unmapped (gpu_test_page_end_alloc; pointer arrays in order), so that a
 * read past them faults on the hardware even without compute-sanitizer.
 * The *_blocked* cases: potrf, potrs and posv above the kernels' n = 32, served by the drivers
 * (potrf kernels on diagonal blocks of at most 32, TRSM, SYRK/HERK) up to n = 1024: sizes around
 * multiples of 32 and the drivers' splits, lda, ldb > n, nrhs 1 and n / 4, batch 1, a batch of
 * 70001 (d: past the drivers' 65536-matrix chunks), not-PD matrices failing in the first, a
 * middle and the last block and on either side of the top split, NaN matrices, NaN diagonal
 * imaginary parts, tail and page-end layouts. The checks are the same, except that above n = 32
 * posv's B of a failed matrix holds intermediate values (not checked: the driver solves every
 * matrix), and runs with failing matrices also check the contract's isolation: the same call with
 * the failing matrices made good (the "twin") gives every other matrix bit for bit the same A, B
 * and info. The host checks cost O(n^3) per matrix, so the batches of the large sizes are small.
 *
 * Usage: test_chol_qr_gpu              run every case
 *        test_chol_qr_gpu --list       print the case names (needs no GPU)
 *        test_chol_qr_gpu --case NAME  run one case
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device ("SKIP: ..." on stdout).
 */
#define _POSIX_C_SOURCE 200809L

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

extern const lapack_spec lapack_spec_potrf, lapack_spec_potrs, lapack_spec_posv, lapack_spec_geqrf;

enum routine { R_POTRF, R_POTRS, R_POSV, R_GEQRF, R_COUNT };
static const char *const ROUTINE_NAME[R_COUNT] = {"potrf", "potrs", "posv", "geqrf"};

#define MODE_STRIDED 1
#define MODE_ARRAY 2
#define GUARD 37
#define KERNEL_MAX_N 32 /* above it the Cholesky routines are served by the blocked drivers */
#define MAX_BAD_COLS 12
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Quiet NaNs with a payload naming the buffer (A, B, tau). */
static const uint32_t POISON_S[3] = {0x7fc0aaaau, 0x7fc0bbbbu, 0x7fc0ccccu};
static const uint64_t POISON_D[3] = {0x7ff80000aaaaaaaaull, 0x7ff80000bbbbbbbbull, 0x7ff80000ccccccccull};

/* One run: a routine, a shape, its layout, what goes wrong on purpose, which call modes. */
typedef struct tcfg {
    int routine;
    char prec;
    int uplo;         /* Cholesky: 0 lower, 1 upper */
    int m, n, nrhs;   /* m = n except geqrf; nrhs for potrs/posv */
    int pad;          /* ld = rows + pad (A and B) */
    int64_t gap;      /* extra poisoned elements between matrices (and tau vectors) */
    int64_t batch;
    int modes;        /* MODE_STRIDED | MODE_ARRAY */
    int vendor;       /* vendor dispatch on */
    int nan_other;    /* Cholesky: the unreferenced triangle is NaN */
    int bad_every;    /* Cholesky: matrices b = bad_every - 1, 2 bad_every - 1, ... are not PD */
    int64_t nan_at;   /* a matrix with one NaN entry in its referenced part (-1: none) */
    int pool;         /* distinct problems tiled over the batch */
    int tail;         /* 1..4: no guard, every buffer ends at its last matrix's last element and
                         starts tail - 1 elements into its allocation (gpu_test_tail_alloc) */
    int page_end;     /* no guard, every buffer ends at the end of a mapped page, the next page
                         unmapped (gpu_test_page_end_alloc); pointer arrays in order, so the
                         last problem's matrices end the pages */
    int nan_diag_imag; /* c/z potrf, posv: every diagonal's imaginary part is a NaN (not read) */
    int bad_cols[MAX_BAD_COLS]; /* the failing minors (1-based) of the not-PD matrices, in turn; */
    int n_bad_cols;             /* 0: column (b / bad_every) % n + 1 */
    int twin;         /* the call again with the not-PD and NaN matrices made good: every other
                         matrix's A, B and info must be bit-identical (twin_check) */
    int zero_col;     /* geqrf: column zero_col - 1 is all zeros in every third matrix (b % 3 == 1):
                         its tau must be exactly 0 (H = I, as LAPACK's larfg); 0: none */
    int zero_every;   /* geqrf: matrices b % zero_every == zero_every - 1 are all zeros (every tau
                         exactly 0); 0: none */
} tcfg;

typedef struct tdata {
    size_t es;                 /* bytes per element */
    int w;                     /* reals per element: 2 for c and z (host doubles as (re, im)) */
    int rows_a, cols_a, k;     /* A is rows_a x cols_a; k = min(m, n) (tau) */
    int64_t lda, ldb, sta, stb, stt;
    int64_t na, nb, nt;        /* buffer sizes in elements */
    void *ha0, *ha, *hb0, *hb, *ht0, *ht; /* host: before and after */
    int *hinfo, *expect;       /* info read back; expected info (0, j > 0, or -1: do not check) */
    unsigned char *wa, *wb, *wt; /* element may be written by the call */
    void *da, *db, *dt;
    int *dinfo;
    void **dap, **dbp, **dtp;
    void *allocs[4];           /* what gpu_test_free takes for da, db, dt, dinfo */
    double *pool_a, *pool_b;   /* pool of generated problems (packed, double) */
} tdata;

static shoal_handle g_h;
static cudaEvent_t g_ev0, g_ev1;
static uint64_t g_case_seed;
static int g_run_index;

static uint64_t mix64(uint64_t a, uint64_t b)
{
    uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Element i, every real part a NaN with the buffer's payload. */
static void set_poison(char prec, void *x, int64_t i, int which)
{
    for (int q = 0; q < elem_reals(prec); ++q) {
        const int64_t r = i * elem_reals(prec) + q;
        if (elem_single(prec))
            memcpy((char *)x + 4 * r, &POISON_S[which], 4);
        else
            memcpy((char *)x + 8 * r, &POISON_D[which], 8);
    }
}

static void fill_poison(char prec, void *x, int64_t count, int which)
{
    for (int64_t i = 0; i < count; ++i) set_poison(prec, x, i, which);
}

static const lapack_spec *spec_of(int routine)
{
    switch (routine) {
    case R_POTRF: return &lapack_spec_potrf;
    case R_POTRS: return &lapack_spec_potrs;
    case R_POSV: return &lapack_spec_posv;
    default: return &lapack_spec_geqrf;
    }
}

static int has_b(int routine) { return routine == R_POTRS || routine == R_POSV; }
static int has_info(int routine) { return routine == R_POTRF || routine == R_POSV; }
static int is_chol(int routine) { return routine != R_GEQRF; }

/* Matrix b lives in slot b (strided) or batch - 1 - b (pointer arrays, reversed). */
static int64_t slot_of(const tcfg *c, int mode, int64_t b)
{
    return mode == MODE_ARRAY && !c->page_end ? c->batch - 1 - b : b;
}

/* A device buffer as the run's layout asks: at a page end, or at its allocation's end */
static void *place_alloc(const tcfg *c, void **alloc, size_t count, size_t es, int shift)
{
    return c->page_end ? gpu_test_page_end_alloc(alloc, count, es) : gpu_test_tail_alloc(alloc, count, es, shift);
}

/* Whether posv leaves the B of a matrix whose factorization fails unchanged: so where one kernel
 * factors and solves (n <= 32); the blocked driver (n > 32) solves every matrix of the batch, so
 * the failed ones' B hold intermediate values there (not checked). */
static int posv_keeps_failed_b(const tcfg *c) { return c->n <= KERNEL_MAX_N; }

/* geqrf: element column j of matrix b set to zero (tcfg's zero_col, zero_every) */
static int qr_zero_col(const tcfg *c, int64_t b, int j)
{
    if (c->routine != R_GEQRF) return 0;
    return (c->zero_every > 0 && b % c->zero_every == c->zero_every - 1) || (c->zero_col == j + 1 && b % 3 == 1);
}

static int is_bad(const tcfg *c, int64_t b)
{
    return is_chol(c->routine) && c->routine != R_POTRS && c->bad_every > 0 && b % c->bad_every == c->bad_every - 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Set-up */

static void setup(const tcfg *c, tdata *d)
{
    memset(d, 0, sizeof *d);
    d->w = elem_reals(c->prec);
    d->es = (size_t)d->w * (elem_single(c->prec) ? 4 : 8);
    d->rows_a = c->m;
    d->cols_a = c->n;
    d->k = c->m < c->n ? c->m : c->n;
    d->lda = d->rows_a + c->pad;
    d->sta = d->lda * d->cols_a + c->gap;
    d->na = c->batch * d->sta + GUARD;
    if (has_b(c->routine)) {
        d->ldb = c->n + c->pad;
        d->stb = d->ldb * c->nrhs + c->gap;
        d->nb = c->batch * d->stb + GUARD;
    }
    if (c->routine == R_GEQRF) {
        d->stt = d->k + c->gap;
        d->nt = c->batch * d->stt + GUARD;
    }
    if ((c->tail || c->page_end) && c->batch > 0) { /* nothing after the last matrix's last element */
        d->na = (c->batch - 1) * d->sta + d->lda * (d->cols_a - 1) + d->rows_a;
        if (has_b(c->routine))
            d->nb = (c->batch - 1) * d->stb + d->ldb * (c->nrhs - 1) + c->n;
        if (c->routine == R_GEQRF)
            d->nt = (c->batch - 1) * d->stt + d->k;
    }
    size_t es = d->es;
    const int shift = c->tail ? c->tail - 1 : 0;
    d->ha0 = xmalloc((size_t)d->na * es);
    d->ha = xmalloc((size_t)d->na * es);
    d->wa = xmalloc((size_t)d->na);
    d->da = place_alloc(c, &d->allocs[0], (size_t)d->na, es, shift);
    if (d->nb) {
        d->hb0 = xmalloc((size_t)d->nb * es);
        d->hb = xmalloc((size_t)d->nb * es);
        d->wb = xmalloc((size_t)d->nb);
        d->db = place_alloc(c, &d->allocs[1], (size_t)d->nb, es, shift);
    }
    if (d->nt) {
        d->ht0 = xmalloc((size_t)d->nt * es);
        d->ht = xmalloc((size_t)d->nt * es);
        d->wt = xmalloc((size_t)d->nt);
        d->dt = place_alloc(c, &d->allocs[2], (size_t)d->nt, es, shift);
    }
    d->hinfo = xmalloc((size_t)c->batch * sizeof(int));
    d->expect = xmalloc((size_t)c->batch * sizeof(int));
    d->dinfo = place_alloc(c, &d->allocs[3], (size_t)c->batch, sizeof(int), shift);
    if (c->modes & MODE_ARRAY) {
        CUDA_CHECK(cudaMalloc((void **)&d->dap, (size_t)c->batch * sizeof(void *)));
        if (d->nb)
            CUDA_CHECK(cudaMalloc((void **)&d->dbp, (size_t)c->batch * sizeof(void *)));
        if (d->nt)
            CUDA_CHECK(cudaMalloc((void **)&d->dtp, (size_t)c->batch * sizeof(void *)));
    }
    /* the pool of distinct problems */
    int pool = c->pool < c->batch ? c->pool : (int)c->batch;
    size_t ael = (size_t)d->w * c->m * c->n, bel = (size_t)d->w * c->n * (c->nrhs > 0 ? c->nrhs : 1);
    d->pool_a = xmalloc((size_t)pool * ael * sizeof(double));
    d->pool_b = xmalloc((size_t)pool * bel * sizeof(double));
    const lapack_spec *sp = spec_of(c->routine);
    /* in parallel: each problem from its own seed (O(n^3) for potrs' factor at the blocked sizes) */
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < pool; ++i)
        sp->generate(c->m, c->n, c->nrhs, c->uplo, d->w == 2,
                     mix64(g_case_seed, ((uint64_t)g_run_index << 32) + (uint64_t)i), d->pool_a + (size_t)i * ael,
                     has_b(c->routine) ? d->pool_b + (size_t)i * bel : NULL, NULL);
}

static void free_data(tdata *d)
{
    free(d->ha0);
    free(d->ha);
    free(d->wa);
    free(d->hb0);
    free(d->hb);
    free(d->wb);
    free(d->ht0);
    free(d->ht);
    free(d->wt);
    free(d->hinfo);
    free(d->expect);
    free(d->pool_a);
    free(d->pool_b);
    for (int i = 0; i < COUNT(d->allocs); ++i)
        gpu_test_free(d->allocs[i]);
    cudaFree(d->dap);
    cudaFree(d->dbp);
    cudaFree(d->dtp);
}

/* Lays out the inputs of every matrix for one call mode and marks what the call may write. */
static void fill_inputs(const tcfg *c, tdata *d, int mode)
{
    const char p = c->prec;
    const int m = c->m, n = c->n, nrhs = c->nrhs;
    const int pool = c->pool < c->batch ? c->pool : (int)c->batch, w = d->w;
    const size_t ael = (size_t)m * n, bel = (size_t)n * (nrhs > 0 ? nrhs : 1);
    fill_poison(p, d->ha0, d->na, 0);
    memset(d->wa, 0, (size_t)d->na);
    if (d->nb) {
        fill_poison(p, d->hb0, d->nb, 1);
        memset(d->wb, 0, (size_t)d->nb);
    }
    if (d->nt) {
        fill_poison(p, d->ht0, d->nt, 2);
        memset(d->wt, 0, (size_t)d->nt);
    }
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < c->batch; ++b) {
        const int64_t s = slot_of(c, mode, b);
        const double *a = d->pool_a + (size_t)(b % pool) * ael * w;
        const int64_t oa = s * d->sta;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                const int64_t e = oa + i + j * d->lda;
                if (is_chol(c->routine) && c->nan_other && !oracle_in_tri(c->uplo, i, j)) {
                    set_poison(p, d->ha0, e, 0);
                    continue;
                }
                elem_put(p, d->ha0, e, a, i + (size_t)j * m);
                if (w == 2 && c->nan_diag_imag && i == j)
                    elem_set_real(p, d->ha0, 2 * e + 1, NAN);
                if (c->routine == R_GEQRF || (c->routine != R_POTRS && oracle_in_tri(c->uplo, i, j)))
                    d->wa[e] = 1;
                if (qr_zero_col(c, b, j))
                    for (int q = 0; q < w; ++q) elem_set_real(p, d->ha0, e * w + q, 0.0);
            }
        int expect = 0;
        if (is_bad(c, b)) {
            /* a negative diagonal entry at column j: the leading minor of order j is not PD */
            const int64_t k = b / c->bad_every;
            const int j = c->n_bad_cols > 0 ? c->bad_cols[k % c->n_bad_cols] - 1 : (int)(k % n);
            elem_set_real(p, d->ha0, (oa + j + (int64_t)j * d->lda) * w, -1.0 - (double)(b % 7)); /* the real part */
            expect = j + 1;
        }
        if (b == c->nan_at) {
            /* one NaN in the referenced part (lower view (r, col)) */
            const int r = (int)(mix64((uint64_t)b, 7) % (uint64_t)n), col = (int)(mix64((uint64_t)b, 9) % (uint64_t)(r + 1));
            int i = r, j = col;
            if (is_chol(c->routine) && c->uplo) {
                i = col;
                j = r;
            }
            if (c->routine == R_GEQRF)
                i = (int)(mix64((uint64_t)b, 11) % (uint64_t)m);
            /* complex: in the imaginary part (on the diagonal: not read, info 0) */
            elem_set_real(p, d->ha0, (oa + i + (int64_t)j * d->lda) * w + (w - 1), NAN);
            expect = -2; /* potrf/posv: the host's info; potrs/geqrf: not checked */
        }
        d->expect[b] = expect;
        if (has_b(c->routine)) {
            const double *bb = d->pool_b + (size_t)(b % pool) * bel * w;
            const int64_t ob = s * d->stb;
            const int written = c->routine == R_POTRS || expect == 0 || !posv_keeps_failed_b(c);
            for (int j = 0; j < nrhs; ++j)
                for (int i = 0; i < n; ++i) {
                    elem_put(p, d->hb0, ob + i + j * d->ldb, bb, i + (size_t)j * n);
                    if (written)
                        d->wb[ob + i + j * d->ldb] = 1;
                }
        }
        if (c->routine == R_GEQRF)
            for (int j = 0; j < d->k; ++j)
                d->wt[s * d->stt + j] = 1;
    }
    /* expected info of the NaN matrix: what the host's Cholesky says */
    if (c->nan_at >= 0 && c->nan_at < c->batch && has_info(c->routine)) {
        const int64_t s = slot_of(c, mode, c->nan_at);
        double *t = xmalloc(ael * w * sizeof(double));
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                elem_get(p, d->ha0, s * d->sta + i + j * d->lda, t, i + (size_t)j * n);
        d->expect[c->nan_at] = w == 2 ? oracle_zpotf2(n, c->uplo, t, n) : oracle_potf2(n, c->uplo, t, n);
        free(t);
    } else if (c->nan_at >= 0 && c->nan_at < c->batch) {
        d->expect[c->nan_at] = -1;
    }
    /* B of a posv matrix whose factorization fails is not written (n <= 32); one whose NaN the
     * routine does not read (c/z: the imaginary part of a diagonal element) is solved */
    if (c->routine == R_POSV && c->nan_at >= 0 && c->nan_at < c->batch) {
        const int64_t ob = slot_of(c, mode, c->nan_at) * d->stb;
        for (int j = 0; j < nrhs; ++j)
            memset(d->wb + ob + j * d->ldb, d->expect[c->nan_at] == 0 || !posv_keeps_failed_b(c), (size_t)n);
    }
}

static void upload(const tcfg *c, tdata *d, int mode)
{
    const size_t es = d->es;
    CUDA_CHECK(cudaMemcpy(d->da, d->ha0, (size_t)d->na * es, cudaMemcpyHostToDevice));
    if (d->nb)
        CUDA_CHECK(cudaMemcpy(d->db, d->hb0, (size_t)d->nb * es, cudaMemcpyHostToDevice));
    if (d->nt)
        CUDA_CHECK(cudaMemcpy(d->dt, d->ht0, (size_t)d->nt * es, cudaMemcpyHostToDevice));
    for (int64_t b = 0; b < c->batch; ++b)
        d->hinfo[b] = -7;
    CUDA_CHECK(cudaMemcpy(d->dinfo, d->hinfo, (size_t)c->batch * sizeof(int), cudaMemcpyHostToDevice));
    if (mode == MODE_ARRAY) {
        void **h = xmalloc((size_t)c->batch * sizeof(void *));
        for (int64_t b = 0; b < c->batch; ++b)
            h[b] = (char *)d->da + (size_t)(slot_of(c, mode, b) * d->sta) * es;
        CUDA_CHECK(cudaMemcpy(d->dap, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
        if (d->nb) {
            for (int64_t b = 0; b < c->batch; ++b)
                h[b] = (char *)d->db + (size_t)(slot_of(c, mode, b) * d->stb) * es;
            CUDA_CHECK(cudaMemcpy(d->dbp, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
        }
        if (d->nt) {
            for (int64_t b = 0; b < c->batch; ++b)
                h[b] = (char *)d->dt + (size_t)(slot_of(c, mode, b) * d->stt) * es;
            CUDA_CHECK(cudaMemcpy(d->dtp, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
        }
        free(h);
    }
}

static void download(const tcfg *c, tdata *d)
{
    const size_t es = d->es;
    CUDA_CHECK(cudaMemcpy(d->ha, d->da, (size_t)d->na * es, cudaMemcpyDeviceToHost));
    if (d->nb)
        CUDA_CHECK(cudaMemcpy(d->hb, d->db, (size_t)d->nb * es, cudaMemcpyDeviceToHost));
    if (d->nt)
        CUDA_CHECK(cudaMemcpy(d->ht, d->dt, (size_t)d->nt * es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d->hinfo, d->dinfo, (size_t)c->batch * sizeof(int), cudaMemcpyDeviceToHost));
}

/* ------------------------------------------------------------------------------------------ */
/* Calling shoal */

static shoal_status call_shoal(const tcfg *c, const tdata *d, int mode)
{
    const shoal_fill_mode uplo = c->uplo ? SHOAL_FILL_UPPER : SHOAL_FILL_LOWER;
    const int n = c->n, nrhs = c->nrhs;
    const int64_t batch = c->batch, lda = d->lda, ldb = d->ldb;
    const int arr = mode == MODE_ARRAY;
    /* one dispatch per precision: the pointer types differ, the argument lists do not */
#define CHOL_QR_CALLS(p, T)                                                                                       \
    do {                                                                                                          \
        T *A = d->da, *B = d->db, *tau = d->dt;                                                                   \
        T *const *Ap = (T *const *)d->dap, *const *Bp = (T *const *)d->dbp, *const *Tp = (T *const *)d->dtp;     \
        switch (c->routine) {                                                                                     \
        case R_POTRF:                                                                                             \
            return arr ? shoal_##p##potrf_batched(g_h, uplo, n, Ap, lda, d->dinfo, batch)                         \
                       : shoal_##p##potrf_strided_batched(g_h, uplo, n, A, lda, d->sta, d->dinfo, batch);         \
        case R_POTRS:                                                                                             \
            return arr ? shoal_##p##potrs_batched(g_h, uplo, n, nrhs, (const T *const *)Ap, lda, Bp, ldb, batch)  \
                       : shoal_##p##potrs_strided_batched(g_h, uplo, n, nrhs, A, lda, d->sta, B, ldb, d->stb, batch); \
        case R_POSV:                                                                                              \
            return arr ? shoal_##p##posv_batched(g_h, uplo, n, nrhs, Ap, lda, Bp, ldb, d->dinfo, batch)           \
                       : shoal_##p##posv_strided_batched(g_h, uplo, n, nrhs, A, lda, d->sta, B, ldb, d->stb,      \
                                                         d->dinfo, batch);                                        \
        default:                                                                                                  \
            return arr ? shoal_##p##geqrf_batched(g_h, c->m, n, Ap, lda, Tp, batch)                               \
                       : shoal_##p##geqrf_strided_batched(g_h, c->m, n, A, lda, d->sta, tau, d->stt, batch);      \
        }                                                                                                         \
    } while (0)
    if (c->prec == 'c') CHOL_QR_CALLS(c, shoal_complex_float);
    if (c->prec == 'z') CHOL_QR_CALLS(z, shoal_complex_double);
#undef CHOL_QR_CALLS
    if (c->prec == 's') {
        float *A = d->da, *B = d->db, *tau = d->dt;
        float *const *Ap = (float *const *)d->dap, *const *Bp = (float *const *)d->dbp;
        float *const *Tp = (float *const *)d->dtp;
        switch (c->routine) {
        case R_POTRF:
            return arr ? shoal_spotrf_batched(g_h, uplo, n, Ap, lda, d->dinfo, batch)
                       : shoal_spotrf_strided_batched(g_h, uplo, n, A, lda, d->sta, d->dinfo, batch);
        case R_POTRS:
            return arr ? shoal_spotrs_batched(g_h, uplo, n, nrhs, (const float *const *)Ap, lda, Bp, ldb, batch)
                       : shoal_spotrs_strided_batched(g_h, uplo, n, nrhs, A, lda, d->sta, B, ldb, d->stb, batch);
        case R_POSV:
            return arr ? shoal_sposv_batched(g_h, uplo, n, nrhs, Ap, lda, Bp, ldb, d->dinfo, batch)
                       : shoal_sposv_strided_batched(g_h, uplo, n, nrhs, A, lda, d->sta, B, ldb, d->stb, d->dinfo,
                                                     batch);
        default:
            return arr ? shoal_sgeqrf_batched(g_h, c->m, n, Ap, lda, Tp, batch)
                       : shoal_sgeqrf_strided_batched(g_h, c->m, n, A, lda, d->sta, tau, d->stt, batch);
        }
    }
    double *A = d->da, *B = d->db, *tau = d->dt;
    double *const *Ap = (double *const *)d->dap, *const *Bp = (double *const *)d->dbp;
    double *const *Tp = (double *const *)d->dtp;
    switch (c->routine) {
    case R_POTRF:
        return arr ? shoal_dpotrf_batched(g_h, uplo, n, Ap, lda, d->dinfo, batch)
                   : shoal_dpotrf_strided_batched(g_h, uplo, n, A, lda, d->sta, d->dinfo, batch);
    case R_POTRS:
        return arr ? shoal_dpotrs_batched(g_h, uplo, n, nrhs, (const double *const *)Ap, lda, Bp, ldb, batch)
                   : shoal_dpotrs_strided_batched(g_h, uplo, n, nrhs, A, lda, d->sta, B, ldb, d->stb, batch);
    case R_POSV:
        return arr ? shoal_dposv_batched(g_h, uplo, n, nrhs, Ap, lda, Bp, ldb, d->dinfo, batch)
                   : shoal_dposv_strided_batched(g_h, uplo, n, nrhs, A, lda, d->sta, B, ldb, d->stb, d->dinfo,
                                                 batch);
    default:
        return arr ? shoal_dgeqrf_batched(g_h, c->m, n, Ap, lda, Tp, batch)
                   : shoal_dgeqrf_strided_batched(g_h, c->m, n, A, lda, d->sta, tau, d->stt, batch);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Checking */

/* A failed Cholesky (info = j > 0 expected): columns 1..j-1 of the lower view match the host's
 * factor, F(j, j) is not positive and close to the host's pivot. Returns 0 when acceptable. */
static int check_failed_factor(const tcfg *c, const double *A0, const double *A, int j, double eps, char *why,
                               size_t len)
{
    const int n = c->n, up = c->uplo, w = elem_reals(c->prec);
    double *ref = xmalloc((size_t)w * n * n * sizeof(double));
    memcpy(ref, A0, (size_t)w * n * n * sizeof(double));
    (void)(w == 2 ? oracle_zpotf2(n, up, ref, n) : oracle_potf2(n, up, ref, n));
    double scale = 0.0, worst = 0.0;
    for (int col = 0; col < j - 1; ++col)
        for (int r = col; r < n; ++r) {
            const double *x = &ref[w * oracle_fidx(n, up, r, col)];
            const double ax = w == 2 ? hypot(x[0], x[1]) : fabs(x[0]);
            if (ax > scale)
                scale = ax;
        }
    for (int col = 0; col < j - 1; ++col)
        for (int r = col; r < n; ++r) {
            const double *x = &A[w * oracle_fidx(n, up, r, col)], *y = &ref[w * oracle_fidx(n, up, r, col)];
            const int xnan = isnan(x[0]) || (w == 2 && isnan(x[1])), ynan = isnan(y[0]) || (w == 2 && isnan(y[1]));
            if (xnan && ynan)
                continue; /* NaN where the host has NaN (a NaN input) */
            const double e = w == 2 ? hypot(x[0] - y[0], x[1] - y[1]) : fabs(x[0] - y[0]);
            if (!(e <= worst))
                worst = e;
        }
    int bad = 0;
    if (j > 1 && !(worst <= 64.0 * n * eps * (scale > 1.0 ? scale : 1.0))) {
        snprintf(why, len, " factor columns 1..%d differ from the host's by %.3g", j - 1, worst);
        bad = 1;
    }
    const size_t jj = (size_t)w * oracle_fidx(n, up, j - 1, j - 1);
    const double piv = A[jj], rpiv = ref[jj];
    const double a0 = fabs(A0[jj]);
    if (w == 2 && A[jj + 1] != 0.0) { /* zpotf2 writes the failed pivot real too */
        snprintf(why, len, " pivot A(%d,%d) has imaginary part %.6g", j, j, A[jj + 1]);
        bad = 1;
    } else if (piv > 0.0) {
        snprintf(why, len, " pivot A(%d,%d) = %.6g is positive", j, j, piv);
        bad = 1;
    } else if (rpiv == rpiv && !(fabs(piv - rpiv) <= 64.0 * n * eps * (a0 + scale * scale + 1.0))) {
        snprintf(why, len, " pivot A(%d,%d) = %.6g, host %.6g", j, j, piv, rpiv);
        bad = 1;
    }
    free(ref);
    return bad;
}

typedef struct verdict {
    double worst;         /* largest normalized error of the checked matrices */
    int64_t worst_b;
    int64_t bad_info, first_bad_info;
    int64_t bad_fail, first_bad_fail; /* failed matrices not as expected */
    int64_t touched, first_touched;   /* elements that must not change but did */
    char why[160];
} verdict;

static void check_all(const tcfg *c, tdata *d, int mode, verdict *v)
{
    const char p = c->prec;
    const int m = c->m, n = c->n, nrhs = c->nrhs, k = d->k, w = d->w;
    const double eps = oracle_eps(p);
    const lapack_spec *sp = spec_of(c->routine);
    memset(v, 0, sizeof *v);
    v->worst_b = v->first_bad_info = v->first_bad_fail = v->first_touched = -1;
    /* untouched elements */
    for (int64_t e = 0; e < d->na; ++e)
        if (!d->wa[e] && memcmp((char *)d->ha + e * d->es, (char *)d->ha0 + e * d->es, d->es)) {
            if (v->first_touched < 0)
                v->first_touched = e;
            ++v->touched;
        }
    for (int64_t e = 0; e < d->nb; ++e)
        if (!d->wb[e] && memcmp((char *)d->hb + e * d->es, (char *)d->hb0 + e * d->es, d->es)) {
            if (v->first_touched < 0)
                v->first_touched = e;
            ++v->touched;
        }
    for (int64_t e = 0; e < d->nt; ++e)
        if (!d->wt[e] && memcmp((char *)d->ht + e * d->es, (char *)d->ht0 + e * d->es, d->es)) {
            if (v->first_touched < 0)
                v->first_touched = e;
            ++v->touched;
        }
    double worst = 0.0;
    int64_t worst_b = -1, bad_info = 0, first_bad_info = -1, bad_fail = 0, first_bad_fail = -1;
    char fail_why[160] = "";
    /* a check costs O(n^3): the blocked sizes' few matrices one per thread */
    const int chunk = n > KERNEL_MAX_N ? 1 : 256;
#pragma omp parallel
    {
        const size_t ael = (size_t)w * m * n, bel = (size_t)w * n * (nrhs > 0 ? nrhs : 1);
        double *A0 = xmalloc(ael * sizeof(double)), *A = xmalloc(ael * sizeof(double));
        double *B0 = xmalloc(bel * sizeof(double)), *B = xmalloc(bel * sizeof(double));
        double *tau = xmalloc((size_t)w * (k > 0 ? k : 1) * sizeof(double));
        double my_worst = 0.0;
        int64_t my_worst_b = -1;
#pragma omp for schedule(dynamic, chunk)
        for (int64_t b = 0; b < c->batch; ++b) {
            const int64_t s = slot_of(c, mode, b);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i) {
                    elem_get(p, d->ha0, s * d->sta + i + j * d->lda, A0, i + (size_t)j * m);
                    elem_get(p, d->ha, s * d->sta + i + j * d->lda, A, i + (size_t)j * m);
                }
            if (has_b(c->routine))
                for (int j = 0; j < nrhs; ++j)
                    for (int i = 0; i < n; ++i) {
                        elem_get(p, d->hb0, s * d->stb + i + j * d->ldb, B0, i + (size_t)j * n);
                        elem_get(p, d->hb, s * d->stb + i + j * d->ldb, B, i + (size_t)j * n);
                    }
            int zero_tau = 1; /* the tau of every all-zero column is exactly 0 */
            for (int j = 0; j < k && c->routine == R_GEQRF; ++j) {
                elem_get(p, d->ht, s * d->stt + j, tau, (size_t)j);
                if (qr_zero_col(c, b, j) && b != c->nan_at &&
                    (tau[(size_t)j * w] != 0.0 || tau[(size_t)j * w + w - 1] != 0.0))
                    zero_tau = 0;
            }
            if (!zero_tau) {
#pragma omp critical
                {
                    if (first_bad_fail < 0 || b < first_bad_fail) {
                        first_bad_fail = b;
                        snprintf(fail_why, sizeof fail_why, " tau of an all-zero column not 0");
                    }
                    ++bad_fail;
                }
                continue;
            }
            const int expect = d->expect[b];
            const int info = has_info(c->routine) ? d->hinfo[b] : 0;
            if (has_info(c->routine) && expect >= 0 && info != expect) {
#pragma omp critical
                {
                    if (first_bad_info < 0 || b < first_bad_info)
                        first_bad_info = b;
                    ++bad_info;
                }
                continue;
            }
            if (expect < 0)
                continue; /* NaN input without info to check */
            if (expect > 0) {
                char why[160] = "";
                if (check_failed_factor(c, A0, A, expect, eps, why, sizeof why)) {
#pragma omp critical
                    {
                        if (first_bad_fail < 0 || b < first_bad_fail) {
                            first_bad_fail = b;
                            memcpy(fail_why, why, sizeof why);
                        }
                        ++bad_fail;
                    }
                }
                continue;
            }
            lapack_problem pr;
            memset(&pr, 0, sizeof pr);
            pr.m = m;
            pr.n = n;
            pr.nrhs = nrhs;
            pr.variant = c->uplo;
            pr.is_complex = w == 2;
            pr.A0 = A0;
            pr.A = A;
            pr.B0 = has_b(c->routine) ? B0 : NULL;
            pr.B = has_b(c->routine) ? B : NULL;
            pr.tau = c->routine == R_GEQRF ? tau : NULL;
            pr.info = info;
            /* potrs reads A only: its A0 is the factor as given; the nan_other poison of the
             * unreferenced triangle is compared bit for bit above, not by the spec */
            double e = sp->check(&pr, eps);
            if (!(e <= my_worst)) {
                my_worst = e;
                my_worst_b = b;
            }
        }
#pragma omp critical
        {
            if (!(my_worst <= worst) || (worst_b < 0 && my_worst_b >= 0)) {
                worst = my_worst;
                worst_b = my_worst_b;
            }
        }
        free(A0);
        free(A);
        free(B0);
        free(B);
        free(tau);
    }
    v->worst = worst;
    v->worst_b = worst_b;
    v->bad_info = bad_info;
    v->first_bad_info = first_bad_info;
    v->bad_fail = bad_fail;
    v->first_bad_fail = first_bad_fail;
    size_t u = 0;
    v->why[0] = '\0';
    if (!(worst <= LAPACK_ERROR_LIMIT) && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " worst at matrix %lld", (long long)worst_b);
    if (bad_info && u < sizeof v->why) {
        int64_t b = first_bad_info;
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " %lld wrong info, first matrix %lld: %d (expected %d)",
                              (long long)bad_info, (long long)b, d->hinfo[b], d->expect[b]);
    }
    if (bad_fail && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " %lld failed matrices wrong, first %lld:%s",
                              (long long)bad_fail, (long long)first_bad_fail, fail_why);
    if (v->touched && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " %lld element(s) changed that must not, first at %lld",
                              (long long)v->touched, (long long)v->first_touched);
}

/* The contract's isolation of failing matrices: after the checked call (d holds its outputs), the
 * same call again on the same inputs with the not-PD and NaN matrices left good. Every other
 * matrix's A, B (every element of the matrix) and info must come back bit-identical. Returns the
 * number of matrices that differ (-1: the twin call failed; why says so); d then holds the twin
 * run's data. */
static int64_t twin_check(const tcfg *c, tdata *d, int mode, char *why, size_t len)
{
    const size_t es = d->es;
    char *ha1 = xmalloc((size_t)d->na * es), *hb1 = d->nb ? xmalloc((size_t)d->nb * es) : NULL;
    int *info1 = xmalloc((size_t)c->batch * sizeof(int));
    memcpy(ha1, d->ha, (size_t)d->na * es);
    if (d->nb)
        memcpy(hb1, d->hb, (size_t)d->nb * es);
    memcpy(info1, d->hinfo, (size_t)c->batch * sizeof(int));
    tcfg t = *c;
    t.bad_every = 0;
    t.nan_at = -1;
    t.twin = 0;
    fill_inputs(&t, d, mode);
    upload(&t, d, mode);
    const shoal_status st = call_shoal(&t, d, mode);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    int64_t differ = 0, first = -1;
    if (st != SHOAL_STATUS_SUCCESS) {
        snprintf(why, len, " twin call returned %s", shoal_status_string(st));
        differ = -1;
    } else {
        download(&t, d);
        for (int64_t b = 0; b < c->batch; ++b) {
            if (is_bad(c, b) || b == c->nan_at)
                continue;
            const int64_t s = slot_of(c, mode, b);
            int same = !has_info(c->routine) || info1[b] == d->hinfo[b];
            for (int j = 0; j < d->cols_a && same; ++j) {
                const size_t o = (size_t)(s * d->sta + j * d->lda) * es;
                same = !memcmp(ha1 + o, (char *)d->ha + o, (size_t)d->rows_a * es);
            }
            for (int j = 0; j < c->nrhs && has_b(c->routine) && same; ++j) {
                const size_t o = (size_t)(s * d->stb + j * d->ldb) * es;
                same = !memcmp(hb1 + o, (char *)d->hb + o, (size_t)c->n * es);
            }
            if (!same && differ++ == 0)
                first = b;
        }
        if (differ)
            snprintf(why, len, " %lld matrices differ from the twin run's (without the failing ones), first %lld",
                     (long long)differ, (long long)first);
    }
    free(ha1);
    free(hb1);
    free(info1);
    return differ;
}

/* ------------------------------------------------------------------------------------------ */
/* Runs */

static void print_header(void)
{
    printf("# %-6s %-2s %-7s %-4s %3s %3s %4s %8s %4s %-6s %10s %9s %-6s %s\n", "rout", "p", "mode", "uplo",
           "m", "n", "nrhs", "batch", "pad", "vendor", "shoal_ms", "error", "status", "kernel / notes");
}

static void run(tcfg c)
{
    tdata d;
    c.batch = gpu_test_batch(c.batch); /* SHOAL_TEST_QUICK */
    if (c.routine != R_POTRS && c.routine != R_POSV)
        c.nrhs = 0;
    if (c.routine != R_GEQRF)
        c.m = c.n;
    if (c.pool <= 0)
        c.pool = 1024;
    setup(&c, &d);
    shoal_status vs = shoal_set_vendor_dispatch(g_h, c.vendor);
    if (vs != SHOAL_STATUS_SUCCESS) {
        printf("  shoal_set_vendor_dispatch(%d): %s FAILED\n", c.vendor, shoal_status_string(vs));
        gpu_test_record(0);
    }
    for (int mode = MODE_STRIDED; mode <= MODE_ARRAY; ++mode) {
        if (!(c.modes & mode))
            continue;
        fill_inputs(&c, &d, mode);
        upload(&c, &d, mode);
        const char *kernel = NULL;
        const char vch = is_chol(c.routine) ? (c.uplo ? 'u' : 'l') : 'n';
        const shoal_status kst = shoal_lapack_kernel_name(g_h, ROUTINE_NAME[c.routine], c.prec, mode == MODE_ARRAY,
                                                          vch, c.m, c.n, c.nrhs > 0 ? c.nrhs : 1, &kernel);
        if (kst != SHOAL_STATUS_SUCCESS || !kernel)
            kernel = "?";
        /* runs with vendor dispatch on check who served: the kernel or vendor the dispatch names,
         * or, where it names the vendor and the vendor declines the call (potrs has no info array
         * for cuSOLVER), the kernel it names with vendor dispatch off */
        const char *kernel_off = NULL;
        if (c.vendor) {
            shoal_set_vendor_dispatch(g_h, 0);
            if (shoal_lapack_kernel_name(g_h, ROUTINE_NAME[c.routine], c.prec, mode == MODE_ARRAY, vch, c.m, c.n,
                                         c.nrhs > 0 ? c.nrhs : 1, &kernel_off) != SHOAL_STATUS_SUCCESS)
                kernel_off = NULL;
            shoal_set_vendor_dispatch(g_h, 1);
        }
        gpu_test_served_reset(g_h);
        CUDA_CHECK(cudaDeviceSynchronize());
        cudaStream_t stream = 0;
        shoal_get_stream(g_h, &stream);
        CUDA_CHECK(cudaEventRecord(g_ev0, stream));
        shoal_status st = call_shoal(&c, &d, mode);
        CUDA_CHECK(cudaEventRecord(g_ev1, stream));
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaGetLastError());
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, g_ev0, g_ev1));
        verdict v;
        int ok;
        char served_why[160] = "", twin_why[120] = "";
        const char *served = NULL;
        const int served_ok =
            !c.vendor || gpu_test_check_served(g_h, strcmp(kernel, "?") ? kernel : NULL, kernel_off, &served,
                                               served_why, sizeof served_why);
        if (served) kernel = served;
        if (st != SHOAL_STATUS_SUCCESS) {
            memset(&v, 0, sizeof v);
            v.worst = INFINITY;
            snprintf(v.why, sizeof v.why, " returned %s", shoal_status_string(st));
            ok = 0;
        } else {
            download(&c, &d);
            check_all(&c, &d, mode, &v);
            ok = v.worst <= LAPACK_ERROR_LIMIT && !v.bad_info && !v.bad_fail && !v.touched;
            if (c.twin && twin_check(&c, &d, mode, twin_why, sizeof twin_why) != 0)
                ok = 0;
        }
        ok = ok && served_ok && kst == SHOAL_STATUS_SUCCESS;
        if (kst != SHOAL_STATUS_SUCCESS) {
            const size_t u = strlen(served_why);
            snprintf(served_why + u, sizeof served_why - u, " kernel_name: %s", shoal_status_string(kst));
        }
        char notes[96];
        size_t u = 0;
        notes[0] = '\0';
        if (c.gap)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " gap%lld", (long long)c.gap);
        if (c.nan_other)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " other=NaN");
        if (c.bad_every && c.routine != R_POTRS && u < sizeof notes)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " notPD/%d", c.bad_every);
        if (c.nan_at >= 0 && u < sizeof notes)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " NaN@%lld", (long long)c.nan_at);
        if (c.tail && u < sizeof notes)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " tail+%d", c.tail - 1);
        if (c.page_end && u < sizeof notes)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " page_end");
        if (c.nan_diag_imag && u < sizeof notes)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " diag.im=NaN");
        if (c.twin && u < sizeof notes)
            u += (size_t)snprintf(notes + u, sizeof notes - u, " twin");
        printf("  %-6s %-2c %-7s %-4s %3d %3d %4d %8lld %4d %-6s %10.4f %9.2e %-6s %s%s%s%s%s\n",
               ROUTINE_NAME[c.routine], c.prec, mode == MODE_ARRAY ? "array" : "strided",
               is_chol(c.routine) ? (c.uplo ? "U" : "L") : "-", c.m, c.n, c.nrhs, (long long)c.batch, c.pad,
               c.vendor ? "on" : "off", ms, v.worst, ok ? "ok" : "FAILED", kernel, notes, v.why, served_why,
               twin_why);
        fflush(stdout);
        gpu_test_record(ok);
        ++g_run_index;
    }
    shoal_set_vendor_dispatch(g_h, 1);
    free_data(&d);
}

static tcfg base(int routine, char prec, int uplo, int m, int n, int nrhs, int64_t batch)
{
    tcfg c;
    memset(&c, 0, sizeof c);
    c.routine = routine;
    c.prec = prec;
    c.uplo = uplo;
    c.m = m;
    c.n = n;
    c.nrhs = nrhs;
    c.batch = batch;
    c.modes = MODE_STRIDED | MODE_ARRAY;
    c.nan_at = -1;
    c.pool = 1024;
    return c;
}

static int uplo_count(int routine) { return is_chol(routine) ? 2 : 1; }

/* ------------------------------------------------------------------------------------------ */
/* Cases */

/* Every size lo..hi, both uplo, both call modes, a batch that leaves the last group partial. */
static void case_sizes(int r, char p, int lo, int hi)
{
    for (int n = lo; n <= hi; ++n)
        for (int u = 0; u < uplo_count(r); ++u) {
            tcfg c = base(r, p, u, n, n, 1, 97 + n);
            c.nrhs = n % 3 == 0 ? 3 : 1;
            run(c);
        }
}

/* lda = rows + 3 with NaN padding, gaps, a NaN unreferenced triangle, nrhs in {1, 3, n + 5},
 * batch 1. */
static void case_layout(int r, char p)
{
    static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 17, 24, 31, 32};
    static const int rhs[] = {1, 3, -5}; /* -5: n + 5 */
    for (int i = 0; i < COUNT(sizes); ++i)
        for (int u = 0; u < uplo_count(r); ++u) {
            const int n = sizes[i];
            tcfg c = base(r, p, u, n, n, 1, 65);
            c.pad = 3;
            c.gap = 5;
            c.nan_other = 1;
            c.nrhs = rhs[i % 3] < 0 ? n - rhs[i % 3] : rhs[i % 3];
            run(c);
            if (has_b(r)) {
                c.nrhs = rhs[(i + 1) % 3] < 0 ? n - rhs[(i + 1) % 3] : rhs[(i + 1) % 3];
                c.pad = 0;
                c.gap = 0;
                run(c);
            }
            tcfg one = base(r, p, u, n, n, n + 5, 1);
            one.pad = 3;
            one.nan_other = u;
            run(one);
        }
}

/* Large batches: 10^6 for small sizes, 10^5 + 3 for larger ones (strided; pointer arrays once). */
static void case_batch_large(int r, char p)
{
    tcfg c = base(r, p, 0, 2, 2, 1, 1000000);
    c.modes = MODE_STRIDED | MODE_ARRAY;
    run(c);
    c = base(r, p, 1 % uplo_count(r), 5, 5, 1, 1000000);
    c.modes = MODE_STRIDED;
    run(c);
    c = base(r, p, 0, 8, 8, 1, 1000003);
    c.modes = MODE_STRIDED;
    run(c);
    c = base(r, p, 1 % uplo_count(r), 16, 16, 1, 100003);
    c.modes = MODE_STRIDED;
    run(c);
    c = base(r, p, 0, 32, 32, 1, 100003);
    c.modes = MODE_STRIDED;
    run(c);
    if (r == R_GEQRF) {
        c = base(r, p, 0, 32, 16, 1, 100003);
        c.modes = MODE_STRIDED;
        run(c);
    }
}

/* Matrices that are not positive definite, and one NaN matrix, mixed into SPD batches. */
static void case_failures(int r, char p)
{
    static const int sizes[] = {1, 2, 3, 4, 7, 8, 12, 16, 17, 23, 31, 32};
    for (int i = 0; i < COUNT(sizes); ++i)
        for (int u = 0; u < 2; ++u) {
            const int n = sizes[i];
            tcfg c = base(r, p, u, n, n, i % 2 ? 3 : 1, 300);
            c.bad_every = 3 + i % 3;
            c.nan_at = 150 + i;
            c.nan_other = 1;
            c.pad = i % 2;
            run(c);
        }
    /* a large batch with failures */
    tcfg c = base(r, p, 1, 6, 6, 1, 200001);
    c.bad_every = 1000;
    c.nan_at = 100000;
    c.modes = MODE_STRIDED;
    run(c);
}

static void case_rect(char p)
{
    static const int shapes[][2] = {{32, 16}, {16, 32}, {16, 8}, {8, 4}, {4, 8}, {32, 1}, {1, 32}, {5, 3},
                                    {3, 5}, {31, 17}, {17, 31}, {2, 1}, {1, 2}, {32, 31}, {9, 24}};
    for (int i = 0; i < COUNT(shapes); ++i) {
        tcfg c = base(R_GEQRF, p, 0, shapes[i][0], shapes[i][1], 0, 129);
        c.pad = i % 2 ? 3 : 0;
        c.gap = i % 3 == 0 ? 4 : 0;
        c.nan_at = i % 4 == 0 ? 64 : -1;
        run(c);
    }
}

/* Vendor dispatch on: whatever the handle routes to must still be right on clean inputs. */
static void case_vendor(int r, char p)
{
    static const int sizes[] = {1, 2, 4, 8, 15, 16, 32};
    for (int i = 0; i < COUNT(sizes); ++i)
        for (int u = 0; u < uplo_count(r); ++u) {
            tcfg c = base(r, p, u, sizes[i], sizes[i], 1, 1000);
            c.vendor = 1;
            run(c);
        }
    if (r == R_GEQRF) {
        tcfg c = base(r, p, 0, 32, 16, 0, 1000);
        c.vendor = 1;
        run(c);
        c = base(r, p, 0, 16, 32, 0, 1000);
        c.vendor = 1;
        run(c);
    }
}

/* Issue 29: A, B, tau and info each end at the last element of their allocation and start 0..3
 * elements into it (gpu_test_tail_alloc): odd sizes, both uplo, ld > rows (the padding as wide as
 * the shift), odd gaps, nrhs in {1, 2, n + 3}, tall and wide geqrf, not-PD matrices (info > 0)
 * in some potrf/posv batches; pointer arrays place matrix 0 last (slot_of), so the allocation
 * ends at the first problem. A read past an operand leaves the allocation, which memcheck
 * reports; the usual checks judge the results. */
static void case_tail(int r, char p)
{
    static const int shapes[][2] = {{1, 1}, {3, 3}, {5, 5}, {8, 8}, {17, 17}, {31, 31}, {32, 32},
                                    {7, 3}, {3, 7}, {32, 17}, {17, 32}};
    for (int tail = 1; tail <= 4; ++tail)
        for (int i = 0; i < COUNT(shapes); ++i)
            for (int u = 0; u < uplo_count(r); ++u) {
                const int m = shapes[i][0], n = shapes[i][1];
                if (m != n && r != R_GEQRF)
                    continue;
                const int nrhs = i % 3 == 2 ? n + 3 : 1 + i % 3;
                tcfg c = base(r, p, u, m, n, nrhs, 129);
                c.tail = tail;
                c.pad = (i + u) % 2 ? tail : 0;
                c.gap = (i + tail) % 3 == 0 ? 1 : 0;
                c.nan_other = is_chol(r) && (i + tail) % 2;
                if (r == R_POTRF || r == R_POSV)
                    c.bad_every = (i + u + tail) % 3 == 0 ? 4 : 0;
                run(c);
            }
}

/* Issue 29, page ends: A, B, tau and info each end at the end of a mapped page, the next page
 * unmapped (gpu_test_page_end_alloc); strided and in-order pointer arrays (the last problem's
 * matrices at the page ends), odd sizes, both uplo, ld > rows, tall and wide geqrf, not-PD
 * matrices in potrf/posv: a kernel that reads past an operand dies with an illegal address even
 * without compute-sanitizer (CUDA_CHECK fails the case and stops the process). */
static void case_page_end(int r, char p)
{
    if (!gpu_test_page_end_ready()) return;
    static const int shapes[][2] = {{1, 1}, {3, 3}, {17, 17}, {32, 32}, {7, 3}, {3, 7}, {32, 17}};
    for (int i = 0; i < COUNT(shapes); ++i)
        for (int u = 0; u < uplo_count(r); ++u) {
            const int m = shapes[i][0], n = shapes[i][1];
            if (m != n && r != R_GEQRF)
                continue;
            tcfg c = base(r, p, u, m, n, i % 3 == 2 ? n + 3 : 1 + i % 3, 129);
            c.page_end = 1;
            c.pad = (i + u) % 2 ? 1 + i % 3 : 0;
            c.gap = i % 3 == 0 ? 1 : 0;
            c.nan_other = is_chol(r) && i % 2;
            if (r == R_POTRF || r == R_POSV)
                c.bad_every = (i + u) % 3 == 0 ? 4 : 0;
            run(c);
        }
}

/* ------------------------------------------------------------------------------------------ */
/* Case table */

enum kind {
    K_SIZES_A, K_SIZES_B, K_LAYOUT, K_LARGE, K_FAIL, K_RECT, K_VENDOR, K_TAIL, K_PAGE_END, K_DIAG_IMAG,
    K_BLOCKED, K_BLOCKED_FAIL, K_BLOCKED_LARGE, K_BLOCKED_DIAG_IMAG, K_BLOCKED_PAGE_END, K_BLOCKED_RECT
};

typedef struct tcase {
    char name[48];
    enum kind kind;
    int routine;
    char prec;
} tcase;

static tcase g_cases[256];
static int g_ncases;

static void add_case(enum kind kind, int routine, char prec, const char *suffix)
{
    tcase *t = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    t->kind = kind;
    t->routine = routine;
    t->prec = prec;
    gpu_test_case_name(t->name, sizeof t->name, "%c%s_%s", prec, ROUTINE_NAME[routine], suffix);
}

static const char PRECS[] = "sdcz";

static void build_cases(void)
{
    for (int r = 0; r < R_COUNT; ++r)
        for (int pi = 0; pi < 4; ++pi) {
            char p = PRECS[pi];
            add_case(K_SIZES_A, r, p, "sizes_1_16");
            add_case(K_SIZES_B, r, p, "sizes_17_32");
            add_case(K_LAYOUT, r, p, "layout");
            add_case(K_LARGE, r, p, "batch_large");
            if (r == R_POTRF || r == R_POSV)
                add_case(K_FAIL, r, p, "not_pd");
            if (r == R_POTRS || r == R_GEQRF)
                add_case(K_FAIL, r, p, "nan");
            if (r == R_GEQRF)
                add_case(K_RECT, r, p, "rect");
            add_case(K_VENDOR, r, p, "vendor");
            add_case(K_TAIL, r, p, "tail");
            if (elem_reals(p) == 2 && (r == R_POTRF || r == R_POSV))
                add_case(K_DIAG_IMAG, r, p, "diag_imag");
            /* m or n > 32: the blocked drivers */
            add_case(K_BLOCKED, r, p, "blocked");
            if (r == R_GEQRF) {
                add_case(K_BLOCKED_RECT, r, p, "blocked_rect");
                if (p == 'd')
                    add_case(K_BLOCKED_LARGE, r, p, "blocked_batch_large");
                continue;
            }
            add_case(K_BLOCKED_FAIL, r, p, r == R_POTRS ? "blocked_nan" : "blocked_not_pd");
            if (p == 'd')
                add_case(K_BLOCKED_LARGE, r, p, "blocked_batch_large");
            if (elem_reals(p) == 2 && r != R_POTRS)
                add_case(K_BLOCKED_DIAG_IMAG, r, p, "blocked_diag_imag");
        }
    /* last: a kernel fault there loses the CUDA context (and the cases after it) */
    for (int r = 0; r < R_COUNT; ++r)
        for (int pi = 0; pi < 4; ++pi) add_case(K_PAGE_END, r, PRECS[pi], "page_end");
    for (int r = 0; r < R_COUNT; ++r)
        for (int pi = 0; pi < 4; ++pi) add_case(K_BLOCKED_PAGE_END, r, PRECS[pi], "blocked_page_end");
}

/* c/z potrf, posv: a NaN in the imaginary part of every diagonal element, which zpotrf does not
 * read: every matrix must factor (info 0) and pass, the factor's diagonal real; odd and boundary
 * sizes, both uplo, ld > n, a large batch, and not-PD matrices mixed in (their info as usual). */
static void case_diag_imag(int r, char p)
{
    static const int sizes[] = {1, 2, 7, 16, 31, 32};
    for (int i = 0; i < COUNT(sizes); ++i)
        for (int u = 0; u < 2; ++u) {
            tcfg c = base(r, p, u, sizes[i], sizes[i], i % 2 ? 3 : 1, 129);
            c.nan_diag_imag = 1;
            c.pad = (i + u) % 2 ? 2 : 0;
            c.bad_every = i % 3 == 2 ? 5 : 0;
            run(c);
        }
    tcfg c = base(r, p, 1, 9, 9, 1, 100003);
    c.nan_diag_imag = 1;
    c.modes = MODE_STRIDED;
    run(c);
}

/* potrs and geqrf have no info: their "nan" case checks that a NaN matrix leaves the others alone */
static void case_nan_only(int r, char p)
{
    static const int sizes[] = {1, 3, 8, 16, 24, 32};
    for (int i = 0; i < COUNT(sizes); ++i)
        for (int u = 0; u < uplo_count(r); ++u) {
            tcfg c = base(r, p, u, sizes[i], sizes[i], i % 2 ? 2 : 1, 200);
            c.nan_at = 77 + i;
            c.nan_other = is_chol(r);
            run(c);
        }
    tcfg c = base(r, p, 0, 24, 12, 0, 200);
    c.nan_at = 5;
    if (r == R_GEQRF)
        run(c);
}

/* ------------------------------------------------------------------------------------------ */
/* n > 32: the blocked drivers (potrf, potrs, posv) */

/* The sizes: below and above the block edges (32 k +- 1), several blocks, up to the limit 1024.
 * batch: small where n is large (the host checks cost O(n^3) per matrix), 1 at some sizes; pad:
 * ld = n + pad for A and B; rhs: nrhs of potrs/posv (0: n / 4); gap between matrices; tail: the
 * buffers end at their last element (case_tail's layout; 0: a guard after them). Both uplo below
 * n = 500, one (alternating) above. */
static const struct blocked_size {
    int n, batch, pad, rhs, gap, tail;
} BLOCKED[] = {
    {33, 67, 0, 1, 0, 0},   {47, 1, 3, 0, 0, 0},    {48, 33, 0, 3, 5, 2},    {63, 29, 1, 1, 0, 0},
    {64, 31, 0, 0, 0, 0},   {65, 17, 2, 1, 3, 1},   {96, 13, 0, 5, 0, 0},    {100, 11, 5, 0, 0, 0},
    {127, 9, 0, 1, 1, 4},   {128, 8, 0, 1, 0, 0},   {129, 1, 7, 0, 0, 0},    {200, 6, 0, 2, 7, 0},
    {255, 5, 1, 1, 0, 3},   {256, 4, 0, 0, 0, 0},   {257, 3, 0, 1, 0, 0},    {333, 1, 11, 0, 0, 0},
    {511, 8, 0, 1, 0, 0},   {512, 2, 3, 0, 0, 2},   {700, 3, 0, 1, 2, 0},    {1000, 2, 9, 1, 0, 0},
    {1024, 5, 0, 0, 0, 0},
};
#define BLOCKED_ONE_UPLO_N 500 /* from here on one uplo per size (alternating) */

static int blocked_rhs(int rhs, int n) { return rhs > 0 ? rhs : n / 4; }

/* Every blocked size on clean inputs (SPD / a genuine factor), strided and pointer arrays. */
static void case_blocked(int r, char p)
{
    for (int i = 0; i < COUNT(BLOCKED); ++i) {
        const struct blocked_size *z = &BLOCKED[i];
        for (int u = 0; u < 2; ++u) {
            if (r == R_GEQRF ? u > 0 : (z->n >= BLOCKED_ONE_UPLO_N && u != i % 2))
                continue;
            tcfg c = base(r, p, u, z->n, z->n, blocked_rhs(z->rhs, z->n), z->batch);
            c.pad = z->pad;
            c.gap = z->gap;
            c.tail = z->tail;
            c.nan_other = (i + u) % 2;
            if (r == R_GEQRF) { /* rank-deficient and zero matrices, a NaN matrix among good ones */
                c.zero_col = i % 2 ? z->n / 2 + 1 : 1 + i % 3;
                c.zero_every = i % 3 == 0 ? 4 : 0;
                c.nan_at = z->batch > 2 ? z->batch / 2 : -1;
            }
            run(c);
        }
    }
}

/* The failing minors of the not-PD matrices at size n: in the first block, at the edges of the
 * 32-wide blocks, in the middle, on either side of the drivers' top split (n1: half of n rounded
 * up to a multiple of 32, runtime/drivers/chol_blocked.c; a right-looking sweep has a block edge
 * there too), in the last block (the last column included); fewer above n = 500 (small
 * batches). Returns their count. */
static int blocked_bad_cols(int n, int *cols)
{
    const int split = ((n + 1) / 2 + KERNEL_MAX_N - 1) / KERNEL_MAX_N * KERNEL_MAX_N;
    const int many[] = {1, 5, 32, 33, 64, 65, n / 2, split, split + 1, n - 1, n};
    const int few[] = {5, n / 2, split + 1, n};
    const int *want = n >= BLOCKED_ONE_UPLO_N ? few : many;
    const int count = n >= BLOCKED_ONE_UPLO_N ? COUNT(few) : COUNT(many);
    int k = 0;
    for (int i = 0; i < count && k < MAX_BAD_COLS; ++i) {
        const int j = want[i];
        int dup = j < 1 || j > n;
        for (int q = 0; q < k; ++q)
            dup |= cols[q] == j;
        if (!dup)
            cols[k++] = j;
    }
    return k;
}

/* potrf, posv: every other matrix not PD (failing minors from blocked_bad_cols, in turn), a
 * NaN matrix among the good ones; info exact, the failed matrices' factor columns 1..j-1 the
 * host's, the good matrices right and bit-identical to a run without the failing ones (twin).
 * potrs: a NaN in one factor; the others right and bit-identical to a run without it. */
static void case_blocked_fail(int r, char p)
{
    static const struct {
        int n, pad, rhs;
    } sizes[] = {{33, 0, 1}, {47, 2, 3}, {64, 0, 1}, {65, 1, 0}, {100, 0, 1}, {129, 3, 2},
                 {256, 0, 0}, {333, 0, 1}, {512, 1, 1}, {1000, 0, 0}};
    for (int i = 0; i < COUNT(sizes); ++i) {
        const int n = sizes[i].n;
        for (int u = 0; u < 2; ++u) {
            if (n >= BLOCKED_ONE_UPLO_N && u != i % 2)
                continue;
            tcfg c = base(r, p, u, n, n, blocked_rhs(sizes[i].rhs, n), 1);
            c.pad = sizes[i].pad;
            c.nan_other = (i + u + 1) % 2;
            c.twin = 1;
            if (r == R_POTRS) {
                /* the NaN matrix in the middle of the batch */
                c.batch = n >= BLOCKED_ONE_UPLO_N ? 3 : 7;
                c.nan_at = c.batch / 2;
            } else {
                /* odd b: not PD; even b: good, except the NaN matrix b = 2 n_bad_cols */
                c.n_bad_cols = blocked_bad_cols(n, c.bad_cols);
                c.bad_every = 2;
                c.batch = 2 * c.n_bad_cols + 3;
                c.nan_at = 2 * c.n_bad_cols;
            }
            run(c);
        }
    }
}

/* d: batch 70001 at n = 33, past the drivers' 65536-matrix chunks (the second chunk partial):
 * not-PD matrices in both chunks and a NaN matrix first in the second (matrix 65536, pointer
 * array entry 65536 too), strided and pointer arrays, twin; then ld > n, the other uplo, clean
 * inputs, strided. */
static void case_blocked_batch_large(int r, char p)
{
    tcfg c = base(r, p, 0, 33, 33, 2, 70001);
    c.bad_every = r == R_GEQRF ? 0 : 1000; /* geqrf: a NaN matrix and zero columns instead */
    c.zero_col = r == R_GEQRF ? 17 : 0;
    c.nan_at = 65536;
    c.nan_other = 1;
    c.twin = 1;
    run(c);
    c = base(r, p, 1, 33, 33, 1, 70001);
    c.pad = 1;
    c.modes = MODE_STRIDED;
    run(c);
}

/* c/z potrf, posv: a NaN in the imaginary part of every diagonal element, which the factor
 * steps (kernel, TRSM, HERK) must not read: every matrix factors and passes, the factor's
 * diagonal real; not-PD matrices (failing in the last, a middle and the first block) mixed into
 * some runs. */
static void case_blocked_diag_imag(int r, char p)
{
    static const int sizes[] = {33, 65, 100, 256};
    for (int i = 0; i < COUNT(sizes); ++i)
        for (int u = 0; u < 2; ++u) {
            tcfg c = base(r, p, u, sizes[i], sizes[i], i % 2 ? 3 : 1, sizes[i] > 128 ? 5 : 13);
            c.nan_diag_imag = 1;
            c.pad = (i + u) % 2 ? 2 : 0;
            c.bad_every = (i + u) % 2 ? 0 : 4;
            c.twin = c.bad_every > 0;
            c.n_bad_cols = 3;
            c.bad_cols[0] = sizes[i];
            c.bad_cols[1] = sizes[i] / 2 + 1;
            c.bad_cols[2] = 3;
            run(c);
        }
}

/* Page ends (case_page_end's layout) at blocked sizes: a read or write past an operand by any
 * step faults on the hardware; not-PD matrices (failing at the last column) in some runs. */
/* geqrf above 32: tall and wide shapes on both sides of the panel widths (8 .. 64), of the
 * regs kernels' 32 and of the whole-matrix launch's 64 (runtime/drivers/qr_blocked.c), single
 * columns and rows, the largest (1024); zero columns (tau = 0) and zero matrices among them. */
static void case_blocked_rect(char p)
{
    static const int shapes[][2] = {{1000, 40}, {40, 1000}, {1024, 64}, {512, 16}, {33, 1024}, {1024, 33},
                                    {1024, 1}, {1, 1024},   {100, 33},  {33, 100}, {65, 64},   {64, 65},
                                    {300, 129}, {129, 300}, {1024, 1000}, {20, 100}, {17, 64}, {64, 8},
                                    {200, 31},  {31, 200},  {257, 256}, {513, 97}, {96, 513}, {48, 40},
                                    {64, 40},   {37, 59},   {59, 37}};
    for (int i = 0; i < COUNT(shapes); ++i) {
        const int m = shapes[i][0], n = shapes[i][1];
        tcfg c = base(R_GEQRF, p, 0, m, n, 0, m * n > 100000 ? 3 : 9);
        c.pad = i % 2 ? 3 : 0;
        c.gap = i % 3 == 0 ? 4 : 0;
        c.zero_col = (m < n ? m : n) > 2 ? (m < n ? m : n) / 2 + 1 : 0;
        c.zero_every = i % 4 == 1 ? 3 : 0;
        c.nan_at = i % 4 == 0 ? c.batch - 1 : -1;
        c.tail = i % 5 == 2 ? 1 + i % 4 : 0;
        run(c);
    }
}

static void case_blocked_page_end(int r, char p)
{
    if (!gpu_test_page_end_ready()) return;
    if (r == R_GEQRF) {
        static const int shapes[][2] = {{33, 33}, {100, 100}, {257, 257}, {100, 33}, {33, 100}, {1024, 16}};
        for (int i = 0; i < COUNT(shapes); ++i) {
            tcfg c = base(r, p, 0, shapes[i][0], shapes[i][1], 0, 5);
            c.page_end = 1;
            c.pad = i % 2 ? 1 + i % 3 : 0;
            c.zero_col = i % 3 == 1 ? 2 : 0;
            run(c);
        }
        return;
    }
    static const int sizes[] = {33, 100, 257};
    for (int i = 0; i < COUNT(sizes); ++i)
        for (int u = 0; u < 2; ++u) {
            if (sizes[i] > 256 && u != 0)
                continue;
            tcfg c = base(r, p, u, sizes[i], sizes[i], i % 2 ? sizes[i] / 4 : 1, 5);
            c.page_end = 1;
            c.pad = (i + u) % 2 ? 1 + i % 3 : 0;
            c.nan_other = i % 2;
            if (r == R_POTRF || r == R_POSV)
                c.bad_every = (i + u) % 2 ? 0 : 3;
            c.n_bad_cols = 1;
            c.bad_cols[0] = sizes[i];
            run(c);
        }
}

static void run_case(const tcase *t)
{
    g_case_seed = hash_string(t->name);
    g_run_index = 0;
    print_header();
    switch (t->kind) {
    case K_SIZES_A: case_sizes(t->routine, t->prec, 1, 16); break;
    case K_SIZES_B: case_sizes(t->routine, t->prec, 17, 32); break;
    case K_LAYOUT: case_layout(t->routine, t->prec); break;
    case K_LARGE: case_batch_large(t->routine, t->prec); break;
    case K_FAIL:
        if (t->routine == R_POTRF || t->routine == R_POSV)
            case_failures(t->routine, t->prec);
        else
            case_nan_only(t->routine, t->prec);
        break;
    case K_RECT: case_rect(t->prec); break;
    case K_VENDOR: case_vendor(t->routine, t->prec); break;
    case K_TAIL: case_tail(t->routine, t->prec); break;
    case K_PAGE_END: case_page_end(t->routine, t->prec); break;
    case K_DIAG_IMAG: case_diag_imag(t->routine, t->prec); break;
    case K_BLOCKED: case_blocked(t->routine, t->prec); break;
    case K_BLOCKED_FAIL: case_blocked_fail(t->routine, t->prec); break;
    case K_BLOCKED_LARGE: case_blocked_batch_large(t->routine, t->prec); break;
    case K_BLOCKED_DIAG_IMAG: case_blocked_diag_imag(t->routine, t->prec); break;
    case K_BLOCKED_PAGE_END: case_blocked_page_end(t->routine, t->prec); break;
    case K_BLOCKED_RECT: case_blocked_rect(t->prec); break;
    }
}

static const char *case_name(int i) { return g_cases[i].name; }
static void run_index(int i) { run_case(&g_cases[i]); }

static int start(shoal_handle h)
{
    (void)h;
    CUDA_CHECK(cudaEventCreate(&g_ev0));
    CUDA_CHECK(cudaEventCreate(&g_ev1));
    return 0;
}

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_index, start, NULL};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
