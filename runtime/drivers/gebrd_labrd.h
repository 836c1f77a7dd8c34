/* The blocked bidiagonal reduction's own kernels (runtime/drivers/gebrd_labrd.c drives them):
 * LAPACK's xLABRD panel, a block per matrix, and the write-back of the one element of B that the
 * trailing update needs as the reflector's 1. */
#ifndef SHOAL_GEBRD_LABRD_H
#define SHOAL_GEBRD_LABRD_H

#include <cuda_runtime_api.h>
#include "spec_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the panel kernel's block, and the most rows a call may have (its shared vectors) */
enum { SHOAL_GEBRD_LABRD_THREADS = 256, SHOAL_GEBRD_LABRD_MAX_ROWS = 1024 };

typedef struct shoal_gebrd_labrd_args {
    shoal_operand A;        /* the whole m x n matrices of the chunk */
    shoal_operand d, e;     /* real vectors (the precision's real type) */
    shoal_operand tauq, taup;
    void *X, *Y;            /* workspace: problem b's X ((m - i) x nb, ld m - i) at X + b (m - i) nb
                             * elements, its Y ((n - i) x nb, ld n - i) at Y + b (n - i) nb */
    int m, n;
    int i;                  /* the panel's first row and column */
    int nb;                 /* its width: nb < min(m, n) - i (both reflectors for each of its
                             * steps), or nb = min(m, n) - i, the last panel (its last step has
                             * no second reflector: taup = 0 for m >= n, tauq = 0 for m < n) */
    long long batch;
} shoal_gebrd_labrd_args;

/* xLABRD on A(i:m, i:n) of every problem, zlabrd's branch of the shape (m >= n: the column
 * reflector of a step first, then the row one; m < n: the row first): the panel's nb reflector
 * pairs (d, e, tauq, taup and the vectors in A in LAPACK's layout, row vectors conjugated), X and
 * Y such that A(i+nb:m, i+nb:n) - V Y^H - X U is what nb steps of gebd2 leave there (V the
 * column reflectors' rows below the panel, U the row reflectors' columns right of it). A(j, j)
 * gets d(j) back at the end, and the off-diagonal e(j), except for the panel's last one, which
 * stays 1 for the update (U's leading 1 at A(i+nb-1, i+nb) for m >= n, V's at A(i+nb, i+nb-1)
 * for m < n): shoal_gebrd_restore writes it afterwards. The trailing matrix is read, not
 * written. m + n <= 2 SHOAL_GEBRD_LABRD_MAX_ROWS (the shared vectors). */
cudaError_t shoal_gebrd_labrd(char prec, const shoal_gebrd_labrd_args *a, cudaStream_t stream);

/* The off-diagonal element e(j) back in A at j = nb - 1, 2 nb - 1, ... below `end` (the last steps
 * of the panels that had a trailing update, where shoal_gebrd_labrd left the 1): A(j, j + 1)
 * (upper) or A(j + 1, j) (lower), for every problem. */
cudaError_t shoal_gebrd_restore(char prec, shoal_operand A, shoal_operand e, int upper, int nb, int end,
                                long long batch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
