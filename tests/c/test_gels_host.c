/* The least-squares driver (runtime/drivers/gels_qr.c), the LQ driver (runtime/drivers/
 * gelqf_qr.c) and orgbr's (runtime/drivers/orgbr_qr.c) on the CPU (no GPU): all compiled into
 * this program with lapack_steps.c, a chunk
 * of 3 problems (SHOAL_LAPACK_CHUNK) and a 20 KiB solver workspace (SHOAL_SOLVER_WS_BYTES; the
 * handle's is 32 MiB), so that a batch of 5 crosses chunks: 3 + 2 where tau alone is kept, down
 * to one problem per chunk for the wide matrices whose A^H fills the workspace (16 x 40 in z).
 * Their steps run on host memory: geqrf (shoal_lapack_run_ctx) by the oracle's Householder QR
 * (oracle_geqr2 / oracle_zgeqr2: LAPACK's layout and tau), the three kernels of gels_kernels.h
 * (conjugate transpose, info and zero flags, row blocks zeroed or conjugated) and the small solve
 * (gels_small.h: everything after geqrf where F has at most 32 rows, 16 in z) as host twins
 * here, cudaMemsetAsync as memset, TRSM and ORMQR the shared host steps (tests/c/
 * host_lapack_steps.c; ORMQR forms Q by oracle_form_q / oracle_zform_q), the workspace's pointer
 * arrays by the host pointer launch (tests/c/host_block_pointers.c).
 * THE FORM CHECK: the dispatched TRSM's driver and its GEMM steps take one form for all operands
 * (every operand pointer arrays, or every one strided), so the host TRSM and ORMQR refuse a call
 * whose A and B (C) differ in form with a FAILED verdict of their own (host_lapack_steps.h).
 * The driver before commit e5c69f8 passed a wide matrix's A^H in the workspace strided beside
 * B's pointer arrays; compiled in place of the current one (-DSHOAL_TEST_GELS_DRIVER='"<file>"'),
 * it fails here (every wide case in pointer arrays, and the wide twins).
 *
 * gels (s, d, c, z; trans N, T, and C in c and z, where T is the plain transpose and the driver
 * conjugates B; strided, and pointer arrays in reverse order; lda > m, ldb > max(m, n), gaps
 * between matrices; everything outside A's m x n and B's max(m, n) x nrhs, and B's rows p..
 * max(m, n) - 1 the routine must not read, NaN): op(A) is p x q, B's first q rows X on exit.
 * For matrices of full rank (info 0), eps the machine epsilon (FLT_EPSILON, DBL_EPSILON), each at
 * most 30, as tests/gpu/test_gels_gpu.c:
 *  - least squares (p >= q), r = B0 - op(A0) X: the normal equations
 *        ||op(A0)^H r||_F / (||A0||_F (||A0||_F ||X||_F + ||B0||_F) max(m, n) eps)
 *    and, for p > q, the residual's components in B's rows q..p-1:
 *        | ||B(q:p-1)||^2 - ||r||^2 | / ((||A0|| ||X|| + ||B0||) (||B(q:p-1)|| + ||r||) max(m, n) eps);
 *  - minimum norm (p < q): ||r||_F / ((||A0|| ||X|| + ||B0||) max(m, n) eps) and X in the row space
 *    of op(A0): ||X - P X||_F / (||X||_F max(m, n) eps), P = op(A0)^H G^-1 op(A0) the projection
 *    onto it, G = op(A0) op(A0)^H solved here in double (Gaussian elimination: independent of the
 *    driver's QR; the wide shapes are far from square, so G is well conditioned);
 *  - A on exit: ||A0^H A0 - R^H R||_F / (||A0||_F^2 n eps) (m >= n, R the upper triangle of A's
 *    first n rows) or ||A0 A0^H - L L^H||_F / (||A0||_F^2 m eps) (m < n, L the lower triangle of
 *    its first m columns);
 *  - info 0, and every element outside A's m x n and B's max(m, n) x nrhs bit-identical;
 *  - a rank-deficient matrix (zero column j for m >= n, zero row j for m < n): info j + 1 and the
 *    Gram check of its factor; a zero matrix: info 0, A still zero, B's max(m, n) rows exactly 0;
 *    both in one batch with good ones, whose A, B and info are bit for bit those of a twin call
 *    with the two left good;
 *  - m == 0 or n == 0 (A NULL): B's first max(m, n) rows zero, info 0, the rest untouched;
 *    m == n == 0 with NULL operands: success;
 *  - the chunks: geqrf runs once a chunk, ceil(batch / chunk) times, chunk = min(3, 20 KiB /
 *    ((m < n ? m n : 0) + min(m, n)) elements); nothing written past the workspace (a guard
 *    after it); a wide matrix above the workspace: SHOAL_STATUS_NOT_SUPPORTED, nothing touched.
 * gelqf (the same precisions, shapes and forms; tau strided with gaps, or one pointer per
 * matrix): with k = min(m, n), L the lower trapezoid, v_j from conj(row j) right of the diagonal,
 * Q = H_k^H ... H_1^H, P = Q^H = H_1 ... H_k (oracle_form_q on the v_j): ||A0 - L Q||_F /
 * (||A0||_F max(m, n) eps) and ||I - Q Q^H||_F / (n eps) at most 30; LAPACK's conventions (L's
 * diagonal exactly real in c, z; each tau 0 or 1 <= re tau <= 2 with |tau - 1| <= 1 (64 eps
 * slack); in s, d the last tau of an m >= n matrix exactly 0); a zero row J - 1: tau_{J-1} and
 * the row exactly 0; a zero matrix: A still 0, every tau 0; the twin call; everything outside A's
 * m x n and tau's k entries bit-identical; m or n = 0: nothing touched; the chunks (m n
 * elements a problem) and a matrix above the workspace (NOT_SUPPORTED, nothing touched).
 * orgbr (the same precisions and forms; vect Q and P in each of LAPACK's layouts: unshifted,
 * shifted (Q where m < k, P where k >= n), k = 0, a 1 x 1 shifted Q): the reflectors made of
 * random entries with tau = 2 / ||u||^2 (unitary), the result against Q (or P^H) formed here by
 * applying the reflectors to the identity one by one, at most 30 eps max(m, n) an element; A's
 * padding and tau bit-identical; ORGQR (the host step: oracle_form_q), the shift (its host twin
 * here, LAPACK's loop) and the transposes once per chunk; m = n = 0; P above the workspace.
 * Last, one verdict that every step kind ran (TRSM, ORMQR, the transposes, info, the row blocks'
 * zeroing, conjugation and zero-flag zeroing, the empty sizes' memset, the pointer launch of A^H's
 * arrays), that some chunks held one problem, and that no step was refused for its arguments.
 * What it cannot: the kernels (tests/gpu/test_gels_gpu.c judges those on the GPU).
 *
 *   test_gels_host       every case; last line "N passed, M failed" */
#define SHOAL_LAPACK_CHUNK 3
#define SHOAL_SOLVER_WS_BYTES ((size_t)20 << 10)
#include "../../runtime/drivers/lapack_steps.c"
#ifndef SHOAL_TEST_GELS_DRIVER /* the driver under test: another (an older one) may be given */
#define SHOAL_TEST_GELS_DRIVER "../../runtime/drivers/gels_qr.c"
#endif
#include SHOAL_TEST_GELS_DRIVER
#include "../../runtime/drivers/gelqf_qr.c"
#include "../../runtime/drivers/orgbr_qr.c"
#include "../../runtime/drivers/solver_steps.c"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_block_pointers.h"
#include "host_lapack_steps.h"
#include "lapack_ref.h"
#include "orgbr_ref.h"

enum { MAXB = 8 };
static const double LIMIT = 30.0;

