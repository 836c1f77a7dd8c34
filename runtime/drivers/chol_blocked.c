/* Cholesky above the kernels' n = 32, recursive (the nested blocking of LAPACK's potrf2 and of
 * seed paper 003): the matrix [A11 A12; A21 A22] split at n1 = half of n rounded up to a multiple
 * of 32,
 *   1. A11 factored the same way (down to blocks of at most 32: the tuned n <= 32 potrf kernels,
 *      never the vendor);
 *   2. the panel: lower A21 = A21 L11^-H (TRSM from the right), upper A12 = U11^-H A12 (from the
 *      left), by the dispatched TRSM;
 *   3. the trailing matrix: lower A22 -= A21 A21^H, upper A22 -= A12^H A12, on its stored
 *      triangle only, by the dispatched SYRK (s, d) or HERK (c, z);
 *   4. A22 factored the same way.
 * Halving keeps most flops in few large TRSM and SYRK steps (whose own drivers turn them into
 * large batched GEMMs) and moves the trailing matrix O(log n) times instead of n / 32 times as a
 * right-looking sweep of 32-wide block columns would (the same recursion with n1 = 32).
 * Each step is one batched call over the chunk's problems. A block's info (the failing column
 * within it) is merged into the call's as the first failure in the whole matrix (LAPACK's info);
 * a failed matrix goes on being updated by later steps, like every other, so its trailing part
 * holds intermediate values (as the spec's notes say) and no other matrix is touched.
 * potrs is the two triangular solves by TRSM on the whole matrices; posv is potrf then potrs.
 * spec/routines/{potrf,potrs,posv}.toml name these drivers (runtime/lapack_drivers.h). */
#include "lapack_routines.h"
#include "lapack_run.h"
#include "lapack_steps.h"

enum { NB = 32 }; /* the leaves: the potrf kernels' largest n, and the split's granule */
enum { LEFT = 0, RIGHT = 1, LOWER = 0, UPPER = 1, OP_N = 0, NON_UNIT = 0 };

#define OK SHOAL_STATUS_SUCCESS

static shoal_status cuda(cudaError_t e)
{
    return e == cudaSuccess ? OK : SHOAL_STATUS_CUDA_ERROR;
}

/* The diagonal block [k, k + kb), kb <= NB, by the kernels; the first block's info is the
 * matrix's, the later ones' are merged into it. */
static shoal_status leaf(struct shoal_context *ctx, char prec, int upper, const shoal_lapack_params *p, int k, int kb)
{
    shoal_operand a11;
    shoal_status st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k, k, 0, &a11));
    if (st != OK) return st;
    shoal_lapack_params q = *p;
    q.m = q.n = kb;
    q.A = a11.ptr;
    q.A_array = a11.array;
    q.info = k == 0 ? p->info : ctx->step_info;
    if ((st = shoal_lapack_run_kernel(ctx, SHOAL_POTRF, prec, upper, &q, 0)) != OK) return st;
    return k == 0 ? OK : cuda(shoal_info_merge(p->info, ctx->step_info, p->batch, k, ctx->stream));
}

/* The diagonal block [k, k + t) of one chunk, its leading part already updated by the columns
 * before k. */
static shoal_status factor_block(struct shoal_context *ctx, char prec, int upper, const shoal_lapack_params *p,
                                 int k, int t)
{
    if (t <= NB) return leaf(ctx, prec, upper, p, k, t);
    const int t1 = NB * ((t + 2 * NB - 1) / (2 * NB)), t2 = t - t1; /* half, up to a multiple of NB */
    shoal_status st = factor_block(ctx, prec, upper, p, k, t1);
    if (st != OK) return st;
    /* the panel beside or below A11; A11 in slot 0, rewritten after its readers by stream order */
    shoal_operand a11, panel, a22;
    const long long pr = upper ? k : k + t1, pc = upper ? k + t1 : k;
    if ((st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k, k, 0, &a11))) != OK ||
        (st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, pr, pc, 1, &panel))) != OK)
        return st;
    const int op_h = shoal_lapack_op_h(prec);
    st = upper ? shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, UPPER, op_h, NON_UNIT, t1, t2, a11, panel)
               : shoal_lapack_step_trsm(ctx, prec, p->batch, RIGHT, LOWER, op_h, NON_UNIT, t2, t1, a11, panel);
    if (st != OK) return st;
    if ((st = cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, k + t1, k + t1, 0, &a22))) != OK) return st;
    if ((st = shoal_lapack_step_rank_k(ctx, prec, p->batch, upper, upper ? 1 : 0, t2, t1, panel, a22)) != OK) return st;
    return factor_block(ctx, prec, upper, p, k + t1, t2);
}

static shoal_status factor(struct shoal_context *ctx, char prec, int upper, const shoal_lapack_params *p)
{
    for (long long b0 = 0; b0 < p->batch; b0 += SHOAL_LAPACK_CHUNK) {
        const shoal_lapack_params c = shoal_lapack_chunk_at(prec, p, b0);
        const shoal_status st = factor_block(ctx, prec, upper, &c, 0, p->n);
        if (st != OK) return st;
    }
    return OK;
}

/* A X = B from the factor: lower L L^H: L Y = B, L^H X = Y; upper U^H U: U^H Y = B, U X = Y. The
 * whole operands, so no pointer array is rewritten and no chunk is needed (TRSM chunks its own). */
static shoal_status solve(struct shoal_context *ctx, char prec, int upper, const shoal_lapack_params *p)
{
    shoal_operand a, b;
    if (cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_A, 0, 0, 0, &a)) != OK ||
        cuda(shoal_lapack_sub(ctx, prec, p, SHOAL_LAPACK_OPERAND_B, 0, 0, 0, &b)) != OK)
        return SHOAL_STATUS_CUDA_ERROR;
    const int op_h = shoal_lapack_op_h(prec);
    const shoal_status st = shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, upper, upper ? op_h : OP_N, NON_UNIT, p->n,
                                                   p->nrhs, a, b);
    if (st != OK) return st;
    return shoal_lapack_step_trsm(ctx, prec, p->batch, LEFT, upper, upper ? OP_N : op_h, NON_UNIT, p->n, p->nrhs, a, b);
}

/* variant: the uplo index (0 lower, 1 upper), as the specs' `variant = "uplo"` makes it */
shoal_status shoal_driver_potrf_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    return factor(ctx, prec, variant, p);
}

shoal_status shoal_driver_potrs_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    return solve(ctx, prec, variant, p);
}

/* Where info_i > 0 the solve still runs on B_i (one batched step for all), so B_i holds
 * intermediate values, unlike the kernels' posv (n <= 32), which leaves it unchanged: the
 * spec's notes say so. */
shoal_status shoal_driver_posv_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    const shoal_status st = factor(ctx, prec, variant, p);
    return st != OK ? st : solve(ctx, prec, variant, p);
}
