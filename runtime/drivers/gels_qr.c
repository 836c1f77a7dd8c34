/* Least squares and minimum-norm solutions (LAPACK gels) at every size up to 1024, as a sequence
 * of dispatched routines, batch chunk by batch chunk:
 *   F = A (m >= n), or F = A^H written into the handle's workspace (m < n: LAPACK factors A = L Q
 *   by gelqf; the QR of A^H is the same factorization, L = R^H, so every routine below serves
 *   both shapes and A gets A^H's factors back, transposed, in gelqf's layout);
 *   geqrf(F) with tau in the workspace (geqrf's kernels, or its blocked driver);
 *   info from R's diagonal (runtime/drivers/gels_kernels.h);
 *   F X = B overdetermined (A with trans N, or A^H with m < n):  B <- Q^H B (ormqr), then
 *       R X = B(1:n) (TRSM); the rows below X keep Q^H B's, whose sum of squares is the residual's;
 *   F^H X = B underdetermined (A^H with m >= n, or A with m < n):  R^H Z = B(1:n) (TRSM),
 *       B(n+1:m) = 0, X = Q B (ormqr): the minimum-norm solution.
 * Where F has at most shoal_gels_small_rows(prec) rows (32; z 16), everything after geqrf is one kernel
 * (runtime/drivers/gels_small.h): at 3 x 3 the steps above cost five launches of a few
 * microseconds each for a few bytes a problem.
 * op T in c and z (A^T, no conjugate) is op C on conj(B), whose solution is conj(X): B is
 * conjugated before and after. A zero A_i gets X_i = 0 and info_i = 0, as LAPACK.
 * The workspace holds per problem tau (min(m, n) elements) and, for m < n, A^H (with B in pointer
 * arrays, A^H's pointer arrays too: the factorization drivers' slot 0, which geqrf's driver does
 * not use); a chunk is as many problems as fit it (at most SHOAL_LAPACK_CHUNK, the steps' pointer
 * arrays and the zero flags in ctx->step_info). No allocation, no host sync.
 * spec/routines/gels.toml names this driver (driver-only: runtime/lapack_drivers.h). */
#include "context.h"
#include "gels_kernels.h"
#include "gels_small.h"
#include "lapack_chunk.h"
#include "lapack_steps.h"
#include "solver_steps.h"
#include "spec_run.h"