/* ---- host steps: geqrf, the gels kernels' twins, cudaMemsetAsync ---- */

static int geqrf_calls, transpose_calls, info_calls, rows_calls[2], rows_only_calls, memset_calls, bad_step_calls,
    small_calls, shift_calls;
static long long geqrf_problems;   /* problems geqrf factored since the test last zeroed it */
static int one_problem_chunks;     /* geqrf calls of one problem within a larger call */
static long long g_call_batch;     /* the batch of the driver call under way */

/* geqrf on every problem: the oracle's geqr2 in double (rounded back to the precision), tau into
 * p's tau (pointer arrays or strided); A outside m x n and tau past min(m, n) untouched */
shoal_status shoal_lapack_run_ctx(struct shoal_context *ctx, int routine, char prec, int variant,
                                  shoal_lapack_params *p)
{
    (void)ctx;
    if (routine != SHOAL_GEQRF || variant != 0 || p->col0 != 0 || (!p->A && !p->A_array) ||
        (!p->tau && !p->tau_array) || p->lda < p->m) {
        ++bad_step_calls;
        return SHOAL_STATUS_INVALID_VALUE;
    }
    if (p->m <= 0 || p->n <= 0 || p->batch <= 0) return SHOAL_STATUS_SUCCESS;
    if (p->m > 1024 || p->n > 1024) return SHOAL_STATUS_NOT_SUPPORTED;
    ++geqrf_calls;
    geqrf_problems += p->batch;
    if (p->batch == 1 && g_call_batch > 1) ++one_problem_chunks;
    const int w = shoal_spec_is_complex(prec) ? 2 : 1, m = p->m, n = p->n, k = m < n ? m : n;
    const long long es = shoal_spec_elem_bytes(prec);
    double *a = malloc(sizeof *a * w * (size_t)m * n), *t = malloc(sizeof *t * w * (size_t)k);
    for (long long b = 0; b < p->batch; ++b) {
        char *ab = p->A_array ? (char *)p->A_array[b] : (char *)p->A + b * p->stride_a * es;
        char *tb = p->tau_array ? (char *)p->tau_array[b] : (char *)p->tau + b * p->stride_tau * es;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                const zval v = host_get(prec, ab, i + j * p->lda);
                a[w * (i + (size_t)j * m)] = creal(v);
                if (w == 2) a[w * (i + (size_t)j * m) + 1] = cimag(v);
            }
        (w == 2 ? oracle_zgeqr2 : oracle_geqr2)(m, n, a, m, t, NULL);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i)
                host_put(prec, ab, i + j * p->lda,
                         a[w * (i + (size_t)j * m)] + (w == 2 ? I * a[w * (i + (size_t)j * m) + 1] : 0.0));
        for (int j = 0; j < k; ++j) host_put(prec, tb, j, t[w * j] + (w == 2 ? I * t[w * j + 1] : 0.0));
    }
    free(a), free(t);
    return SHOAL_STATUS_SUCCESS;
}

cudaError_t shoal_gels_conj_transpose(char prec, shoal_operand src, shoal_operand dst, int rows, int cols,
                                      long long batch, cudaStream_t stream)
{
    (void)stream;
    ++transpose_calls;
    for (long long b = 0; b < batch; ++b) {
        const void *s = host_problem(prec, &src, b);
        void *d = host_problem(prec, &dst, b);
        for (int j = 0; j < cols; ++j)
            for (int i = 0; i < rows; ++i) host_put(prec, d, j + i * dst.ld, conj(host_get(prec, s, i + j * src.ld)));
    }
    return cudaSuccess;
}

cudaError_t shoal_gels_info(char prec, shoal_operand R, int n, long long batch, int *info, int *zero,
                            cudaStream_t stream)
{
    (void)stream;
    ++info_calls;
    for (long long b = 0; b < batch; ++b) {
        const void *r = host_problem(prec, &R, b);
        int first = 0, all_zero = 1;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i <= j; ++i) {
                const zval v = host_get(prec, r, i + j * R.ld);
                if (v != 0.0) all_zero = 0;
                if (i == j && v == 0.0 && !first) first = j + 1;
            }
        info[b] = all_zero ? 0 : first;
        zero[b] = all_zero;
    }
    return cudaSuccess;
}

cudaError_t shoal_gels_rows(char prec, shoal_operand B, int row0, int row1, int cols, long long batch,
                            const int *only, int op, cudaStream_t stream)
{
    (void)stream;
    if ((op != SHOAL_ROWS_ZERO && op != SHOAL_ROWS_CONJ) || (op == SHOAL_ROWS_CONJ && !shoal_spec_is_complex(prec))) {
        ++bad_step_calls;
        return cudaErrorInvalidValue;
    }
    ++rows_calls[op];
    if (only) ++rows_only_calls;
    for (long long b = 0; b < batch; ++b) {
        if (only && !only[b]) continue;
        void *x = host_problem(prec, &B, b);
        for (int c = 0; c < cols; ++c)
            for (int i = row0; i < row1; ++i)
                host_put(prec, x, i + c * B.ld, op == SHOAL_ROWS_ZERO ? 0.0 : conj(host_get(prec, x, i + c * B.ld)));
    }
    return cudaSuccess;
}

/* The small solve (runtime/drivers/gels_small.h) in double complex, step for step as its kernel:
 * H_k^H (least: k ascending) or H_k (k descending) applied to each right-hand side, R's back
 * substitution or R^H's forward substitution, the info and zero-matrix rules, A = F^H. */
static void small_reflect(char prec, const void *F, long long ldf, int fm, int k, zval tk, zval *x)
{
    zval s = x[k];
    for (int i = k + 1; i < fm; ++i) s += conj(host_get(prec, F, i + k * ldf)) * x[i];
    x[k] -= tk * s;
    for (int i = k + 1; i < fm; ++i) x[i] -= tk * s * host_get(prec, F, i + k * ldf);
}

cudaError_t shoal_gels_small(char prec, const shoal_gels_small_args *a, cudaStream_t stream)
{
    (void)stream;
    if (a->fm < a->fn || a->fn < 1 || a->fm > shoal_gels_small_rows(prec)) {
        ++bad_step_calls;
        return cudaErrorInvalidValue;
    }
    ++small_calls;
    const int fm = a->fm, fn = a->fn;
    const long long ldf = a->F.ld;
    for (long long b = 0; b < a->batch; ++b) {
        const void *F = host_problem(prec, &a->F, b), *tau = host_problem(prec, &a->tau, b);
        void *B = host_problem(prec, &a->B, b);
        int info = 0, all_zero = 1;
        for (int j = 0; j < fn; ++j)
            for (int i = 0; i <= j; ++i) {
                const zval v = host_get(prec, F, i + j * ldf);
                if (v != 0.0) all_zero = 0;
                if (i == j && v == 0.0 && !info) info = j + 1;
            }
        if (all_zero) info = 0;
        a->info[b] = info;
        if (a->A.ptr || a->A.array) {
            void *A = host_problem(prec, &a->A, b);
            for (int i = 0; i < fm; ++i)
                for (int k = 0; k < fn; ++k) host_put(prec, A, k + i * a->A.ld, conj(host_get(prec, F, i + k * ldf)));
        }
        for (int c = 0; c < a->nrhs; ++c) {
            zval x[32], q[32];
            for (int i = 0; i < fm; ++i) {
                x[i] = host_get(prec, B, i + c * a->B.ld);
                if (a->conj_b) x[i] = conj(x[i]);
            }
            int store = 1;
            if (a->least) {
                for (int k = 0; k < fn; ++k) small_reflect(prec, F, ldf, fm, k, conj(host_get(prec, tau, k)), x);
                memcpy(q, x, sizeof x);
                for (int j = fn - 1; j >= 0; --j) {
                    x[j] /= host_get(prec, F, j + j * ldf);
                    for (int i = 0; i < j; ++i) x[i] -= host_get(prec, F, i + j * ldf) * x[j];
                }
                if (info) memcpy(x, q, sizeof x);
            } else {
                for (int j = 0; j < fn; ++j) {
                    for (int i = 0; i < j; ++i) x[j] -= conj(host_get(prec, F, i + j * ldf)) * x[i];
                    x[j] /= conj(host_get(prec, F, j + j * ldf));
                }
                for (int i = fn; i < fm; ++i) x[i] = 0.0;
                for (int k = fn - 1; k >= 0; --k) small_reflect(prec, F, ldf, fm, k, host_get(prec, tau, k), x);
                store = !info;
            }
            if (all_zero) {
                for (int i = 0; i < fm; ++i) x[i] = 0.0;
                store = 1;
            }
            if (store)
                for (int i = 0; i < fm; ++i) host_put(prec, B, i + c * a->B.ld, a->conj_b ? conj(x[i]) : x[i]);
        }
    }
    return cudaSuccess;
}

