/* The blocked LU drivers' logic on the CPU (no GPU): runtime/drivers/lu_blocked.c and
 * lapack_steps.c, compiled into this program with a chunk of 2 problems (so that a batch of 3 or
 * 5 crosses chunks), against host versions of their steps: the getrf panel kernel (LAPACK's
 * unblocked getf2 with partial pivoting, the largest |a| (|re| + |im| in c and z), ties to the
 * first, pivots from the panel's first row, info the first exactly zero pivot, going on), laswp,
 * the panel merge and the inverse's start here; TRSM (unit diagonal honoured) and the GEMM step
 * the shared host steps (tests/c/host_lapack_steps.c); the sub-matrix pointer arrays by the host
 * pointer launch (tests/c/host_block_pointers.c). The host laswp rejects a pivot outside
 * [i, rows) (the step's contract); the host panel checks that it sits on the diagonal of the
 * matrices under test with all the rows below it, its pivots at ipiv + k (lu_steps.h's merge
 * contract), its info the call's (k = 0) or the step's, and logs its position and width.
 * The matrices: A = P0^T L0 U0 with random pivots P0, multipliers |L0| <= 1/2, |U0(j, j)| in
 * [1, 3/2], both off their diagonals shrinking as 1 / sqrt(min(m, n)) (well conditioned): partial
 * pivoting must choose P0 with a wide margin at every step (no near ties; the largest runner-up /
 * pivot ratio of the reference is checked and printed), so the pivots are compared exactly with
 * P0 and with a host getf2 on the whole matrix. A zero
 * pivot at column j: U0's row and column j zero, P0 not swapping at j: column j of A is exactly
 * zero (and stays so through the elimination), info = j + 1 where no earlier one.
 * What this proves: the recursion (panel positions and widths against the width rule, one
 * TRSM and GEMM per split), the laswps on both sides, the pivot shift, info as the first zero
 * pivot of the whole matrix (the first panel, a middle one, the last column, two zeros, a zero
 * column beyond min(m, n) of a wide matrix), the wide matrix's U12, the chunks, both forms with
 * lda > m, a failed matrix leaving the others bit-identical, getrs N / T / C, gesv and getri
 * (an all-NaN inverse where U is singular). Residuals: ||P A - L U||_1 / (min(m, n) ||A||_1 eps),
 * ||op(A) X - B||_1 / (n ||A||_1 ||X||_1 eps), ||A C - I||_1 / (n ||A||_1 ||C||_1 eps).
 * What it cannot: the kernels (the GPU suites judge those).
 *
 *   test_lu_blocked_host       every case; last line "N passed, M failed" */
#define SHOAL_LAPACK_CHUNK 2
#include "../../runtime/drivers/lapack_steps.c"
#include "../../runtime/drivers/lu_blocked.c"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_block_pointers.h"
#include "host_lapack_steps.h"

enum { MAX_BATCH = 8, MAX_PANELS = 4096 };

/* ---- the matrices under test ---- */

typedef struct lu_data {
    char prec;
    int m, n, nrhs, array;
    long long lda, ldb, batch, stride_ipiv;
    char *A, *A0, *B, *B0;
    int *ipiv, *ipiv0; /* the driver's pivots; P0 (1-based, as getrf's) */
    void *a_ptrs[MAX_BATCH], *b_ptrs[MAX_BATCH];
    int info[MAX_BATCH];
} lu_data;

static const lu_data *g_cur; /* the matrices the driver is factoring: where the panels must sit */

static int min_i(int a, int b) { return a < b ? a : b; }
static long long es_of(const lu_data *d) { return shoal_spec_elem_bytes(d->prec); }
static long long a_size(const lu_data *d) { return d->lda * d->n * es_of(d); } /* one matrix, bytes */
static long long b_size(const lu_data *d) { return d->ldb * (d->nrhs > 0 ? d->nrhs : 1) * es_of(d); }

/* ---- host steps (TRSM and GEMM: tests/c/host_lapack_steps.c) ---- */

typedef struct panel_rec {
    long long first;   /* the chunk's first problem in the test's batch */
    int k, m, n;
} panel_rec;
static panel_rec panels[MAX_PANELS];
static int n_panels, panel_errors, laswp_calls, laswp_bad, merge_calls, inverse_calls;

/* getf2 on an m x n matrix: local 1-based pivots, info = the first exactly zero pivot (1-based),
 * the elimination going on past it (LAPACK's dgetf2 / zgetf2) */
static int host_getf2(char prec, void *a, long long ld, int m, int n, int *ipiv, double *tie)
{
    int info = 0;
    for (int j = 0; j < min_i(m, n); ++j) {
        int p = j;
        double best = host_abs1(host_get(prec, a, j + j * ld)), second = 0.0;
        for (int i = j + 1; i < m; ++i) {
            const double v = host_abs1(host_get(prec, a, i + j * ld));
            if (v > best) second = best, best = v, p = i;
            else if (v > second) second = v;
        }
        if (tie && best > 0.0 && second / best > *tie) *tie = second / best; /* how near a tie came */
        ipiv[j] = p + 1;
        if (best != 0.0) {
            if (p != j)
                for (int c = 0; c < n; ++c) {
                    const zval t = host_get(prec, a, j + c * ld);
                    host_put(prec, a, j + c * ld, host_get(prec, a, p + c * ld));
                    host_put(prec, a, p + c * ld, t);
                }
            const zval piv = host_get(prec, a, j + j * ld);
            for (int i = j + 1; i < m; ++i) host_put(prec, a, i + j * ld, host_get(prec, a, i + j * ld) / piv);
        } else if (!info) {
            info = j + 1;
        }
        for (int c = j + 1; c < n; ++c) {
            const zval u = host_get(prec, a, j + c * ld);
            for (int i = j + 1; i < m; ++i)
                host_put(prec, a, i + c * ld, host_get(prec, a, i + c * ld) - host_get(prec, a, i + j * ld) * u);
        }
    }
    return info;
}

