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
    shoal_operand A;        /* the whole m x n matrices of the chunk (m >= n) */
    shoal_operand d, e;     /* real vectors (the precision's real type) */
    shoal_operand tauq, taup;
    void *X, *Y;            /* workspace: problem b's X ((m - i) x nb, ld m - i) at X + b (m - i) nb
                             * elements, its Y ((n - i) x nb, ld n - i) at Y + b (n - i) nb */
    int m, n;
    int i;                  /* the panel's first row and column */
    int nb;                 /* its width: nb < n - i (a row reflector for each of its columns),
                             * or nb = n - i, the last panel (its last column none: taup = 0) */
    long long batch;
} shoal_gebrd_labrd_args;

/* xLABRD (m >= n) on A(i:m, i:n) of every problem: the panel's nb column reflectors
 * (d, tauq and the vectors below the diagonal) and row reflectors (e, taup and the vectors right
 * of the superdiagonal, stored conjugated), X and Y such that A(i+nb:m, i+nb:n) - V Y^H - X U
 * is what nb steps of gebd2 leave there (V the column reflectors' rows below the panel, U the row
 * reflectors' columns right of it). A(j, j) gets d(j) back at the end, and A(j, j+1) e(j), except
 * for the panel's last row, whose A(i+nb-1, i+nb) stays 1 (U's leading 1) for the update:
 * shoal_gebrd_restore writes it afterwards. The trailing matrix is read, not written. */
cudaError_t shoal_gebrd_labrd(char prec, const shoal_gebrd_labrd_args *a, cudaStream_t stream);

/* A(j, j + 1) = e(j) at j = nb - 1, 2 nb - 1, ... below `end` (the last rows of the panels that
 * had a trailing update, where shoal_gebrd_labrd left U's 1), for every problem. */
cudaError_t shoal_gebrd_restore(char prec, shoal_operand A, shoal_operand e, int nb, int end, long long batch,
                                cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