/* orgbr's shift (runtime/drivers/orgbr_kernels.h), as LAPACK's orgbr writes it: column by
 * column from the last, then the first row and column e_0's */
cudaError_t shoal_orgbr_shift(char prec, shoal_operand A, int n, long long batch, cudaStream_t stream)
{
    (void)stream;
    ++shift_calls;
    for (long long b = 0; b < batch; ++b) {
        void *a = host_problem(prec, &A, b);
        for (int j = n - 1; j >= 1; --j) {
            host_put(prec, a, j * A.ld, 0.0);
            for (int i = j + 1; i < n; ++i) host_put(prec, a, i + j * A.ld, host_get(prec, a, i + (j - 1) * A.ld));
        }
        host_put(prec, a, 0, 1.0);
        for (int i = 1; i < n; ++i) host_put(prec, a, i, 0.0);
    }
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    (void)stream;
    ++memset_calls;
    memset(devPtr, value, count);
    return cudaSuccess;
}

/* ---- the matrices under test ---- */

static struct shoal_context g_ctx;
/* the solver workspace and a guard after it, which no driver may write */
enum { WS_GUARD = 2 * SHOAL_SOLVER_WS_BYTES, GUARD_BYTE = 0xa5 };
static _Alignas(256) unsigned char g_solver_ws[SHOAL_SOLVER_WS_BYTES + WS_GUARD];

static int guard_intact(void)
{
    for (size_t i = SHOAL_SOLVER_WS_BYTES; i < sizeof g_solver_ws; ++i)
        if (g_solver_ws[i] != GUARD_BYTE) return 0;
    return 1;
}

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }
static double eps_of(char prec) { return 2.0 * host_eps(prec); } /* FLT_EPSILON, DBL_EPSILON */
static zval rnd(char prec) { return shoal_spec_is_complex(prec) ? host_uniform() + I * host_uniform() : host_uniform(); }
static double sq(zval v) { return creal(v) * creal(v) + cimag(v) * cimag(v); }

/* One call's operands: A (m x n) and B (max(m, n) x nrhs, gels) or tau (k, gelqf), batch
 * matrices in one allocation each, matrix b at slot b (strided) or batch - 1 - b (pointer arrays:
 * reverse order), gaps between them; everything but the inputs NaN. */
typedef struct call_data {
    char prec;
    int m, n, nrhs, trans, array, lq; /* lq: gelqf (tau in place of B) */
    long long batch, lda, ldb, sa, sb, st, a_elems, b_elems;
    char *A, *A0, *B, *B0; /* B: tau for gelqf */
    void *ap[MAXB], *bp[MAXB];
    int info[MAXB];
} call_data;

static long long es_of(const call_data *d) { return shoal_spec_elem_bytes(d->prec); }
static long long slot_of(const call_data *d, long long b) { return d->array ? d->batch - 1 - b : b; }
static char *a_of(const call_data *d, const char *base, long long b)
{
    return (char *)base + slot_of(d, b) * d->sa * es_of(d);
}
static char *b_of(const call_data *d, const char *base, long long b)
{
    return (char *)base + slot_of(d, b) * (d->lq ? d->st : d->sb) * es_of(d);
}

/* special[b]: 0 good; 1 rank deficient (gels: zero column / row j; gelqf: zero row j); 2 zero */
static void make(call_data *d, char prec, int m, int n, int nrhs, int trans, int array, int lq, long long batch,
                 const int *special, int j)
{
    memset(d, 0, sizeof *d);
    d->prec = prec, d->m = m, d->n = n, d->nrhs = nrhs, d->trans = trans, d->array = array, d->lq = lq;
    d->batch = batch;
    const int rows_b = imax(m, n), k = imin(m, n), p = trans ? n : m;
    d->lda = imax(1, m) + 2;
    d->ldb = imax(1, rows_b) + 3;
    d->sa = d->lda * n + 5;
    d->sb = d->ldb * nrhs + 4;
    d->st = k + 2;
    d->a_elems = batch * d->sa + 7;
    d->b_elems = batch * (lq ? d->st : d->sb) + 7;
    const long long es = es_of(d);
    d->A = malloc(d->a_elems * es), d->A0 = malloc(d->a_elems * es);
    d->B = malloc(d->b_elems * es), d->B0 = malloc(d->b_elems * es);
    memset(d->A, 0xff, d->a_elems * es); /* NaN in s, d, c, z */
    memset(d->B, 0xff, d->b_elems * es);
    for (long long b = 0; b < batch; ++b) {
        char *a = a_of(d, d->A, b), *x = b_of(d, d->B, b);
        const int sp = special ? special[b] : 0;
        for (int c = 0; c < n; ++c)
            for (int i = 0; i < m; ++i) {
                zval v = rnd(prec);
                const int in_zero = sp == 2 || (sp == 1 && (lq || m < n ? i == j : c == j));
                host_put(prec, a, i + c * d->lda, in_zero ? 0.0 : v);
            }
        if (!lq)
            for (int c = 0; c < nrhs; ++c)
                for (int i = 0; i < p; ++i) host_put(prec, x, i + c * d->ldb, rnd(prec));
        d->ap[b] = a;
        d->bp[b] = x;
    }
    memcpy(d->A0, d->A, d->a_elems * es);
    memcpy(d->B0, d->B, d->b_elems * es);
    for (int b = 0; b < MAXB; ++b) d->info[b] = -7;
}

static void release(call_data *d) { free(d->A), free(d->A0), free(d->B), free(d->B0); }

static shoal_lapack_params params(call_data *d)
{
    shoal_lapack_params p = {0};
    const int has_a = d->m > 0 && d->n > 0;
    p.m = d->m;
    p.n = d->n;
    p.nrhs = d->lq ? 0 : d->nrhs;
    p.conj = !d->lq && d->trans == 2 && shoal_spec_is_complex(d->prec); /* op C: the t variant on conj(A) */
    p.lda = d->lda;
    p.batch = d->batch;
    if (d->lq) {
        if (d->array) p.A_array = has_a ? d->ap : NULL, p.tau_array = has_a ? d->bp : NULL;
        else p.A = has_a ? d->A : NULL, p.stride_a = d->sa, p.tau = has_a ? d->B : NULL, p.stride_tau = d->st;
        return p;
    }
    p.ldb = d->ldb;
    if (d->array) p.A_array = has_a ? d->ap : NULL, p.B_array = d->bp;
    else p.A = has_a ? d->A : NULL, p.stride_a = d->sa, p.B = d->B, p.stride_b = d->sb;
    p.info = d->info;
    return p;
}

/* every element outside the operands' regions (A's m x n; B's max(m, n) x nrhs or tau's k)
 * bit-identical to before */
