/* GPU correctness of shoal's gels (least squares and minimum-norm solutions through QR or LQ,
 * spec/routines/gels.toml) and gelqf (the LQ factorization, spec/routines/gelqf.toml; its cases
 * are named *_gelqf_*, described after gels'): s, d, c, z; strided and pointer arrays; for gels op
 * N, T and C (C is T in s and d; in c and z T is the plain transpose and C the conjugate one).
 * Judged on the host in double.
 *
 * op(A) is p x q (trans N: p = m, q = n; T, C: p = n, q = m); B is max(m, n) x nrhs, its first p
 * rows the right-hand sides on entry, its first q rows X on exit. Every run draws A and the first
 * p rows of B uniform in [-1, 1] (both parts in c and z; float-exact values, oracle_fill_float;
 * a pool of distinct problems tiled over large batches, each from a seed of the case name and the
 * run), lays them out with lda = max(1, m) + pad_a, ldb = max(1, max(m, n)) + pad_b and gaps
 * between matrices, and fills everything else with NaNs carrying a recognizable payload (padding,
 * gaps, a guard after the last matrix). The rows p..max(m, n)-1 of B, which the routine must not
 * read (LAPACK zeroes them), hold NaNs too. After the call:
 *  - every element outside A's m x n and B's max(m, n) x nrhs is bit-identical to before (so is
 *    everything where the call has no work: nrhs == 0, batch == 0, or a refused size), and info
 *    (poisoned with -7) is exact: 0 for a full-rank matrix, j + 1 for one whose column j (m >= n)
 *    or row j (m < n) was made zero (j >= 1; the columns before it are independent random ones,
 *    so Householder leaves R(j, j), or L(j, j), exactly 0 and no diagonal before it is);
 *  - least squares (p >= q), with r = B0 - op(A0) X:
 *        ||op(A0)^H r||_F / (||A0||_F (||A0||_F ||X||_F + ||B0||_F) max(m, n) eps)
 *    (the normal equations; LAPACK's xQRT17 idea: independent of A's conditioning) and, where
 *    p > q, the residual's components in the rows below X:
 *        | ||B(q:p-1)||_F^2 - ||r||_F^2 | / ((||A0||_F ||X||_F + ||B0||_F) (||B(q:p-1)||_F + ||r||_F) max(m, n) eps)
 *  - minimum norm (p < q):  ||r||_F / ((||A0||_F ||X||_F + ||B0||_F) max(m, n) eps), and X in the
 *    row space of op(A0): ||X - Q1 Q1^H X||_F / (||X||_F max(m, n) eps), Q1 an orthonormal basis
 *    of range(op(A0)^H) from the host's Householder QR of op(A0)^H (oracle_geqr2 / oracle_zgeqr2;
 *    the norm is that of the last q - p rows of Q^H X, oracle_apply_q a reflector at a time).
 *    This one grows with op(A0)'s condition number, so the wide shapes here are far from square
 *    (random p x q with q >= 2 p or q >= p + 4: well conditioned; no 32 x 33);
 *  - the triangular factor left in A: m >= n: ||A0^H A0 - R^H R||_F / (||A0||_F^2 n eps), R the
 *    upper triangle of A's first n rows; m < n: ||A0 A0^H - L L^H||_F / (||A0||_F^2 m eps), L the
 *    lower triangle of A's first m columns (also for the matrices made rank deficient);
 *  - each of these at most GELS_ERROR_LIMIT = 30, eps the machine epsilon of the precision's
 *    real type (FLT_EPSILON, DBL_EPSILON: twice oracle_eps's unit roundoff);
 *  - a zero matrix A_i: info 0, A still zero, all max(m, n) rows of B exactly 0 (X = 0);
 *  - m == 0 or n == 0 (nrhs > 0): the first max(m, n) rows of every B zero, info 0, A untouched
 *    (also passed as NULL); m == n == 0: info 0 or untouched (B has no rows; NULL A, B and info
 *    are legal there); nrhs == 0 or batch == 0: nothing touched; m or n above 1024:
 *    SHOAL_STATUS_NOT_SUPPORTED and nothing touched;
 *  - a NaN matrix among good ones: the others pass every check (its own results are not checked
 *    beyond the untouched elements around it); runs with such matrices (rank deficient, zero, NaN)
 *    also make the "twin" call: the same inputs with those matrices left good must give every
 *    other matrix's A, B and info bit for bit (the batch is not coupled, chunks included).
 * Vendor dispatch is off (shoal_set_vendor_dispatch(h, 0)) except in the *_vendor cases: the
 * driver's steps (geqrf, ormqr, TRSM) are shoal's own kernels. shoal_lapack_kernel_name("gels")
 * must answer every run with m, n >= 1 (the driver's name; NOT_SUPPORTED above 1024).
 * The *_tail cases (issue 29, docs/sanitize.md) drop the guard: A, B and info each end at their
 * last matrix's last element (info: the last entry) and start 0..3 elements into their own
 * allocation (gpu_test_tail_alloc), so a read past an operand leaves the allocation, which
 * memcheck reports; pointer arrays in reverse order (matrix 0 last). The *_page_end cases (last in
 * the table) end them at the end of a mapped page with the next page unmapped
 * (gpu_test_page_end_alloc; pointer arrays in order), so that a read past them faults on the
 * hardware even without compute-sanitizer. The checks above apply to both.
 * The host checks cost O(max(m, n)^3) per matrix (the factor's Gram matrices), so the batches of
 * the large sizes are small; they run in parallel over the matrices (OpenMP), or inside each
 * matrix where a run has a few large ones.
 *
 * gelqf (A = L Q, LAPACK's xgelqf; the *_gelqf_* cases): A m x n (any shape, m, n <= 1024), drawn
 * as above, lda = max(1, m) + pad_a, tau min(m, n) entries a matrix at strideTau = min(m, n) +
 * gap_t (pointer arrays: one tau pointer per matrix, out of order as A's), everything else NaN
 * poison (tau's own payload). With k = min(m, n), L is A's lower trapezoid (m x k) on exit, row j
 * right of the diagonal holds conj(v_j(j+1:n)) (v_j(j) = 1 implied; plain v_j in s, d), and
 * Q = H_k^H ... H_1^H, H_j = I - tau_j v_j v_j^H (tau complex in c, z). The host forms
 * P = Q^H = H_1 ... H_k (n x n, the QR-style product of the v_j: oracle_apply_q / oracle_zapply_q
 * on the columns of I) and checks, each at most GELS_ERROR_LIMIT = 30 (eps as above):
 *  - ||A0 - L Q||_F / (||A0||_F max(m, n) eps) and ||I - Q Q^H||_F / (n eps) (Q Q^H = P^H P);
 *  - LAPACK's conventions (xlarfg; as tuner/spec_chol_qr.c for geqrf): L's diagonal exactly real
 *    in c, z; every tau 0 or 1 <= re tau <= 2 with |tau - 1| <= 1 (64 eps slack; this also fixes
 *    the sign of L's diagonal); in s, d the last tau of an m >= n matrix exactly 0;
 *  - a zero row J - 1 (J in 1..k; the matrices b % 3 == 1 of some runs): tau_{J-1} exactly 0 and
 *    the whole row (L's part and the reflector's) exactly 0; a zero matrix: A stays 0, every tau 0;
 *  - every element outside A's m x n and tau's first k entries bit-identical (also where there
 *    is no work: m == 0 or n == 0 or batch == 0, where A and tau may be NULL, and m or n above
 *    1024: SHOAL_STATUS_NOT_SUPPORTED); shoal_lapack_kernel_name("gelqf") answers every m, n >= 1
 *    (NOT_SUPPORTED above 1024);
 *  - a NaN matrix among good ones, and runs with zero rows or zero matrices: the twin call (those
 *    matrices left good) gives every other matrix's A and tau bit for bit.
 * Sizes: square up to 256, wide and tall with sides up to 1024, 512 and 1024 square (batches of
 * 3 and 2: the host's Q Q^H is O(n^3)), ld > m, batch 1, 70000 problems (two 65536-chunks), the
 * driver's workspace chunks (d 600 x 1000: 6 a chunk, batch 13; z: 3 a chunk, batch 5), vendor
 * dispatch on, tail and page-end layouts.
 *
 * Usage: test_gels_gpu              run every case
 *        test_gels_gpu --list       print the case names (needs no GPU)
 *        test_gels_gpu --case NAME  run one case
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device ("SKIP: ..." on stdout).
 */
#define _POSIX_C_SOURCE 200809L

#include "gpu_test.h"
#include "host_elems.h"
#include "lapack_ref.h"
#include "shoal.h"

#include <cuda_runtime_api.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODE_STRIDED 1
#define MODE_ARRAY 2
#define GUARD 37
#define GELS_ERROR_LIMIT 30.0
#define GELS_MAX_N 1024   /* above it: SHOAL_STATUS_NOT_SUPPORTED */
#define INNER_PAR_BATCH 4 /* a run of at most this many matrices of >= INNER_PAR_N rows or */
#define INNER_PAR_N 200   /* columns checks one matrix at a time, each check in parallel */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Quiet NaNs with a payload naming the buffer: A, B, B's rows that must not be read, gelqf's tau. */
enum { POISON_A, POISON_B, POISON_B_UNREAD, POISON_TAU };
static const uint32_t POISON_S[4] = {0x7fc0aaaau, 0x7fc0bbbbu, 0x7fc0ddddu, 0x7fc0eeeeu};
static const uint64_t POISON_D[4] = {0x7ff80000aaaaaaaaull, 0x7ff80000bbbbbbbbull, 0x7ff80000ddddddddull,
                                     0x7ff80000eeeeeeeeull};
#define INFO_POISON (-7)

/* What a matrix of a run is made to be. */
enum mkind { M_GOOD, M_RANK, M_ZERO, M_NAN, M_EMPTY };

/* One run: a shape, an op, its layout, what goes wrong on purpose, which call modes. */
typedef struct gcfg {
    char prec;
    int trans;         /* 0 N, 1 T, 2 C */
    int m, n, nrhs;
    int pad_a, pad_b;  /* lda = max(1, m) + pad_a, ldb = max(1, max(m, n)) + pad_b */
    int64_t gap;       /* extra poisoned elements between matrices */
    int64_t batch;
    int modes;         /* MODE_STRIDED | MODE_ARRAY */
    int vendor;        /* vendor dispatch on */
    int zero_at;       /* J >= 2: matrices b % 3 == 1 get column (m >= n) or row (m < n) J - 1
                          zeroed, so info = J; 0: none */
    int zero_every;    /* matrices b % zero_every == zero_every - 1 are all zeros; 0: none */
    int64_t nan_at;    /* a matrix with one NaN in A (-1: none) */
    int pool;          /* distinct problems tiled over the batch */
    int tail;          /* 1..4: no guard, every buffer ends at its last matrix's last element
                          and starts tail - 1 elements into its allocation */
    int page_end;      /* no guard, every buffer ends at the end of a mapped page */
    int twin;          /* the call again with the rank-deficient, zero and NaN matrices left good:
                          every other matrix's A, B and info must be bit-identical */
    int null_ops;      /* A passed as NULL (legal where m == 0 or n == 0), and B and info too
                          where m == n == 0 */
    shoal_status expect; /* the status the call must return */
} gcfg;

typedef struct gdata {
    size_t es;                 /* bytes per element */
    int w;                     /* reals per element (host doubles per element) */
    int p, q, rows_b;          /* op(A) is p x q; B is rows_b = max(m, n) rows */
    int work;                  /* the call has something to do (else nothing may change) */
    int64_t lda, ldb, sta, stb;
    int64_t na, nb;            /* buffer sizes in elements */
    void *ha0, *ha, *hb0, *hb; /* host: before and after */
    int *hinfo;                /* info read back */
    unsigned char *wa, *wb;    /* element may be written by the call */
    unsigned char *kind;       /* enum mkind per matrix */
    void *da, *db;
    int *dinfo;
    void **dap, **dbp;
    void *allocs[3];           /* what gpu_test_free takes for da, db, dinfo */
    double *pool_a, *pool_b;   /* the pool of generated problems (packed, double) */
} gdata;

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

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* machine epsilon of the precision's real type */
static double gels_eps(char prec) { return elem_single(prec) ? (double)FLT_EPSILON : DBL_EPSILON; }

static int n_ops(char prec) { return elem_reals(prec) == 2 ? 3 : 2; }
static const char OP_CH[3] = {'N', 'T', 'C'};

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

/* Matrix b lives in slot b (strided, and pointer arrays of page-end runs) or batch - 1 - b
 * (pointer arrays otherwise: out of order, matrix 0 at the buffers' ends). */
static int64_t slot_in(int64_t batch, int page_end, int mode, int64_t b)
{
    return mode == MODE_ARRAY && !page_end ? batch - 1 - b : b;
}

static int64_t slot_of(const gcfg *c, int mode, int64_t b) { return slot_in(c->batch, c->page_end, mode, b); }

static void *place_alloc(int page_end, void **alloc, size_t count, size_t es, int shift)
{
    return page_end ? gpu_test_page_end_alloc(alloc, count, es) : gpu_test_tail_alloc(alloc, count, es, shift);
}

