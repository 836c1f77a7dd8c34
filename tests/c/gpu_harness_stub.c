/* The GPU test runner (tests/gpu/gpu_test.c) on a machine without a GPU: the CUDA runtime and
 * libshoal calls it makes are stubbed here, so tests/test_gpu_harness.py can check its rules
 * (SHOAL_REQUIRE_GPU, zero-run cases, case-table bounds, who-served checks) on any CPU.
 *
 *   STUB_DEVICES=N     devices the stubbed runtime reports (default 0)
 *   STUB_SUITE=NAME    the suite to run: "normal", "duplicate" (two cases of one name),
 *                      "overflow" (more cases than its table holds)
 *   STUB_SERVED=NAME   what the stubbed library reports as having served the last call
 * Cases of the normal suite: two_runs (records 2 passing runs), no_runs (records none),
 * five_runs (offers 5 runs to gpu_test_run_taken, printing and recording those taken),
 * served_same (served = the prediction), served_fallback (prediction "cublas", served the
 * fallback kernel), served_other (served a kernel the dispatch did not name), batch (prints
 * gpu_test_batch(1000000)), tail (prints what gpu_test_tail_alloc asked cudaMalloc for and where
 * its buffer starts), page_end (gpu_test_page_end_ready, then, where ready, a page-end buffer of
 * 129 doubles: what was reserved, mapped and made accessible, where the buffer lies, and what its
 * gpu_test_free undid), fault (CUDA_CHECK of an illegal-address error).
 *   STUB_VMM=1         the driver entry points resolve to the stubs below (a 64 KiB
 *                      granularity; host memory stands in for the reservation); unset: none
 *                      resolves, as on a driver without them
 *   STUB_VMM_ATTR=0    the device reports no virtual memory management */
#include "gpu_test.h"
#include "served.h"