#define TRY_CUDA(x)                                                                                     \
    do {                                                                                                \
        if ((x) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;                                         \
    } while (0)
#define TRY(x)                                                                                          \
    do {                                                                                                \
        const shoal_status st_ = (x);                                                                   \
        if (st_ != SHOAL_STATUS_SUCCESS) return st_;                                                    \
    } while (0)

/* What one call does, the same for every chunk. */
typedef struct gels_plan {
    char prec;
    int wide;        /* m < n: F = A^H */
    int fm, fn;      /* F is fm x fn, fm >= fn */
    int least;       /* F X = B overdetermined (else F^H X = B, minimum norm) */
    int conj_b;      /* c, z with op T: B conjugated before and after */
    int rows_b;      /* max(m, n) */
    long long elem;
} gels_plan;

static shoal_status solve_chunk(struct shoal_context *ctx, const gels_plan *g, const shoal_lapack_params *q)
{
    const char prec = g->prec;
    const int nrhs = q->nrhs, op_h = shoal_lapack_op_h(prec);
    const long long nb = q->batch;
    const shoal_operand A = {q->A, q->A_array, q->lda, q->stride_a};
    const shoal_operand B = {q->B, q->B_array, q->ldb, q->stride_b};
    char *ws = ctx->solver_ws;
    shoal_operand F = A; /* as geqrf, the info and the transposes take it */
    if (g->wide) {
        F = (shoal_operand){ws, NULL, g->fm, (long long)g->fm * g->fn};
        TRY_CUDA(shoal_gels_conj_transpose(prec, A, F, q->m, q->n, nb, ctx->stream));
        ws += nb * F.stride * g->elem;
    }
    const shoal_operand tau = {ws, NULL, 1, g->fn};
    TRY(shoal_solver_step_geqrf(ctx, prec, nb, g->fm, g->fn, F, tau));
    if (g->fm <= shoal_gels_small_rows(prec)) { /* the rest in one kernel */
        const shoal_operand none = {NULL, NULL, 0, 0};
        const shoal_gels_small_args s = {F, tau, B, g->wide ? A : none, g->fm, g->fn, nrhs, g->least, g->conj_b,
                                         q->info, nb};
        TRY_CUDA(shoal_gels_small(prec, &s, ctx->stream));
        return SHOAL_STATUS_SUCCESS;
    }
    /* Fb: F as the steps beside B take it, in B's form: the dispatched TRSM's driver and its GEMM
     * steps take one form for all operands, so with B in pointer arrays, A^H in the workspace
     * gets pointer arrays too */
    shoal_operand Fb = F;
    if (g->wide && B.array) {
        const shoal_block_source src = {NULL, F.ptr, F.stride * g->elem, 0, 0};
        Fb = (shoal_operand){NULL, ctx->lapack_ptrs, F.ld, 0};
        TRY_CUDA(shoal_block_pointers(ctx->lapack_ptrs, &src, 1, nb, 1, ctx->stream));
    }
    int *zero = ctx->step_info;
    TRY_CUDA(shoal_gels_info(prec, F, g->fn, nb, q->info, zero, ctx->stream));
    if (g->conj_b) TRY_CUDA(shoal_gels_rows(prec, B, 0, g->rows_b, nrhs, nb, NULL, SHOAL_ROWS_CONJ, ctx->stream));
    if (g->least) {
        TRY(shoal_lapack_step_ormqr(ctx, prec, nb, 0, op_h, g->fm, nrhs, g->fn, Fb, tau, B));
        TRY(shoal_lapack_step_trsm(ctx, prec, nb, 0, 1, 0, 0, g->fn, nrhs, Fb, B));
    } else {
        TRY(shoal_lapack_step_trsm(ctx, prec, nb, 0, 1, op_h, 0, g->fn, nrhs, Fb, B));
        TRY_CUDA(shoal_gels_rows(prec, B, g->fn, g->fm, nrhs, nb, NULL, SHOAL_ROWS_ZERO, ctx->stream));
        TRY(shoal_lapack_step_ormqr(ctx, prec, nb, 0, 0, g->fm, nrhs, g->fn, Fb, tau, B));
    }
    TRY_CUDA(shoal_gels_rows(prec, B, 0, g->rows_b, nrhs, nb, zero, SHOAL_ROWS_ZERO, ctx->stream));
    if (g->conj_b) TRY_CUDA(shoal_gels_rows(prec, B, 0, g->rows_b, nrhs, nb, NULL, SHOAL_ROWS_CONJ, ctx->stream));
    if (g->wide) TRY_CUDA(shoal_gels_conj_transpose(prec, F, A, g->fm, g->fn, nb, ctx->stream));
    return SHOAL_STATUS_SUCCESS;
}

/* variant 0: op N; 1: op T, or op C where p->conj (c and z; s and d come with op T) */
shoal_status shoal_driver_gels_qr(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    const int m = p->m, n = p->n;
    gels_plan g = {prec, m < n, m < n ? n : m, m < n ? m : n, 0, 0, m > n ? m : n, shoal_spec_elem_bytes(prec)};
    const shoal_operand B = {p->B, p->B_array, p->ldb, p->stride_b};
    if (m == 0 && n == 0) return SHOAL_STATUS_SUCCESS; /* no work: the operands may be NULL */
    if (m == 0 || n == 0) { /* the empty system's minimum-norm solution, as LAPACK */
        TRY_CUDA(cudaMemsetAsync(p->info, 0, (size_t)p->batch * sizeof(int), ctx->stream));
        TRY_CUDA(shoal_gels_rows(prec, B, 0, g.rows_b, p->nrhs, p->batch, NULL, SHOAL_ROWS_ZERO, ctx->stream));
        return SHOAL_STATUS_SUCCESS;
    }
    const int adjoint = variant == 1; /* op(A) = A^H (A^T in s, d; and in c, z on conj(B)) */
    g.least = g.wide ? adjoint : !adjoint;
    g.conj_b = adjoint && shoal_spec_is_complex(prec) && !p->conj;
    const long long per = ((g.wide ? (long long)g.fm * g.fn : 0) + g.fn) * g.elem;
    const long long chunk = shoal_solver_chunk(per);
    if (chunk < 1) return SHOAL_STATUS_NOT_SUPPORTED; /* above max_n: the dispatch refuses it first */
    for (long long b0 = 0; b0 < p->batch; b0 += chunk) {
        const long long nb = p->batch - b0 < chunk ? p->batch - b0 : chunk;
        const shoal_lapack_params q = shoal_lapack_chunk(p, g.elem, b0, nb);
        TRY(solve_chunk(ctx, &g, &q));
    }
    return SHOAL_STATUS_SUCCESS;
}