/* What matrix b is made to be: gels and gelqf pick the failing matrices by the same rule. */
static enum mkind kind_in(int m, int n, int64_t nan_at, int zero_every, int zero_at, int64_t b)
{
    if (m == 0 || n == 0) return M_EMPTY;
    if (b == nan_at) return M_NAN;
    if (zero_every > 0 && b % zero_every == zero_every - 1) return M_ZERO;
    if (zero_at > 0 && b % 3 == 1) return M_RANK;
    return M_GOOD;
}

static enum mkind kind_of(const gcfg *c, int64_t b)
{
    return kind_in(c->m, c->n, c->nan_at, c->zero_every, c->zero_at, b);
}

/* ------------------------------------------------------------------------------------------ */
/* One operand's layout, shared by gels (A, B) and gelqf (A, tau): a batch of matrices at a
 * stride in one buffer, its host copies before (h0) and after (h) the call and the mask of what
 * the call may write (wr). Written once so that both routines place, poison, fill, upload and
 * compare their operands alike. */

/* Elements of a buffer of batch rows x cols matrices (leading dimension ld) at stride st: a
 * guard after the last one, or, in the tail and page-end layouts (tight), nothing after the last
 * matrix's last element. */
static int64_t buf_len(int64_t batch, int64_t st, int64_t ld, int rows, int cols, int tight)
{
    if (tight && batch > 0)
        return (batch - 1) * st + ld * (cols - 1) + rows;
    return batch * st + GUARD;
}

/* An operand's buffers: on the host h0, h and wr, on the device count elements placed by
 * place_alloc (tail: shift elements in; page_end: ending at a page's end). Returns the device
 * buffer; *alloc is what gpu_test_free takes. */
static void *operand_alloc(int64_t count, size_t es, int page_end, int shift, void **h0, void **h,
                           unsigned char **wr, void **alloc)
{
    *h0 = xmalloc((size_t)count * es);
    *h = xmalloc((size_t)count * es);
    *wr = xmalloc((size_t)count);
    return place_alloc(page_end, alloc, (size_t)count, es, shift);
}

/* Before a call's inputs are laid out: the whole buffer poison (payload which), nothing writable. */
static void poison_operand(char pr, void *h0, unsigned char *wr, int64_t count, int which)
{
    fill_poison(pr, h0, count, which);
    memset(wr, 0, (size_t)count);
}

static void host_free(void *h0, void *h, unsigned char *wr)
{
    free(h0);
    free(h);
    free(wr);
}

/* how many distinct problems a run draws: its pool, at most one a matrix */
static int pool_count(int pool, int64_t batch) { return pool < batch ? pool : (int)batch; }

/* Problem i of the pool: ael reals of A, then bel of a second operand (gels' B; pb NULL: none),
 * from a seed of the case name, the run and i, so that a case draws the same problems every
 * time and the twin run sees the same ones. */
static void fill_pool(int pool, double *pa, size_t ael, double *pb, size_t bel)
{
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < pool; ++i) {
        uint64_t state = mix64(g_case_seed, ((uint64_t)g_run_index << 32) + (uint64_t)i);
        oracle_fill_float(&state, ael, pa + (size_t)i * ael);
        if (pb)
            oracle_fill_float(&state, bel, pb + (size_t)i * bel);
    }
}

/* Puts the packed m x n matrix a at offset o of h0 (leading dimension ld) as a matrix of kind
 * kind: all zero (M_ZERO), line zero_at - 1 zero (M_RANK; a column where col, else a row), or
 * one NaN at a place drawn from b (M_NAN); marks its elements writable where the call has work. */
static void put_matrix(char pr, void *h0, unsigned char *wr, int64_t o, int64_t ld, int m, int n, const double *a,
                       enum mkind kind, int zero_at, int col, int64_t b, int work)
{
    const int w = elem_reals(pr);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            const int64_t e = o + i + j * ld;
            elem_put(pr, h0, e, a, i + (int64_t)j * m);
            if (kind == M_ZERO || (kind == M_RANK && (col ? j : i) == zero_at - 1))
                for (int t = 0; t < w; ++t) elem_set_real(pr, h0, e * w + t, 0.0);
            if (work)
                wr[e] = 1;
        }
    if (kind == M_NAN) {
        const int i = (int)(mix64((uint64_t)b, 11) % (uint64_t)m), j = (int)(mix64((uint64_t)b, 13) % (uint64_t)n);
        elem_set_real(pr, h0, (o + i + (int64_t)j * ld) * w + (w - 1), NAN);
    }
}

/* The m x n matrix at offset o of h (leading dimension ld), packed into out in double. */
static void get_matrix(char pr, const void *h, int64_t o, int64_t ld, int m, int n, double *out)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) elem_get(pr, h, o + i + j * ld, out, i + (int64_t)j * m);
}

/* The pointer-array form of an operand: matrix b's pointer to its slot (slot_in) in dev. */
static void upload_ptrs(void **dptr, void *dev, int64_t batch, int page_end, int mode, int64_t st, size_t es)
{
    void **h = xmalloc((size_t)batch * sizeof(void *));
    for (int64_t b = 0; b < batch; ++b)
        h[b] = (char *)dev + (size_t)(slot_in(batch, page_end, mode, b) * st) * es;
    CUDA_CHECK(cudaMemcpy(dptr, h, (size_t)batch * sizeof(void *), cudaMemcpyHostToDevice));
    free(h);
}

/* The twin comparison of one operand: whether the rows x cols matrix at offset o (leading
 * dimension ld) is bit-identical in h1 and h. */
static int same_matrix(const void *h1, const void *h, int64_t o, int64_t ld, int rows, int cols, size_t es)
{
    int same = 1;
    for (int j = 0; j < cols && same; ++j) {
        const size_t x = (size_t)(o + j * ld) * es;
        same = !memcmp((const char *)h1 + x, (const char *)h + x, (size_t)rows * es);
    }
    return same;
}

/* A copy of count elements of h, taken before the twin call overwrites them. */
static char *snapshot(const void *h, int64_t count, size_t es)
{
    char *s = xmalloc((size_t)count * es);
    memcpy(s, h, (size_t)count * es);
    return s;
}

/* ------------------------------------------------------------------------------------------ */
/* Set-up */

static void setup(const gcfg *c, gdata *d)
{
    memset(d, 0, sizeof *d);
    const int m = c->m, n = c->n, nrhs = c->nrhs;
    d->w = elem_reals(c->prec);
    d->es = (size_t)d->w * (elem_single(c->prec) ? 4 : 8);
    d->p = c->trans ? n : m;
    d->q = c->trans ? m : n;
    d->rows_b = imax(m, n);
    d->work = c->expect == SHOAL_STATUS_SUCCESS && nrhs > 0 && c->batch > 0 && (m > 0 || n > 0);
    d->lda = imax(1, m) + c->pad_a;
    d->ldb = imax(1, d->rows_b) + c->pad_b;
    d->sta = d->lda * n + c->gap;
    d->stb = d->ldb * nrhs + c->gap;
    const int tight = c->tail || c->page_end;
    d->na = buf_len(c->batch, d->sta, d->lda, m, n, tight);
    d->nb = buf_len(c->batch, d->stb, d->ldb, d->rows_b, nrhs, tight);
    const size_t es = d->es;
    const int shift = c->tail ? c->tail - 1 : 0;
    d->da = operand_alloc(d->na, es, c->page_end, shift, &d->ha0, &d->ha, &d->wa, &d->allocs[0]);
    d->db = operand_alloc(d->nb, es, c->page_end, shift, &d->hb0, &d->hb, &d->wb, &d->allocs[1]);
    d->hinfo = xmalloc((size_t)c->batch * sizeof(int));
    d->kind = xmalloc((size_t)c->batch);
    d->dinfo = place_alloc(c->page_end, &d->allocs[2], (size_t)c->batch, sizeof(int), shift);
    if ((c->modes & MODE_ARRAY) && c->batch > 0) {
        CUDA_CHECK(cudaMalloc((void **)&d->dap, (size_t)c->batch * sizeof(void *)));
        CUDA_CHECK(cudaMalloc((void **)&d->dbp, (size_t)c->batch * sizeof(void *)));
    }
    for (int64_t b = 0; b < c->batch; ++b)
        d->kind[b] = (unsigned char)kind_of(c, b);
    /* the pool of distinct problems: A, and the p input rows of B */
    const int pool = pool_count(c->pool, c->batch);
    const size_t ael = (size_t)d->w * m * n, bel = (size_t)d->w * d->p * nrhs;
    d->pool_a = xmalloc((size_t)pool * ael * sizeof(double));
    d->pool_b = xmalloc((size_t)pool * bel * sizeof(double));
    fill_pool(pool, d->pool_a, ael, d->pool_b, bel);
}

static void free_data(gdata *d)
{
    host_free(d->ha0, d->ha, d->wa);
    host_free(d->hb0, d->hb, d->wb);
    free(d->hinfo);
    free(d->kind);
    free(d->pool_a);
    free(d->pool_b);
    for (int i = 0; i < COUNT(d->allocs); ++i)
        gpu_test_free(d->allocs[i]);
    cudaFree(d->dap);
    cudaFree(d->dbp);
}

/* Lays out the inputs of every matrix for one call mode (the kinds of c: a twin run passes a c
 * without failures) and marks what the call may write. */
static void fill_inputs(const gcfg *c, gdata *d, int mode)
{
    const char pr = c->prec;
    const int m = c->m, n = c->n, nrhs = c->nrhs, p = d->p, w = d->w;
    const int pool = pool_count(c->pool, c->batch);
    const size_t ael = (size_t)m * n, bel = (size_t)p * nrhs;
    poison_operand(pr, d->ha0, d->wa, d->na, POISON_A);
    poison_operand(pr, d->hb0, d->wb, d->nb, POISON_B);
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < c->batch; ++b) {
        const int64_t s = slot_of(c, mode, b);
        const enum mkind kind = kind_of(c, b);
        const double *a = d->pool_a + (size_t)(b % pool) * ael * w;
        /* rank deficiency: a column where m >= n, else a row */
        put_matrix(pr, d->ha0, d->wa, s * d->sta, d->lda, m, n, a, kind, c->zero_at, m >= n, b, d->work);
        const double *bb = d->pool_b + (size_t)(b % pool) * bel * w;
        const int64_t ob = s * d->stb;
        for (int j = 0; j < nrhs; ++j)
            for (int i = 0; i < d->rows_b; ++i) {
                const int64_t e = ob + i + j * d->ldb;
                if (i < p)
                    elem_put(pr, d->hb0, e, bb, i + (int64_t)j * p);
                else
                    set_poison(pr, d->hb0, e, POISON_B_UNREAD); /* must not be read */
                if (d->work)
                    d->wb[e] = 1;
            }
    }
}

static void upload(const gcfg *c, gdata *d, int mode)
{
    const size_t es = d->es;
    CUDA_CHECK(cudaMemcpy(d->da, d->ha0, (size_t)d->na * es, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->db, d->hb0, (size_t)d->nb * es, cudaMemcpyHostToDevice));
    for (int64_t b = 0; b < c->batch; ++b)
        d->hinfo[b] = INFO_POISON;
    CUDA_CHECK(cudaMemcpy(d->dinfo, d->hinfo, (size_t)c->batch * sizeof(int), cudaMemcpyHostToDevice));
    if (mode == MODE_ARRAY && c->batch > 0) {
        upload_ptrs(d->dap, d->da, c->batch, c->page_end, mode, d->sta, es);
        upload_ptrs(d->dbp, d->db, c->batch, c->page_end, mode, d->stb, es);
    }
}

static void download(const gcfg *c, gdata *d)
{
    const size_t es = d->es;
    CUDA_CHECK(cudaMemcpy(d->ha, d->da, (size_t)d->na * es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d->hb, d->db, (size_t)d->nb * es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d->hinfo, d->dinfo, (size_t)c->batch * sizeof(int), cudaMemcpyDeviceToHost));
}

/* ------------------------------------------------------------------------------------------ */
/* Calling shoal */

static shoal_status call_gels(const gcfg *c, const gdata *d, int mode)
{
    const shoal_operation op = (shoal_operation)c->trans;
    const int m = c->m, n = c->n, nrhs = c->nrhs;
    const int64_t batch = c->batch, lda = d->lda, ldb = d->ldb, sta = d->sta, stb = d->stb;
    const int arr = mode == MODE_ARRAY;
    const int null_b = c->null_ops && m == 0 && n == 0; /* B and info not referenced there */
    void *A = c->null_ops ? NULL : d->da, *B = null_b ? NULL : d->db;
    void **Ap = c->null_ops ? NULL : d->dap, **Bp = null_b ? NULL : d->dbp;
    int *info = null_b ? NULL : d->dinfo;
    /* one call per precision: the pointer types differ, the argument lists do not */
#define GELS_CALL(p, T)                                                                                      \
    return arr ? shoal_##p##gels_batched(g_h, op, m, n, nrhs, (T *const *)Ap, lda, (T *const *)Bp, ldb, info, \
                                         batch)                                                              \
               : shoal_##p##gels_strided_batched(g_h, op, m, n, nrhs, (T *)A, lda, sta, (T *)B, ldb, stb, info, \
                                                 batch)
    switch (c->prec) {
    case 's': GELS_CALL(s, float);
    case 'd': GELS_CALL(d, double);
    case 'c': GELS_CALL(c, shoal_complex_float);
    default: GELS_CALL(z, shoal_complex_double);
    }