/* Where problem b's A of a panel call lies in the matrices under test: the test's problem and the
 * element's row and column, or -1 */
static long long locate(const void *ptr, int *row, int *col)
{
    const lu_data *d = g_cur;
    for (long long t = 0; d && t < d->batch; ++t) {
        const char *base = d->A + t * a_size(d);
        const long long off = (const char *)ptr - base;
        if (off >= 0 && off < a_size(d) && off % es_of(d) == 0) {
            *row = (int)((off / es_of(d)) % d->lda);
            *col = (int)((off / es_of(d)) / d->lda);
            return t;
        }
    }
    return -1;
}

shoal_status shoal_lapack_run_kernel(struct shoal_context *ctx, int routine, char prec, int variant,
                                     shoal_lapack_params *p, int vendor)
{
    if (routine != SHOAL_GETRF || vendor || variant || p->n < 1 || p->n > SHOAL_LU_WIDEST_PANEL || p->m < p->n ||
        p->m > SHOAL_LU_MAX_ROWS || p->batch < 1 || p->batch > SHOAL_LAPACK_CHUNK || !p->ipiv || !p->info)
        return SHOAL_STATUS_INVALID_VALUE;
    const shoal_operand a = {p->A, p->A_array, p->lda, p->stride_a};
    /* the panel: on the diagonal (k, k) of consecutive matrices under test, all rows k .. m - 1,
     * pivots from ipiv + k, info in the call's own (k = 0 only) or the step's */
    int row = -1, col = -1;
    const long long first = locate(host_problem(prec, &a, 0), &row, &col);
    int ok = first >= 0 && row == col && p->m == g_cur->m - row && row + p->n <= min_i(g_cur->m, g_cur->n) &&
             first + p->batch <= g_cur->batch && p->lda == g_cur->lda;
    for (long long b = 0; ok && b < p->batch; ++b) {
        int r2, c2;
        ok = locate(host_problem(prec, &a, b), &r2, &c2) == first + b && r2 == row && c2 == col &&
             p->ipiv + b * p->stride_ipiv == g_cur->ipiv + (first + b) * g_cur->stride_ipiv + row &&
             (p->info == ctx->step_info || (row == 0 && p->info == g_cur->info + first));
    }
    if (!ok) {
        ++panel_errors;
        return SHOAL_STATUS_INVALID_VALUE;
    }
    if (n_panels < MAX_PANELS) panels[n_panels++] = (panel_rec){first, row, p->m, p->n};
    for (long long b = 0; b < p->batch; ++b)
        p->info[b] =
            host_getf2(prec, host_problem(prec, &a, b), p->lda, p->m, p->n, p->ipiv + b * p->stride_ipiv, NULL);
    return SHOAL_STATUS_SUCCESS;
}

static char *rows_problem(shoal_lu_rows x, int elem, long long b)
{
    return x.array ? (char *)x.array[b] : (char *)x.ptr + b * x.stride * elem;
}

cudaError_t shoal_lu_laswp(int elem_bytes, shoal_lu_rows x, const int *ipiv, long long stride_ipiv, long long batch,
                           int c0, int nc, int k1, int k2, int backward, cudaStream_t stream)
{
    (void)stream;
    if (batch <= 0 || nc <= 0 || k2 <= k1) return cudaSuccess;
    if (x.rows - k1 > SHOAL_LU_MAX_ROWS || k1 < 0 || c0 < 0 || (elem_bytes != 4 && elem_bytes != 8 && elem_bytes != 16))
        return cudaErrorInvalidValue;
    ++laswp_calls;
    for (long long b = 0; b < batch; ++b) {
        char *m = rows_problem(x, elem_bytes, b);
        const int *pv = ipiv + b * stride_ipiv;
        for (int s = 0; s < k2 - k1; ++s) {
            const int i = backward ? k2 - 1 - s : k1 + s, r = pv[i] - 1;
            if (r < i || r >= x.rows) {
                ++laswp_bad;
                return cudaErrorInvalidValue;
            }
            for (int c = c0; r != i && c < c0 + nc; ++c) {
                char t[16];
                char *u = m + (i + c * x.ld) * elem_bytes, *v = m + (r + c * x.ld) * elem_bytes;
                memcpy(t, u, elem_bytes);
                memcpy(u, v, elem_bytes);
                memcpy(v, t, elem_bytes);
            }
        }
    }
    return cudaSuccess;
}