#include <cuda.h>
#include <stdint.h>
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
const char *cudaGetErrorString(cudaError_t e)
{
    return e == cudaSuccess ? "no error" : e == cudaErrorIllegalAddress ? "an illegal memory access was encountered" : "stub error";
}
cudaError_t cudaFree(void *p)
{
    (void)p;
    return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

/* The driver's VMM calls, on host memory: one reservation at a time is enough here. */
#define STUB_GRAN ((size_t)65536)
static unsigned char *g_va;            /* the reservation */
static size_t g_reserved, g_mapped, g_accessible, g_unmapped, g_freed;
static int g_created, g_released;
static CUresult stub_device_get(CUdevice *d, int ordinal)
{
    *d = ordinal;
    return CUDA_SUCCESS;
}
static CUresult stub_attribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    const char *s = getenv("STUB_VMM_ATTR");
    *v = a == CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED ? (s ? atoi(s) : 1) : 0;
    return CUDA_SUCCESS;
}
static CUresult stub_granularity(size_t *g, const CUmemAllocationProp *p, CUmemAllocationGranularity_flags f)
{
    (void)p, (void)f;
    *g = STUB_GRAN;
    return CUDA_SUCCESS;
}
static CUresult stub_reserve(CUdeviceptr *ptr, size_t size, size_t align, CUdeviceptr addr, unsigned long long flags)
{
    (void)addr, (void)flags;
    if (align != STUB_GRAN || size % STUB_GRAN) return CUDA_ERROR_INVALID_VALUE;
    g_va = aligned_alloc(STUB_GRAN, size);
    g_reserved = size;
    *ptr = (CUdeviceptr)(uintptr_t)g_va;
    return g_va ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult stub_address_free(CUdeviceptr ptr, size_t size)
{
    if ((unsigned char *)(uintptr_t)ptr != g_va || size != g_reserved) return CUDA_ERROR_INVALID_VALUE;
    free(g_va);
    g_va = NULL;
    g_freed = size;
    return CUDA_SUCCESS;
}
static CUresult stub_create(CUmemGenericAllocationHandle *h, size_t size, const CUmemAllocationProp *p,
                            unsigned long long flags)
{
    (void)flags;
    if (size % STUB_GRAN || p->type != CU_MEM_ALLOCATION_TYPE_PINNED || p->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    *h = 42;
    g_created = 1;
    return CUDA_SUCCESS;
}
static CUresult stub_release(CUmemGenericAllocationHandle h)
{
    g_released = h == 42;
    return g_released ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
static CUresult stub_map(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle h,
                         unsigned long long flags)
{
    (void)flags;
    if ((unsigned char *)(uintptr_t)ptr != g_va || offset || h != 42) return CUDA_ERROR_INVALID_VALUE;
    g_mapped = size;
    return CUDA_SUCCESS;
}
static CUresult stub_unmap(CUdeviceptr ptr, size_t size)
{
    if ((unsigned char *)(uintptr_t)ptr != g_va) return CUDA_ERROR_INVALID_VALUE;
    g_unmapped = size;
    return CUDA_SUCCESS;
}
static CUresult stub_access(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    if ((unsigned char *)(uintptr_t)ptr != g_va || count != 1 || desc->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
        return CUDA_ERROR_INVALID_VALUE;
    g_accessible = size;
    return CUDA_SUCCESS;
}
cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int version,
                                             unsigned long long flags, enum cudaDriverEntryPointQueryResult *q)
{
    (void)version, (void)flags;
    static const struct { const char *name; void *fn; } table[] = {
        {"cuDeviceGet", (void *)stub_device_get},
        {"cuDeviceGetAttribute", (void *)stub_attribute},
        {"cuMemGetAllocationGranularity", (void *)stub_granularity},
        {"cuMemAddressReserve", (void *)stub_reserve},
        {"cuMemAddressFree", (void *)stub_address_free},
        {"cuMemCreate", (void *)stub_create},
        {"cuMemRelease", (void *)stub_release},
        {"cuMemMap", (void *)stub_map},
        {"cuMemUnmap", (void *)stub_unmap},
        {"cuMemSetAccess", (void *)stub_access},
    };
    *fn = NULL;
    *q = cudaDriverEntryPointSymbolNotFound;
    if (!getenv("STUB_VMM")) return cudaSuccess;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        if (!strcmp(symbol, table[i].name)) {
            *fn = table[i].fn;
            *q = cudaDriverEntryPointSuccess;
        }
    return cudaSuccess;
}

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
static tcase g_cases[11];
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
    } else if (!strcmp(n, "five_runs")) {
        for (int r = 0; r < 5; ++r)
            if (gpu_test_run_taken()) {
                printf("run %d\n", r);
                gpu_test_record(1);
            }
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
    } else if (!strcmp(n, "page_end")) {
        if (!gpu_test_page_end_ready()) return;
        void *alloc = NULL;
        char *buf = gpu_test_page_end_alloc(&alloc, 129, 8);
        const unsigned char *va = (const unsigned char *)alloc;
        printf("page_end reserved %zu mapped %zu accessible %zu created %d offset %td end %td\n", g_reserved,
               g_mapped, g_accessible, g_created, (unsigned char *)buf - va, (unsigned char *)buf + 129 * 8 - va);
        gpu_test_free(alloc);
        printf("page_end freed: unmapped %zu released %d reservation %zu\n", g_unmapped, g_released, g_freed);
        gpu_test_record(1);
    } else if (!strcmp(n, "fault")) {
        CUDA_CHECK(cudaErrorIllegalAddress);
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
    add("five_runs");
    add("served_same");
    add("served_fallback");
    add("served_other");
    add("batch");
    add("tail");
    add("page_end");
    add("fault");
    if (suite_name && !strcmp(suite_name, "duplicate")) add("two_runs");
    if (suite_name && !strcmp(suite_name, "overflow"))
        for (int i = 0; i < 2; ++i) add("extra");
    if (suite_name && !strcmp(suite_name, "long_name")) add("a_name_longer_than_its_buffer");
    const gpu_test_suite suite = {g_ncases, case_name, run_case, NULL, NULL};
    shoal_handle h;
    return gpu_test_main(argc, argv, &suite, &h);
}
