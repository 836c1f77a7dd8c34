/* The variable-size Cholesky's own kernels (runtime/drivers/potrf_vbatched.c drives them): a
 * left-looking sweep of every problem by panels of SHOAL_POTRF_V_NB columns, a panel a step,
 * each step up to three launches over the whole batch whose blocks exit at once for the problems
 * that have no panel at that step (or have failed). A problem's panels are the last steps of the
 * call (different starts, same end): every problem finishes at the last step. */
#ifndef SHOAL_POTRF_VBATCHED_H
#define SHOAL_POTRF_VBATCHED_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the panel's width, and the rows a block of the update step takes (a thread a row) */
enum { SHOAL_POTRF_V_NB = 32, SHOAL_POTRF_V_ROWS = 128 };

typedef struct shoal_potrf_v_args {
    void *const *A;         /* problem b's matrix at A[b], n[b] x n[b], ld lda[b] */
    const int *n, *lda;     /* device arrays */
    int *info;              /* device array: 0, -2 (n), -4 (lda) or the failing column (1-based) */
    int max_n;              /* bounds every valid n[b] */
    int upper;              /* U^H U in the upper triangle: factored as L = U^H read through the lower view */
    int step;               /* 0 .. shoal_potrf_v_steps(max_n) - 1: problem b's panel at it is its
                             * step - (steps - ceil(n[b] / NB))-th, if that is not negative */
    long long batch;
} shoal_potrf_v_args;

/* info[b] = -2 where n[b] < 0 or n[b] > max_n, -4 where lda[b] < max(1, n[b]), else 0: LAPACK's
 * argument checks, per problem, before the first step (a problem with info != 0 is not touched). */
cudaError_t shoal_potrf_v_check(char prec, const shoal_potrf_v_args *a, cudaStream_t stream);

/* the call's steps: ceil(max_n / SHOAL_POTRF_V_NB) */
static inline int shoal_potrf_v_steps(int max_n) { return (max_n + SHOAL_POTRF_V_NB - 1) / SHOAL_POTRF_V_NB; }

/* The step of every problem with a panel at it (its first column j0) and info[b] == 0 (at the
 * last step, the problems of n[b] <= SHOAL_POTRF_V_NB are factored whole, a warp each): the panel
 * A(j0:n, j0:j0+nb) less L(j0:n, 0:j0) L(j0:j0+nb, 0:j0)^H (left-looking: the columns before
 * j0 are factored), then its diagonal block factored (a non-positive or NaN pivot at column c
 * sets info[b] = c + 1 and stops that problem, LAPACK's columns before c factored) and the
 * rows below it solved against the block's factor. */
cudaError_t shoal_potrf_v_step(char prec, const shoal_potrf_v_args *a, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