cudaError_t shoal_lu_panel_merge(int *ipiv, long long stride_ipiv, int *info, const int *step, long long batch, int k,
                                 int kb, cudaStream_t stream)
{
    (void)stream;
    ++merge_calls;
    for (long long b = 0; b < batch; ++b) {
        for (int i = 0; i < kb; ++i) ipiv[b * stride_ipiv + k + i] += k;
        if (info && info[b] == 0 && step[b] > 0) info[b] = step[b] + k;
    }
    return cudaSuccess;
}

cudaError_t shoal_lu_inverse_start(int elem_bytes, int is_complex, shoal_lu_rows a, shoal_lu_rows c, int *info,
                                   long long batch, cudaStream_t stream)
{
    (void)stream;
    const char prec = elem_bytes == 4 ? 's' : elem_bytes == 8 ? (is_complex ? 'c' : 'd') : elem_bytes == 16 ? 'z' : 0;
    if (!prec || (elem_bytes == 4 && is_complex) || (elem_bytes == 16 && !is_complex)) return cudaErrorInvalidValue;
    ++inverse_calls;
    const int n = a.rows;
    for (long long b = 0; b < batch; ++b) {
        const char *A = rows_problem(a, elem_bytes, b);
        char *C = rows_problem(c, elem_bytes, b);
        int first = n;
        for (int j = 0; j < n && first == n; ++j)
            if (host_get(prec, A, j + j * a.ld) == 0.0) first = j;
        if (info) info[b] = first < n ? first + 1 : 0;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                host_put(prec, C, i + j * c.ld, first < n ? NAN + NAN * I : i == j ? 1.0 : 0.0);
    }
    return cudaSuccess;
}

/* ---- the cases' matrices ---- */

static struct shoal_context g_ctx;

static zval rnd(char prec, double scale)
{
    return scale * (shoal_spec_is_complex(prec) ? (host_uniform() + I * host_uniform()) * 0.70710678 : host_uniform());
}

/* Problems of m x n (A = P0^T L0 U0, see the file's comment), lda = m + 3, and n x nrhs
 * right-hand sides (ldb = n + 2); rows below m (n in B) NaN. Matrix `bad` (if >= 0) gets zero
 * pivots at the columns zeros[0 .. n_zeros): the same random numbers drawn either way, so a twin
 * made with bad = -1 from the same seed differs only there. */
static void make(lu_data *d, char prec, int m, int n, int nrhs, int array, long long batch, int bad, const int *zeros,
                 int n_zeros)
{
    const int mn = min_i(m, n);
    memset(d, 0, sizeof *d);
    d->prec = prec, d->m = m, d->n = n, d->nrhs = nrhs, d->array = array, d->batch = batch;
    d->lda = m + 3, d->ldb = n + 2, d->stride_ipiv = mn + 3;
    d->A = malloc(a_size(d) * batch), d->A0 = malloc(a_size(d) * batch);
    d->B = malloc(b_size(d) * batch), d->B0 = malloc(b_size(d) * batch);
    d->ipiv = malloc(sizeof(int) * d->stride_ipiv * batch), d->ipiv0 = malloc(sizeof(int) * d->stride_ipiv * batch);
    /* off the diagonals, L0 and U0 shrink with min(m, n): their inverses stay bounded, so the
     * rounding of A moves the eliminated columns far less than the pivots' margins */
    const double small = mn > 36 ? 6.0 / sqrt(mn) : 1.0;
    zval *L = malloc(sizeof(zval) * m * mn), *U = malloc(sizeof(zval) * mn * n), *M = malloc(sizeof(zval) * m * n);
    for (long long b = 0; b < batch; ++b) {
        int *p0 = d->ipiv0 + b * d->stride_ipiv;
        for (int j = 0; j < mn; ++j) p0[j] = j + 1 + (int)((host_uniform() + 1.0) / 2.0 * (m - j - 1) + 0.5);
        for (int j = 0; j < mn; ++j)
            for (int i = 0; i < m; ++i) L[i + j * m] = i < j ? 0.0 : i == j ? 1.0 : rnd(prec, 0.5 * small);
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < mn; ++r) {
                zval v = r > c ? 0.0 : rnd(prec, small);
                if (r == c) v = (1.0 + fabs(host_uniform()) / 2.0) * (cabs(v) > 0 ? v / cabs(v) : 1.0);
                U[r + c * mn] = v;
            }
        for (int z = 0; b == bad && z < n_zeros; ++z) {
            const int j = zeros[z];
            for (int r = 0; r < mn && r <= j; ++r) U[r + j * mn] = 0.0;
            for (int c = j; j < mn && c < n; ++c) U[j + c * mn] = 0.0;
            if (j < mn) p0[j] = j + 1;
        }
        for (int c = 0; c < n; ++c)
            for (int i = 0; i < m; ++i) {
                zval s = 0.0;
                for (int l = 0; l <= min_i(i, min_i(c, mn - 1)); ++l) s += L[i + l * m] * U[l + c * mn];
                M[i + c * m] = s;
            }
        for (int k = mn - 1; k >= 0; --k) /* A = P0^T (L0 U0): the interchanges backward */
            for (int c = 0; c < n; ++c) {
                const zval t = M[k + c * m];
                M[k + c * m] = M[p0[k] - 1 + c * m];
                M[p0[k] - 1 + c * m] = t;
            }
        char *a = d->A + b * a_size(d);
        for (int c = 0; c < n; ++c)
            for (long long i = 0; i < d->lda; ++i) host_put(prec, a, i + c * d->lda, i < m ? M[i + c * m] : NAN + NAN * I);
        char *x = d->B + b * b_size(d);
        for (int c = 0; c < (nrhs > 0 ? nrhs : 1); ++c)
            for (long long i = 0; i < d->ldb; ++i) host_put(prec, x, i + c * d->ldb, i < n ? rnd(prec, 1.0) : NAN + NAN * I);
        d->a_ptrs[b] = a;
        d->b_ptrs[b] = x;
    }
    free(L), free(U), free(M);
    memcpy(d->A0, d->A, a_size(d) * batch);
    memcpy(d->B0, d->B, b_size(d) * batch);
    for (long long i = 0; i < d->stride_ipiv * batch; ++i) d->ipiv[i] = -99;
    for (int b = 0; b < MAX_BATCH; ++b) d->info[b] = -7;
}

