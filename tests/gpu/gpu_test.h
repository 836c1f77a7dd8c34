/* What every GPU test program shares: its command line, start-up and case loop, and the small
 * helpers its failure messages need.
 *
 *   prog --list         print the case names (needs no GPU; those SHOAL_TEST_CASES selects)
 *   prog --case NAME    run one case
 *   prog                run every case
 * Environment (read by every program; what `make sanitize` sets, tests/sanitize.mk):
 *   SHOAL_TEST_CASES=PAT[,PAT...]  a plain run runs only the cases whose names match one of the
 *                       shell patterns (fnmatch); the others are neither run nor counted
 *   SHOAL_TEST_SHARD=I/J  of the cases selected so far (table order), only every J-th from the
 *                       I-th (0 <= I < J): J processes with I = 0..J-1 run each case once
 *                       (scripts/sanitize.sh, SANITIZE_JOBS); malformed: exit 2
 *   SHOAL_TEST_RUN_SHARD=I/J  within the cases, only every J-th run from the I-th, counted over
 *                       the process (cases that call gpu_test_run_taken): J processes split
 *                       the runs of a few long cases (SANITIZE_SPLIT=runs); malformed: exit 2
 *   SHOAL_TEST_QUICK=1  reduced work: every run's batch is capped at SHOAL_TEST_MAX_BATCH
 *                       (default 129 under QUICK), through gpu_test_batch
 * Exit: 0 all passed, 1 a failure, 2 usage or a broken case table, 77 no CUDA device ("SKIP: ..."
 * on stdout; with SHOAL_REQUIRE_GPU=1 in the environment that is a failure instead, exit 1). The
 * runner prints "== NAME" before a case and, after it, "ok NAME (N runs)" or "FAILED NAME: ..."
 * from what the case recorded with gpu_test_record; a case that recorded no run at all failed
 * (it checked nothing). */
#ifndef SHOAL_GPU_TEST_H
#define SHOAL_GPU_TEST_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>
#include "shoal.h"

typedef struct gpu_test_suite {
    int n_cases;
    const char *(*case_name)(int i);
    void (*run_case)(int i);             /* records each checked run with gpu_test_record */
    int (*setup)(shoal_handle h);        /* after the handle exists; may be NULL; nonzero: exit 1 */
    void (*teardown)(void);              /* before the handle is destroyed; may be NULL */
} gpu_test_suite;

/* The case running (or "init"), named by failure messages; the runner sets it before each case. */
extern const char *gpu_test_case;

/* Parses the command line, creates *handle (SKIP, 77, when there is no device), prints the device
 * and the tuned table it got, runs the cases, destroys the handle; returns the exit status. */
int gpu_test_main(int argc, char **argv, const gpu_test_suite *suite, shoal_handle *handle);

/* Counts one checked run of the current case; ok = 0 fails the case (the run says why). */
void gpu_test_record(int ok);

/* Whether this process does the next run (SHOAL_TEST_RUN_SHARD; always 1 when unset): a case
 * calls it before each run and leaves out the runs it refuses. A case whose runs all fell to
 * other shards passes with "ok NAME (0 runs, N in other shards)". */
int gpu_test_run_taken(void);

/* The index of the next entry of a fixed case table of capacity entries (*count of them used),
 * counting it; a table that would overflow stops the program (exit 2) naming it, so a grown case
 * list fails loudly instead of writing past the table. Use through GPU_TEST_NEXT_CASE. */