#undef GELS_CALL
}

/* ------------------------------------------------------------------------------------------ */
/* Host arithmetic (w doubles per element, packed column-major with explicit leading dimensions) */

/* C = op(A) B, op 0 N, 1 T, 2 C (A^H; T in real arithmetic): oracle_matmul / oracle_zmatmul a
 * column of C at a time, the columns in parallel where par (a check of a few large matrices). */
static void mm(int w, int op, int m, int n, int k, const double *A, int64_t lda, const double *B, int64_t ldb,
               double *C, int64_t ldc, int par)
{
#pragma omp parallel for schedule(dynamic, 4) if (par)
    for (int j = 0; j < n; ++j) {
        if (w == 2)
            oracle_zmatmul(op, m, 1, k, A, lda, B + 2 * (size_t)j * ldb, ldb, C + 2 * (size_t)j * ldc, ldc);
        else
            oracle_matmul(op ? 1 : 0, m, 1, k, A, lda, B + (size_t)j * ldb, ldb, C + (size_t)j * ldc, ldc);
    }
}

/* Frobenius norm of an m x n matrix (NaN propagates) */
static double frob(int w, int m, int n, const double *X, int64_t ld)
{
    double s = 0.0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < w * m; ++i) {
            const double v = X[(size_t)w * j * ld + i];
            s += v * v;
        }
    return sqrt(s);
}

/* num / den; 0 / 0 = 0, x / 0 = Inf, NaN stays NaN */
static double ratio(double num, double den)
{
    if (den > 0.0) return num / den;
    return num == 0.0 ? 0.0 : (isnan(num) ? num : INFINITY);
}

/* ||X0^H X0 - T^H T||_F, X0 rows x cols (ld rows), T cols x cols upper triangular (ld cols):
 * both Hermitian, so only their upper triangles are formed (column j: rows 0..j, and T's first
 * j + 1 rows), the off-diagonal differences counted twice. */
static double gram_diff(int w, int rows, int cols, const double *X0, const double *T, int par)
{
    double s = 0.0;
#pragma omp parallel if (par)
    {
        double *g1 = xmalloc((size_t)w * (cols > 0 ? cols : 1) * sizeof(double));
        double *g2 = xmalloc((size_t)w * (cols > 0 ? cols : 1) * sizeof(double));
        double my = 0.0;
#pragma omp for schedule(dynamic, 4)
        for (int j = 0; j < cols; ++j) {
            const double *xj = X0 + (size_t)w * j * rows, *tj = T + (size_t)w * j * cols;
            if (w == 2) {
                oracle_zmatmul(2, j + 1, 1, rows, X0, rows, xj, rows, g1, cols);
                oracle_zmatmul(2, j + 1, 1, j + 1, T, cols, tj, cols, g2, cols);
            } else {
                oracle_matmul(1, j + 1, 1, rows, X0, rows, xj, rows, g1, cols);
                oracle_matmul(1, j + 1, 1, j + 1, T, cols, tj, cols, g2, cols);
            }
            for (int i = 0; i <= j; ++i)
                for (int t = 0; t < w; ++t) {
                    const double dv = g1[w * i + t] - g2[w * i + t];
                    my += (i == j ? 1.0 : 2.0) * dv * dv;
                }
        }
#pragma omp atomic
        s += my;
        free(g1);
        free(g2);
    }
    return sqrt(s);
}

/* element (i, j) of op(A0) (A0 m x n packed) into out */
static void op_elem(int w, int trans, int m, const double *A0, int i, int j, double *out)
{
    const double *a = trans ? A0 + (size_t)w * (j + (size_t)i * m) : A0 + (size_t)w * (i + (size_t)j * m);
    out[0] = a[0];
    if (w == 2) out[1] = trans == 2 ? -a[1] : a[1];
}

/* The triangular factor left in A (m x n packed) against A0: m >= n: ||A0^H A0 - R^H R||_F /
 * (||A0||_F^2 n eps); m < n: ||A0 A0^H - L L^H||_F / (||A0||_F^2 m eps). */
static double factor_error(int w, int m, int n, const double *A0, const double *A, double eps, int par)
{
    const int k = imin(m, n), rows = imax(m, n);
    double *X0 = xmalloc((size_t)w * rows * k * sizeof(double)), *T = xmalloc((size_t)w * k * k * sizeof(double));
    memset(T, 0, (size_t)w * k * k * sizeof(double));
    if (m >= n) {
        memcpy(X0, A0, (size_t)w * m * n * sizeof(double));
        for (int j = 0; j < n; ++j) /* R: A's upper triangle */
            for (int i = 0; i <= j; ++i)
                for (int t = 0; t < w; ++t) T[w * (i + (size_t)j * k) + t] = A[w * (i + (size_t)j * m) + t];
    } else {
        for (int j = 0; j < m; ++j) /* X0 = A0^H (n x m) */
            for (int i = 0; i < n; ++i)
                op_elem(w, 2, m, A0, i, j, X0 + (size_t)w * (i + (size_t)j * n));
        for (int j = 0; j < m; ++j) /* T = L^H: T(i, j) = conj(L(j, i)), i <= j */
            for (int i = 0; i <= j; ++i) {
                const double *l = A + (size_t)w * (j + (size_t)i * m);
                T[w * (i + (size_t)j * k)] = l[0];
                if (w == 2) T[w * (i + (size_t)j * k) + 1] = -l[1];
            }
    }
    const double nA = frob(w, m, n, A0, m);
    const double e = ratio(gram_diff(w, rows, k, X0, T, par), nA * nA * k * eps);
    free(X0);
    free(T);
    return e;
}

/* The normalized errors of one matrix's solution (the header's formulas): e[0] the normal
 * equations (p >= q) or the residual (p < q), e[1] the residual's components below X (p > q) or
 * X's distance from op(A0)'s row space (p < q), e[2] the factor. Returns their largest (NaN if
 * any is). A0, A: m x n packed; B0, B: rows_b x nrhs packed. */
static double check_solution(const gcfg *c, const gdata *d, const double *A0, const double *A, const double *B0,
                             const double *B, int par, double e[3])
{
    const int w = d->w, m = c->m, n = c->n, nrhs = c->nrhs, p = d->p, q = d->q, rb = d->rows_b;
    const double eps = gels_eps(c->prec), mx = imax(m, n);
    double *M = xmalloc((size_t)w * p * q * sizeof(double)), *R = xmalloc((size_t)w * p * nrhs * sizeof(double));
    for (int j = 0; j < q; ++j)
        for (int i = 0; i < p; ++i)
            op_elem(w, c->trans, m, A0, i, j, M + (size_t)w * (i + (size_t)j * p));
    /* r = B0 - op(A0) X, X = B's first q rows */
    mm(w, 0, p, nrhs, q, M, p, B, rb, R, p, par);
    for (int j = 0; j < nrhs; ++j)
        for (int i = 0; i < w * p; ++i) {
            const size_t o = (size_t)w * j * p + i;
            R[o] = B0[(size_t)w * j * rb + i] - R[o];
        }
    const double nA = frob(w, m, n, A0, m), nX = frob(w, q, nrhs, B, rb), nB = frob(w, p, nrhs, B0, rb);
    const double nr = frob(w, p, nrhs, R, p), scale = nA * nX + nB;
    e[0] = e[1] = 0.0;
    if (p >= q) {
        double *G = xmalloc((size_t)w * q * nrhs * sizeof(double));
        mm(w, 2, q, nrhs, p, M, p, R, p, G, q, par);
        e[0] = ratio(frob(w, q, nrhs, G, q), nA * scale * mx * eps);
        free(G);
        if (p > q) {
            double below = 0.0; /* the rows q..p-1 of B */
            for (int j = 0; j < nrhs; ++j)
                for (int i = w * q; i < w * p; ++i) {
                    const double v = B[(size_t)w * j * rb + i];
                    below += v * v;
                }
            e[1] = ratio(fabs(below - nr * nr), scale * (sqrt(below) + nr) * mx * eps);
        }
    } else {
        e[0] = ratio(nr, scale * mx * eps);
        /* X's distance from range(H), H = op(A0)^H (q x p): the host's Householder QR H = Q R,
         * then ||(I - Q1 Q1^H) X||_F = ||rows p..q-1 of Q^H X||_F, Q^H = H(p-1)^H ... H(0)^H
         * applied a reflector at a time (H(j)^H: conj(tau_j)) */
        double *H = xmalloc((size_t)w * q * p * sizeof(double)), *tau = xmalloc((size_t)w * p * sizeof(double));
        double *Z = xmalloc((size_t)w * q * nrhs * sizeof(double));
        for (int j = 0; j < p; ++j)
            for (int i = 0; i < q; ++i) {
                const double *x = M + (size_t)w * (j + (size_t)i * p);
                H[w * (i + (size_t)j * q)] = x[0];
                if (w == 2) H[w * (i + (size_t)j * q) + 1] = -x[1];
            }
        for (int j = 0; j < nrhs; ++j)
            memcpy(Z + (size_t)w * j * q, B + (size_t)w * j * rb, (size_t)w * q * sizeof(double));
        if (w == 2)
            oracle_zgeqr2(q, p, H, q, tau, NULL);
        else
            oracle_geqr2(q, p, H, q, tau, NULL);
        for (int j = 0; j < p; ++j) {
            const double tj[2] = {tau[w * j], w == 2 ? -tau[w * j + 1] : 0.0};
            if (w == 2)
                oracle_zapply_q(q - j, 1, H + 2 * (j + (size_t)j * q), q, tj, nrhs, Z + 2 * j, (size_t)q);
            else
                oracle_apply_q(q - j, 1, H + (j + (size_t)j * q), q, tj, nrhs, Z + j, (size_t)q);
        }
        e[1] = ratio(frob(w, q - p, nrhs, Z + (size_t)w * p, q), nX * mx * eps);
        free(H);
        free(tau);
        free(Z);
    }
    e[2] = factor_error(w, m, n, A0, A, eps, par);
    free(M);
    free(R);
    double worst = 0.0;
    for (int i = 0; i < 3; ++i)
        if (!(e[i] <= worst)) worst = e[i];
    return worst;
}

/* ------------------------------------------------------------------------------------------ */
/* Checking */

typedef struct verdict {
    double worst;          /* largest normalized error of the checked matrices */
    int64_t worst_b;
    double worst_e[3];     /* its three errors */
    int64_t bad_info, first_bad_info;
    int64_t bad_zero, first_bad_zero; /* zero / empty matrices whose B (or A) is not zero */
    int64_t touched, first_touched;   /* elements that must not change but did */
    char why[200];
} verdict;

static void count_first(int64_t *count, int64_t *first, int64_t b)
{
    if (*first < 0 || b < *first) *first = b;
    ++*count;
}

/* info expected of matrix b: >= 0, or -1 not checked (NaN), -3 0 or untouched (m == n == 0) */
/* Counts (count_first) the elements of an operand's buffer that the call changed but may not
 * write, numbered from base (a second operand's after the first's). */
static void count_touched(const void *h0, const void *h, const unsigned char *wr, int64_t count, size_t es,
                          int64_t base, int64_t *touched, int64_t *first)
{
    for (int64_t e = 0; e < count; ++e)
        if (!wr[e] && memcmp((const char *)h + e * es, (const char *)h0 + e * es, es))
            count_first(touched, first, base + e);
}

/* The worst error so far of one thread's matrices (a NaN error is worse than any): its value,
 * matrix and parts (bytes of them). */
static void keep_worst(double *worst, int64_t *worst_b, double *worst_e, double err, int64_t b, const double *e,
                       size_t bytes)
{
    if (!(err <= *worst)) {
        *worst = err;
        *worst_b = b;
        memcpy(worst_e, e, bytes);
    }
}

/* Merges a thread's worst into the run's (under omp critical); a thread that saw a matrix wins
 * over none seen, so that worst_b names a matrix whenever one was checked. */
static void merge_worst(double *worst, int64_t *worst_b, double *worst_e, double my, int64_t my_b, const double *my_e,
                        size_t bytes)
{
    if (!(my <= *worst) || (*worst_b < 0 && my_b >= 0)) {
        *worst = my;
        *worst_b = my_b;
        memcpy(worst_e, my_e, bytes);
    }
}

static int expected_info(const gcfg *c, const gdata *d, int64_t b)
{
    if (!d->work) return c->m == 0 && c->n == 0 && c->nrhs > 0 && c->expect == SHOAL_STATUS_SUCCESS ? -3 : INFO_POISON;
    switch ((enum mkind)d->kind[b]) {
    case M_RANK: return c->zero_at;
    case M_NAN: return -1;
    default: return 0;
    }
}

