/* The GPU test runner (tests/gpu/gpu_test.c) on a machine without a GPU: the CUDA runtime and
 * libshoal calls it makes are stubbed here, so tests/test_gpu_harness.py can check its rules
 * (SHOAL_REQUIRE_GPU, zero-run cases, case-table bounds, who-served checks) on any CPU.
 *
 *   STUB_DEVICES=N     devices the stubbed runtime reports (default 0)
 *   STUB_SUITE=NAME    the suite to run: "normal", "duplicate" (two cases of one name),
 *                      "overflow" (more cases than its table holds)
 *   STUB_SERVED=NAME   what the stubbed library reports as having served the last call
 * Cases of the normal suite: two_runs (records 2 passing runs), no_runs (records none),
 * served_same (served = the prediction), served_fallback (prediction "cublas", served the
 * fallback kernel), served_other (served a kernel the dispatch did not name), batch (prints
 * gpu_test_batch(1000000)), tail (prints what gpu_test_tail_alloc asked cudaMalloc for and where
 * its buffer starts). */
#include "gpu_test.h"
#include "served.h"

#include <string.h>

static int g_devices;
static const char *g_served;

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = g_devices;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int *device)
{
    *device = 0;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    (void)device;
    memset(prop, 0, sizeof *prop);
    strcpy(prop->name, "stub device");
    return cudaSuccess;
}
static size_t g_malloc_bytes;
static char g_malloc_arena[256];
cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    g_malloc_bytes = bytes;
    *ptr = g_malloc_arena;
    return cudaSuccess;
}
const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "stub error"; }

static struct shoal_context *const g_handle = (struct shoal_context *)&g_devices;
shoal_status shoal_create(shoal_handle *h)
{
    *h = g_handle;
    return SHOAL_STATUS_SUCCESS;
}
shoal_status shoal_destroy(shoal_handle h)
{
    (void)h;
    return SHOAL_STATUS_SUCCESS;
}
const char *shoal_status_string(shoal_status s) { return s == SHOAL_STATUS_SUCCESS ? "success" : "stub status"; }
shoal_status shoal_get_dispatch_info(shoal_handle h, const char **table, int *level)
{
    (void)h;
    if (table) *table = "stub";
    if (level) *level = 3;
    return SHOAL_STATUS_SUCCESS;
}
shoal_status shoal_internal_take_served(shoal_handle h, const char **name)
{
    (void)h;
    *name = g_served;
    g_served = NULL;
    return SHOAL_STATUS_SUCCESS;
}

typedef struct tcase {
    char name[16];
} tcase;
static tcase g_cases[8];
static int g_ncases;

static void add(const char *name)
{
    tcase *t = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    gpu_test_case_name(t->name, sizeof t->name, "%s", name);
}

static void check_served(const char *predicted, const char *fallback)
{
    char why[200] = "";
    g_served = getenv("STUB_SERVED");
    const int ok = gpu_test_check_served(g_handle, predicted, fallback, NULL, why, sizeof why);
    if (!ok) printf("  %s\n", why);
    gpu_test_record(ok);
}

static void run_case(int i)
{
    const char *n = g_cases[i].name;
    if (!strcmp(n, "two_runs")) {
        gpu_test_record(1);
        gpu_test_record(1);
    } else if (!strcmp(n, "served_same")) {
        check_served("kernel_a", NULL);
    } else if (!strcmp(n, "served_fallback")) {
        check_served("cublas", "kernel_b");
    } else if (!strcmp(n, "served_other")) {
        check_served("kernel_a", "kernel_b");
    } else if (!strcmp(n, "batch")) {
        printf("batch %lld\n", gpu_test_batch(1000000));
        gpu_test_record(1);
    } else if (!strcmp(n, "tail")) {
        void *alloc = NULL;
        char *buf = gpu_test_tail_alloc(&alloc, 10, 8, 3);
        printf("tail bytes %zu at %td\n", g_malloc_bytes, buf - (char *)alloc);
        gpu_test_record(1);
    } /* no_runs: records nothing */
}

static const char *case_name(int i) { return g_cases[i].name; }

int main(int argc, char **argv)
{
    const char *d = getenv("STUB_DEVICES");
    g_devices = d ? atoi(d) : 0;
    const char *suite_name = getenv("STUB_SUITE");
    add("two_runs");
    add("no_runs");
    add("served_same");
    add("served_fallback");
    add("served_other");
    add("batch");
    add("tail");
    if (suite_name && !strcmp(suite_name, "duplicate")) add("two_runs");
    if (suite_name && !strcmp(suite_name, "overflow"))
        for (int i = 0; i < 2; ++i) add("extra");
    if (suite_name && !strcmp(suite_name, "long_name")) add("a_name_longer_than_its_buffer");
    const gpu_test_suite suite = {g_ncases, case_name, run_case, NULL, NULL};
    shoal_handle h;
    return gpu_test_main(argc, argv, &suite, &h);
}
