/* Householder QR above the kernels' 32 (m, n each up to 1024), left-looking by panels: the
 * columns in panels of W, each panel one launch of geqrf's tall design (templates/
 * geqrf_tall.cu.j2) through the geqrf dispatch, with p.col0 = the panel's first column: the
 * kernel holds the panel's m rows in registers, applies the reflectors of the columns before it
 * (read back from A and tau, as LAPACK's H_1^H .. H_col0^H), then factors it. The panels after
 * the first take only the tall design (runtime/lapack_api.c), never the vendor.
 * W, the panel width: the widest of 32, 16 and 8 whose m rows fit 256 threads with at most 128
 * registers of them each, complex rows counted as 16 bytes (c's at 8 spill); the tall design's
 * fallbacks are such kernels, so an untuned device has one for every m (search_space/geqrf.toml).
 * Wider panels (48, 64) spill in that kernel. A matrix of n <= W columns is one launch, and so
 * is one that a kernel holds whole: the regs design's team of two warps (N up to 64, s, d, c:
 * templates/geqrf_regs.cu.j2), tuned at 40, 48, 56 and 64 and shipped at 48 and 64.
 * Left-looking keeps the panel in registers and needs no workspace: each panel reads the earlier
 * reflectors once (m col0 elements), where a right-looking sweep would read and write the
 * trailing matrix once per panel, and forming LAPACK's T factor for a GEMM update would need a
 * workspace per problem. A wide matrix (m < n) gets its min(m, n) reflectors from the panels
 * that reach row m; the panels beyond only apply them.
 * No allocation, no host sync; the kernel takes any batch (a grid-stride loop) and reads A in
 * place, so no pointer array is rewritten and no chunk is needed.
 * spec/routines/geqrf.toml names this driver (runtime/lapack_drivers.h). */
#include "lapack_routines.h"
#include "lapack_run.h"
#include "lapack_steps.h"
#include "spec_run.h"

shoal_status shoal_driver_geqrf_blocked(struct shoal_context *ctx, char prec, int variant, shoal_lapack_params *p)
{
    (void)variant;
    /* complex rows counted as z's (see the top) */
    const int w = shoal_lapack_tall_width(shoal_spec_is_complex(prec) ? 16 : (int)shoal_spec_elem_bytes(prec), p->m);
    /* a kernel holding the whole matrix (the regs design up to 64 x 64 in s, d and c): one
     * launch, none of the panels' re-reading of the earlier reflectors */
    if (p->n > w && shoal_lapack_kernel_holds(ctx, SHOAL_GEQRF, prec, 0, p))
        return shoal_lapack_run_kernel(ctx, SHOAL_GEQRF, prec, 0, p, 0);
    for (int c0 = 0; c0 < p->n; c0 += w) {
        shoal_lapack_params q = *p;
        q.n = p->n - c0 < w ? p->n - c0 : w;
        q.col0 = c0;
        const shoal_status st = shoal_lapack_run_kernel(ctx, SHOAL_GEQRF, prec, 0, &q, 0);
        if (st != SHOAL_STATUS_SUCCESS) return st;
    }
    return SHOAL_STATUS_SUCCESS;
}