static void check_all(const gcfg *c, gdata *d, int mode, verdict *v)
{
    const char pr = c->prec;
    const int m = c->m, n = c->n, nrhs = c->nrhs, w = d->w, rb = d->rows_b;
    memset(v, 0, sizeof *v);
    v->worst_b = v->first_bad_info = v->first_bad_zero = v->first_touched = -1;
    count_touched(d->ha0, d->ha, d->wa, d->na, d->es, 0, &v->touched, &v->first_touched);
    count_touched(d->hb0, d->hb, d->wb, d->nb, d->es, d->na, &v->touched, &v->first_touched); /* B after A */
    for (int64_t b = 0; b < c->batch; ++b) {
        const int ex = expected_info(c, d, b), got = d->hinfo[b];
        if (ex == -1 || (ex == -3 && (got == 0 || got == INFO_POISON)))
            continue;
        if (got != ex)
            count_first(&v->bad_info, &v->first_bad_info, b);
    }
    if (!d->work)
        return;
    const int big = imax(m, n) >= INNER_PAR_N && c->batch <= INNER_PAR_BATCH;
#pragma omp parallel if (!big)
    {
        const size_t ael = (size_t)w * m * n, bel = (size_t)w * rb * nrhs;
        double *A0 = xmalloc(ael * sizeof(double)), *A = xmalloc(ael * sizeof(double));
        double *B0 = xmalloc(bel * sizeof(double)), *B = xmalloc(bel * sizeof(double));
        double my_worst = 0.0, my_e[3] = {0, 0, 0};
        int64_t my_worst_b = -1;
#pragma omp for schedule(dynamic, 1)
        for (int64_t b = 0; b < c->batch; ++b) {
            const enum mkind kind = (enum mkind)d->kind[b];
            if (kind == M_NAN)
                continue;
            const int64_t s = slot_of(c, mode, b);
            get_matrix(pr, d->ha0, s * d->sta, d->lda, m, n, A0);
            get_matrix(pr, d->ha, s * d->sta, d->lda, m, n, A);
            get_matrix(pr, d->hb0, s * d->stb, d->ldb, rb, nrhs, B0);
            get_matrix(pr, d->hb, s * d->stb, d->ldb, rb, nrhs, B);
            if (kind == M_ZERO || kind == M_EMPTY) { /* X = 0 in all max(m, n) rows; A (zero) kept */
                int ok = 1;
                for (size_t i = 0; i < bel && ok; ++i) ok = B[i] == 0.0;
                for (size_t i = 0; i < ael && ok; ++i) ok = A[i] == 0.0;
                if (!ok) {
#pragma omp critical
                    count_first(&v->bad_zero, &v->first_bad_zero, b);
                }
                continue;
            }
            double e[3] = {0, 0, 0}, err;
            if (kind == M_RANK) { /* B holds intermediate values: the factor alone */
                e[2] = factor_error(w, m, n, A0, A, gels_eps(pr), big);
                err = e[2];
            } else {
                err = check_solution(c, d, A0, A, B0, B, big, e);
            }
            keep_worst(&my_worst, &my_worst_b, my_e, err, b, e, sizeof e);
        }
#pragma omp critical
        merge_worst(&v->worst, &v->worst_b, v->worst_e, my_worst, my_worst_b, my_e, sizeof my_e);
        free(A0);
        free(A);
        free(B0);
        free(B);
    }
}

static int verdict_ok(const verdict *v)
{
    return v->worst <= GELS_ERROR_LIMIT && !v->bad_info && !v->bad_zero && !v->touched;
}

static void verdict_why(const gcfg *c, const gdata *d, verdict *v)
{
    size_t u = 0;
    v->why[0] = '\0';
    if (!(v->worst <= GELS_ERROR_LIMIT))
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " worst at matrix %lld (%.3g %.3g %.3g)",
                              (long long)v->worst_b, v->worst_e[0], v->worst_e[1], v->worst_e[2]);
    if (v->bad_info && u < sizeof v->why) {
        const int64_t b = v->first_bad_info;
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " %lld wrong info, first matrix %lld: %d (expected %d)",
                              (long long)v->bad_info, (long long)b, d->hinfo[b], expected_info(c, d, b));
    }
    if (v->bad_zero && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " %lld zero/empty matrices not zeroed, first %lld",
                              (long long)v->bad_zero, (long long)v->first_bad_zero);
    if (v->touched && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u,
                              " %lld element(s) changed that must not, first at %lld (A: < %lld, then B)",
                              (long long)v->touched, (long long)v->first_touched, (long long)d->na);
}

/* A twin run's configuration: the same run without the matrices that fail on purpose (and
 * without a twin of its own). */
static void no_faults(int *zero_at, int *zero_every, int64_t *nan_at, int *twin)
{
    *zero_at = 0;
    *zero_every = 0;
    *nan_at = -1;
    *twin = 0;
}

/* After a twin call: synchronizes; a failed call is reported in why (returns 1). */
static int twin_call_failed(shoal_status st, char *why, size_t len)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    if (st == SHOAL_STATUS_SUCCESS)
        return 0;
    snprintf(why, len, " twin call returned %s", shoal_status_string(st));
    return 1;
}

static void twin_why(int64_t differ, int64_t first, char *why, size_t len)
{
    if (differ)
        snprintf(why, len, " %lld matrices differ from the twin run's (without the failing ones), first %lld",
                 (long long)differ, (long long)first);
}

/* The isolation of the failing matrices: after the checked call (d holds its outputs), the same
 * call again with the rank-deficient, zero and NaN matrices left good. Every other matrix's A,
 * B and info must come back bit-identical. Returns the number that differ (-1: the twin call
 * failed); d then holds the twin run's data. */
static int64_t twin_check(const gcfg *c, gdata *d, int mode, char *why, size_t len)
{
    const size_t es = d->es;
    char *ha1 = snapshot(d->ha, d->na, es), *hb1 = snapshot(d->hb, d->nb, es);
    int *info1 = xmalloc((size_t)(c->batch > 0 ? c->batch : 1) * sizeof(int));
    memcpy(info1, d->hinfo, (size_t)c->batch * sizeof(int));
    gcfg t = *c;
    no_faults(&t.zero_at, &t.zero_every, &t.nan_at, &t.twin);
    fill_inputs(&t, d, mode);
    upload(&t, d, mode);
    const shoal_status st = call_gels(&t, d, mode);
    int64_t differ = 0, first = -1;
    if (twin_call_failed(st, why, len)) {
        differ = -1;
    } else {
        download(&t, d);
        for (int64_t b = 0; b < c->batch; ++b) {
            if (d->kind[b] != M_GOOD)
                continue;
            const int64_t s = slot_of(c, mode, b);
            const int same = info1[b] == d->hinfo[b] && same_matrix(ha1, d->ha, s * d->sta, d->lda, c->m, c->n, es) &&
                             same_matrix(hb1, d->hb, s * d->stb, d->ldb, d->rows_b, c->nrhs, es);
            if (!same)
                count_first(&differ, &first, b);
        }
        twin_why(differ, first, why, len);
    }
    free(ha1);
    free(hb1);
    free(info1);
    return differ;
}

/* ------------------------------------------------------------------------------------------ */
/* Runs */

/* What gels' and gelqf's runs share: the vendor switch, the kernel-name query, the timed call,
 * the status checks and the notes column, written once so both print and judge alike. */

static void set_vendor(int vendor)
{
    const shoal_status vs = shoal_set_vendor_dispatch(g_h, vendor);
    if (vs != SHOAL_STATUS_SUCCESS) {
        printf("  shoal_set_vendor_dispatch(%d): %s FAILED\n", vendor, shoal_status_string(vs));
        gpu_test_record(0);
    }
}

/* The kernel name the driver answers for the run ("-" where none): the query answers every
 * m, n >= 1, the driver's name up to GELS_MAX_N and NOT_SUPPORTED above (*want). */
static const char *query_kernel(const char *routine, char prec, int arr, char op, int m, int n, int nrhs,
                                shoal_status *got, shoal_status *want)
{
    const char *kernel = NULL;
    *got = *want = SHOAL_STATUS_SUCCESS;
    if (m >= 1 && n >= 1) {
        *got = shoal_lapack_kernel_name(g_h, routine, prec, arr, op, m, n, nrhs, &kernel);
        *want = m > GELS_MAX_N || n > GELS_MAX_N ? SHOAL_STATUS_NOT_SUPPORTED : SHOAL_STATUS_SUCCESS;
    }
    return *got != SHOAL_STATUS_SUCCESS || !kernel ? "-" : kernel;
}

/* The call's timing: events on the handle's stream around it, everything before it finished. */
static cudaStream_t timer_start(void)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    cudaStream_t stream = 0;
    shoal_get_stream(g_h, &stream);
    CUDA_CHECK(cudaEventRecord(g_ev0, stream));
    return stream;
}

static float timer_stop(cudaStream_t stream)
{
    CUDA_CHECK(cudaEventRecord(g_ev1, stream));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, g_ev0, g_ev1));
    return ms;
}

/* Whether the call returned what the run expects; if not, its error is infinite and why says so. */
static int status_ok(shoal_status st, shoal_status expect, double *worst, char *why, size_t len)
{
    if (st == expect)
        return 1;
    *worst = INFINITY;
    snprintf(why, len, " returned %s (expected %s)", shoal_status_string(st), shoal_status_string(expect));
    return 0;
}

/* The run's size and pool as the environment and the defaults make them. */
static void run_defaults(int64_t *batch, int *pool)
{
    *batch = gpu_test_batch(*batch); /* SHOAL_TEST_QUICK, SHOAL_TEST_MAX_BATCH */
    if (*pool <= 0)
        *pool = 256;
}

/* After a call mode's line: its verdict counted, the next run's problems drawn afresh. */
static void end_run(int ok)
{
    fflush(stdout);
    gpu_test_record(ok);
    ++g_run_index;
}

/* Appends a wrong kernel-name status to extra; returns whether it was right. */
static int kernel_status_ok(char *extra, size_t len, shoal_status got, shoal_status want)
{
    if (got == want)
        return 1;
    const size_t u = strlen(extra);
    snprintf(extra + u, len - u, " kernel_name: %s (expected %s)", shoal_status_string(got), shoal_status_string(want));
    return 0;
}

/* The notes column: the run's layout and what goes wrong on purpose (zero_line: "col" or "row",
 * the line zero_at - 1 of the rank-deficient matrices). */
static void run_notes(char *notes, size_t len, int64_t gap, const char *zero_line, int zero_at, int zero_every,
                      int64_t nan_at, int64_t batch, int tail, int page_end, int null_ops, int twin,
                      shoal_status expect)
{
    size_t u = 0;
    notes[0] = '\0';
    if (gap)
        u += (size_t)snprintf(notes + u, len - u, " gap%lld", (long long)gap);
    if (zero_at && u < len)
        u += (size_t)snprintf(notes + u, len - u, " zero%s%d", zero_line, zero_at);
    if (zero_every && u < len)
        u += (size_t)snprintf(notes + u, len - u, " zeroA/%d", zero_every);
    if (nan_at >= 0 && nan_at < batch && u < len)
        u += (size_t)snprintf(notes + u, len - u, " NaN@%lld", (long long)nan_at);
    if (tail && u < len)
        u += (size_t)snprintf(notes + u, len - u, " tail+%d", tail - 1);
    if (page_end && u < len)
        u += (size_t)snprintf(notes + u, len - u, " page_end");
    if (null_ops && u < len)
        u += (size_t)snprintf(notes + u, len - u, " NULL");
    if (twin && u < len)
        u += (size_t)snprintf(notes + u, len - u, " twin");
    if (expect != SHOAL_STATUS_SUCCESS && u < len)
        u += (size_t)snprintf(notes + u, len - u, " expect=%s", shoal_status_string(expect));
}

static void print_header(void)
{
    printf("# %-2s %-2s %-7s %4s %4s %4s %8s %5s %5s %-6s %10s %9s %-6s %s\n", "p", "op", "mode", "m", "n", "nrhs",
           "batch", "lda", "ldb", "vendor", "shoal_ms", "error", "status", "kernel / notes");
}