static int outside_untouched(const call_data *d)
{
    const long long es = es_of(d);
    const int rows_b = d->lq ? imin(d->m, d->n) : imax(d->m, d->n), cols_b = d->lq ? 1 : d->nrhs;
    const long long ldb = d->lq ? d->st : d->ldb, sb = d->lq ? d->st : d->sb;
    for (long long e = 0; e < d->a_elems; ++e) {
        const long long s = e / d->sa, r = (e % d->sa) % d->lda, c = (e % d->sa) / d->lda;
        const int inside = s < d->batch && r < d->m && c < d->n;
        if (!inside && memcmp(d->A + e * es, d->A0 + e * es, es)) return 0;
    }
    for (long long e = 0; e < d->b_elems; ++e) {
        const long long s = e / sb, r = (e % sb) % ldb, c = (e % sb) / ldb;
        const int inside = s < d->batch && r < rows_b && c < cols_b;
        if (!inside && memcmp(d->B + e * es, d->B0 + e * es, es)) return 0;
    }
    return 1;
}

/* A, B (tau) and info of matrix b bit for bit the same in d and e */
static int same_problem(const call_data *d, const call_data *e, long long b)
{
    const long long es = es_of(d);
    return !memcmp(a_of(d, d->A, b), a_of(e, e->A, b), d->sa * es) &&
           !memcmp(b_of(d, d->B, b), b_of(e, e->B, b), (d->lq ? d->st : d->sb) * es) &&
           (d->lq || d->info[b] == e->info[b]);
}

/* ---- the judges ---- */

typedef struct errors {
    double normal, rows, resid, rowspace, gram, lq, orth;
} errors;
static errors worst; /* the largest of each error over the run, for the report */

static void keep(double *w, double e) { *w = e > *w || e != e ? e : *w; }

/* Solves the n x n system G Y = Z (Z: n x nrhs) in place by Gaussian elimination with partial
 * pivoting, in double complex */
static void zsolve(int n, zval *G, zval *Z, int nrhs)
{
    for (int j = 0; j < n; ++j) {
        int piv = j;
        for (int i = j + 1; i < n; ++i)
            if (cabs(G[i + j * n]) > cabs(G[piv + j * n])) piv = i;
        for (int c = 0; c < n; ++c) {
            const zval t = G[j + c * n];
            G[j + c * n] = G[piv + c * n], G[piv + c * n] = t;
        }
        for (int c = 0; c < nrhs; ++c) {
            const zval t = Z[j + c * n];
            Z[j + c * n] = Z[piv + c * n], Z[piv + c * n] = t;
        }
        for (int i = j + 1; i < n; ++i) {
            const zval f = G[i + j * n] / G[j + j * n];
            for (int c = j; c < n; ++c) G[i + c * n] -= f * G[j + c * n];
            for (int c = 0; c < nrhs; ++c) Z[i + c * n] -= f * Z[j + c * n];
        }
    }
    for (int c = 0; c < nrhs; ++c)
        for (int i = n - 1; i >= 0; --i) {
            zval s = Z[i + c * n];
            for (int l = i + 1; l < n; ++l) s -= G[i + l * n] * Z[l + c * n];
            Z[i + c * n] = s / G[i + i * n];
        }
}

/* op(A0)(i, j), op(A0) p x q */
static zval op_a(const call_data *d, const char *a0, int i, int j)
{
    if (d->trans == 0) return host_get(d->prec, a0, i + (long long)j * d->lda);
    const zval v = host_get(d->prec, a0, j + (long long)i * d->lda);
    return d->trans == 2 ? conj(v) : v;
}

/* ||A0^H A0 - R^H R|| / (||A0||^2 n eps) (m >= n) or ||A0 A0^H - L L^H|| / (||A0||^2 m eps) */
static double gram_error(const call_data *d, long long b)
{
    const char prec = d->prec, *a0 = a_of(d, d->A0, b), *f = a_of(d, d->A, b);
    const int m = d->m, n = d->n, t = imin(m, n), tall = m >= n;
    const long long ld = d->lda;
    double err = 0.0, na = 0.0;
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) na += sq(host_get(prec, a0, i + c * ld));
    for (int i = 0; i < t; ++i)
        for (int j = 0; j < t; ++j) {
            zval g0 = 0.0, g = 0.0;
            for (int l = 0; l < (tall ? m : n); ++l) /* A0^H A0 (i, j) or A0 A0^H (i, j) */
                g0 += tall ? conj(host_get(prec, a0, l + i * ld)) * host_get(prec, a0, l + j * ld)
                           : host_get(prec, a0, i + l * ld) * conj(host_get(prec, a0, j + l * ld));
            for (int l = 0; l <= imin(i, j); ++l) /* R^H R: R(l, i) conj, R(l, j); L L^H: L(i, l) conj(L(j, l)) */
                g += tall ? conj(host_get(prec, f, l + i * ld)) * host_get(prec, f, l + j * ld)
                          : host_get(prec, f, i + l * ld) * conj(host_get(prec, f, j + l * ld));
            err += sq(g0 - g);
        }
    return sqrt(err) / (na * t * eps_of(prec));
}

/* gels' checks of matrix b of full rank (see the top); why gets the first failure */
static int judge_solution(const call_data *d, long long b, char *why, size_t len)
{
    const char prec = d->prec;
    const int m = d->m, n = d->n, p = d->trans ? n : m, q = d->trans ? m : n, nrhs = d->nrhs, mx = imax(m, n);
    const char *a0 = a_of(d, d->A0, b), *b0 = b_of(d, d->B0, b), *x = b_of(d, d->B, b);
    const double eps = eps_of(prec);
    zval *r = malloc(sizeof *r * (size_t)p * nrhs);
    double na = 0.0, nb = 0.0, nx = 0.0, nr = 0.0;
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) na += sq(host_get(prec, a0, i + (long long)c * d->lda));
    for (int c = 0; c < nrhs; ++c) {
        for (int i = 0; i < p; ++i) nb += sq(host_get(prec, b0, i + (long long)c * d->ldb));
        for (int i = 0; i < q; ++i) nx += sq(host_get(prec, x, i + (long long)c * d->ldb));
        for (int i = 0; i < p; ++i) {
            zval s = host_get(prec, b0, i + (long long)c * d->ldb);
            for (int l = 0; l < q; ++l) s -= op_a(d, a0, i, l) * host_get(prec, x, l + (long long)c * d->ldb);
            r[i + (size_t)c * p] = s;
            nr += sq(s);
        }
    }
    na = sqrt(na), nb = sqrt(nb), nx = sqrt(nx), nr = sqrt(nr);
    double e1 = 0.0, e2 = 0.0;
    const char *what1, *what2 = "";
    if (p >= q) { /* least squares: op(A0)^H r, and the residual's rows */
        what1 = "normal equations";
        double s2 = 0.0;
        for (int c = 0; c < nrhs; ++c)
            for (int j = 0; j < q; ++j) {
                zval s = 0.0;
                for (int i = 0; i < p; ++i) s += conj(op_a(d, a0, i, j)) * r[i + (size_t)c * p];
                s2 += sq(s);
            }
        e1 = sqrt(s2) / (na * (na * nx + nb) * mx * eps);
        keep(&worst.normal, e1);
        if (p > q) {
            what2 = "residual rows";
            double nt = 0.0;
            for (int c = 0; c < nrhs; ++c)
                for (int i = q; i < p; ++i) nt += sq(host_get(prec, x, i + (long long)c * d->ldb));
            nt = sqrt(nt);
            e2 = fabs(nt * nt - nr * nr) / ((na * nx + nb) * (nt + nr) * mx * eps);
            if (nt + nr == 0.0) e2 = 0.0;
            keep(&worst.rows, e2);
        }
    } else { /* minimum norm: the residual, and X in the row space */
        what1 = "residual", what2 = "row space";
        e1 = nr / ((na * nx + nb) * mx * eps);
        keep(&worst.resid, e1);
        zval *G = malloc(sizeof *G * (size_t)p * p), *Y = malloc(sizeof *Y * (size_t)p * nrhs);
        for (int i = 0; i < p; ++i)
            for (int j = 0; j < p; ++j) {
                zval s = 0.0;
                for (int l = 0; l < q; ++l) s += op_a(d, a0, i, l) * conj(op_a(d, a0, j, l));
                G[i + (size_t)j * p] = s;
            }
        for (int c = 0; c < nrhs; ++c)
            for (int i = 0; i < p; ++i) {
                zval s = 0.0;
                for (int l = 0; l < q; ++l) s += op_a(d, a0, i, l) * host_get(prec, x, l + (long long)c * d->ldb);
                Y[i + (size_t)c * p] = s;
            }
        zsolve(p, G, Y, nrhs);
        double off = 0.0;
        for (int c = 0; c < nrhs; ++c)
            for (int l = 0; l < q; ++l) {
                zval px = 0.0;
                for (int i = 0; i < p; ++i) px += conj(op_a(d, a0, i, l)) * Y[i + (size_t)c * p];
                off += sq(host_get(prec, x, l + (long long)c * d->ldb) - px);
            }
        e2 = sqrt(off) / (nx * mx * eps);
        keep(&worst.rowspace, e2);
        free(G), free(Y);
    }
    free(r);
    const double e3 = gram_error(d, b);
    keep(&worst.gram, e3);
    const int ok = d->info[b] == 0 && e1 <= LIMIT && e2 <= LIMIT && e3 <= LIMIT;
    if (!ok)
        snprintf(why, len, "matrix %lld: info %d, %s %.3g, %s %.3g, Gram %.3g", b, d->info[b], what1, e1, what2, e2, e3);
    return ok;
}