static void release(lu_data *d) { free(d->A), free(d->A0), free(d->B), free(d->B0), free(d->ipiv), free(d->ipiv0); }

static shoal_lapack_params params(lu_data *d)
{
    shoal_lapack_params p = {0};
    p.m = d->m, p.n = d->n, p.nrhs = d->nrhs;
    p.lda = d->lda, p.ldb = d->ldb;
    if (d->array) p.A_array = d->a_ptrs, p.B_array = d->b_ptrs;
    else p.A = d->A, p.B = d->B, p.stride_a = d->lda * d->n, p.stride_b = d->ldb * (d->nrhs > 0 ? d->nrhs : 1);
    p.ipiv = d->ipiv, p.stride_ipiv = d->stride_ipiv;
    p.info = d->info;
    p.batch = d->batch;
    return p;
}

/* getrf on d, the panels logged; the steps' calls counted */
typedef struct step_counts {
    int trsm, unit, gemm;
} step_counts;

static int run_getrf(lu_data *d, step_counts *used)
{
    shoal_lapack_params p = params(d);
    const step_counts before = {host_spec_calls[HOST_TRSM], host_trsm_unit_calls, host_gemm_calls};
    g_cur = d, n_panels = 0, panel_errors = 0, laswp_bad = 0;
    const int ok = shoal_driver_getrf_blocked(&g_ctx, d->prec, 0, &p) == SHOAL_STATUS_SUCCESS && !panel_errors &&
                   !laswp_bad && n_panels < MAX_PANELS;
    used->trsm = host_spec_calls[HOST_TRSM] - before.trsm;
    used->unit = host_trsm_unit_calls - before.unit;
    used->gemm = host_gemm_calls - before.gemm;
    g_cur = NULL;
    return ok;
}

/* ---- judging ---- */

/* The panel width rule (runtime/drivers/lu_blocked.c, search_space/getrf.toml): 64 up to 128
 * rows where a row of 64 takes at most 512 bytes (not z; not in a build with
 * SHOAL_LU_WIDEST_PANEL 32), else the widest of 32, 16, 8 whose panel of `rows` rows fits 256
 * threads with 512 bytes of rows each */
static int width_rule(char prec, int rows)
{
    const int per_thread = (rows + 255) / 256, elem = shoal_spec_elem_bytes(prec);
    if (SHOAL_LU_WIDEST_PANEL >= 64 && rows <= 128 && 64 * elem <= 512) return 64;
    return per_thread * 32 * elem <= 512 ? 32 : per_thread * 16 * elem <= 512 ? 16 : 8;
}

/* Each chunk's panels cover the columns [0, min(m, n)) in order, each no wider than the rule at
 * its rows; where the rule is one width over the whole matrix, ceil(min(m, n) / W) panels. One
 * TRSM (unit diagonal) and GEMM per split, one TRSM more for a wide matrix. */
static int check_panels(const lu_data *d, const step_counts *used, char *why, size_t len)
{
    const int mn = min_i(d->m, d->n), w0 = width_rule(d->prec, d->m), w1 = width_rule(d->prec, d->m - mn + 1);
    int at = 0, chunks = 0, splits = 0;
    for (long long first = 0; first < d->batch; first += SHOAL_LAPACK_CHUNK, ++chunks) {
        int k = 0, count = 0;
        for (; at < n_panels && panels[at].first == first; ++at, ++count) {
            const panel_rec *r = &panels[at];
            if (r->k != k || r->n > width_rule(d->prec, d->m - k) || r->m != d->m - k) {
                snprintf(why, len, "chunk %lld panel %d at %d (%d x %d), expected at %d, width <= %d", first, count, r->k,
                         r->m, r->n, k, width_rule(d->prec, d->m - k));
                return 0;
            }
            k += r->n;
        }
        if (k != mn || (w0 == w1 && count != (mn + w0 - 1) / w0)) {
            snprintf(why, len, "chunk %lld: %d panels covering %d columns (W %d)", first, count, k, w0);
            return 0;
        }
        splits += count - 1;
    }
    const int want_trsm = splits + (d->n > d->m ? chunks : 0);
    if (at != n_panels || used->trsm != want_trsm || used->unit != want_trsm || used->gemm != splits) {
        snprintf(why, len, "%d of %d panels in chunks; TRSM %d (unit %d), GEMM %d; want %d, %d", at, n_panels, used->trsm,
                 used->unit, used->gemm, want_trsm, splits);
        return 0;
    }
    return 1;
}