static void run(gcfg c)
{
    gdata d;
    run_defaults(&c.batch, &c.pool);
    setup(&c, &d);
    set_vendor(c.vendor);
    for (int mode = MODE_STRIDED; mode <= MODE_ARRAY; ++mode) {
        if (!(c.modes & mode))
            continue;
        fill_inputs(&c, &d, mode);
        upload(&c, &d, mode);
        shoal_status kst, kst_want;
        const char *kernel = query_kernel("gels", c.prec, mode == MODE_ARRAY, c.trans ? 't' : 'n', c.m, c.n, c.nrhs,
                                          &kst, &kst_want);
        const cudaStream_t stream = timer_start();
        const shoal_status st = call_gels(&c, &d, mode);
        const float ms = timer_stop(stream);
        verdict v;
        memset(&v, 0, sizeof v);
        char extra[200] = "";
        int ok = status_ok(st, c.expect, &v.worst, v.why, sizeof v.why);
        if (ok) {
            download(&c, &d);
            check_all(&c, &d, mode, &v);
            verdict_why(&c, &d, &v);
            ok = verdict_ok(&v);
            if (c.twin && d.work && twin_check(&c, &d, mode, extra, sizeof extra) != 0)
                ok = 0;
        }
        ok &= kernel_status_ok(extra, sizeof extra, kst, kst_want);
        char notes[128];
        run_notes(notes, sizeof notes, c.gap, c.m >= c.n ? "col" : "row", c.zero_at, c.zero_every, c.nan_at, c.batch,
                  c.tail, c.page_end, c.null_ops, c.twin, c.expect);
        printf("  %-2c %-2c %-7s %4d %4d %4d %8lld %5lld %5lld %-6s %10.4f %9.2e %-6s %s%s%s%s\n", c.prec,
               OP_CH[c.trans], mode == MODE_ARRAY ? "array" : "strided", c.m, c.n, c.nrhs, (long long)c.batch,
               (long long)d.lda, (long long)d.ldb, c.vendor ? "on" : "off", ms, v.worst, ok ? "ok" : "FAILED",
               kernel, notes, v.why, extra);
        end_run(ok);
    }
    shoal_set_vendor_dispatch(g_h, 1);
    free_data(&d);
}

static gcfg base(char prec, int trans, int m, int n, int nrhs, int64_t batch)
{
    gcfg c;
    memset(&c, 0, sizeof c);
    c.prec = prec;
    c.trans = trans;
    c.m = m;
    c.n = n;
    c.nrhs = nrhs;
    c.batch = batch;
    c.modes = MODE_STRIDED | MODE_ARRAY;
    c.nan_at = -1;
    c.pool = 256;
    c.expect = SHOAL_STATUS_SUCCESS;
    return c;
}

static const int RHS[] = {1, 3, 17};

/* ------------------------------------------------------------------------------------------ */
/* Cases */

/* Square sizes, every op, both call modes, nrhs in turn 1, 3, 17. small: n <= 33 (the geqrf
 * kernels' sizes and just past them; op C also in s and d, where it is T); mid: the blocked
 * driver's sizes up to 256; large: 512 and 1024, batch 3, one op and mode per run. */
static void case_square(char p, int which)
{
    static const int small[] = {1, 2, 3, 5, 8, 16, 17, 31, 32, 33};
    static const int mid[] = {64, 65, 100, 128, 129, 255, 256};
    static const int large[] = {512, 1024};
    if (which == 0) {
        for (int i = 0; i < COUNT(small); ++i)
            for (int t = 0; t < 3; ++t) {
                const int n = small[i];
                run(base(p, t, n, n, RHS[(i + t) % 3], 65 + n));
            }
    } else if (which == 1) {
        for (int i = 0; i < COUNT(mid); ++i)
            for (int t = 0; t < n_ops(p); ++t) {
                const int n = mid[i];
                run(base(p, t, n, n, RHS[(i + t) % 3], n > 200 ? 4 : 9));
            }
    } else {
        for (int i = 0; i < COUNT(large); ++i)
            for (int t = 0; t < n_ops(p); ++t) {
                gcfg c = base(p, t, large[i], large[i], RHS[(i + t) % 3], 3);
                c.modes = (i + t) % 2 ? MODE_ARRAY : MODE_STRIDED;
                run(c);
            }
    }
}

/* Tall (m > n) and wide (m < n) shapes, every op: op N on a tall A and op T / C on a wide one
 * are least squares, the others minimum norm. */
static void case_rect(char p, int wide)
{
    static const int tall[][3] = {{1024, 64, 5}, {512, 16, 9}, {40, 7, 129}, {300, 33, 9}}; /* m, n, batch */
    for (int i = 0; i < COUNT(tall); ++i)
        for (int t = 0; t < n_ops(p); ++t) {
            const int m = wide ? tall[i][1] : tall[i][0], n = wide ? tall[i][0] : tall[i][1];
            gcfg c = base(p, t, m, n, RHS[(i + t + wide) % 3], tall[i][2]);
            c.gap = i % 2 ? 3 : 0;
            run(c);
        }
}

/* The shapes of the layout cases, gels' and gelqf's alike. */
static const int LAYOUT_SHAPES[][2] = {{5, 5}, {33, 33}, {40, 7}, {7, 40}, {100, 33}, {33, 100}, {129, 129},
                                       {1, 9}, {9, 1}};

/* lda = m + 3, ldb = max(m, n) + 5 (NaN padding that must stay), gaps, batch 1 and 33. */
static void case_layout(char p)
{
    for (int i = 0; i < COUNT(LAYOUT_SHAPES); ++i)
        for (int t = 0; t < n_ops(p); ++t) {
            const int m = LAYOUT_SHAPES[i][0], n = LAYOUT_SHAPES[i][1];
            gcfg c = base(p, t, m, n, RHS[(i + t) % 3], (i + t) % 2 ? 1 : 33);
            c.pad_a = 3;
            c.pad_b = 5;
            c.gap = (i + t) % 3 == 0 ? 2 : 0;
            run(c);
        }
}

/* Batches past 65535 (the driver's 65536-matrix chunks): 70000 of 3 x 3 with rank-deficient and
 * zero matrices in both chunks and a NaN matrix first in the second (twin), every op; 4 x 2,
 * least squares (N) and minimum norm (T). Capped by SHOAL_TEST_MAX_BATCH / QUICK. */
static void case_batch_large(char p)
{
    for (int t = 0; t < n_ops(p); ++t) {
        gcfg c = base(p, t, 3, 3, RHS[t % 2], 70000);
        c.modes = t == 0 ? MODE_STRIDED | MODE_ARRAY : (t == 1 ? MODE_ARRAY : MODE_STRIDED);
        if (t == 0) {
            c.zero_at = 2;
            c.zero_every = 1000;
            c.nan_at = 65536;
            c.twin = 1;
        }
        run(c);
    }
    gcfg c = base(p, 0, 4, 2, 2, 70000);
    c.modes = MODE_STRIDED;
    run(c);
    c = base(p, 1, 4, 2, 1, 70001);
    c.modes = MODE_ARRAY;
    c.pad_b = 1;
    run(c);
}

/* The shapes of the rank cases (zero columns or rows, zero matrices, NaNs), gels' and gelqf's alike. */
static const int RANK_SHAPES[][2] = {{8, 8}, {33, 33}, {100, 100}, {40, 7}, {7, 40}, {300, 33}, {33, 300}, {256, 256}};

/* Rank-deficient matrices (a zero column, m >= n, or row, m < n, at J - 1 >= 1: info J; J in turn
 * 2, the middle and the last), zero matrices (info 0, X = 0) and a NaN matrix among good ones,
 * every op (least squares and minimum norm on each shape), twin. */
static void case_rank(char p)
{
    for (int i = 0; i < COUNT(RANK_SHAPES); ++i)
        for (int t = 0; t < n_ops(p); ++t) {
            const int m = RANK_SHAPES[i][0], n = RANK_SHAPES[i][1], k = imin(m, n);
            const int js[3] = {2, k / 2 + 1, k};
            gcfg c = base(p, t, m, n, RHS[(i + t) % 3], imax(m, n) > 200 ? 10 : 30);
            c.zero_at = js[(i + t) % 3];
            c.zero_every = 4;
            c.nan_at = c.batch / 2 + 1;
            c.twin = 1;
            c.pad_a = i % 2;
            c.modes = imax(m, n) > 200 ? (t % 2 ? MODE_ARRAY : MODE_STRIDED) : MODE_STRIDED | MODE_ARRAY;
            run(c);
        }
}

/* No work or an empty system: m == 0 or n == 0 (B's first max(m, n) rows zeroed, info 0; A,
 * never referenced, untouched, also passed as NULL), m == n == 0 (NULL A, B and info are legal),
 * nrhs == 0 and batch == 0 (nothing touched), m or n = 1025 (NOT_SUPPORTED, nothing touched). */
static void case_empty(char p)
{
    static const int shapes[][3] = {{0, 5, 3}, {6, 0, 2}, {0, 1, 1}, {1, 0, 4}, {0, 0, 2}}; /* m, n, nrhs */
    for (int i = 0; i < COUNT(shapes); ++i)
        for (int t = 0; t < 2; ++t) {
            gcfg c = base(p, t, shapes[i][0], shapes[i][1], shapes[i][2], 7);
            c.pad_a = 1;
            c.pad_b = i % 2 ? 2 : 0;
            c.gap = 1;
            run(c);
            c.null_ops = 1;
            run(c);
        }
    static const int norhs[][2] = {{5, 3}, {3, 5}, {4, 4}};
    for (int i = 0; i < COUNT(norhs); ++i) {
        gcfg c = base(p, i % 2, norhs[i][0], norhs[i][1], 0, 9);
        c.gap = 2;
        run(c);
    }
    gcfg c = base(p, 0, 4, 4, 1, 0);
    run(c);
    c = base(p, 1, 3, 5, 2, 0);
    run(c);
    static const int refused[][2] = {{1025, 4}, {4, 1025}, {1025, 1025}};
    for (int i = 0; i < COUNT(refused); ++i) {
        c = base(p, i % 2, refused[i][0], refused[i][1], 1, 2);
        c.expect = SHOAL_STATUS_NOT_SUPPORTED;
        run(c);
    }
}

/* The shapes of the vendor cases, gels' and gelqf's alike. */
static const int VENDOR_SHAPES[][2] = {{8, 8}, {32, 16}, {16, 32}, {100, 100}, {300, 33}, {33, 300}};

/* Vendor dispatch on: whatever the steps route to must still be right. */
static void case_vendor(char p)
{
    for (int i = 0; i < COUNT(VENDOR_SHAPES); ++i)
        for (int t = 0; t < 2; ++t) {
            gcfg c = base(p, t == 1 && elem_reals(p) == 2 ? 2 : t, VENDOR_SHAPES[i][0], VENDOR_SHAPES[i][1],
                          RHS[(i + t) % 3], imax(VENDOR_SHAPES[i][0], VENDOR_SHAPES[i][1]) > 64 ? 9 : 200);
            c.vendor = 1;
            run(c);
        }
}

/* The shapes of the tail cases, gels' and gelqf's alike. */
static const int TAIL_SHAPES[][2] = {{1, 1}, {3, 3}, {5, 5}, {17, 17}, {33, 33}, {7, 3}, {3, 7}, {40, 17},
                                     {17, 40}, {65, 33}, {1, 6}, {6, 1}};

/* Issue 29: A, B and info each end at the last element of their allocation and start 0..3
 * elements into it: square, tall and wide shapes, every op, nrhs 1, 2, n + 3, ld > rows in
 * some, odd gaps, rank-deficient matrices in some batches. */
static void case_tail(char p)
{
    for (int tail = 1; tail <= 4; ++tail)
        for (int i = 0; i < COUNT(TAIL_SHAPES); ++i) {
            const int m = TAIL_SHAPES[i][0], n = TAIL_SHAPES[i][1], k = imin(m, n);
            const int t = (i + tail) % n_ops(p);
            const int nrhs = i % 3 == 2 ? n + 3 : 1 + i % 3;
            gcfg c = base(p, t, m, n, nrhs, 129);
            c.tail = tail;
            c.pad_a = (i + tail) % 2 ? tail : 0;
            c.pad_b = (i + tail) % 3 == 1 ? tail + 1 : 0;
            c.gap = (i + tail) % 3 == 0 ? 1 : 0;
            c.zero_at = k >= 2 && (i + tail) % 3 == 2 ? k : 0;
            c.zero_every = (i + tail) % 4 == 0 ? 5 : 0;
            run(c);
        }
}

/* The shapes of the page-end cases, gels' and gelqf's alike. */
static const int PAGE_END_SHAPES[][2] = {{1, 1}, {3, 3}, {17, 17}, {7, 3}, {3, 7}, {100, 33}, {33, 100}, {65, 65}};

/* Issue 29, page ends: A, B and info each end at the end of a mapped page, the next page
 * unmapped; strided and in-order pointer arrays (the last problem's matrices at the page ends),
 * every op, ld > rows in some, rank-deficient matrices in some. */
static void case_page_end(char p)
{
    if (!gpu_test_page_end_ready())
        return;
    for (int i = 0; i < COUNT(PAGE_END_SHAPES); ++i)
        for (int t = 0; t < n_ops(p); ++t) {
            const int m = PAGE_END_SHAPES[i][0], n = PAGE_END_SHAPES[i][1], k = imin(m, n);
            gcfg c = base(p, t, m, n, RHS[(i + t) % 3], 5);
            c.page_end = 1;
            c.pad_a = (i + t) % 2 ? 1 + i % 3 : 0;
            c.pad_b = (i + t) % 3 == 1 ? 2 : 0;
            c.gap = i % 3 == 0 ? 1 : 0;
            c.zero_at = k >= 2 && (i + t) % 3 == 0 ? k : 0;
            run(c);
        }
}

/* Wide matrices whose A^H fills the driver's 32 MiB workspace in a few problems: d 600 x 1000
 * (4.8 MB a problem: 6 at a time, batch 13 = 6 + 6 + 1), z 600 x 1000 (9.6 MB: 3 at a time,
 * batch 7); minimum norm (N) and least squares (T, C). */
