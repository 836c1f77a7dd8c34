/* The device side of the oracle: operands of a spec routine's call made from its oracle's
 * generator, laid out as the call says (ld padding, strided or pointer arrays), tiled over a
 * batch larger than the L2, restorable between runs, and judged by the oracle's check.
 * One harness for the tuner (tuner/measure_spec.c), the GPU tests (tests/gpu/test_spec_gpu.c)
 * and the benchmark (bench/spec_bench.c). */
#ifndef SHOAL_SPEC_HARNESS_H
#define SHOAL_SPEC_HARNESS_H

#include <cuda_runtime_api.h>
#include "oracle.h"
#include "spec_run.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spec_harness {
    const shoal_spec_routine *ri;
    const oracle *orc;
    shoal_spec_call call;              /* operands point into the buffers below */
    long long rows[ORACLE_MAX_OPERANDS], cols[ORACLE_MAX_OPERANDS], ld[ORACLE_MAX_OPERANDS];
    long long distinct;                /* distinct problems, repeated over the batch */
    double *h_in[ORACLE_MAX_OPERANDS]; /* the distinct inputs, packed (ld = rows), double; complex:
                                          (re, im) pairs, but one double per element of a real
                                          vector (operand kind 'r') */
    int w;                             /* doubles per element of the call's type on the host: 2
                                          complex, 1 real */
    void *d_op[ORACLE_MAX_OPERANDS];   /* the batch's operands (ld-padded, stride ld * cols) */
    void *d_orig[ORACLE_MAX_OPERANDS]; /* pristine copies of written operands */
    void **d_ptrs[ORACLE_MAX_OPERANDS];/* pointer arrays over d_op (made in both forms) */
    void *d_alloc[ORACLE_MAX_OPERANDS];/* what cudaFree takes: d_op, or d_op less tail_offset;
                                          page end: what spec_harness_page_end.free takes */
    long long bytes[ORACLE_MAX_OPERANDS]; /* of d_op, from its first to its last element */
    int tail_offset;                   /* as given to spec_harness_init */
} spec_harness;

#define SPEC_HARNESS_DISTINCT_MAX 1024

/* tail_offset SPEC_HARNESS_PAGE_END: each operand's batch ends at the end of a mapped page with
 * the next page unmapped, so that a read past it faults on the hardware even without
 * compute-sanitizer (issue 29). The harness needs no driver API itself: such operands come from
 * the allocator in spec_harness_page_end, which the caller sets (the GPU tests:
 * gpu_test_page_end_alloc and gpu_test_free, tests/gpu/gpu_test.h); unset,
 * spec_harness_init returns cudaErrorNotSupported. alloc places count elements of elem bytes,
 * sets *alloc to what free takes, returns the operand. */
#define SPEC_HARNESS_PAGE_END 4
typedef struct spec_harness_page_allocator {
    void *(*alloc)(void **alloc, size_t count, size_t elem);
    void (*free)(void *alloc);
} spec_harness_page_allocator;
extern spec_harness_page_allocator spec_harness_page_end;

/* Makes the operands for one call: routine index, precision, mode (enum shoal_mode), dims and
 * options in the spec's order, scalars, batch, extra rows of ld padding, tail_offset, a seed.
 * tail_offset -1: each operand's allocation has slack after its last problem. 0..3: each
 * operand's allocation ends exactly at the last element of its last problem (the last column's
 * padding rows are not there) and the operand starts tail_offset elements into it, off a 16-byte
 * boundary for 1..3: any read past an operand leaves its allocation, which compute-sanitizer
 * memcheck reports (issue 29) though no result shows it. SPEC_HARNESS_PAGE_END: as 0..3, ending at
 * a page end instead (above).
 * Returns cudaSuccess or the failing CUDA error (cudaErrorInvalidValue: no such oracle). */
cudaError_t spec_harness_init(spec_harness *h, int routine, char prec, int mode, const int *dims, const int *opts,
                              double alpha, double beta, long long batch, int ld_pad, int tail_offset,
                              unsigned long long seed);
/* The same with complex scalars (their imaginary parts are ignored in the real precisions). */
cudaError_t spec_harness_init_complex(spec_harness *h, int routine, char prec, int mode, const int *dims,
                                      const int *opts, double alpha, double alpha_im, double beta, double beta_im,
                                      long long batch, int ld_pad, int tail_offset, unsigned long long seed);

/* Copies the pristine inputs back into the written operands (untimed, before each run). */
cudaError_t spec_harness_restore(spec_harness *h);

/* Writes a NaN into the first element of operand o of problem i (NaN isolation tests); _part:
 * into its real (0) or imaginary (1) part only, the other part kept (complex precisions); _at:
 * into element `element` of the problem's storage (column-major, ld included), which must be
 * one of its elements (a row below rows, before the last column's end: else
 * cudaErrorInvalidValue and nothing written). */
cudaError_t spec_harness_poison(spec_harness *h, int o, long long i);
cudaError_t spec_harness_poison_part(spec_harness *h, int o, long long i, int part);
cudaError_t spec_harness_poison_at(spec_harness *h, int o, long long i, long long element, int part);

/* What operand o of every problem holds instead of the generator's random values (a case's
 * `input`): SPEC_INPUT_ZERO zeros; SPEC_INPUT_RANK_DEFICIENT column j a copy of column
 * j mod ceil(cols / 2) (rank at most half the columns). Rows only: the padding keeps its value.
 * The pristine copy follows, so the checks judge what the routine was given. */
enum { SPEC_INPUT_RANDOM = 0, SPEC_INPUT_ZERO = 1, SPEC_INPUT_RANK_DEFICIENT = 2 };
cudaError_t spec_harness_shape_input(spec_harness *h, int o, int input);

/* How many problems, at most `max`, a check of about `flops_budget` host flops covers (at least
 * one): the host references cost about the routine's flops per problem, 10^9 at n = 1024. */
long long spec_harness_check_count(const spec_harness *h, long long max, double flops_budget);
/* The budget the tuner and the benchmark give a candidate's check: about a second of host time. */
#define SPEC_HARNESS_CHECK_FLOPS 4e8

/* The oracle's largest error (eps units) over problems [first, first + count) after a run;
 * *bad gets the first problem beyond ORACLE_ERROR_LIMIT (-1 if none). Problems listed in
 * skip (count n_skip) are not judged. */
double spec_harness_check(spec_harness *h, long long first, long long count, const long long *skip, int n_skip,
                          long long *bad);

void spec_harness_free(spec_harness *h);

#ifdef __cplusplus
}
#endif
#endif