static const double LIMIT = 30.0;
static double worst[3]; /* the largest factor, solve and inverse errors seen (printed) */

static double seen(int kind, double e)
{
    if (e > worst[kind] || e != e) worst[kind] = e;
    return e;
}

/* ||P A - L U||_1 / (min(m, n) ||A||_1 eps) of problem b (its pivots checked in range first) */
static double factor_error(const lu_data *d, long long b)
{
    const int m = d->m, n = d->n, mn = min_i(m, n);
    const char *a0 = d->A0 + b * a_size(d), *f = d->A + b * a_size(d);
    const int *pv = d->ipiv + b * d->stride_ipiv;
    for (int k = 0; k < mn; ++k)
        if (pv[k] < k + 1 || pv[k] > m) return INFINITY;
    zval *pa = malloc(sizeof(zval) * m * n);
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) pa[i + c * m] = host_get(d->prec, a0, i + c * d->lda);
    for (int k = 0; k < mn; ++k)
        for (int c = 0; c < n; ++c) {
            const zval t = pa[k + c * m];
            pa[k + c * m] = pa[pv[k] - 1 + c * m];
            pa[pv[k] - 1 + c * m] = t;
        }
    double err = 0.0, norm = 0.0;
    for (int c = 0; c < n; ++c) {
        double e = 0.0, s = 0.0;
        for (int i = 0; i < m; ++i) {
            zval lu = 0.0;
            for (int l = 0; l <= min_i(i, min_i(c, mn - 1)); ++l)
                lu += (l == i ? 1.0 : host_get(d->prec, f, i + l * d->lda)) * host_get(d->prec, f, l + c * d->lda);
            e += cabs(pa[i + c * m] - lu);
            s += cabs(pa[i + c * m]);
        }
        err = e > err || e != e ? e : err;
        norm = s > norm ? s : norm;
    }
    free(pa);
    return seen(0, err / (mn * norm * host_eps(d->prec)));
}

/* The multipliers bounded as partial pivoting bounds them: |l| <= 1 (<= sqrt 2 with |re| + |im|) */
static int multipliers_bounded(const lu_data *d, long long b)
{
    const char *f = d->A + b * a_size(d);
    const double bound = (shoal_spec_is_complex(d->prec) ? sqrt(2.0) : 1.0) * (1.0 + 1e-6);
    for (int j = 0; j < min_i(d->m, d->n); ++j)
        for (int i = j + 1; i < d->m; ++i)
            if (!(cabs(host_get(d->prec, f, i + j * d->lda)) <= bound)) return 0;
    return 1;
}

/* the padding rows below m of A (below n of B) and the pivots' padding still as made, bit for bit */
static int untouched(const lu_data *d, long long b, int with_b)
{
    const long long es = es_of(d);
    for (int c = 0; c < d->n; ++c)
        for (long long i = d->m; i < d->lda; ++i) {
            const long long at = b * a_size(d) + (i + c * d->lda) * es;
            if (memcmp(d->A + at, d->A0 + at, es)) return 0;
        }
    for (int c = 0; with_b && c < d->nrhs; ++c)
        for (long long i = d->n; i < d->ldb; ++i) {
            const long long at = b * b_size(d) + (i + c * d->ldb) * es;
            if (memcmp(d->B + at, d->B0 + at, es)) return 0;
        }
    for (long long i = min_i(d->m, d->n); i < d->stride_ipiv; ++i)
        if (d->ipiv[b * d->stride_ipiv + i] != -99) return 0;
    return 1;
}

static double worst_tie; /* the largest runner-up / pivot ratio of the reference getf2 */

/* The pivots: the same as P0 and as a host getf2 on the whole matrix, whose info is `want` */
static int pivots_match(const lu_data *d, long long b, int want, char *why, size_t len)
{
    const int mn = min_i(d->m, d->n);
    char *a = malloc(a_size(d));
    int *ref = malloc(sizeof(int) * mn);
    memcpy(a, d->A0 + b * a_size(d), a_size(d));
    double tie = 0.0;
    const int info = host_getf2(d->prec, a, d->lda, d->m, d->n, ref, &tie);
    if (tie > worst_tie) worst_tie = tie;
    const int *pv = d->ipiv + b * d->stride_ipiv, *p0 = d->ipiv0 + b * d->stride_ipiv;
    int ok = info == want;
    for (int k = 0; ok && k < mn; ++k)
        if (pv[k] != ref[k] || pv[k] != p0[k]) {
            snprintf(why, len, "matrix %lld pivot %d: %d, the whole matrix's getf2 %d, P0 %d", b, k, pv[k], ref[k], p0[k]);
            ok = 0;
        }
    if (info != want) snprintf(why, len, "matrix %lld: the whole matrix's getf2 info %d, want %d", b, info, want);
    free(a), free(ref);
    return ok;
}

