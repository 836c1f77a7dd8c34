/* What every GPU test program shares: its command line, start-up and case loop, and the small
 * helpers its failure messages need.
 *
 *   prog --list         print the case names (needs no GPU)
 *   prog --case NAME    run one case
 *   prog                run every case
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device ("SKIP: ..." on stdout). The runner
 * prints "== NAME" before a case and, after it, "ok NAME (N runs)" or "FAILED NAME: F of N runs
 * failed" from what the case recorded with gpu_test_record. */
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

/* A positive count from the environment variable name, else dflt (e.g. a test's big batch). */
long long gpu_test_env_count(const char *name, long long dflt);

/* malloc that fails the current case (and the process) when the host is out of memory. */
void *xmalloc(size_t bytes);

/* A CUDA error here means the context may be gone (a kernel faulted): stop the process. */
#define CUDA_CHECK(expr)                                                                      \
    do {                                                                                      \
        cudaError_t e_ = (expr);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            printf("FAILED %s: %s:%d: %s: %s\n", gpu_test_case, __FILE__, __LINE__, #expr,   \
                   cudaGetErrorString(e_));                                                   \
            fflush(stdout);                                                                   \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#endif