int gpu_test_next_case(int *count, int capacity, const char *table);
#define GPU_TEST_NEXT_CASE(table, count) \
    (&(table)[gpu_test_next_case(&(count), (int)(sizeof(table) / sizeof((table)[0])), #table)])

/* snprintf into a case name buffer; a name that does not fit stops the program (exit 2): a cut
 * name could collide with another and run the wrong case. */
void gpu_test_case_name(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Who served: clears the record of what served calls on h (before a checked call). */
void gpu_test_served_reset(shoal_handle h);

/* Checks who served the calls on h since the last reset (runtime/served.h) against the dispatch's
 * own answer: predicted is the *_kernel_name answer with the handle's vendor setting at the call;
 * fallback is that answer with vendor dispatch off (NULL when it was off). The call must have
 * been served by predicted, or, where predicted is a vendor, by fallback (the vendor refused the
 * case, or an argument such as alpha = 0 ruled it out). Returns 1 when so; else 0 with the reason
 * appended to why. *served (may be NULL) gets the name that served, or "none". */
int gpu_test_check_served(shoal_handle h, const char *predicted, const char *fallback, const char **served,
                          char *why, size_t len);

/* Whether name is a vendor library's ("cublas", "cusolver") rather than one of shoal's kernels. */
int gpu_test_is_vendor(const char *name);

/* A positive count from the environment variable name, else dflt (e.g. a test's big batch). */
long long gpu_test_env_count(const char *name, long long dflt);

/* Whether SHOAL_TEST_QUICK asks for reduced work (e.g. under compute-sanitizer). */
int gpu_test_quick(void);

/* The batch a run should use for a wanted batch: capped at SHOAL_TEST_MAX_BATCH when that is set,
 * else at 129 under SHOAL_TEST_QUICK (more than one block of 128 problems, an odd count), else
 * unchanged. Each program passes every run's batch through it. */
long long gpu_test_batch(long long wanted);

/* Whether case name is selected by SHOAL_TEST_CASES (every case when it is unset or empty). */
int gpu_test_selected(const char *name);

/* A device buffer whose last byte is the last byte of its allocation: cudaMalloc of exactly
 * shift + count elements of es bytes, the buffer starting shift elements in (shift 0..3 puts the
 * start off a 16-byte boundary). Any access past its last element is outside the allocation,
 * which compute-sanitizer memcheck reports; the functional checks cannot see such a read. *alloc
 * gets what cudaFree takes; the shift elements before the buffer are never written. */
void *gpu_test_tail_alloc(void **alloc, size_t count, size_t es, int shift);

/* Page-end operands (issue 29): the tail layout above ends an operand at the end of a cudaMalloc
 * allocation, which memcheck sees but the hardware does not fault on (the allocator's pages go
 * on). gpu_test_page_end_alloc places count elements of es bytes so that the last element's last
 * byte is the last byte of a mapped page and the page after it is reserved but unmapped (CUDA
 * virtual memory management, through the runtime's driver entry points: no -lcuda; page_place.h
 * has the arithmetic), so that a read or write past the operand's end faults on the hardware,
 * with or without compute-sanitizer: the kernel dies with an illegal address, the CUDA context is
 * lost and CUDA_CHECK fails the case and stops the process (see there). *alloc gets what
 * gpu_test_free takes; the buffer's start is as aligned as -count * es makes it.
 *
 * A case of page-end operands first calls gpu_test_page_end_ready(): 1 when they can be made;
 * else 0, and the case is skipped (gpu_test_skip_case) with the reason (no driver entry point, no
 * VMM support on the device). Page-end cases are named *page_end* and come last in every case
 * table, so that a fault in one loses no other kind of case in a plain run; pytest runs every
 * case in its own process anyway. */
int gpu_test_page_end_ready(void);
void *gpu_test_page_end_alloc(void **alloc, size_t count, size_t es);

/* Frees what gpu_test_tail_alloc or gpu_test_page_end_alloc (or cudaMalloc) gave in *alloc: unmaps,
 * releases and frees the reservation of a page-end buffer, cudaFree for the rest; NULL is fine. */
void gpu_test_free(void *alloc);

/* Skips the current case (nothing it could check can run here, e.g. no VMM): its verdict is
 * "SKIP: NAME: why" (a --case run exits 77), or a failure where SHOAL_REQUIRE_GPU=1 is set. A
 * failed run recorded in the case still fails it. */
void gpu_test_skip_case(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What CUDA_CHECK does with an error: prints "FAILED case: where: expr: error" (and, for a
 * kernel fault, that an operand was accessed out of bounds or the context is gone), exits 1. */
void gpu_test_cuda_failed(const char *expr, const char *file, int line, cudaError_t e) __attribute__((noreturn));

/* malloc that fails the current case (and the process) when the host is out of memory. */
void *xmalloc(size_t bytes);

/* A CUDA error here means the context may be gone (a kernel faulted): stop the process. A fault
 * (illegal address and the like) says so: the cases after this one did not run. */
#define CUDA_CHECK(expr)                                                                      \
    do {                                                                                      \
        cudaError_t e_ = (expr);                                                              \
        if (e_ != cudaSuccess) gpu_test_cuda_failed(#expr, __FILE__, __LINE__, e_);           \
    } while (0)

#endif