static int judge_factor(const lu_data *d, long long b, int want_info, char *why, size_t len)
{
    const double e = factor_error(d, b);
    if (d->info[b] != want_info || !(e <= LIMIT) || !multipliers_bounded(d, b) || !untouched(d, b, 0)) {
        snprintf(why, len, "matrix %lld: info %d (want %d), error %.3g, multipliers %s, padding %s", b, d->info[b],
                 want_info, e, multipliers_bounded(d, b) ? "bounded" : "UNBOUNDED", untouched(d, b, 0) ? "kept" : "WRITTEN");
        return 0;
    }
    return pivots_match(d, b, want_info, why, len);
}

static const char *form(int array) { return array ? "array" : "strided"; }

static void case_getrf(char prec, int m, int n, int array, long long batch)
{
    lu_data d;
    make(&d, prec, m, n, 0, array, batch, -1, NULL, 0);
    step_counts used;
    char why[200] = "";
    int ok = run_getrf(&d, &used);
    if (!ok) snprintf(why, sizeof why, "driver failed (panel errors %d, bad pivots %d)", panel_errors, laswp_bad);
    ok = ok && check_panels(&d, &used, why, sizeof why);
    for (long long b = 0; ok && b < batch; ++b) ok = judge_factor(&d, b, 0, why, sizeof why);
    host_verdict(ok, "getrf %c %dx%d %s batch %lld: %s", prec, m, n, form(array), batch, why);
    release(&d);
}

/* matrix 1 of 5 with zero pivots at the columns zs: info exact (the first; 0 for a zero column at
 * or beyond min(m, n)), the factorization going on (residual, pivots), the others bit-identical
 * to a twin run where matrix 1 has none */
static void case_zero(char prec, int m, int n, int array, const int *zs, int n_zs)
{
    lu_data d, g;
    host_seed = 4242;
    make(&d, prec, m, n, 0, array, 5, 1, zs, n_zs);
    host_seed = 4242;
    make(&g, prec, m, n, 0, array, 5, -1, NULL, 0);
    int want = 0;
    for (int z = 0; z < n_zs; ++z)
        if (zs[z] < min_i(m, n) && (!want || zs[z] + 1 < want)) want = zs[z] + 1;
    step_counts used;
    char why[200] = "";
    int ok = run_getrf(&d, &used) && run_getrf(&g, &used);
    if (!ok) snprintf(why, sizeof why, "driver failed (panel errors %d, bad pivots %d)", panel_errors, laswp_bad);
    for (long long b = 0; ok && b < 5; ++b) {
        ok = judge_factor(&d, b, b == 1 ? want : 0, why, sizeof why);
        if (ok && b != 1 &&
            (memcmp(d.A + b * a_size(&d), g.A + b * a_size(&d), a_size(&d)) ||
             memcmp(d.ipiv + b * d.stride_ipiv, g.ipiv + b * d.stride_ipiv, sizeof(int) * d.stride_ipiv))) {
            snprintf(why, sizeof why, "matrix %lld differs from the twin run's", b);
            ok = 0;
        }
    }
    host_verdict(ok, "getrf_zero %c %dx%d %s zero columns %d%s%d: %s", prec, m, n, form(array), zs[0],
                 n_zs > 1 ? ", " : "", n_zs > 1 ? zs[1] : -1, why);
    release(&d);
    release(&g);
}

/* ||op(A) X - B||_1 / (n ||A||_1 ||X||_1 eps) of problem b (op 0 N, 1 T, 2 C) */
static double solve_error(const lu_data *d, long long b, int op)
{
    const int n = d->n;
    const char *a0 = d->A0 + b * a_size(d), *x = d->B + b * b_size(d), *b0 = d->B0 + b * b_size(d);
    double err = 0.0, na = 0.0, nx = 0.0;
    for (int c = 0; c < n; ++c) {
        double s = 0.0;
        for (int i = 0; i < n; ++i) s += cabs(host_get(d->prec, a0, i + c * d->lda));
        na = s > na ? s : na;
    }
    for (int c = 0; c < d->nrhs; ++c) {
        double e = 0.0, s = 0.0;
        for (int i = 0; i < n; ++i) {
            zval r = -host_get(d->prec, b0, i + c * d->ldb);
            for (int l = 0; l < n; ++l) {
                const zval a = op ? host_get(d->prec, a0, l + i * d->lda) : host_get(d->prec, a0, i + l * d->lda);
                r += (op == 2 ? conj(a) : a) * host_get(d->prec, x, l + c * d->ldb);
            }
            e += cabs(r);
            s += cabs(host_get(d->prec, x, i + c * d->ldb));
        }
        err = e > err || e != e ? e : err;
        nx = s > nx ? s : nx;
    }
    return seen(1, err / (n * na * nx * host_eps(d->prec)));
}

static const char *op_name(int op) { return op == 0 ? "N" : op == 1 ? "T" : "C"; }