/* the zero matrix's outcome: info 0, A zero, B's max(m, n) rows exactly 0 */
static int judge_zero(const call_data *d, long long b)
{
    const char *a = a_of(d, d->A, b), *x = b_of(d, d->B, b);
    int ok = d->info[b] == 0;
    for (int c = 0; c < d->n; ++c)
        for (int i = 0; i < d->m; ++i) ok = ok && host_get(d->prec, a, i + (long long)c * d->lda) == 0.0;
    for (int c = 0; c < d->nrhs; ++c)
        for (int i = 0; i < imax(d->m, d->n); ++i) ok = ok && host_get(d->prec, x, i + (long long)c * d->ldb) == 0.0;
    return ok;
}

static const char *trans_name(int t) { return t == 0 ? "N" : t == 1 ? "T" : "C"; }

/* the chunks a driver call should take: min(SHOAL_LAPACK_CHUNK, workspace / per) problems */
static long long chunks_of(long long batch, long long per_bytes)
{
    long long chunk = (long long)(SHOAL_SOLVER_WS_BYTES / (size_t)per_bytes);
    if (chunk > SHOAL_LAPACK_CHUNK) chunk = SHOAL_LAPACK_CHUNK;
    return chunk < 1 ? -1 : (batch + chunk - 1) / chunk;
}

static shoal_status run_gels(call_data *d)
{
    shoal_lapack_params p = params(d);
    geqrf_calls = 0, geqrf_problems = 0, g_call_batch = d->batch;
    const shoal_status st = shoal_driver_gels_qr(&g_ctx, d->prec, d->trans ? 1 : 0, &p);
    if (!guard_intact()) {
        host_verdict(0, "gels %c m=%d n=%d batch %lld: written past the solver workspace", d->prec, d->m, d->n, d->batch);
        memset(g_solver_ws + SHOAL_SOLVER_WS_BYTES, GUARD_BYTE, WS_GUARD);
    }
    return st;
}

static shoal_status run_gelqf(call_data *d)
{
    shoal_lapack_params p = params(d);
    geqrf_calls = 0, geqrf_problems = 0, g_call_batch = d->batch;
    const shoal_status st = shoal_driver_gelqf_qr(&g_ctx, d->prec, 0, &p);
    if (!guard_intact()) {
        host_verdict(0, "gelqf %c m=%d n=%d batch %lld: written past the solver workspace", d->prec, d->m, d->n, d->batch);
        memset(g_solver_ws + SHOAL_SOLVER_WS_BYTES, GUARD_BYTE, WS_GUARD);
    }
    return st;
}

/* ---- orgbr cases ---- */

/* problem b of A (m x n) as double complex, packed with ld = m */
static void load_problem(const call_data *d, const char *base, long long b, double complex *out)
{
    const char *a = a_of(d, base, b);
    for (int c = 0; c < d->n; ++c)
        for (int i = 0; i < d->m; ++i) out[i + (size_t)c * d->m] = host_get(d->prec, a, i + (long long)c * d->lda);
}

/* orgbr of batch problems: the reflectors from random entries with unitary taus, against Q (or
 * P^H) formed by tests/c/orgbr_ref.h (the reflectors applied to the identity one by one; the
 * driver's route is the shift, the transposes, the offsets into A(1:, 1:), the chunks, and the
 * host ORGQR's oracle_form_q), at most 30 eps max(m, n) an element; A's padding and tau
 * untouched; ORGQR once a chunk (not at all for a 1 x 1 shifted Q) */
static void case_orgbr(char prec, int vect, int m, int n, int k, int array, long long batch)
{
    call_data d;
    make(&d, prec, m, n, 0, 0, array, 1, batch, NULL, 0);
    const int q = vect ? n : m, s = orgbr_ref_shifted(vect, m, n, k), nr = orgbr_ref_count(vect, m, n, k);
    double complex *u = malloc(sizeof *u * (size_t)q), *Y = malloc(sizeof *Y * (size_t)q * q);
    double complex *A = malloc(sizeof *A * (size_t)m * n), *tau = malloc(sizeof *tau * (size_t)imax(q, 1));
    for (long long b = 0; b < batch; ++b) {
        char *t = b_of(&d, d.B, b);
        load_problem(&d, d.A, b, A);
        for (int j = 0; j < nr; ++j) {
            orgbr_ref_reflector(A, m, m, n, vect, k, j, u);
            host_put(prec, t, j, orgbr_ref_unitary_tau(u, q));
        }
        for (int j = nr; j < imin(m, n); ++j) host_put(prec, t, j, 0.0); /* taup[k-1] of a square gebrd */
    }
    memcpy(d.B0, d.B, d.b_elems * es_of(&d));
    memcpy(d.A0, d.A, d.a_elems * es_of(&d));
    shoal_lapack_params p = params(&d);
    p.nrhs = k;
    host_spec_calls[HOST_ORGQR] = 0, shift_calls = 0;
    const int before = transpose_calls;
    const shoal_status st = shoal_driver_orgbr_qr(&g_ctx, prec, vect, &p);
    char why[240] = "";
    int ok = st == SHOAL_STATUS_SUCCESS;
    if (!ok) snprintf(why, sizeof why, "status %d", (int)st);
    if (!guard_intact()) {
        ok = 0, snprintf(why, sizeof why, "written past the solver workspace");
        memset(g_solver_ws + SHOAL_SOLVER_WS_BYTES, GUARD_BYTE, WS_GUARD);
    }
    double worst_err = 0.0;
    for (long long b = 0; ok && b < batch; ++b) {
        const char *f = a_of(&d, d.A, b), *t = b_of(&d, d.B0, b);
        load_problem(&d, d.A0, b, A);
        for (int j = 0; j < imin(m, n); ++j) tau[j] = host_get(prec, t, j);
        orgbr_ref_form(A, m, m, n, vect, k, tau, Y, u);
        for (int c = 0; c < n; ++c)
            for (int i = 0; i < m; ++i) {
                const double complex want = orgbr_ref_want(Y, m, n, vect, i, c);
                const double e = cabs(host_get(prec, f, i + (long long)c * d.lda) - want) / (imax(m, n) * eps_of(prec));
                if (!(e <= worst_err)) worst_err = e;
            }
    }
    if (ok && !(worst_err <= LIMIT)) ok = 0, snprintf(why, sizeof why, "error %.3g eps", worst_err);
    if (ok && (!outside_untouched(&d) || memcmp(d.B, d.B0, d.b_elems * es_of(&d))))
        ok = 0, snprintf(why, sizeof why, "an element outside A's m x n, or tau, changed");
    const long long chunks = vect ? chunks_of(batch, (long long)m * n * es_of(&d)) : chunks_of(batch, 1);
    const long long orgqr_want = s && q == 1 ? 0 : chunks;
    if (ok && (host_spec_calls[HOST_ORGQR] != orgqr_want || shift_calls != (s ? chunks : 0) ||
               transpose_calls - before != (vect ? 2 * chunks : 0)))
        ok = 0, snprintf(why, sizeof why, "orgqr %d (want %lld), shifts %d, transposes %d for %lld chunks",
                         host_spec_calls[HOST_ORGQR], orgqr_want, shift_calls, transpose_calls - before, chunks);
    host_verdict(ok, "orgbr %c %c m=%d n=%d k=%d %s batch %lld: %s", prec, vect ? 'P' : 'Q', m, n, k,
                 array ? "array" : "strided", batch, why);
    free(u), free(Y), free(A), free(tau);
    release(&d);
}

