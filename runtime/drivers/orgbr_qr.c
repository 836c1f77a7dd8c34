/* Forming Q or P^H of a bidiagonal reduction (LAPACK orgbr / ungbr) at every size up to 1024, by
 * the dispatched orgqr, batch chunk by batch chunk (k = p->nrhs):
 *   vect Q, m >= k: gebrd's column reflectors are orgqr's layout: orgqr(m, n, k) on A in place;
 *   vect Q, m < k (so n = m): the reflectors sit below the subdiagonal (unit at row j + 1):
 *       LAPACK's shift into orgqr's layout (runtime/drivers/orgbr_kernels.h), then orgqr of
 *       order m - 1 on A(1:m, 1:m): Q = diag(1, that);
 *   vect P: the row reflectors are A^H's columns (row j of A holds conj(u_j), so column j of
 *       W = A^H holds u_j): W into the handle's solver workspace, then as for Q on W (k < n:
 *       orgqr(n, m, k), the first m columns of P; k >= n, m = n: the shift and order n - 1: P;
 *       LAPACK's boundary, k == n shifted for P but m == k not for Q), and
 *       A = W^H, P^H's first m rows.
 * A chunk is at most SHOAL_LAPACK_CHUNK problems (the pointer arrays of A(1:, 1:) in the
 * factorization drivers' slot 0) and, for P, as many as the workspace holds (m n elements each).
 * No allocation, no host sync. spec/routines/orgbr.toml names this driver (driver-only:
 * runtime/lapack_drivers.h). */
#include "context.h"
#include "gels_kernels.h"
#include "lapack_chunk.h"
#include "lapack_steps.h"
#include "orgbr_kernels.h"
#include "solver_steps.h"
#include "spec_run.h"

#define TRY_CUDA(x)                                                                                     \
    do {                                                                                                \
        if ((x) != cudaSuccess) return SHOAL_STATUS_CUDA_ERROR;                                         \
    } while (0)

/* Q = H_0 ... H_{k-1} of the k reflectors in F's columns into F (q x c, orgqr's layout), or, in
 * the shifted layout (q == c), of the q - 1 below its subdiagonal. */
static shoal_status form(struct shoal_context *ctx, char prec, long long nb, int q, int c, int k, int shifted,
                         shoal_operand F, shoal_operand tau)
{
    if (!shifted) return shoal_lapack_step_orgqr(ctx, prec, nb, q, c, k, F, tau);
    TRY_CUDA(shoal_orgbr_shift(prec, F, q, nb, ctx->stream));
    if (q == 1) return SHOAL_STATUS_SUCCESS; /* Q = 1 */
    shoal_operand sub; /* F(1:q, 1:q), pointer arrays in slot 0 */
    TRY_CUDA(shoal_operand_sub(ctx, prec, F, nb, 1, 1, 0, &sub));
    return shoal_lapack_step_orgqr(ctx, prec, nb, q - 1, q - 1, q - 1, sub, tau);
}

static shoal_status chunk(struct shoal_context *ctx, char prec, int variant, const shoal_lapack_params *c)
{
    const int m = c->m, n = c->n, k = c->nrhs;
    const shoal_operand A = {c->A, c->A_array, c->lda, c->stride_a};
    const shoal_operand tau = {c->tau, c->tau_array, 1, c->stride_tau};
    /* LAPACK's cases: Q shifted where m < k, P where k >= n (a square gebrd's P: n - 1 reflectors) */
    if (variant == 0) return form(ctx, prec, c->batch, m, n, k, m < k, A, tau);
    const shoal_operand W = {ctx->solver_ws, NULL, n, (long long)n * m};
    TRY_CUDA(shoal_gels_conj_transpose(prec, A, W, m, n, c->batch, ctx->stream));
    const shoal_status st = form(ctx, prec, c->batch, n, m, k, k >= n, W, tau);
    if (st != SHOAL_STATUS_SUCCESS) return st;
    TRY_CUDA(shoal_gels_conj_transpose(prec, W, A, n, m, c->batch, ctx->stream));
    return SHOAL_STATUS_SUCCESS;
}

/* variant 0: vect Q, 1: vect P (the entry points checked LAPACK's conditions on m, n, k) */
shoal_status shoal_driver_orgbr_qr(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    if (p->m == 0 || p->n == 0) return SHOAL_STATUS_SUCCESS; /* nothing to form */
    const long long elem = shoal_spec_elem_bytes(prec);
    const long long per = variant == 1 ? (long long)p->m * p->n * elem : 0;
    const long long size = shoal_solver_chunk(per);
    if (size < 1) return SHOAL_STATUS_NOT_SUPPORTED; /* above max_n: the dispatch refuses it first */
    for (long long b0 = 0; b0 < p->batch; b0 += size) {
        const long long nb = p->batch - b0 < size ? p->batch - b0 : size;
        const shoal_lapack_params c = shoal_lapack_chunk(p, elem, b0, nb);
        const shoal_status st = chunk(ctx, prec, variant, &c);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}