/* getrf then getrs (op N, T or C) on 3 problems */
static void case_getrs(char prec, int n, int nrhs, int array, int op)
{
    lu_data d;
    make(&d, prec, n, n, nrhs, array, 3, -1, NULL, 0);
    step_counts used;
    shoal_lapack_params p = params(&d);
    p.conj = op == 2;
    char why[200] = "";
    const int factored = run_getrf(&d, &used);
    laswp_bad = 0;
    int ok = factored && shoal_driver_getrs_blocked(&g_ctx, prec, op != 0, &p) == SHOAL_STATUS_SUCCESS && !laswp_bad;
    if (!ok) snprintf(why, sizeof why, "%s failed (bad pivots %d)", factored ? "getrs" : "getrf", laswp_bad);
    for (long long b = 0; ok && b < 3; ++b) {
        const double e = solve_error(&d, b, op);
        if (d.info[b] != 0 || !(e <= LIMIT) || !untouched(&d, b, 1)) {
            snprintf(why, sizeof why, "matrix %lld: info %d, solve error %.3g, padding %s", b, d.info[b], e,
                     untouched(&d, b, 1) ? "kept" : "WRITTEN");
            ok = 0;
        }
    }
    host_verdict(ok, "getrf+getrs %c n=%d nrhs=%d op %s %s: %s", prec, n, nrhs, op_name(op), form(array), why);
    release(&d);
}

/* gesv on 5 problems; matrix 1 singular at column `zero` (if >= 0): its info, the others' X and
 * factors bit-identical to a twin run where it is not */
static void case_gesv(char prec, int n, int nrhs, int array, int zero)
{
    lu_data d, g;
    host_seed = 999;
    make(&d, prec, n, n, nrhs, array, 5, zero >= 0 ? 1 : -1, &zero, 1);
    host_seed = 999;
    make(&g, prec, n, n, nrhs, array, 5, -1, NULL, 0);
    shoal_lapack_params p = params(&d), q = params(&g);
    laswp_bad = panel_errors = 0;
    g_cur = &d;
    int ok = shoal_driver_gesv_blocked(&g_ctx, prec, 0, &p) == SHOAL_STATUS_SUCCESS;
    g_cur = &g;
    ok = ok && shoal_driver_gesv_blocked(&g_ctx, prec, 0, &q) == SHOAL_STATUS_SUCCESS && !laswp_bad && !panel_errors;
    g_cur = NULL;
    char why[200] = "";
    if (!ok) snprintf(why, sizeof why, "driver failed (panel errors %d, bad pivots %d)", panel_errors, laswp_bad);
    for (long long b = 0; ok && b < 5; ++b) {
        const int bad = zero >= 0 && b == 1;
        const double e = bad ? 0.0 : solve_error(&d, b, 0);
        if (d.info[b] != (bad ? zero + 1 : 0) || !(e <= LIMIT) || !untouched(&d, b, 1)) {
            snprintf(why, sizeof why, "matrix %lld: info %d, solve error %.3g", b, d.info[b], e);
            ok = 0;
        } else if (bad) {
            ok = judge_factor(&d, b, zero + 1, why, sizeof why);
        } else if (memcmp(d.A + b * a_size(&d), g.A + b * a_size(&d), a_size(&d)) ||
                   memcmp(d.B + b * b_size(&d), g.B + b * b_size(&d), b_size(&d))) {
            snprintf(why, sizeof why, "matrix %lld differs from the twin run's", b);
            ok = 0;
        }
    }
    host_verdict(ok, "gesv %c n=%d nrhs=%d %s zero %d: %s", prec, n, nrhs, form(array), zero, why);
    release(&d);
    release(&g);
}

/* ||A C - I||_1 / (n ||A||_1 ||C||_1 eps) of problem b */
static double inverse_error(const lu_data *d, long long b)
{
    const int n = d->n;
    const char *a0 = d->A0 + b * a_size(d), *c = d->B + b * b_size(d);
    double err = 0.0, na = 0.0, nc = 0.0;
    for (int j = 0; j < n; ++j) {
        double e = 0.0, sa = 0.0, sc = 0.0;
        for (int i = 0; i < n; ++i) {
            zval r = i == j ? -1.0 : 0.0;
            for (int l = 0; l < n; ++l) r += host_get(d->prec, a0, i + l * d->lda) * host_get(d->prec, c, l + j * d->ldb);
            e += cabs(r);
            sa += cabs(host_get(d->prec, a0, i + j * d->lda));
            sc += cabs(host_get(d->prec, c, i + j * d->ldb));
        }
        err = e > err || e != e ? e : err;
        na = sa > na ? sa : na;
        nc = sc > nc ? sc : nc;
    }
    return seen(2, err / (n * na * nc * host_eps(d->prec)));
}

static int all_nan(const lu_data *d, long long b)
{
    const char *c = d->B + b * b_size(d);
    for (int j = 0; j < d->n; ++j)
        for (int i = 0; i < d->n; ++i) {
            const zval v = host_get(d->prec, c, i + j * d->ldb);
            if (!isnan(creal(v)) || (shoal_spec_is_complex(d->prec) && !isnan(cimag(v)))) return 0;
        }
    return 1;
}

/* getrf then getri (C = inv(A) in B) on 5 problems; matrix 1 singular at column `zero` (if >= 0):
 * getri's own info (reset before it), C all NaN, the others' C bit-identical to a twin run's */