/* m or n = 0: nothing touched; a P matrix above the workspace: NOT_SUPPORTED, nothing touched */
static void case_orgbr_edges(char prec, int array)
{
    call_data d;
    make(&d, prec, 0, 0, 0, 0, array, 1, 2, NULL, 0);
    shoal_lapack_params p = params(&d);
    int ok = shoal_driver_orgbr_qr(&g_ctx, prec, 0, &p) == SHOAL_STATUS_SUCCESS && outside_untouched(&d);
    release(&d);
    const int big = (int)(SHOAL_SOLVER_WS_BYTES / (40 * (size_t)shoal_spec_elem_bytes(prec))) + 1;
    make(&d, prec, 40, big, 0, 0, array, 1, 2, NULL, 0);
    p = params(&d);
    p.nrhs = 40;
    ok = ok && shoal_driver_orgbr_qr(&g_ctx, prec, 1, &p) == SHOAL_STATUS_NOT_SUPPORTED &&
         !memcmp(d.A, d.A0, d.a_elems * es_of(&d)) && !memcmp(d.B, d.B0, d.b_elems * es_of(&d));
    release(&d);
    host_verdict(ok, "orgbr edges %c %s: m = n = 0 touched something, or P above the workspace was not refused", prec,
                 array ? "array" : "strided");
}

/* ---- gels cases ---- */

static int g_cases_gels; /* full-rank problems judged */

/* batch good matrices */
static void case_gels(char prec, int m, int n, int nrhs, int trans, int array, long long batch)
{
    call_data d;
    make(&d, prec, m, n, nrhs, trans, array, 0, batch, NULL, 0);
    const long long per = ((m < n ? (long long)m * n : 0) + imin(m, n)) * es_of(&d);
    const shoal_status st = run_gels(&d);
    char why[240] = "";
    int ok = st == SHOAL_STATUS_SUCCESS;
    if (!ok) snprintf(why, sizeof why, "status %d", (int)st);
    for (long long b = 0; ok && b < batch; ++b) ok = judge_solution(&d, b, why, sizeof why), ++g_cases_gels;
    if (ok && !outside_untouched(&d)) ok = 0, snprintf(why, sizeof why, "an element outside A and B changed");
    const long long want = chunks_of(batch, per);
    if (ok && (geqrf_calls != want || geqrf_problems != batch))
        ok = 0, snprintf(why, sizeof why, "geqrf ran %d times on %lld problems, want %lld chunks of %lld", geqrf_calls,
                         geqrf_problems, want, batch);
    host_verdict(ok, "gels %c %s m=%d n=%d nrhs=%d %s batch %lld: %s", prec, trans_name(trans), m, n, nrhs,
                 array ? "array" : "strided", batch, why);
    release(&d);
}

/* matrix 1 rank deficient at j (zero column j for m >= n, zero row j for m < n: info j + 1),
 * matrix 3 zero (X = 0, info 0), the others good and bit for bit those of the twin call */
static void case_gels_special(char prec, int m, int n, int nrhs, int trans, int array, int j)
{
    const int special[5] = {0, 1, 0, 2, 0};
    call_data d, g;
    host_seed = 4242 + j;
    make(&d, prec, m, n, nrhs, trans, array, 0, 5, special, j);
    host_seed = 4242 + j;
    make(&g, prec, m, n, nrhs, trans, array, 0, 5, NULL, 0);
    const shoal_status st = run_gels(&d), st2 = run_gels(&g);
    char why[240] = "";
    int ok = st == SHOAL_STATUS_SUCCESS && st2 == SHOAL_STATUS_SUCCESS;
    if (!ok) snprintf(why, sizeof why, "status %d, twin %d", (int)st, (int)st2);
    for (long long b = 0; ok && b < 5; ++b) {
        if (special[b] == 0) {
            ok = judge_solution(&d, b, why, sizeof why) && same_problem(&d, &g, b);
            if (ok) continue;
            if (!why[0]) snprintf(why, sizeof why, "matrix %lld differs from the twin call's", b);
        } else if (special[b] == 1) {
            const double e = gram_error(&d, b);
            keep(&worst.gram, e);
            ok = d.info[b] == j + 1 && e <= LIMIT;
            if (!ok) snprintf(why, sizeof why, "rank-deficient matrix: info %d (want %d), Gram %.3g", d.info[b], j + 1, e);
        } else {
            ok = judge_zero(&d, b);
            if (!ok) snprintf(why, sizeof why, "zero matrix: info %d, A or X not zero", d.info[b]);
        }
    }
    if (ok && !outside_untouched(&d)) ok = 0, snprintf(why, sizeof why, "an element outside A and B changed");
    host_verdict(ok, "gels special %c %s m=%d n=%d nrhs=%d %s j=%d: %s", prec, trans_name(trans), m, n, nrhs,
                 array ? "array" : "strided", j, why);
    release(&d);
    release(&g);
}

/* m or n = 0: B's first max(m, n) rows zero, info 0, the rest (the rows' padding, the gaps)
 * untouched, A NULL; m = n = 0: success with NULL operands */
static void case_gels_empty(char prec, int m, int n, int nrhs, int trans, int array)
{
    call_data d;
    make(&d, prec, m, n, nrhs, trans, array, 0, 4, NULL, 0);
    const shoal_status st = run_gels(&d);
    int ok = st == SHOAL_STATUS_SUCCESS && geqrf_calls == 0;
    for (long long b = 0; ok && b < 4; ++b) {
        const char *x = b_of(&d, d.B, b);
        ok = d.info[b] == 0;
        for (int c = 0; c < nrhs; ++c)
            for (int i = 0; i < imax(m, n); ++i) ok = ok && host_get(prec, x, i + (long long)c * d.ldb) == 0.0;
    }
    ok = ok && outside_untouched(&d);
    shoal_lapack_params none = {0};
    none.nrhs = nrhs, none.lda = 1, none.ldb = 1, none.batch = 3;
    ok = ok && shoal_driver_gels_qr(&g_ctx, prec, trans ? 1 : 0, &none) == SHOAL_STATUS_SUCCESS; /* m = n = 0 */
    host_verdict(ok, "gels empty %c %s m=%d n=%d nrhs=%d %s: status %d, info or B wrong, or something else touched", prec,
                 trans_name(trans), m, n, nrhs, array ? "array" : "strided", (int)st);
    release(&d);
}