static void case_chunks(char p)
{
    if (p == 'd') {
        gcfg c = base(p, 0, 600, 1000, 3, 13);
        run(c);
        c = base(p, 1, 600, 1000, 2, 13);
        c.modes = MODE_STRIDED;
        c.zero_at = 300;
        c.twin = 1;
        run(c);
    } else {
        gcfg c = base(p, 2, 600, 1000, 2, 7);
        c.modes = MODE_STRIDED;
        run(c);
        c = base(p, 0, 600, 1000, 1, 7);
        c.modes = MODE_ARRAY;
        run(c);
    }
}

/* ========================================================================================== */
/* gelqf: the LQ factorization A = L Q (the header's second part) */

/* One gelqf run: a shape, its layout, what goes wrong on purpose, which call modes. */
typedef struct lcfg {
    char prec;
    int m, n;
    int pad_a;         /* lda = max(1, m) + pad_a */
    int64_t gap;       /* extra poisoned elements between matrices */
    int64_t gap_t;     /* and between tau vectors: strideTau = min(m, n) + gap_t */
    int64_t batch;
    int modes;         /* MODE_STRIDED | MODE_ARRAY */
    int vendor;        /* vendor dispatch on */
    int zero_at;       /* J in 1..min(m, n): matrices b % 3 == 1 get row J - 1 zeroed (tau_{J-1} = 0,
                          that row of the result 0); 0: none */
    int zero_every;    /* matrices b % zero_every == zero_every - 1 are all zeros; 0: none */
    int64_t nan_at;    /* a matrix with one NaN in A (-1: none) */
    int pool;          /* distinct matrices tiled over the batch */
    int tail;          /* 1..4: no guard, A and tau end at their last matrix's last element and
                          start tail - 1 elements into their allocations */
    int page_end;      /* no guard, A and tau end at the end of a mapped page */
    int twin;          /* the call again with the zero-row, zero and NaN matrices left good: every
                          other matrix's A and tau must be bit-identical */
    int null_ops;      /* A and tau passed as NULL (legal where there is no work) */
    shoal_status expect;
} lcfg;

typedef struct ldata {
    size_t es;                 /* bytes per element */
    int w, k;                  /* reals per element; k = min(m, n), tau's length */
    int work;                  /* the call has something to do (else nothing may change) */
    int64_t lda, sta, stt;     /* stt: strideTau */
    int64_t na, nt;            /* buffer sizes in elements */
    void *ha0, *ha, *ht0, *ht; /* host: before and after */
    unsigned char *wa, *wt;    /* element may be written by the call */
    unsigned char *kind;       /* enum mkind per matrix */
    void *da, *dt;
    void **dap, **dtp;
    void *allocs[2];           /* what gpu_test_free takes for da, dt */
    double *pool_a;            /* the pool of generated matrices (packed, double) */
} ldata;

static enum mkind lq_kind_of(const lcfg *c, int64_t b)
{
    return kind_in(c->m, c->n, c->nan_at, c->zero_every, c->zero_at, b);
}

static int64_t lq_slot(const lcfg *c, int mode, int64_t b) { return slot_in(c->batch, c->page_end, mode, b); }

static void lq_setup(const lcfg *c, ldata *d)
{
    memset(d, 0, sizeof *d);
    const int m = c->m, n = c->n;
    d->w = elem_reals(c->prec);
    d->es = (size_t)d->w * (elem_single(c->prec) ? 4 : 8);
    d->k = imin(m, n);
    d->work = c->expect == SHOAL_STATUS_SUCCESS && c->batch > 0 && m > 0 && n > 0;
    d->lda = imax(1, m) + c->pad_a;
    d->sta = d->lda * n + c->gap;
    d->stt = d->k + c->gap_t;
    const int tight = c->tail || c->page_end;
    d->na = buf_len(c->batch, d->sta, d->lda, m, n, tight);
    d->nt = buf_len(c->batch, d->stt, d->stt, d->k, 1, tight); /* tau: one k-vector a matrix */
    const size_t es = d->es;
    const int shift = c->tail ? c->tail - 1 : 0;
    d->da = operand_alloc(d->na, es, c->page_end, shift, &d->ha0, &d->ha, &d->wa, &d->allocs[0]);
    d->dt = operand_alloc(d->nt, es, c->page_end, shift, &d->ht0, &d->ht, &d->wt, &d->allocs[1]);
    d->kind = xmalloc((size_t)(c->batch > 0 ? c->batch : 1));
    if ((c->modes & MODE_ARRAY) && c->batch > 0) {
        CUDA_CHECK(cudaMalloc((void **)&d->dap, (size_t)c->batch * sizeof(void *)));
        CUDA_CHECK(cudaMalloc((void **)&d->dtp, (size_t)c->batch * sizeof(void *)));
    }
    for (int64_t b = 0; b < c->batch; ++b)
        d->kind[b] = (unsigned char)lq_kind_of(c, b);
    const int pool = pool_count(c->pool, c->batch);
    const size_t ael = (size_t)d->w * m * n;
    d->pool_a = xmalloc((size_t)(pool > 0 ? pool : 1) * (ael > 0 ? ael : 1) * sizeof(double));
    fill_pool(pool, d->pool_a, ael, NULL, 0);
}

static void lq_free(ldata *d)
{
    host_free(d->ha0, d->ha, d->wa);
    host_free(d->ht0, d->ht, d->wt);
    free(d->kind);
    free(d->pool_a);
    for (int i = 0; i < COUNT(d->allocs); ++i)
        gpu_test_free(d->allocs[i]);
    cudaFree(d->dap);
    cudaFree(d->dtp);
}

/* Lays out every matrix for one call mode (the kinds of c: a twin run passes a c without the
 * failing matrices), poisons everything else and tau, and marks what the call may write. */
static void lq_fill_inputs(const lcfg *c, ldata *d, int mode)
{
    const char pr = c->prec;
    const int m = c->m, n = c->n, w = d->w;
    const int pool = pool_count(c->pool, c->batch);
    const size_t ael = (size_t)m * n;
    poison_operand(pr, d->ha0, d->wa, d->na, POISON_A);
    poison_operand(pr, d->ht0, d->wt, d->nt, POISON_TAU);
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < c->batch; ++b) {
        const int64_t s = lq_slot(c, mode, b);
        const enum mkind kind = lq_kind_of(c, b);
        const double *a = d->pool_a + (size_t)(b % (pool > 0 ? pool : 1)) * ael * w;
        put_matrix(pr, d->ha0, d->wa, s * d->sta, d->lda, m, n, a, kind, c->zero_at, 0, b, d->work); /* zero rows */
        if (d->work)
            for (int j = 0; j < d->k; ++j) d->wt[s * d->stt + j] = 1;
    }
}

static void lq_upload(const lcfg *c, ldata *d, int mode)
{
    const size_t es = d->es;
    CUDA_CHECK(cudaMemcpy(d->da, d->ha0, (size_t)d->na * es, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dt, d->ht0, (size_t)d->nt * es, cudaMemcpyHostToDevice));
    if (mode == MODE_ARRAY && c->batch > 0) {
        upload_ptrs(d->dap, d->da, c->batch, c->page_end, mode, d->sta, es);
        upload_ptrs(d->dtp, d->dt, c->batch, c->page_end, mode, d->stt, es); /* one tau pointer per matrix */
    }
}

static void lq_download(ldata *d)
{
    CUDA_CHECK(cudaMemcpy(d->ha, d->da, (size_t)d->na * d->es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d->ht, d->dt, (size_t)d->nt * d->es, cudaMemcpyDeviceToHost));
}

static shoal_status call_gelqf(const lcfg *c, const ldata *d, int mode)
{
    const int m = c->m, n = c->n, arr = mode == MODE_ARRAY;
    const int64_t batch = c->batch, lda = d->lda, sta = d->sta, stt = d->stt;
    void *A = c->null_ops ? NULL : d->da, *tau = c->null_ops ? NULL : d->dt;
    void **Ap = c->null_ops ? NULL : d->dap, **taup = c->null_ops ? NULL : d->dtp;
#define GELQF_CALL(p, T)                                                                                   \
    return arr ? shoal_##p##gelqf_batched(g_h, m, n, (T *const *)Ap, lda, (T *const *)taup, batch)          \
               : shoal_##p##gelqf_strided_batched(g_h, m, n, (T *)A, lda, sta, (T *)tau, stt, batch)
    switch (c->prec) {
    case 's': GELQF_CALL(s, float);
    case 'd': GELQF_CALL(d, double);
    case 'c': GELQF_CALL(c, shoal_complex_float);
    default: GELQF_CALL(z, shoal_complex_double);
    }
#undef GELQF_CALL
}

/* The normalized errors of one LQ factorization (A0 the input, A the output, both m x n packed;
 * tau its k = min(m, n) scalars): e[0] = ||A0 - L Q||_F / (||A0||_F max(m, n) eps), e[1] =
 * ||I - Q Q^H||_F / (n eps). Q = H_k^H ... H_1^H with H_j = I - tau_j v_j v_j^H, v_j(j) = 1,
 * v_j(j+1:n) the conjugates of row j's entries right of the diagonal (LAPACK's gelqf layout), so
 * P = Q^H = H_1 ... H_k is the QR-style product of the reflectors v_j, formed a column at a time
 * with oracle_apply_q / oracle_zapply_q (column c: only H_1 .. H_{c+1} move e_c); then
 * (L Q)(i, c) = sum_{j <= min(i, k - 1)} L(i, j) conj(P(c, j)) and Q Q^H = P^H P (its upper
 * triangle, the off-diagonal counted twice). Columns in parallel where par. Returns the larger
 * (NaN if either is). */
static double lq_errors(int w, int m, int n, const double *A0, const double *A, const double *tau, double eps,
                        int par, double e[2])
{
    const int k = imin(m, n);
    double *V = xmalloc((size_t)w * n * k * sizeof(double)), *P = xmalloc((size_t)w * n * n * sizeof(double));
    double *Lt = xmalloc((size_t)w * k * m * sizeof(double));
    memset(V, 0, (size_t)w * n * k * sizeof(double));
    memset(P, 0, (size_t)w * n * n * sizeof(double));
    memset(Lt, 0, (size_t)w * k * m * sizeof(double));
    for (int j = 0; j < k; ++j) {
        V[(size_t)w * (j + (size_t)j * n)] = 1.0; /* not read: v_j(j) = 1 is implied */
        for (int i = j + 1; i < n; ++i) {        /* v_j(i) = conj(A(j, i)) */
            const double *a = A + (size_t)w * (j + (size_t)i * m);
            V[(size_t)w * (i + (size_t)j * n)] = a[0];
            if (w == 2) V[(size_t)w * (i + (size_t)j * n) + 1] = -a[1];
        }
    }
    for (int i = 0; i < m; ++i) /* Lt = L^T (k x m): column i is L(i, 0:k) */
        for (int j = 0; j <= i && j < k; ++j)
            for (int t = 0; t < w; ++t)
                Lt[(size_t)w * (j + (size_t)i * k) + t] = A[(size_t)w * (i + (size_t)j * m) + t];
#pragma omp parallel for schedule(dynamic, 8) if (par)
    for (int c = 0; c < n; ++c) {
        double *col = P + (size_t)w * c * n;
        col[(size_t)w * c] = 1.0;
        if (w == 2)
            oracle_zapply_q(n, imin(c + 1, k), V, n, tau, 1, col, (size_t)n);
        else
            oracle_apply_q(n, imin(c + 1, k), V, n, tau, 1, col, (size_t)n);
    }
    double sf = 0.0, so = 0.0;
#pragma omp parallel if (par)
    {
        double *q = xmalloc((size_t)w * (k > 0 ? k : 1) * sizeof(double));
        double *g = xmalloc((size_t)w * n * sizeof(double));
        double myf = 0.0, myo = 0.0;
#pragma omp for schedule(dynamic, 8)
        for (int c = 0; c < n; ++c) {
            for (int j = 0; j < k; ++j) { /* q(j) = Q(j, c) = conj(P(c, j)) */
                const double *p = P + (size_t)w * (c + (size_t)j * n);
                q[w * j] = p[0];
                if (w == 2) q[w * j + 1] = -p[1];
            }
            for (int i = 0; i < m; ++i) {
                const double *l = Lt + (size_t)w * i * k, *a0 = A0 + (size_t)w * (i + (size_t)c * m);
                const int kk = imin(i + 1, k);
                double re = a0[0], im = w == 2 ? a0[1] : 0.0;
                if (w == 2)
                    for (int j = 0; j < kk; ++j) {
                        re -= l[2 * j] * q[2 * j] - l[2 * j + 1] * q[2 * j + 1];
                        im -= l[2 * j] * q[2 * j + 1] + l[2 * j + 1] * q[2 * j];
                    }
                else
                    for (int j = 0; j < kk; ++j) re -= l[j] * q[j];
                myf += re * re + im * im;
            }
            /* column c of P^H P = Q Q^H, rows 0..c */
            if (w == 2)
                oracle_zmatmul(2, c + 1, 1, n, P, n, P + (size_t)w * c * n, n, g, n);
            else
                oracle_matmul(1, c + 1, 1, n, P, n, P + (size_t)c * n, n, g, n);
            for (int i = 0; i <= c; ++i)
                for (int t = 0; t < w; ++t) {
                    const double dv = g[w * i + t] - (i == c && t == 0 ? 1.0 : 0.0);
                    myo += (i == c ? 1.0 : 2.0) * dv * dv;
                }
        }
#pragma omp critical
        {
            sf += myf;
            so += myo;
        }
        free(q);
        free(g);
    }
    e[0] = ratio(sqrt(sf), frob(w, m, n, A0, m) * imax(m, n) * eps);
    e[1] = ratio(sqrt(so), n * eps);
    free(V);
    free(P);
    free(Lt);
    return e[0] <= e[1] ? e[1] : (isnan(e[1]) ? e[1] : e[0]);
}