static void case_getri(char prec, int n, int array, int zero)
{
    lu_data d, g;
    host_seed = 31337;
    make(&d, prec, n, n, n, array, 5, zero >= 0 ? 1 : -1, &zero, 1);
    host_seed = 31337;
    make(&g, prec, n, n, n, array, 5, -1, NULL, 0);
    step_counts used;
    int ok = run_getrf(&d, &used) && run_getrf(&g, &used);
    char *factors = malloc(a_size(&d) * 5);
    memcpy(factors, d.A, a_size(&d) * 5);
    for (int b = 0; b < MAX_BATCH; ++b) d.info[b] = g.info[b] = -7;
    shoal_lapack_params p = params(&d), q = params(&g);
    p.nrhs = q.nrhs = 0; /* getri's call carries no nrhs: the inverse is n x n */
    laswp_bad = 0;
    ok = ok && shoal_driver_getri_blocked(&g_ctx, prec, 0, &p) == SHOAL_STATUS_SUCCESS &&
         shoal_driver_getri_blocked(&g_ctx, prec, 0, &q) == SHOAL_STATUS_SUCCESS && !laswp_bad;
    char why[200] = "";
    if (!ok) snprintf(why, sizeof why, "driver failed");
    if (ok && memcmp(factors, d.A, a_size(&d) * 5)) {
        snprintf(why, sizeof why, "the factors were written");
        ok = 0;
    }
    for (long long b = 0; ok && b < 5; ++b) {
        const int bad = zero >= 0 && b == 1;
        const double e = bad ? 0.0 : inverse_error(&d, b);
        if (d.info[b] != (bad ? zero + 1 : 0) || !(e <= LIMIT) || (bad && !all_nan(&d, b)) || !untouched(&d, b, 1)) {
            snprintf(why, sizeof why, "matrix %lld: info %d, inverse error %.3g, %s", b, d.info[b], e,
                     bad && !all_nan(&d, b) ? "C not all NaN" : "");
            ok = 0;
        } else if (zero >= 0 && !bad && memcmp(d.B + b * b_size(&d), g.B + b * b_size(&d), b_size(&d))) {
            snprintf(why, sizeof why, "matrix %lld differs from the twin run's", b);
            ok = 0;
        }
    }
    host_verdict(ok, "getrf+getri %c n=%d %s zero %d: %s", prec, n, form(array), zero, why);
    free(factors);
    release(&d);
    release(&g);
}

int main(void)
{
    host_context(&g_ctx);
    const char precs[] = "sdcz";
    const int sizes[] = {33, 40, 64, 65, 100, 129};  /* 129: 32-wide panels above 128 rows, 64 below */
    const int batches[] = {5, 1, 3, 5, 5, 3};
    const int rect[][3] = {{100, 40, 5}, {70, 33, 5}, {40, 100, 5}, {33, 70, 3}, {20, 50, 5}, {80, 20, 5}, {600, 40, 3}};
    const int z65[][2] = {{4, -1}, {40, -1}, {64, -1}}, z100[][2] = {{4, -1}, {50, -1}, {99, -1}, {70, 20}};
    for (int pi = 0; pi < 4; ++pi)
        for (int array = 0; array < 2; ++array) {
            const char prec = precs[pi];
            for (int si = 0; si < 6; ++si) case_getrf(prec, sizes[si], sizes[si], array, batches[si]);
            for (int ri = 0; ri < 7; ++ri) case_getrf(prec, rect[ri][0], rect[ri][1], array, rect[ri][2]);
            /* zero pivots: the first panel, a middle one, the last column, two (the first wins) */
            for (int z = 0; z < 3; ++z) case_zero(prec, 65, 65, array, z65[z], 1);
            for (int z = 0; z < 4; ++z) case_zero(prec, 100, 100, array, z100[z], z100[z][1] >= 0 ? 2 : 1);
            case_zero(prec, 100, 40, array, (const int[]){39}, 1);     /* tall: the last column */
            case_zero(prec, 40, 100, array, (const int[]){39}, 1);     /* wide: the last pivot */
            case_zero(prec, 33, 70, array, (const int[]){50}, 1);      /* wide: beyond the pivots, info 0 */
            case_zero(prec, 70, 33, array, (const int[]){32}, 1);      /* the last column (32 wide: its own panel) */
            for (int op = 0; op < (shoal_spec_is_complex(prec) ? 3 : 2); ++op) {
                case_getrs(prec, 33, 1, array, op);
                case_getrs(prec, 100, 25, array, op);
            }
            case_gesv(prec, 65, 3, array, -1);
            case_gesv(prec, 129, 3, array, -1);
            case_gesv(prec, 65, 3, array, 40);
            case_getri(prec, 33, array, -1);
            case_getri(prec, 64, array, -1);
            case_getri(prec, 100, array, -1);
            case_getri(prec, 65, array, 64);
        }
    /* every step ran: panels, laswp, the merges, the inverse's start, TRSM, GEMM, pointer arrays */
    const int steps_ok = laswp_calls > 0 && merge_calls > 0 && inverse_calls > 0 && host_spec_calls[HOST_TRSM] > 0 &&
                         host_trsm_unit_calls > 0 && host_gemm_calls > 0 && host_block_pointer_launches > 0;
    host_verdict(steps_ok, "steps: a step kind never ran");
    /* the matrices kept their promise: no near tie anywhere in the reference's pivoting */
    printf("largest runner-up / pivot ratio of the reference getf2: %.3f; largest errors / eps: factor %.3g, "
           "solve %.3g, inverse %.3g (limit %g)\n", worst_tie, worst[0], worst[1], worst[2], LIMIT);
    host_verdict(worst_tie < 0.8, "matrices: a near tie in pivoting (ratio %.3f)", worst_tie);
    return host_report();
}
