/* The least-squares driver's solve for small factors (runtime/drivers/gels_qr.c): after geqrf
 * has factored F (fm x fn, fm >= fn, fm <= shoal_gels_small_rows(prec)), one kernel does everything
 * the driver's larger sizes take five to seven launches for (ormqr, TRSM, the info, the row
 * blocks, the conjugations, A^H back into A): a team of lanes per problem, lane i holding row i
 * of F and of each right-hand side, reflectors applied by team reductions and the triangle
 * solved by broadcasts. */
#ifndef SHOAL_GELS_SMALL_H
#define SHOAL_GELS_SMALL_H

#include <cuda_runtime_api.h>
#include "spec_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the most rows of F the small solve takes: a team is at most a warp, a lane a row; in z a row
 * of 32 elements in registers (128 of them) left the kernel spilling (ptxas), so 16 */
static inline int shoal_gels_small_rows(char prec) { return prec == 'z' ? 16 : 32; }

typedef struct shoal_gels_small_args {
    shoal_operand F;   /* geqrf's output: R on and above the diagonal, the reflectors below */
    shoal_operand tau; /* fn scalars a problem */
    shoal_operand B;   /* fm x nrhs: the right-hand sides in, the solutions out */
    shoal_operand A;   /* m < n: A, which gets F^H (gelqf's layout of A's LQ); ptr and array
                        * NULL: F is A itself */
    int fm, fn, nrhs;
    int least;  /* F X = B in the least-squares sense (else F^H X = B, minimum norm) */
    int conj_b; /* B conjugated on the way in and out (op T in c and z) */
    int *info;  /* info[b]: the first j (1-based) with R(j, j) == 0, else 0 */
    long long batch;
} shoal_gels_small_args;

/* Per problem, as the larger sizes' steps (runtime/drivers/gels_qr.c):
 *   least:   B <- Q^H B, then R X = B(1:fn) (rows fn.. keep the residual's components);
 *   else:    R^H Z = B(1:fn), B(fn+1:fm) = 0, X = Q Z;
 *   info from R's diagonal; a zero R (A zero): X = 0 in all fm rows and info 0; info > 0: the
 *   least-squares B holds Q^H B, the minimum-norm B is left as it came (LAPACK's trtrs stops
 *   before it changes B). */
cudaError_t shoal_gels_small(char prec, const shoal_gels_small_args *args, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