/* a wide matrix whose A^H and tau exceed the workspace: NOT_SUPPORTED, nothing touched */
static void case_gels_too_big(char prec, int array)
{
    const int m = 30, n = (int)(SHOAL_SOLVER_WS_BYTES / ((size_t)m * shoal_spec_elem_bytes(prec))) + 1;
    call_data d;
    make(&d, prec, m, n, 2, 0, array, 0, 2, NULL, 0);
    const shoal_status st = run_gels(&d);
    const int ok = st == SHOAL_STATUS_NOT_SUPPORTED && !memcmp(d.A, d.A0, d.a_elems * es_of(&d)) &&
                   !memcmp(d.B, d.B0, d.b_elems * es_of(&d)) && d.info[0] == -7 && d.info[1] == -7;
    host_verdict(ok, "gels above the workspace %c m=%d n=%d %s: status %d, or something touched", prec, m, n,
                 array ? "array" : "strided", (int)st);
    release(&d);
}

/* ---- gelqf cases ---- */

/* gelqf's checks of matrix b (see the top): zero_row >= 0 is a row made zero, -2 a zero matrix */
static int judge_lq(const call_data *d, long long b, int zero_row, char *why, size_t len)
{
    const char prec = d->prec, *a0 = a_of(d, d->A0, b), *f = a_of(d, d->A, b), *tau = b_of(d, d->B, b);
    const int m = d->m, n = d->n, k = imin(m, n), cx = shoal_spec_is_complex(prec), w = cx ? 2 : 1;
    const double eps = eps_of(prec), slack = 64 * eps;
    /* the conventions */
    for (int j = 0; j < k; ++j) {
        const zval t = host_get(prec, tau, j);
        if (cx && cimag(host_get(prec, f, j + (long long)j * d->lda)) != 0.0)
            return snprintf(why, len, "matrix %lld: L(%d, %d) not real", b, j, j), 0;
        if (t != 0.0 && !(creal(t) >= 1.0 - slack && creal(t) <= 2.0 + slack && cabs(t - 1.0) <= 1.0 + slack))
            return snprintf(why, len, "matrix %lld: tau %d = (%g, %g)", b, j, creal(t), cimag(t)), 0;
    }
    if (!cx && m >= n && host_get(prec, tau, k - 1) != 0.0)
        return snprintf(why, len, "matrix %lld: the last tau of an m >= n matrix not 0", b), 0;
    if (zero_row == -2) { /* a zero matrix: A zero, every tau 0 */
        for (int j = 0; j < k; ++j)
            if (host_get(prec, tau, j) != 0.0) return snprintf(why, len, "zero matrix: tau %d not 0", j), 0;
        for (int c = 0; c < n; ++c)
            for (int i = 0; i < m; ++i)
                if (host_get(prec, f, i + (long long)c * d->lda) != 0.0)
                    return snprintf(why, len, "zero matrix: A changed"), 0;
        return 1;
    }
    if (zero_row >= 0) {
        if (host_get(prec, tau, zero_row) != 0.0) return snprintf(why, len, "zero row %d: its tau not 0", zero_row), 0;
        for (int c = 0; c < n; ++c)
            if (host_get(prec, f, zero_row + (long long)c * d->lda) != 0.0)
                return snprintf(why, len, "zero row %d: element %d not 0", zero_row, c), 0;
    }
    /* P = H_1 ... H_k from v_j(i) = conj(A(j, i)), i > j; Q = P^H */
    double *V = calloc((size_t)w * n * k, sizeof *V), *T = calloc((size_t)w * k, sizeof *T);
    double *P = malloc(sizeof *P * w * (size_t)n * n);
    for (int j = 0; j < k; ++j) {
        const zval t = host_get(prec, tau, j);
        T[w * j] = creal(t);
        if (cx) T[w * j + 1] = cimag(t);
        for (int i = j + 1; i < n; ++i) {
            const zval v = conj(host_get(prec, f, j + (long long)i * d->lda));
            V[w * (i + (size_t)j * n)] = creal(v);
            if (cx) V[w * (i + (size_t)j * n) + 1] = cimag(v);
        }
    }
    (cx ? oracle_zform_q : oracle_form_q)(n, k, V, n, T, P);
#define PV(i, j) (P[w * ((i) + (size_t)(j) * n)] + (cx ? I * P[w * ((i) + (size_t)(j) * n) + 1] : 0.0))
    double na = 0.0, diff = 0.0, orth = 0.0;
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) {
            zval s = 0.0; /* (L Q)(i, c) = sum_l L(i, l) Q(l, c), Q(l, c) = conj(P(c, l)) */
            for (int l = 0; l <= imin(i, k - 1); ++l) s += host_get(prec, f, i + (long long)l * d->lda) * conj(PV(c, l));
            const zval a = host_get(prec, a0, i + (long long)c * d->lda);
            na += sq(a);
            diff += sq(a - s);
        }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            zval s = 0.0; /* (Q Q^H)(i, j) = (P^H P)(i, j) */
            for (int l = 0; l < n; ++l) s += conj(PV(l, i)) * PV(l, j);
            orth += sq(s - (i == j ? 1.0 : 0.0));
        }
#undef PV
    free(V), free(T), free(P);
    const double e1 = sqrt(diff) / (sqrt(na) * imax(m, n) * eps), e2 = sqrt(orth) / (n * eps);
    keep(&worst.lq, e1);
    keep(&worst.orth, e2);
    if (!(e1 <= LIMIT && e2 <= LIMIT))
        return snprintf(why, len, "matrix %lld: A - L Q %.3g, I - Q Q^H %.3g", b, e1, e2), 0;
    return 1;
}

static void case_gelqf(char prec, int m, int n, int array, long long batch)
{
    call_data d;
    make(&d, prec, m, n, 0, 0, array, 1, batch, NULL, 0);
    const shoal_status st = run_gelqf(&d);
    char why[240] = "";
    int ok = st == SHOAL_STATUS_SUCCESS;
    if (!ok) snprintf(why, sizeof why, "status %d", (int)st);
    for (long long b = 0; ok && b < batch; ++b) ok = judge_lq(&d, b, -1, why, sizeof why);
    if (ok && !outside_untouched(&d)) ok = 0, snprintf(why, sizeof why, "an element outside A and tau changed");
    const long long want = chunks_of(batch, (long long)m * n * es_of(&d));
    if (ok && (geqrf_calls != want || geqrf_problems != batch))
        ok = 0, snprintf(why, sizeof why, "geqrf ran %d times on %lld problems, want %lld chunks of %lld", geqrf_calls,
                         geqrf_problems, want, batch);
    host_verdict(ok, "gelqf %c m=%d n=%d %s batch %lld: %s", prec, m, n, array ? "array" : "strided", batch, why);
    release(&d);
}

