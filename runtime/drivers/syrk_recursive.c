/* SYRK for n the kernels do not take: C's stored triangle split by recursive halving at
 * multiples of the leaf size, taken level by level so that each level is one batched step. With
 * leaf blocks 0..T-1, the block pair (I, J), I > J, lies in the off-diagonal block of level l
 * where I and J first differ in bit l: at level l (half size h = leaf 2^l) the groups of 2h
 * rows and columns starting at s0 = 2h g couple op(A)'s rows [s0, s0 + h) and
 * [s0 + h, min(n, s0 + 2h)). Every full group of a level is one GEMM problem of h x h x k (all
 * groups of all problems in one batched GEMM), the last, partial group one more; the diagonal
 * leaf blocks are one batched launch of the SYRK kernels (and one for a partial last leaf).
 * The other triangle is never touched. spec/routines/syrk.toml names this driver, and
 * spec/routines/herk.toml its Hermitian form (c, z): the same blocks, the diagonal ones by the
 * HERK kernels, the off-diagonal ones by complex GEMM with op C in place of T (alpha and beta
 * real). */
#include "driver_steps.h"

enum { A_ = 0, C_ = 1 };       /* operand order of the spec */
enum { UPLO_, TRANS_ };        /* option order of the spec */

typedef struct syrk_job {
    struct shoal_context *ctx;
    const shoal_spec_call *c;  /* one batch chunk */
    int upper, trans, k;
    int herm;                  /* HERK: op C where SYRK has T */
} syrk_job;

/* Rows [s, ...) of op(A), the next group `step` rows on: rows of A (N) or columns (T). */
static shoal_block_grid a_rows(const syrk_job *j, long long s, long long step)
{
    const shoal_block_grid g = {A_, j->trans ? 0 : s, j->trans ? s : 0, j->trans ? 0 : step, j->trans ? step : 0};
    return g;
}

/* The chunk's call over its problems' `groups` blocks each, in the form the blocks came in. */
static shoal_spec_call over_blocks(const syrk_job *j, const shoal_operand *blocks, long long groups)
{
    shoal_spec_call s = *j->c;
    s.p.batch *= groups;
    s.mode = blocks[0].array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    return s;
}

/* `groups` diagonal blocks of order nb, at s0 + g nb, by the SYRK kernels. */
static shoal_status diagonal(const syrk_job *j, long long s0, int nb, long long groups)
{
    const shoal_block_grid grid[2] = {a_rows(j, s0, nb), {C_, s0, s0, nb, nb}};
    shoal_operand blk[2];
    if (shoal_driver_blocks(j->ctx, j->c, grid, 2, groups, blk) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    shoal_spec_call s = over_blocks(j, blk, groups);
    s.p.dims[0] = nb;
    s.p.op[A_] = blk[0];
    s.p.op[C_] = blk[1];
    return shoal_spec_run_kernel(j->ctx, &s);
}

/* `groups` off-diagonal blocks of level h from s0 on (groups 2h apart), the second half's rows
 * `rows` (h, or fewer for a partial group). lower: C21 = alpha op(A)2 op(A)1^T + beta C21;
 * upper: C12 = alpha op(A)1 op(A)2^T + beta C12. */
static shoal_status coupling(const syrk_job *j, long long s0, long long h, int rows, long long groups)
{
    const long long first = j->upper ? s0 : s0 + h, second = j->upper ? s0 + h : s0;
    const shoal_block_grid grid[3] = {a_rows(j, first, 2 * h), a_rows(j, second, 2 * h),
                                      {C_, first, second, 2 * h, 2 * h}};
    shoal_operand blk[3];
    if (shoal_driver_blocks(j->ctx, j->c, grid, 3, groups, blk) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    const shoal_spec_call s = over_blocks(j, blk, groups);
    const int m = j->upper ? (int)h : rows, n = j->upper ? rows : (int)h;
    if (j->herm) {
        /* C_ij = alpha op(A)_i op(A)_j^H + beta C_ij: op(A) = A (N) reads A_i as it is and A_j
         * conjugate transposed; op(A) = A^H (C) the other way round */
        const shoal_driver_scalar alpha = {j->c->p.alpha, 0.0}, beta = {j->c->p.beta, 0.0};
        return shoal_driver_gemm_complex(j->ctx, &s, j->trans ? 2 : 0, j->trans ? 0 : 2, m, n, j->k, alpha, blk[0],
                                         blk[1], beta, blk[2]);
    }
    return shoal_driver_gemm(j->ctx, &s, j->trans, !j->trans, m, n, j->k, j->c->p.alpha, blk[0], blk[1],
                             j->c->p.beta, blk[2]);
}

static shoal_status update(const syrk_job *j, int n, int leaf)
{
    shoal_status st = SHOAL_STATUS_SUCCESS;
    for (long long h = leaf; h < n && st == SHOAL_STATUS_SUCCESS; h *= 2) {
        const long long full = n / (2 * h), s0 = full * 2 * h;
        if (full > 0) st = coupling(j, 0, h, (int)h, full);
        if (st == SHOAL_STATUS_SUCCESS && s0 + h < n) st = coupling(j, s0, h, (int)(n - s0 - h), 1);
    }
    const long long leaves = n / leaf, rest = n - leaves * leaf;
    if (st == SHOAL_STATUS_SUCCESS && leaves > 0) st = diagonal(j, 0, leaf, leaves);
    if (st == SHOAL_STATUS_SUCCESS && rest > 0) st = diagonal(j, leaves * leaf, (int)rest, 1);
    return st;
}

static shoal_status recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf, int herm)
{
    if (leaf < 1) return SHOAL_STATUS_INVALID_VALUE;
    const int n = c->p.dims[0];
    /* the most blocks of one problem in a step: the full leaves */
    const long long per = n / leaf > 1 ? n / leaf : 1, chunk = SHOAL_WS_POINTERS / per;
    for (long long b0 = 0; b0 < c->p.batch; b0 += chunk) {
        const long long nb = c->p.batch - b0 < chunk ? c->p.batch - b0 : chunk;
        const shoal_spec_call part = shoal_driver_chunk(c, b0, nb);
        const syrk_job j = {ctx, &part, c->p.opts[UPLO_], c->p.opts[TRANS_], c->p.dims[1], herm};
        const shoal_status st = update(&j, n, leaf);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_driver_syrk_recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf)
{
    return recursive(ctx, c, leaf, 0);
}

shoal_status shoal_driver_herk_recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf)
{
    return recursive(ctx, c, leaf, 1);
}
