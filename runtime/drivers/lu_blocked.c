/* LU with partial pivoting above the kernels' n = 32, recursive (LAPACK's getrf2, the recursive
 * nested panels of seed paper 003): the columns [k, k + t) of a chunk's matrices, on the rows
 * [k, m), the columns left of k already applied to them,
 *   - t <= W: one panel, (m - k) x t, by the getrf dispatch (the tall-panel kernels above 32 rows,
 *     the regs kernels within 32, never the vendor); its pivots count from its first row, so they
 *     are shifted by k, and its info is merged as the first zero pivot of the whole matrix;
 *   - else, split at t1 = half of t rounded up to a multiple of W:
 *     1. the left columns [k, k + t1) the same way;
 *     2. their row interchanges applied to the right columns [k + t1, k + t) (laswp);
 *     3. A12 = L11^-1 A12 (the dispatched TRSM, left, lower, unit diagonal);
 *     4. A22 -= A21 A12 (the dispatched GEMM);
 *     5. the right columns the same way, on the rows [k + t1, m);
 *     6. their row interchanges applied to the left columns [k, k + t1) (laswp).
 * Halving keeps most flops in few large GEMMs and moves the trailing matrix O(log n) times.
 * W, the panel width: the widest of 32, 16 and 8 whose panel of m - k rows fits 256 threads with
 * at most 128 registers of rows each (the tall design's fallbacks are those kernels, so an
 * untuned device has one for every panel: search_space/getrf.toml), and 64 where the panel has
 * at most 128 rows (s, d, c). A square matrix of 33..64 is so one launch of a tall kernel, with
 * no interchange, TRSM or GEMM launches. Not above 128 rows: per flop the 64-column kernels run
 * at about 55-60% of the 32-column ones (their rows take twice the registers), which a larger
 * matrix does not win back in launches (docs/experiments.md: both rules measured).
 * A wide matrix (m < n) factors its first m columns so, then applies their interchanges to the
 * rest and solves U12 = L11^-1 A12 (LAPACK's getrf). An exactly zero pivot is recorded and the
 * factorization goes on, as LAPACK's; no other matrix is touched.
 * getrs: B's rows interchanged, then two TRSMs (op N), or the two transposed TRSMs and the
 * interchanges backward (op T, C). gesv = getrf then getrs. getri: info from U's diagonal, C = I
 * (all NaN where U is singular), then getrs on C.
 * spec/routines/{getrf,getrs,gesv,getri}.toml name these drivers (runtime/lapack_drivers.h). */
#include "lapack_routines.h"
#include "lapack_run.h"
#include "lapack_steps.h"
#include "lu_steps.h"
#include "spec_run.h"

enum { LEFT = 0, LOWER = 0, UPPER = 1, OP_N = 0, NON_UNIT = 0, UNIT = 1, FORWARD = 0, BACKWARD = 1 };
enum { WIDE_PANEL = 64, WIDE_PANEL_MAX_ROWS = 128 };

/* The widest panel the rule may take (a build-time constant: 64; 32 builds the rule of the first
 * blocked LU, which the host test checks too) */
#ifndef SHOAL_LU_WIDEST_PANEL
#define SHOAL_LU_WIDEST_PANEL WIDE_PANEL
#endif

#define OK SHOAL_STATUS_SUCCESS

static shoal_status cuda(cudaError_t e)
{
    return e == cudaSuccess ? OK : SHOAL_STATUS_CUDA_ERROR;
}

/* The panel width for `rows` rows (see the file's comment). */
static int panel_width(char prec, int rows)
{
    const int elem = (int)shoal_spec_elem_bytes(prec);
    if (SHOAL_LU_WIDEST_PANEL >= WIDE_PANEL && rows <= WIDE_PANEL_MAX_ROWS && WIDE_PANEL * elem <= SHOAL_LAPACK_TALL_ROW_BYTES)
        return WIDE_PANEL;
    return shoal_lapack_tall_width(elem, rows);
}

static shoal_lu_rows rows_of(const shoal_lapack_params *p, int which, int rows)
{
    const int b = which == SHOAL_LAPACK_OPERAND_B;
    const shoal_lu_rows x = {b ? p->B : p->A, b ? p->B_array : p->A_array, b ? p->ldb : p->lda,
                             b ? p->stride_b : p->stride_a, rows};
    return x;
}

