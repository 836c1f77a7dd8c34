#include "gpu_test.h"

#include <string.h>

const char *gpu_test_case = "init";
static int g_runs, g_failed_runs; /* of the current case */

void gpu_test_record(int ok)
{
    ++g_runs;
    if (!ok) ++g_failed_runs;
}

long long gpu_test_env_count(const char *name, long long dflt)
{
    const char *v = getenv(name);
    return v && atoll(v) > 0 ? atoll(v) : dflt;
}

/* Runs case i between its "==" line and its verdict; returns 1 when it failed. */
static int run_one(const gpu_test_suite *s, int i)
{
    gpu_test_case = s->case_name(i);
    g_runs = g_failed_runs = 0;
    printf("== %s\n", gpu_test_case);
    s->run_case(i);
    if (g_failed_runs)
        printf("FAILED %s: %d of %d runs failed\n", gpu_test_case, g_failed_runs, g_runs);
    else
        printf("ok %s (%d runs)\n", gpu_test_case, g_runs);
    fflush(stdout);
    return g_failed_runs != 0;
}

void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        printf("FAILED %s: host allocation of %zu bytes failed\n", gpu_test_case, bytes);
        exit(1);
    }
    return p;
}

/* 0 when ready, 77 when there is no device to test on, 1 on another failure. */
static int init_gpu(const gpu_test_suite *s, shoal_handle *h)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("SKIP: no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
        return 77;
    }
    shoal_status st = shoal_create(h);
    if (st == SHOAL_STATUS_NO_DEVICE) {
        printf("SKIP: no CUDA device (shoal_create: %s)\n", shoal_status_string(st));
        return 77;
    }
    if (st != SHOAL_STATUS_SUCCESS) {
        printf("FAILED: shoal_create returned %s\n", shoal_status_string(st));
        return 1;
    }
    gpu_test_case = "init";
    struct cudaDeviceProp prop;
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    const char *table = NULL;
    int level = -1;
    shoal_get_dispatch_info(*h, &table, &level);
    printf("# device %d: %s (cc %d.%d, %d SMs); shoal table \"%s\" (match level %d)\n", dev, prop.name,
           prop.major, prop.minor, prop.multiProcessorCount, table ? table : "?", level);
    return s->setup && s->setup(*h) ? 1 : 0;
}

int gpu_test_main(int argc, char **argv, const gpu_test_suite *s, shoal_handle *handle)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < s->n_cases; ++i) printf("%s\n", s->case_name(i));
        return 0;
    }
    int only = -1;
    if (argc == 3 && strcmp(argv[1], "--case") == 0) {
        for (int i = 0; i < s->n_cases; ++i)
            if (strcmp(s->case_name(i), argv[2]) == 0) only = i;
        if (only < 0) {
            fprintf(stderr, "unknown case '%s' (see --list)\n", argv[2]);
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--list | --case NAME]\n", argv[0]);
        return 2;
    }
    int rc = init_gpu(s, handle);
    if (rc) return rc;
    int failed = 0;
    if (only >= 0) {
        failed = run_one(s, only);
    } else {
        for (int i = 0; i < s->n_cases; ++i) failed += run_one(s, i);
        printf("%d of %d cases failed\n", failed, s->n_cases);
    }
    if (s->teardown) s->teardown();
    shoal_destroy(*handle);
    return failed ? 1 : 0;
}
