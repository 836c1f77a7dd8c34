#include "gpu_test.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>

#include "served.h"

const char *gpu_test_case = "init";
static int g_runs, g_failed_runs; /* of the current case */

void gpu_test_record(int ok)
{
    ++g_runs;
    if (!ok) ++g_failed_runs;
}

int gpu_test_next_case(int *count, int capacity, const char *table)
{
    if (*count >= capacity) {
        fprintf(stderr, "case table %s is full (%d entries): enlarge it\n", table, capacity);
        exit(2);
    }
    return (*count)++;
}

void gpu_test_case_name(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(dst, size, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "case name \"%s...\" does not fit in %zu bytes: enlarge the name buffer\n", dst, size);
        exit(2);
    }
}

int gpu_test_is_vendor(const char *name)
{
    return name && (strcmp(name, "cublas") == 0 || strcmp(name, "cusolver") == 0);
}

void gpu_test_served_reset(shoal_handle h)
{
    const char *ignored = NULL;
    shoal_internal_take_served(h, &ignored);
}

int gpu_test_check_served(shoal_handle h, const char *predicted, const char *fallback, const char **served,
                          char *why, size_t len)
{
    const char *s = NULL;
    const shoal_status st = shoal_internal_take_served(h, &s);
    if (served) *served = s ? s : "none";
    if (st == SHOAL_STATUS_SUCCESS && s && predicted &&
        (strcmp(s, predicted) == 0 || (gpu_test_is_vendor(predicted) && fallback && strcmp(s, fallback) == 0)))
        return 1;
    const size_t u = strlen(why);
    if (u < len)
        snprintf(why + u, len - u, " served by %s, but the dispatch names %s%s%s", s ? s : "nothing",
                 predicted ? predicted : "nothing", gpu_test_is_vendor(predicted) && fallback ? " or, declined, " : "",
                 gpu_test_is_vendor(predicted) && fallback ? fallback : "");
    return 0;
}

long long gpu_test_env_count(const char *name, long long dflt)
{
    const char *v = getenv(name);
    return v && atoll(v) > 0 ? atoll(v) : dflt;
}

int gpu_test_quick(void)
{
    const char *v = getenv("SHOAL_TEST_QUICK");
    return v && v[0] && strcmp(v, "0") != 0;
}

long long gpu_test_batch(long long wanted)
{
    const long long cap = gpu_test_env_count("SHOAL_TEST_MAX_BATCH", gpu_test_quick() ? 129 : 0);
    return cap > 0 && wanted > cap ? cap : wanted;
}

int gpu_test_selected(const char *name)
{
    const char *v = getenv("SHOAL_TEST_CASES");
    if (!v || !v[0]) return 1;
    char pat[256];
    while (*v) {
        const char *end = strchr(v, ',');
        const size_t len = end ? (size_t)(end - v) : strlen(v);
        if (len > 0 && len < sizeof pat) {
            memcpy(pat, v, len);
            pat[len] = 0;
            if (fnmatch(pat, name, 0) == 0) return 1;
        }
        v += len;
        if (*v == ',') ++v;
    }
    return 0;
}

void *gpu_test_tail_alloc(void **alloc, size_t count, size_t es, int shift)
{
    const size_t lead = (size_t)(shift > 0 ? shift : 0) * es;
    const size_t bytes = lead + count * es;
    CUDA_CHECK(cudaMalloc(alloc, bytes ? bytes : 1));
    return (char *)*alloc + lead;
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
    else if (g_runs == 0)
        printf("FAILED %s: the case recorded no runs (it checked nothing)\n", gpu_test_case);
    else
        printf("ok %s (%d runs)\n", gpu_test_case, g_runs);
    fflush(stdout);
    return g_failed_runs != 0 || g_runs == 0;
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

/* Where a GPU is expected (SHOAL_REQUIRE_GPU=1), its absence is a failure, not a skip. */
static int require_gpu(void)
{
    const char *v = getenv("SHOAL_REQUIRE_GPU");
    return v && v[0] && strcmp(v, "0") != 0;
}

/* 77 (skip) or, where a GPU is required, 1; says why either way. */
static int no_device(const char *why)
{
    if (require_gpu()) {
        printf("FAILED: no CUDA device (%s) and SHOAL_REQUIRE_GPU is set\n", why);
        return 1;
    }
    printf("SKIP: no CUDA device (%s)\n", why);
    return 77;
}

/* 0 when ready, 77 when there is no device to test on, 1 on another failure. */
static int init_gpu(const gpu_test_suite *s, shoal_handle *h)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0)
        return no_device(e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
    shoal_status st = shoal_create(h);
    if (st == SHOAL_STATUS_NO_DEVICE) {
        char why[160];
        snprintf(why, sizeof why, "shoal_create: %s", shoal_status_string(st));
        return no_device(why);
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

/* Every case has a distinct, nonempty name (pytest runs them by name); 0 when so. */
static int check_case_names(const gpu_test_suite *s)
{
    for (int i = 0; i < s->n_cases; ++i) {
        const char *a = s->case_name(i);
        if (!a || !a[0]) {
            fprintf(stderr, "case %d has no name\n", i);
            return 2;
        }
        for (int j = 0; j < i; ++j)
            if (strcmp(a, s->case_name(j)) == 0) {
                fprintf(stderr, "cases %d and %d are both named '%s'\n", j, i, a);
                return 2;
            }
    }
    if (s->n_cases == 0) {
        fprintf(stderr, "the case table is empty\n");
        return 2;
    }
    return 0;
}

int gpu_test_main(int argc, char **argv, const gpu_test_suite *s, shoal_handle *handle)
{
    if (check_case_names(s)) return 2;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < s->n_cases; ++i)
            if (gpu_test_selected(s->case_name(i))) printf("%s\n", s->case_name(i));
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
        int ran = 0;
        for (int i = 0; i < s->n_cases; ++i)
            if (gpu_test_selected(s->case_name(i))) failed += run_one(s, i), ++ran;
        if (ran < s->n_cases) printf("# SHOAL_TEST_CASES=%s selected %d of %d cases\n", getenv("SHOAL_TEST_CASES"), ran, s->n_cases);
        printf("%d of %d cases failed\n", failed, ran);
    }
    if (s->teardown) s->teardown();
    shoal_destroy(*handle);
    return failed ? 1 : 0;
}