/* Row interchanges k1 .. k2 - 1 on the columns [c0, c0 + nc) of A */
static shoal_status swap_a(struct shoal_context *ctx, char prec, const shoal_lapack_params *p, int c0, int nc, int k1,
                           int k2)
{
    return cuda(shoal_lu_laswp((int)shoal_spec_elem_bytes(prec), rows_of(p, SHOAL_LAPACK_OPERAND_A, p->m), p->ipiv,
                               p->stride_ipiv, p->batch, c0, nc, k1, k2, FORWARD, ctx->stream));
}

/* The panel of columns [k, k + t), rows [k, m) */
static shoal_status panel(struct shoal_context *ctx, char prec, const shoal_lapack_params *p, int k, int t)
{
    shoal_operand a;
    shoal_status st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k, k, 0, &a));
    if (st != OK) return st;
    shoal_lapack_params q = *p;
    q.m = p->m - k;
    q.n = t;
    q.A = a.ptr;
    q.A_array = a.array;
    q.ipiv = p->ipiv + k;
    q.info = k == 0 ? p->info : ctx->step_info;
    if ((st = shoal_lapack_run_kernel(ctx, SHOAL_GETRF, prec, 0, &q, 0)) != OK || k == 0) return st;
    return cuda(shoal_lu_panel_merge(p->ipiv, p->stride_ipiv, p->info, ctx->step_info, p->batch, k, t, ctx->stream));
}

static shoal_status factor_cols(struct shoal_context *ctx, char prec, const shoal_lapack_params *p, int k, int t)
{
    const int w = panel_width(prec, p->m - k);
    if (t <= w) return panel(ctx, prec, p, k, t);
    const int t1 = w * ((t + 2 * w - 1) / (2 * w)), t2 = t - t1, below = p->m - k - t1;
    shoal_status st = factor_cols(ctx, prec, p, k, t1);
    if (st != OK || (st = swap_a(ctx, prec, p, k + t1, t2, k, k + t1)) != OK) return st;
    shoal_operand a11, a12, a21, a22;
    if ((st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k, k, 0, &a11))) != OK ||
        (st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k, k + t1, 1, &a12))) != OK ||
        (st = shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, LOWER, OP_N, UNIT, t1, t2, a11, a12)) != OK)
        return st;
    /* slot 1 (A12) is kept; A21 and A22 take slots 0 and 2 once the TRSM has read A11 */
    if ((st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k + t1, k, 0, &a21))) != OK ||
        (st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k + t1, k + t1, 2, &a22))) != OK ||
        (st = shoal_lapack_step_gemm(ctx, prec, p->batch, below, t2, t1, a21, a12, a22)) != OK ||
        (st = factor_cols(ctx, prec, p, k + t1, t2)) != OK)
        return st;
    return swap_a(ctx, prec, p, k, t1, k + t1, k + t);
}

/* One chunk: the first min(m, n) columns, then a wide matrix's rest: U12 = L11^-1 P A12 */
static shoal_status factor_chunk(struct shoal_context *ctx, char prec, const shoal_lapack_params *p)
{
    const int mn = p->m < p->n ? p->m : p->n;
    shoal_status st = factor_cols(ctx, prec, p, 0, mn);
    if (st != OK || p->n <= mn) return st;
    if ((st = swap_a(ctx, prec, p, mn, p->n - mn, 0, mn)) != OK) return st;
    shoal_operand a11, a12;
    if ((st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, 0, 0, 0, &a11))) != OK ||
        (st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, 0, mn, 1, &a12))) != OK)
        return st;
    return shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, LOWER, OP_N, UNIT, mn, p->n - mn, a11, a12);
}

static shoal_status factor(struct shoal_context *ctx, char prec, const shoal_lapack_params *p)
{
    for (long long b0 = 0; b0 < p->batch; b0 += SHOAL_LAPACK_CHUNK) {
        const shoal_lapack_params c = shoal_lapack_chunk_at(prec, p, b0);
        const shoal_status st = factor_chunk(ctx, prec, &c);
        if (st != OK) return st;
    }
    return OK;
}