/* LAPACK's conventions (dlarfg / zlarfg, as tuner/spec_chol_qr.c checks geqrf's): L's diagonal
 * exactly real; every tau 0 (H = I) or 1 <= re tau <= 2 and |tau - 1| <= 1 (64 eps of slack; this
 * range also pins the diagonal's sign: L(j, j) = beta_j = -sign(re alpha_j) ||.||); in s and d
 * the last reflector of an m >= n matrix the identity (tau = 0: nothing right of its diagonal).
 * Returns NULL, or what is broken. */
static const char *lq_conventions(int w, int m, int n, const double *A, const double *tau, double eps)
{
    const int k = imin(m, n);
    for (int j = 0; j < k; ++j) {
        const double tr = tau[w * j], ti = w == 2 ? tau[w * j + 1] : 0.0;
        if (w == 2 && A[(size_t)w * (j + (size_t)j * m) + 1] != 0.0)
            return "L(j, j) not real";
        if (tr == 0.0 && ti == 0.0)
            continue;
        if (!(tr >= 1.0 - 64.0 * eps && tr <= 2.0 + 64.0 * eps && hypot(tr - 1.0, ti) <= 1.0 + 64.0 * eps))
            return "tau outside LAPACK's range";
    }
    if (w == 1 && m >= n && tau[k - 1] != 0.0)
        return "last tau of an m >= n matrix not 0";
    return NULL;
}

typedef struct lverdict {
    double worst;         /* largest normalized error of the checked matrices */
    int64_t worst_b;
    double worst_e[2];    /* its two errors */
    int64_t bad_conv, first_bad_conv;
    const char *conv_why; /* the first broken convention's */
    int64_t bad_zero, first_bad_zero; /* zero matrices, zero rows: A or tau not exactly 0 */
    int64_t touched, first_touched;
    char why[240];
} lverdict;

static void lq_check_all(const lcfg *c, ldata *d, int mode, lverdict *v)
{
    const char pr = c->prec;
    const int m = c->m, n = c->n, w = d->w, k = d->k;
    const double eps = gels_eps(pr);
    memset(v, 0, sizeof *v);
    v->worst_b = v->first_bad_conv = v->first_bad_zero = v->first_touched = -1;
    count_touched(d->ha0, d->ha, d->wa, d->na, d->es, 0, &v->touched, &v->first_touched);
    count_touched(d->ht0, d->ht, d->wt, d->nt, d->es, d->na, &v->touched, &v->first_touched); /* tau after A */
    if (!d->work)
        return;
    const int big = imax(m, n) >= INNER_PAR_N && c->batch <= INNER_PAR_BATCH;
#pragma omp parallel if (!big)
    {
        const size_t ael = (size_t)w * m * n;
        double *A0 = xmalloc(ael * sizeof(double)), *A = xmalloc(ael * sizeof(double));
        double *tau = xmalloc((size_t)w * k * sizeof(double));
        double my_worst = 0.0, my_e[2] = {0, 0};
        int64_t my_worst_b = -1;
#pragma omp for schedule(dynamic, 1)
        for (int64_t b = 0; b < c->batch; ++b) {
            const enum mkind kind = (enum mkind)d->kind[b];
            if (kind == M_NAN)
                continue;
            const int64_t s = lq_slot(c, mode, b);
            get_matrix(pr, d->ha0, s * d->sta, d->lda, m, n, A0);
            get_matrix(pr, d->ha, s * d->sta, d->lda, m, n, A);
            get_matrix(pr, d->ht, s * d->stt, d->stt, k, 1, tau);
            /* exact zeros: a zero matrix stays 0 with every tau 0; a zero row J - 1 stays 0 (L's
             * row and the reflector's entries) with tau_{J-1} = 0 (LAPACK's larfg: H = I) */
            int ok = 1;
            if (kind == M_ZERO) {
                for (size_t i = 0; i < ael && ok; ++i) ok = A[i] == 0.0;
                for (int i = 0; i < w * k && ok; ++i) ok = tau[i] == 0.0;
            } else if (kind == M_RANK) {
                const int r = c->zero_at - 1;
                for (int j = 0; j < n && ok; ++j)
                    for (int t = 0; t < w; ++t) ok = ok && A[(size_t)w * (r + (size_t)j * m) + t] == 0.0;
                for (int t = 0; t < w; ++t) ok = ok && tau[w * r + t] == 0.0;
            }
            if (!ok) {
#pragma omp critical
                count_first(&v->bad_zero, &v->first_bad_zero, b);
            }
            if (kind == M_ZERO)
                continue;
            const char *why = lq_conventions(w, m, n, A, tau, eps);
            if (why) {
#pragma omp critical
                {
                    if (v->first_bad_conv < 0 || b < v->first_bad_conv) v->conv_why = why;
                    count_first(&v->bad_conv, &v->first_bad_conv, b);
                }
            }
            double e[2];
            const double err = lq_errors(w, m, n, A0, A, tau, eps, big, e);
            keep_worst(&my_worst, &my_worst_b, my_e, err, b, e, sizeof e);
        }
#pragma omp critical
        merge_worst(&v->worst, &v->worst_b, v->worst_e, my_worst, my_worst_b, my_e, sizeof my_e);
        free(A0);
        free(A);
        free(tau);
    }
}

static int lq_verdict_ok(const lverdict *v)
{
    return v->worst <= GELS_ERROR_LIMIT && !v->bad_conv && !v->bad_zero && !v->touched;
}

static void lq_verdict_why(const ldata *d, lverdict *v)
{
    size_t u = 0;
    v->why[0] = '\0';
    if (!(v->worst <= GELS_ERROR_LIMIT))
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " worst at matrix %lld (%.3g %.3g)",
                              (long long)v->worst_b, v->worst_e[0], v->worst_e[1]);
    if (v->bad_conv && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u, " %lld break LAPACK's conventions, first %lld: %s",
                              (long long)v->bad_conv, (long long)v->first_bad_conv, v->conv_why);
    if (v->bad_zero && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u,
                              " %lld zero matrices / rows without exact zeros (A or tau), first %lld",
                              (long long)v->bad_zero, (long long)v->first_bad_zero);
    if (v->touched && u < sizeof v->why)
        u += (size_t)snprintf(v->why + u, sizeof v->why - u,
                              " %lld element(s) changed that must not, first at %lld (A: < %lld, then tau)",
                              (long long)v->touched, (long long)v->first_touched, (long long)d->na);
}

/* The twin run (as twin_check): the same call with the zero-row, zero and NaN matrices left good;
 * every other matrix's A and tau must come back bit-identical. Returns the number that differ
 * (-1: the twin call failed). */
static int64_t lq_twin_check(const lcfg *c, ldata *d, int mode, char *why, size_t len)
{
    const size_t es = d->es;
    char *ha1 = snapshot(d->ha, d->na, es), *ht1 = snapshot(d->ht, d->nt, es);
    lcfg t = *c;
    no_faults(&t.zero_at, &t.zero_every, &t.nan_at, &t.twin);
    lq_fill_inputs(&t, d, mode);
    lq_upload(&t, d, mode);
    const shoal_status st = call_gelqf(&t, d, mode);
    int64_t differ = 0, first = -1;
    if (twin_call_failed(st, why, len)) {
        differ = -1;
    } else {
        lq_download(d);
        for (int64_t b = 0; b < c->batch; ++b) {
            if (d->kind[b] != M_GOOD)
                continue;
            const int64_t s = lq_slot(c, mode, b);
            const int same = same_matrix(ht1, d->ht, s * d->stt, d->stt, d->k, 1, es) &&
                             same_matrix(ha1, d->ha, s * d->sta, d->lda, c->m, c->n, es);
            if (!same)
                count_first(&differ, &first, b);
        }
        twin_why(differ, first, why, len);
    }
    free(ha1);
    free(ht1);
    return differ;
}

static void lq_print_header(void)
{
    printf("# %-2s %-7s %4s %4s %8s %5s %5s %-6s %10s %9s %-6s %s\n", "p", "mode", "m", "n", "batch", "lda", "stau",
           "vendor", "shoal_ms", "error", "status", "kernel / notes");
}

static void lq_run(lcfg c)
{
    ldata d;
    run_defaults(&c.batch, &c.pool);
    lq_setup(&c, &d);
    set_vendor(c.vendor);
    for (int mode = MODE_STRIDED; mode <= MODE_ARRAY; ++mode) {
        if (!(c.modes & mode))
            continue;
        lq_fill_inputs(&c, &d, mode);
        lq_upload(&c, &d, mode);
        shoal_status kst, kst_want;
        const char *kernel = query_kernel("gelqf", c.prec, mode == MODE_ARRAY, 'n', c.m, c.n, 0, &kst, &kst_want);
        const cudaStream_t stream = timer_start();
        const shoal_status st = call_gelqf(&c, &d, mode);
        const float ms = timer_stop(stream);
        lverdict v;
        memset(&v, 0, sizeof v);
        char extra[200] = "";
        int ok = status_ok(st, c.expect, &v.worst, v.why, sizeof v.why);
        if (ok) {
            lq_download(&d);
            lq_check_all(&c, &d, mode, &v);
            lq_verdict_why(&d, &v);
            ok = lq_verdict_ok(&v);
            if (c.twin && d.work && lq_twin_check(&c, &d, mode, extra, sizeof extra) != 0)
                ok = 0;
        }
        ok &= kernel_status_ok(extra, sizeof extra, kst, kst_want);
        char notes[128];
        run_notes(notes, sizeof notes, c.gap, "row", c.zero_at, c.zero_every, c.nan_at, c.batch, c.tail, c.page_end,
                  c.null_ops, c.twin, c.expect);
        printf("  %-2c %-7s %4d %4d %8lld %5lld %5lld %-6s %10.4f %9.2e %-6s %s%s%s%s\n", c.prec,
               mode == MODE_ARRAY ? "array" : "strided", c.m, c.n, (long long)c.batch, (long long)d.lda,
               (long long)d.stt, c.vendor ? "on" : "off", ms, v.worst, ok ? "ok" : "FAILED", kernel, notes, v.why,
               extra);
        end_run(ok);
    }
    shoal_set_vendor_dispatch(g_h, 1);
    lq_free(&d);
}

static lcfg lq_base(char prec, int m, int n, int64_t batch)
{
    lcfg c;
    memset(&c, 0, sizeof c);
    c.prec = prec;
    c.m = m;
    c.n = n;
    c.batch = batch;
    c.modes = MODE_STRIDED | MODE_ARRAY;
    c.nan_at = -1;
    c.pool = 256;
    c.expect = SHOAL_STATUS_SUCCESS;
    return c;
}

/* one call mode, alternating with the precision and i (the runs whose host checks are large) */
static int lq_one_mode(char p, int i)
{
    const int pi = p == 's' ? 0 : p == 'd' ? 1 : p == 'c' ? 2 : 3;
    return (i + pi) % 2 ? MODE_ARRAY : MODE_STRIDED;
}

/* Square sizes: the geqrf kernels' sizes and just past 32, the blocked driver's up to 256. */
static void case_lq_square(char p)
{
    static const int sizes[] = {1, 2, 3, 8, 17, 32, 33, 64, 100, 256};
    for (int i = 0; i < COUNT(sizes); ++i) {
        const int n = sizes[i];
        lcfg c = lq_base(p, n, n, n <= 33 ? 65 + n : (n > 200 ? 4 : 9));
        c.gap = i % 3 == 1 ? 3 : 0;
        c.gap_t = i % 2;
        lq_run(c);
    }
}

/* Wide (m < n: L square, k = m reflectors over n columns) and tall (m > n: L trapezoidal, the last
 * reflector of a real matrix the identity) shapes; the ones with a 1024 side in one mode a run
 * with a batch of 2 (the host's Q Q^H of 64 x 1024 is O(n^3)) or 5 (1024 x 64: Q is 64 x 64). */
