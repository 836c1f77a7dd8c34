/* TRSM for triangles the kernels do not take: recursive halving of the triangle (at multiples
 * of the leaf size), the solves of the halves by the TRSM kernels, the coupling block by the
 * dispatched GEMM (the panel/update split of blocked LAPACK, applied recursively so that most
 * flops land in few large GEMMs). spec/routines/trsm.toml names this driver.
 * Complex precisions: scalars carry imaginary parts, trans = C reaches the leaves as it is (the
 * kernels solve with A^H) and the coupling GEMM as op C (shoal_driver_gemm_complex). */
#include "driver_steps.h"

enum { A_ = 0, B_ = 1 };       /* operand order of the spec */
enum { SIDE_, UPLO_, TRANS_ }; /* option order of the spec */

typedef struct trsm_job {
    struct shoal_context *ctx;
    const shoal_spec_call *c;  /* one batch chunk */
    int leaf;
    int left, lower_op;        /* op(A) lower triangular: (lower, N) or (upper, T) */
    int r;                     /* right-hand-side vectors: columns (left) or rows (right) of B */
} trsm_job;

/* B's block of the triangle rows [t0, t0 + t): rows of B (left) or columns (right). */
static cudaError_t b_block(const trsm_job *j, long long t0, int slot, shoal_operand *out)
{
    return j->left ? shoal_driver_sub(j->ctx, j->c, B_, t0, 0, slot, out)
                   : shoal_driver_sub(j->ctx, j->c, B_, 0, t0, slot, out);
}

static shoal_status leaf_solve(const trsm_job *j, long long t0, int t, shoal_driver_scalar alpha)
{
    shoal_spec_call s = *j->c;
    s.p.alpha = alpha.re;
    s.p.alpha_im = alpha.im;
    if (j->left) s.p.dims[0] = t;
    else s.p.dims[1] = t;
    if (shoal_driver_sub(j->ctx, j->c, A_, t0, t0, 0, &s.p.op[A_]) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    if (b_block(j, t0, 1, &s.p.op[B_]) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;
    return shoal_spec_run_kernel(j->ctx, &s);
}

/* The off-diagonal block of op(A) coupling the halves, as GEMM's operand and transposition:
 * lower op(A): L21 (t2 x t1), upper op(A): U12 (t1 x t2). Stored as A21 (lower) or A12 (upper);
 * a transposed op reads the other one transposed. */
static cudaError_t coupling(const trsm_job *j, long long t0, int t1, int slot, shoal_operand *out, int *trans)
{
    const int upper_stored = j->c->p.opts[UPLO_];
    *trans = j->c->p.opts[TRANS_];
    return upper_stored ? shoal_driver_sub(j->ctx, j->c, A_, t0, t0 + t1, slot, out)
                        : shoal_driver_sub(j->ctx, j->c, A_, t0 + t1, t0, slot, out);
}

static shoal_status solve(const trsm_job *j, long long t0, int t, shoal_driver_scalar alpha)
{
    if (t <= j->leaf) return leaf_solve(j, t0, t, alpha);
    const int blocks = (t + j->leaf - 1) / j->leaf;
    const int t1 = j->leaf * ((blocks + 1) / 2), t2 = t - t1;
    /* forward order when the first half is solved first: left with lower op(A), right with upper */
    const int first_half_first = j->left == j->lower_op;
    const long long done0 = first_half_first ? t0 : t0 + t1, next0 = first_half_first ? t0 + t1 : t0;
    const int done_t = first_half_first ? t1 : t2, next_t = first_half_first ? t2 : t1;
    shoal_status st = solve(j, done0, done_t, alpha);
    if (st != SHOAL_STATUS_SUCCESS) return st;
    /* B_next = alpha B_next - (coupling) X_done, on the proper side */
    shoal_operand Ac, Xd, Bn;
    int ta = 0;
    if (coupling(j, t0, t1, 0, &Ac, &ta) != cudaSuccess || b_block(j, done0, 1, &Xd) != cudaSuccess ||
        b_block(j, next0, 2, &Bn) != cudaSuccess)
        return SHOAL_STATUS_CUDA_ERROR;
    const shoal_driver_scalar minus_one = {-1.0, 0.0}, one = {1.0, 0.0};
    if (j->left)
        st = shoal_driver_gemm_any(j->ctx, j->c, ta, 0, next_t, j->r, done_t, minus_one, Ac, Xd, alpha, Bn);
    else
        st = shoal_driver_gemm_any(j->ctx, j->c, 0, ta, j->r, next_t, done_t, minus_one, Xd, Ac, alpha, Bn);
    if (st != SHOAL_STATUS_SUCCESS) return st;
    return solve(j, next0, next_t, one);
}

/* alpha == 0: B = 0 and A is not read, as BLAS promises: the leaves zero their blocks. */
static shoal_status zero(const trsm_job *j, int t)
{
    for (long long t0 = 0; t0 < t; t0 += j->leaf) {
        const int tb = t - t0 < j->leaf ? (int)(t - t0) : j->leaf;
        const shoal_driver_scalar zero_alpha = {0.0, 0.0};
        const shoal_status st = leaf_solve(j, t0, tb, zero_alpha);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_driver_trsm_recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf)
{
    if (leaf < 1) return SHOAL_STATUS_INVALID_VALUE;
    const int left = c->p.opts[SIDE_] == 0;
    const int t = left ? c->p.dims[0] : c->p.dims[1];
    /* pointer arrays: chunks that fit the workspace's displaced arrays */
    const long long chunk = c->mode == SHOAL_MODE_ARRAY ? SHOAL_WS_POINTERS : c->p.batch;
    for (long long b0 = 0; b0 < c->p.batch; b0 += chunk) {
        const long long nb = c->p.batch - b0 < chunk ? c->p.batch - b0 : chunk;
        const shoal_spec_call part = shoal_driver_chunk(c, b0, nb);
        const trsm_job j = {ctx, &part, leaf, left, (c->p.opts[UPLO_] == 0) == (c->p.opts[TRANS_] == 0),
                            left ? c->p.dims[1] : c->p.dims[0]};
        const shoal_driver_scalar alpha = {c->p.alpha, c->p.alpha_im};
        const shoal_status st = alpha.re == 0.0 && alpha.im == 0.0 ? zero(&j, t) : solve(&j, 0, t, alpha);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}