/* B's rows interchanged by all n pivots (backward: in reverse order), chunk by chunk (a launch
 * takes one chunk's problems at most) */
static shoal_status swap_b(struct shoal_context *ctx, char prec, const shoal_lapack_params *p, int backward)
{
    const int elem = (int)shoal_spec_elem_bytes(prec);
    for (long long b0 = 0; b0 < p->batch; b0 += SHOAL_LAPACK_CHUNK) {
        const shoal_lapack_params c = shoal_lapack_chunk_at(prec, p, b0);
        const shoal_status st = cuda(shoal_lu_laswp(elem, rows_of(&c, SHOAL_LAPACK_OPERAND_B, c.n), c.ipiv,
                                                    c.stride_ipiv, c.batch, 0, c.nrhs, 0, c.n, backward, ctx->stream));
        if (st != OK) return st;
    }
    return OK;
}

/* op(A) X = B from the factors P L U: op N: X = U^-1 L^-1 P^T B; op T / C: X = P L^-H U^-H B, the
 * interchanges applied backward. The TRSMs take the whole operands (no pointer array rewritten;
 * TRSM chunks its own batch). */
static shoal_status solve(struct shoal_context *ctx, char prec, int op, const shoal_lapack_params *p)
{
    shoal_operand a, b;
    if (cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, 0, 0, 0, &a)) != OK ||
        cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_B, 0, 0, 0, &b)) != OK)
        return SHOAL_STATUS_CUDA_ERROR;
    shoal_status st = op == OP_N ? swap_b(ctx, prec, p, FORWARD) : OK;
    if (st != OK) return st;
    st = op == OP_N ? shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, LOWER, OP_N, UNIT, p->n, p->nrhs, a, b)
                    : shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, UPPER, op, NON_UNIT, p->n, p->nrhs, a, b);
    if (st != OK) return st;
    st = op == OP_N ? shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, UPPER, OP_N, NON_UNIT, p->n, p->nrhs, a, b)
                    : shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, LOWER, op, UNIT, p->n, p->nrhs, a, b);
    return st != OK || op == OP_N ? st : swap_b(ctx, prec, p, BACKWARD);
}

/* getrs's variant: the index of trans's letter (n, t; c and z serve op C as t with p->conj) */
static int op_of(char prec, int variant, const shoal_lapack_params *p)
{
    if (variant == 0) return OP_N;
    return shoal_spec_is_complex(prec) && p->conj ? 2 : 1;
}

shoal_status shoal_driver_getrf_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    (void)variant;
    return factor(ctx, prec, p);
}

shoal_status shoal_driver_getrs_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    return solve(ctx, prec, op_of(prec, variant, p), p);
}

/* Where info_i > 0 the solve still runs on B_i (one batched step for all), so B_i holds
 * intermediate values, unlike the kernels' gesv (n <= 32), which leaves it unchanged: the
 * spec's notes say so. */
shoal_status shoal_driver_gesv_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    (void)variant;
    const shoal_status st = factor(ctx, prec, p);
    return st != OK ? st : solve(ctx, prec, OP_N, p);
}

/* C = inv(A) = U^-1 L^-1 P^T: C = I (or NaN), then the op-N solve on C (nrhs = n). */
shoal_status shoal_driver_getri_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    (void)variant;
    const int elem = (int)shoal_spec_elem_bytes(prec);
    for (long long b0 = 0; b0 < p->batch; b0 += SHOAL_LAPACK_CHUNK) {
        const shoal_lapack_params c = shoal_lapack_chunk_at(prec, p, b0);
        const shoal_status st = cuda(shoal_lu_inverse_start(elem, shoal_spec_is_complex(prec), rows_of(&c, SHOAL_LAPACK_OPERAND_A, c.n),
                                                            rows_of(&c, SHOAL_LAPACK_OPERAND_B, c.n), c.info, c.batch,
                                                            ctx->stream));
        if (st != OK) return st;
    }
    shoal_lapack_params q = *p;
    q.nrhs = p->n;
    return solve(ctx, prec, OP_N, &q);
}