/* matrix 1 with a zero row J - 1 = j, matrix 3 zero, the others bit for bit the twin call's */
static void case_gelqf_special(char prec, int m, int n, int array, int j)
{
    const int special[5] = {0, 1, 0, 2, 0};
    call_data d, g;
    host_seed = 977 + j;
    make(&d, prec, m, n, 0, 0, array, 1, 5, special, j);
    host_seed = 977 + j;
    make(&g, prec, m, n, 0, 0, array, 1, 5, NULL, 0);
    const shoal_status st = run_gelqf(&d), st2 = run_gelqf(&g);
    char why[240] = "";
    int ok = st == SHOAL_STATUS_SUCCESS && st2 == SHOAL_STATUS_SUCCESS;
    if (!ok) snprintf(why, sizeof why, "status %d, twin %d", (int)st, (int)st2);
    for (long long b = 0; ok && b < 5; ++b) {
        ok = judge_lq(&d, b, special[b] == 1 ? j : special[b] == 2 ? -2 : -1, why, sizeof why);
        if (ok && special[b] == 0 && !same_problem(&d, &g, b))
            ok = 0, snprintf(why, sizeof why, "matrix %lld differs from the twin call's", b);
    }
    if (ok && !outside_untouched(&d)) ok = 0, snprintf(why, sizeof why, "an element outside A and tau changed");
    host_verdict(ok, "gelqf special %c m=%d n=%d %s zero row %d: %s", prec, m, n, array ? "array" : "strided", j, why);
    release(&d);
    release(&g);
}

/* m or n = 0 (NULL A and tau): nothing touched; above the workspace: NOT_SUPPORTED, nothing
 * touched */
static void case_gelqf_edges(char prec, int array)
{
    call_data d;
    make(&d, prec, 0, 6, 0, 0, array, 1, 3, NULL, 0);
    int ok = run_gelqf(&d) == SHOAL_STATUS_SUCCESS && outside_untouched(&d) && geqrf_calls == 0;
    release(&d);
    make(&d, prec, 6, 0, 0, 0, array, 1, 3, NULL, 0);
    ok = ok && run_gelqf(&d) == SHOAL_STATUS_SUCCESS && outside_untouched(&d) && geqrf_calls == 0;
    release(&d);
    const int big = (int)(SHOAL_SOLVER_WS_BYTES / (40 * (size_t)shoal_spec_elem_bytes(prec))) + 1; /* 40 x big: past it */
    make(&d, prec, 40, big, 0, 0, array, 1, 2, NULL, 0);
    ok = ok && run_gelqf(&d) == SHOAL_STATUS_NOT_SUPPORTED && !memcmp(d.A, d.A0, d.a_elems * es_of(&d)) &&
         !memcmp(d.B, d.B0, d.b_elems * es_of(&d));
    release(&d);
    host_verdict(ok, "gelqf edges %c %s: m or n = 0 touched something, or the matrix above the workspace was not refused",
                 prec, array ? "array" : "strided");
}

/* ---- the run ---- */

int main(void)
{
    host_context(&g_ctx);
    g_ctx.solver_ws = g_solver_ws;
    memset(g_solver_ws + SHOAL_SOLVER_WS_BYTES, GUARD_BYTE, WS_GUARD);
    const char precs[] = "sdcz";
    /* tall, square, wide (far from square: op(A) of the minimum-norm solves well conditioned),
     * a column and a row */
    static const int shapes[][2] = {{24, 10}, {12, 12}, {10, 24}, {40, 30}, {16, 40}, {7, 1}, {1, 6}};
    const int n_shapes = (int)(sizeof shapes / sizeof shapes[0]);
    for (int pi = 0; pi < 4; ++pi) {
        const char prec = precs[pi];
        const int n_trans = shoal_spec_is_complex(prec) ? 3 : 2;
        for (int array = 0; array < 2; ++array) {
            for (int trans = 0; trans < n_trans; ++trans)
                for (int si = 0; si < n_shapes; ++si)
                    for (int nrhs = 1; nrhs <= 3; nrhs += 2) {
                        const int m = shapes[si][0], n = shapes[si][1];
                        case_gels(prec, m, n, nrhs, trans, array, si % 2 ? 5 : 4);
                    }
            for (int trans = 0; trans < n_trans; ++trans) {
                case_gels_special(prec, 20, 8, 2, trans, array, 1);   /* tall: zero column 1 */
                case_gels_special(prec, 20, 8, 2, trans, array, 7);   /* the last */
                case_gels_special(prec, 9, 9, 1, trans, array, 4);    /* square, a middle one */
                case_gels_special(prec, 8, 20, 2, trans, array, 1);   /* wide: zero row 1 */
                case_gels_special(prec, 8, 20, 3, trans, array, 7);   /* the last */
                case_gels_special(prec, 12, 30, 1, trans, array, 0);  /* the first */
                case_gels_special(prec, 36, 12, 2, trans, array, 5);  /* above the small solve's rows */
                case_gels_special(prec, 10, 36, 1, trans, array, 3);
                case_gels_empty(prec, 0, 5, 2, trans, array);
                case_gels_empty(prec, 5, 0, 3, trans, array);
            }
            case_gels_too_big(prec, array);
            for (int si = 0; si < n_shapes; ++si) case_gelqf(prec, shapes[si][0], shapes[si][1], array, si % 2 ? 5 : 4);
            case_gelqf(prec, 20, 40, array, 1);
            case_gelqf_special(prec, 10, 24, array, 0);
            case_gelqf_special(prec, 10, 24, array, 9);
            case_gelqf_special(prec, 24, 10, array, 4);
            case_gelqf_special(prec, 12, 12, array, 11);
            case_gelqf_edges(prec, array);
            /* orgbr: each of LAPACK's four layouts, k = 0, a 1 x 1 shifted Q, P's chunks by the
             * workspace (30 x 30 in z: one problem a chunk) */
            static const int qs[][3] = {{7, 4, 4}, {9, 5, 3}, {6, 6, 6}, {5, 1, 1}, {4, 3, 0}, {5, 5, 8}, {1, 1, 3},
                                        {10, 10, 30}};
            static const int ps[][3] = {{4, 7, 4}, {3, 8, 2}, {1, 5, 1}, {3, 4, 0}, {6, 6, 6}, {5, 5, 9}, {1, 1, 1},
                                        {30, 30, 40}};
            for (int i = 0; i < 8; ++i) {
                case_orgbr(prec, 0, qs[i][0], qs[i][1], qs[i][2], array, i % 2 ? 5 : 4);
                case_orgbr(prec, 1, ps[i][0], ps[i][1], ps[i][2], array, i % 2 ? 5 : 4);
            }
            case_orgbr_edges(prec, array);
        }
    }
    /* every step ran where it should, and some chunks held one problem */
    const int steps_ok = host_spec_calls[HOST_TRSM] > 0 && host_spec_calls[HOST_ORMQR] > 0 && transpose_calls > 0 &&
                         info_calls > 0 && rows_calls[SHOAL_ROWS_ZERO] > 0 && rows_calls[SHOAL_ROWS_CONJ] > 0 &&
                         rows_only_calls > 0 && memset_calls > 0 && host_block_pointer_launches > 0 &&
                         one_problem_chunks > 0 && small_calls > 0 && bad_step_calls == 0;
    /* (orgbr's cases judge their own ORGQR, shift and transpose counts) */
    host_verdict(steps_ok, "steps: TRSM %d, ORMQR %d, transposes %d, info %d, rows %d / %d (only %d), memsets %d, "
                           "pointer launches %d, one-problem chunks %d, small solves %d, refused steps %d, "
                           "GEMM steps %d",
                 host_spec_calls[HOST_TRSM], host_spec_calls[HOST_ORMQR], transpose_calls, info_calls,
                 rows_calls[SHOAL_ROWS_ZERO], rows_calls[SHOAL_ROWS_CONJ], rows_only_calls, memset_calls,
                 host_block_pointer_launches, one_problem_chunks, small_calls, bad_step_calls, host_gemm_calls);
    printf("largest errors (limit %g): normal equations %.3g, residual rows %.3g, minimum-norm residual %.3g, row space "
           "%.3g, Gram %.3g, A - L Q %.3g, I - Q Q^H %.3g (%d full-rank gels problems)\n",
           LIMIT, worst.normal, worst.rows, worst.resid, worst.rowspace, worst.gram, worst.lq, worst.orth, g_cases_gels);
    return host_report();
}