static void case_lq_rect(char p, int wide)
{
    static const int wides[][3] = {{7, 40, 129}, {16, 512, 9}, {33, 300, 9}, {64, 1024, 2}}; /* m, n, batch */
    static const int talls[][3] = {{40, 7, 129}, {300, 33, 9}, {1024, 64, 5}};
    const int count = wide ? COUNT(wides) : COUNT(talls);
    for (int i = 0; i < count; ++i) {
        const int *s = wide ? wides[i] : talls[i];
        lcfg c = lq_base(p, s[0], s[1], s[2]);
        c.gap = i % 2 ? 3 : 0;
        c.gap_t = i % 2 ? 0 : 2;
        if (imax(s[0], s[1]) > 1000)
            c.modes = lq_one_mode(p, i);
        lq_run(c);
    }
}

/* 512 x 512 (batch 3) and 1024 x 1024 (batch 2): the blocked geqrf on the transposed matrix at
 * the largest sizes; one mode a run (the host checks are O(n^3), each matrix in parallel). */
static void case_lq_large(char p)
{
    lcfg c = lq_base(p, 512, 512, 3);
    c.modes = lq_one_mode(p, 0);
    lq_run(c);
    c = lq_base(p, 1024, 1024, 2);
    c.modes = lq_one_mode(p, 1);
    lq_run(c);
}

/* lda = m + 3 (NaN padding that must stay), gaps between matrices and tau vectors, batch 1 and 33. */
static void case_lq_layout(char p)
{
    for (int i = 0; i < COUNT(LAYOUT_SHAPES); ++i) {
        lcfg c = lq_base(p, LAYOUT_SHAPES[i][0], LAYOUT_SHAPES[i][1], i % 2 ? 1 : 33);
        c.pad_a = 3;
        c.gap = i % 3 == 0 ? 2 : 0;
        c.gap_t = 1 + i % 2;
        lq_run(c);
    }
}

/* Batches past 65535 (the driver's 65536-matrix chunks): 70000 of 3 x 4 with zero rows and zero
 * matrices in both chunks and a NaN matrix first in the second (twin), both modes; 70001 of 4 x 3
 * (pointer arrays, gaps between tau vectors). Capped by SHOAL_TEST_MAX_BATCH / QUICK. */
static void case_lq_batch_large(char p)
{
    lcfg c = lq_base(p, 3, 4, 70000);
    c.zero_at = 2;
    c.zero_every = 1000;
    c.nan_at = 65536;
    c.twin = 1;
    lq_run(c);
    c = lq_base(p, 4, 3, 70001);
    c.modes = MODE_ARRAY;
    c.gap_t = 1;
    lq_run(c);
}

/* Zero rows (J - 1 in turn 0, 1, the middle and the last of the k reflectors: tau_{J-1} = 0 and
 * the row exactly 0), zero matrices and a NaN matrix among good ones, twin. */
static void case_lq_rank(char p)
{
    for (int i = 0; i < COUNT(RANK_SHAPES); ++i) {
        const int m = RANK_SHAPES[i][0], n = RANK_SHAPES[i][1], k = imin(m, n);
        const int js[4] = {1, 2, k / 2 + 1, k};
        lcfg c = lq_base(p, m, n, imax(m, n) > 200 ? 10 : 30);
        c.zero_at = js[i % 4];
        c.zero_every = 4;
        c.nan_at = c.batch / 2 + 1;
        c.twin = 1;
        c.pad_a = i % 2;
        c.gap_t = (i + 1) % 2;
        if (imax(m, n) > 200)
            c.modes = lq_one_mode(p, i);
        lq_run(c);
    }
}

/* No work: m == 0 or n == 0 (also with NULL A and tau), batch == 0 (also NULL): SUCCESS and
 * nothing touched; m or n = 1025: NOT_SUPPORTED and nothing touched. */
static void case_lq_empty(char p)
{
    static const int shapes[][2] = {{0, 5}, {6, 0}, {0, 1}, {1, 0}, {0, 0}};
    for (int i = 0; i < COUNT(shapes); ++i) {
        lcfg c = lq_base(p, shapes[i][0], shapes[i][1], 7);
        c.pad_a = 1;
        c.gap = 1;
        c.gap_t = 2;
        lq_run(c);
        c.null_ops = 1;
        lq_run(c);
    }
    lcfg c = lq_base(p, 4, 4, 0);
    lq_run(c);
    c.null_ops = 1;
    lq_run(c);
    c = lq_base(p, 3, 5, 0);
    lq_run(c);
    static const int refused[][2] = {{1025, 4}, {4, 1025}, {1025, 1025}};
    for (int i = 0; i < COUNT(refused); ++i) {
        c = lq_base(p, refused[i][0], refused[i][1], 2);
        c.gap_t = 1;
        c.expect = SHOAL_STATUS_NOT_SUPPORTED;
        lq_run(c);
    }
}

/* Vendor dispatch on: the driver runs shoal's geqrf either way; the results must still be right. */
static void case_lq_vendor(char p)
{
    for (int i = 0; i < COUNT(VENDOR_SHAPES); ++i) {
        lcfg c = lq_base(p, VENDOR_SHAPES[i][0], VENDOR_SHAPES[i][1],
                         imax(VENDOR_SHAPES[i][0], VENDOR_SHAPES[i][1]) > 64 ? 9 : 200);
        c.vendor = 1;
        c.modes = i % 2 ? MODE_ARRAY : MODE_STRIDED;
        lq_run(c);
    }
}

/* Issue 29: A and tau each end at the last element of their allocation and start 0..3 elements
 * into it: square, tall and wide shapes, lda > m in some, odd gaps, zero rows and zero matrices in
 * some batches. */
static void case_lq_tail(char p)
{
    for (int tail = 1; tail <= 4; ++tail)
        for (int i = 0; i < COUNT(TAIL_SHAPES); ++i) {
            const int m = TAIL_SHAPES[i][0], n = TAIL_SHAPES[i][1], k = imin(m, n);
            lcfg c = lq_base(p, m, n, 129);
            c.tail = tail;
            c.pad_a = (i + tail) % 2 ? tail : 0;
            c.gap = (i + tail) % 3 == 0 ? 1 : 0;
            c.gap_t = (i + tail) % 3 == 1 ? tail : 0;
            c.zero_at = (i + tail) % 3 == 2 ? k : 0;
            c.zero_every = (i + tail) % 4 == 0 ? 5 : 0;
            lq_run(c);
        }
}

/* Issue 29, page ends: A and tau each end at the end of a mapped page, the next page unmapped;
 * strided and in-order pointer arrays (the last problem's matrix and tau at the page ends). */
static void case_lq_page_end(char p)
{
    if (!gpu_test_page_end_ready())
        return;
    for (int i = 0; i < COUNT(PAGE_END_SHAPES); ++i) {
        const int m = PAGE_END_SHAPES[i][0], n = PAGE_END_SHAPES[i][1], k = imin(m, n);
        lcfg c = lq_base(p, m, n, 5);
        c.page_end = 1;
        c.pad_a = i % 2 ? 1 + i % 3 : 0;
        c.gap = i % 3 == 0 ? 1 : 0;
        c.gap_t = i % 3 == 1 ? 2 : 0;
        c.zero_at = i % 3 == 2 ? k : 0;
        lq_run(c);
    }
}

/* Matrices whose A^H fills the driver's 32 MiB workspace in a few problems: d 600 x 1000 (4.8 MB
 * a problem: 6 at a time, batch 13 = 6 + 6 + 1), z 600 x 1000 (9.6 MB: 3 at a time, batch 5 =
 * 3 + 2); the strided run with zero rows in some matrices (twin), then pointer arrays. */
static void case_lq_chunks(char p)
{
    const int64_t batch = p == 'd' ? 13 : 5;
    lcfg c = lq_base(p, 600, 1000, batch);
    c.modes = MODE_STRIDED;
    c.zero_at = 300;
    c.gap_t = 1;
    c.twin = 1;
    lq_run(c);
    c = lq_base(p, 600, 1000, batch);
    c.modes = MODE_ARRAY;
    lq_run(c);
}

/* ------------------------------------------------------------------------------------------ */
/* Case table */

enum kind { K_SQUARE_SMALL, K_SQUARE_MID, K_SQUARE_LARGE, K_TALL, K_WIDE, K_LAYOUT, K_BATCH_LARGE, K_RANK,
            K_EMPTY, K_VENDOR, K_TAIL, K_CHUNKS, K_PAGE_END,
            /* gelqf */
            K_LQ_SQUARE, K_LQ_WIDE, K_LQ_TALL, K_LQ_LARGE, K_LQ_LAYOUT, K_LQ_BATCH_LARGE, K_LQ_RANK, K_LQ_EMPTY,
            K_LQ_VENDOR, K_LQ_TAIL, K_LQ_CHUNKS, K_LQ_PAGE_END };

typedef struct tcase {
    char name[40];
    enum kind kind;
    char prec;
} tcase;

static tcase g_cases[128];
static int g_ncases;

static void add_routine_case(enum kind kind, char prec, const char *routine, const char *suffix)
{
    tcase *t = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    t->kind = kind;
    t->prec = prec;
    gpu_test_case_name(t->name, sizeof t->name, "%c_%s_%s", prec, routine, suffix);
}

static void add_case(enum kind kind, char prec, const char *suffix) { add_routine_case(kind, prec, "gels", suffix); }
static void add_lq_case(enum kind kind, char prec, const char *suffix)
{
    add_routine_case(kind, prec, "gelqf", suffix);
}

static const char PRECS[] = "sdcz";

static void build_cases(void)
{
    for (int pi = 0; pi < 4; ++pi) {
        const char p = PRECS[pi];
        add_case(K_SQUARE_SMALL, p, "square_small");
        add_case(K_SQUARE_MID, p, "square_mid");
        add_case(K_SQUARE_LARGE, p, "square_large");
        add_case(K_TALL, p, "tall");
        add_case(K_WIDE, p, "wide");
        add_case(K_LAYOUT, p, "layout");
        add_case(K_BATCH_LARGE, p, "batch_large");
        add_case(K_RANK, p, "rank");
        add_case(K_EMPTY, p, "empty");
        add_case(K_VENDOR, p, "vendor");
        add_case(K_TAIL, p, "tail");
        if (p == 'd' || p == 'z')
            add_case(K_CHUNKS, p, "chunks");
    }
    for (int pi = 0; pi < 4; ++pi) {
        const char p = PRECS[pi];
        add_lq_case(K_LQ_SQUARE, p, "square");
        add_lq_case(K_LQ_WIDE, p, "wide");
        add_lq_case(K_LQ_TALL, p, "tall");
        add_lq_case(K_LQ_LARGE, p, "large");
        add_lq_case(K_LQ_LAYOUT, p, "layout");
        add_lq_case(K_LQ_BATCH_LARGE, p, "batch_large");
        add_lq_case(K_LQ_RANK, p, "rank");
        add_lq_case(K_LQ_EMPTY, p, "empty");
        add_lq_case(K_LQ_VENDOR, p, "vendor");
        add_lq_case(K_LQ_TAIL, p, "tail");
        if (p == 'd' || p == 'z')
            add_lq_case(K_LQ_CHUNKS, p, "chunks");
    }
    /* last: a kernel fault there loses the CUDA context (and the cases after it) */
    for (int pi = 0; pi < 4; ++pi) add_case(K_PAGE_END, PRECS[pi], "page_end");
    for (int pi = 0; pi < 4; ++pi) add_lq_case(K_LQ_PAGE_END, PRECS[pi], "page_end");
}

static void run_case(const tcase *t)
{
    g_case_seed = hash_string(t->name);
    g_run_index = 0;
    if (t->kind >= K_LQ_SQUARE)
        lq_print_header();
    else
        print_header();
    switch (t->kind) {
    case K_SQUARE_SMALL: case_square(t->prec, 0); break;
    case K_SQUARE_MID: case_square(t->prec, 1); break;
    case K_SQUARE_LARGE: case_square(t->prec, 2); break;
    case K_TALL: case_rect(t->prec, 0); break;
    case K_WIDE: case_rect(t->prec, 1); break;
    case K_LAYOUT: case_layout(t->prec); break;
    case K_BATCH_LARGE: case_batch_large(t->prec); break;
    case K_RANK: case_rank(t->prec); break;
    case K_EMPTY: case_empty(t->prec); break;
    case K_VENDOR: case_vendor(t->prec); break;
    case K_TAIL: case_tail(t->prec); break;
    case K_CHUNKS: case_chunks(t->prec); break;
    case K_PAGE_END: case_page_end(t->prec); break;
    case K_LQ_SQUARE: case_lq_square(t->prec); break;
    case K_LQ_WIDE: case_lq_rect(t->prec, 1); break;
    case K_LQ_TALL: case_lq_rect(t->prec, 0); break;
    case K_LQ_LARGE: case_lq_large(t->prec); break;
    case K_LQ_LAYOUT: case_lq_layout(t->prec); break;
    case K_LQ_BATCH_LARGE: case_lq_batch_large(t->prec); break;
    case K_LQ_RANK: case_lq_rank(t->prec); break;
    case K_LQ_EMPTY: case_lq_empty(t->prec); break;
    case K_LQ_VENDOR: case_lq_vendor(t->prec); break;
    case K_LQ_TAIL: case_lq_tail(t->prec); break;
    case K_LQ_CHUNKS: case_lq_chunks(t->prec); break;
    case K_LQ_PAGE_END: case_lq_page_end(t->prec); break;
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
