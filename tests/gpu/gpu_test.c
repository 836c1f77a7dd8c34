#include "gpu_test.h"

#include <cuda.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>

#include "page_place.h"
#include "served.h"

const char *gpu_test_case = "init";
static int g_runs, g_failed_runs; /* of the current case */
static int g_runs_elsewhere;      /* of the current case, left to other run shards */
static int g_run_i = 0, g_run_j = 1; /* SHOAL_TEST_RUN_SHARD */
static long g_run_seen;              /* runs offered to gpu_test_run_taken, over the process */
static char g_skip_why[256];      /* nonempty: the current case was skipped (gpu_test_skip_case) */

void gpu_test_record(int ok)
{
    ++g_runs;
    if (!ok) ++g_failed_runs;
}

int gpu_test_run_taken(void)
{
    if (g_run_seen++ % g_run_j == g_run_i) return 1;
    ++g_runs_elsewhere;
    return 0;
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

/* A shard variable (I/J) into *i, *j (unset or empty: 0/1); 0 if malformed. */
static int shard_of_env(const char *var, int *i, int *j)
{
    const char *v = getenv(var);
    *i = 0;
    *j = 1;
    if (!v || !v[0]) return 1;
    char tail;
    return sscanf(v, "%d/%d%c", i, j, &tail) == 2 && *j >= 1 && *i >= 0 && *i < *j;
}

/* Whether this process takes the case: selected by name, then its shard of those, counted in
 * table order by *seen (the caller's walk over the table starts it at 0). */
static int taken(const char *name, int i_shard, int j_shard, int *seen)
{
    return gpu_test_selected(name) && (*seen)++ % j_shard == i_shard;
}

void *gpu_test_tail_alloc(void **alloc, size_t count, size_t es, int shift)
{
    const size_t lead = (size_t)(shift > 0 ? shift : 0) * es;
    const size_t bytes = lead + count * es;
    CUDA_CHECK(cudaMalloc(alloc, bytes ? bytes : 1));
    return (char *)*alloc + lead;
}

static int require_gpu(void);

void gpu_test_skip_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_skip_why, sizeof g_skip_why, fmt, ap);
    va_end(ap);
    if (!g_skip_why[0]) snprintf(g_skip_why, sizeof g_skip_why, "skipped");
}

void gpu_test_cuda_failed(const char *expr, const char *file, int line, cudaError_t e)
{
    printf("FAILED %s: %s:%d: %s: %s\n", gpu_test_case, file, line, expr, cudaGetErrorString(e));
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorIllegalInstruction:
    case cudaErrorHardwareStackError:
        printf("FAILED %s: a kernel faulted: it accessed memory outside its operands (in a *page_end* case: "
               "past an operand's end, into the unmapped page after it; issue 29, docs/sanitize.md). The CUDA "
               "context is lost: the cases after this one did not run (run them with --case NAME)\n",
               gpu_test_case);
        break;
    default: break;
    }
    fflush(stdout);
    exit(1);
}

/* ------------------------------------------------------------------------------------------ */
/* Page-end operands: CUDA virtual memory management through the runtime's driver entry points. */

#define DRIVER_FN(name) static __typeof__(&name) p_##name
DRIVER_FN(cuDeviceGet);
DRIVER_FN(cuDeviceGetAttribute);
DRIVER_FN(cuMemGetAllocationGranularity);
DRIVER_FN(cuMemAddressReserve);
DRIVER_FN(cuMemAddressFree);
DRIVER_FN(cuMemCreate);
DRIVER_FN(cuMemRelease);
DRIVER_FN(cuMemMap);
DRIVER_FN(cuMemUnmap);
DRIVER_FN(cuMemSetAccess);
#undef DRIVER_FN

static int g_vmm_state;            /* 0 not looked at, 1 ready, -1 unavailable (g_vmm_why) */
static char g_vmm_why[200];
static int g_vmm_device;
static size_t g_vmm_gran;

/* One page-end buffer: what gpu_test_free needs to take it apart. */
typedef struct vmm_buf {
    CUdeviceptr base;
    size_t map_bytes, reserve_bytes;
    CUmemGenericAllocationHandle mem;
    struct vmm_buf *next;
} vmm_buf;
static vmm_buf *g_vmm_bufs;

static int driver_fn(const char *name, void **fn)
{
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t e = cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*fn) {
        snprintf(g_vmm_why, sizeof g_vmm_why, "no driver entry point %s (%s)", name,
                 e != cudaSuccess ? cudaGetErrorString(e) : "not found");
        return 0;
    }
    return 1;
}

static int vmm_init(void)
{
#define GET(name) driver_fn(#name, (void **)&p_##name)
    if (!(GET(cuDeviceGet) && GET(cuDeviceGetAttribute) && GET(cuMemGetAllocationGranularity) &&
          GET(cuMemAddressReserve) && GET(cuMemAddressFree) && GET(cuMemCreate) && GET(cuMemRelease) &&
          GET(cuMemMap) && GET(cuMemUnmap) && GET(cuMemSetAccess)))
        return 0;
#undef GET
    int ordinal = 0;
    CUdevice dev;
    int supported = 0;
    if (cudaGetDevice(&ordinal) != cudaSuccess || cudaFree(0) != cudaSuccess || p_cuDeviceGet(&dev, ordinal) != CUDA_SUCCESS ||
        p_cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev) != CUDA_SUCCESS) {
        snprintf(g_vmm_why, sizeof g_vmm_why, "the device's VMM attribute could not be read");
        return 0;
    }
    if (!supported) {
        snprintf(g_vmm_why, sizeof g_vmm_why, "device %d has no virtual memory management "
                 "(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED is 0)", ordinal);
        return 0;
    }
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t gran = 0;
    gpu_test_page_layout probe;
    if (p_cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS ||
        gpu_test_page_layout_of(0, gran, &probe) != 0) {
        snprintf(g_vmm_why, sizeof g_vmm_why, "no usable allocation granularity (%zu)", gran);
        return 0;
    }
    g_vmm_device = dev;
    g_vmm_gran = gran;
    return 1;
}

int gpu_test_page_end_ready(void)
{
    if (g_vmm_state == 0) g_vmm_state = vmm_init() ? 1 : -1;
    if (g_vmm_state < 0) gpu_test_skip_case("page-end operands unavailable: %s", g_vmm_why);
    return g_vmm_state > 0;
}

/* A driver call of the page-end allocator failed: the case fails and the process stops, as for
 * CUDA_CHECK (partial mappings are not worth unwinding in a test). */
#define DRIVER_CHECK(expr)                                                                             \
    do {                                                                                               \
        const CUresult r_ = (expr);                                                                    \
        if (r_ != CUDA_SUCCESS) {                                                                      \
            printf("FAILED %s: %s:%d: %s: CUresult %d\n", gpu_test_case, __FILE__, __LINE__, #expr, (int)r_); \
            fflush(stdout);                                                                            \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)

void *gpu_test_page_end_alloc(void **alloc, size_t count, size_t es)
{
    if (g_vmm_state <= 0 && !gpu_test_page_end_ready()) {
        printf("FAILED %s: a page-end operand without gpu_test_page_end_ready (%s)\n", gpu_test_case, g_vmm_why);
        fflush(stdout);
        exit(1);
    }
    gpu_test_page_layout l;
    if (count > SIZE_MAX / (es ? es : 1) || gpu_test_page_layout_of(count * es, g_vmm_gran, &l) != 0) {
        printf("FAILED %s: a page-end operand of %zu x %zu bytes does not fit\n", gpu_test_case, count, es);
        fflush(stdout);
        exit(1);
    }
    vmm_buf *b = xmalloc(sizeof *b);
    memset(b, 0, sizeof *b);
    b->map_bytes = l.map_bytes;
    b->reserve_bytes = l.reserve_bytes;
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = g_vmm_device;
    DRIVER_CHECK(p_cuMemAddressReserve(&b->base, l.reserve_bytes, g_vmm_gran, 0, 0));
    DRIVER_CHECK(p_cuMemCreate(&b->mem, l.map_bytes, &prop, 0));
    DRIVER_CHECK(p_cuMemMap(b->base, l.map_bytes, 0, b->mem, 0));
    CUmemAccessDesc access;
    memset(&access, 0, sizeof access);
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DRIVER_CHECK(p_cuMemSetAccess(b->base, l.map_bytes, &access, 1)); /* the mapped pages only */
    b->next = g_vmm_bufs;
    g_vmm_bufs = b;
    *alloc = (void *)(uintptr_t)b->base;
    return (char *)*alloc + l.offset;
}

void gpu_test_free(void *alloc)
{
    if (!alloc) return;
    for (vmm_buf **pb = &g_vmm_bufs; *pb; pb = &(*pb)->next) {
        vmm_buf *b = *pb;
        if ((void *)(uintptr_t)b->base != alloc) continue;
        /* kernels may still use it: as cudaFree does, wait for the device first */
        CUDA_CHECK(cudaDeviceSynchronize());
        DRIVER_CHECK(p_cuMemUnmap(b->base, b->map_bytes));
        DRIVER_CHECK(p_cuMemRelease(b->mem));
        DRIVER_CHECK(p_cuMemAddressFree(b->base, b->reserve_bytes));
        *pb = b->next;
        free(b);
        return;
    }
    cudaFree(alloc);
}

/* Runs case i between its "==" line and its verdict; returns 1 when it failed. */
static int run_one(const gpu_test_suite *s, int i)
{
    gpu_test_case = s->case_name(i);
    g_runs = g_failed_runs = g_runs_elsewhere = 0;
    g_skip_why[0] = 0;
    printf("== %s\n", gpu_test_case);
    s->run_case(i);
    if (g_failed_runs) {
        printf("FAILED %s: %d of %d runs failed\n", gpu_test_case, g_failed_runs, g_runs);
    } else if (g_skip_why[0]) {
        if (require_gpu()) {
            printf("FAILED %s: skipped (%s) and SHOAL_REQUIRE_GPU is set\n", gpu_test_case, g_skip_why);
            fflush(stdout);
            return 1;
        }
        printf("SKIP: %s: %s\n", gpu_test_case, g_skip_why);
        fflush(stdout);
        return 0;
    } else if (g_runs == 0 && g_runs_elsewhere == 0)
        printf("FAILED %s: the case recorded no runs (it checked nothing)\n", gpu_test_case);
    else if (g_runs_elsewhere)
        printf("ok %s (%d runs, %d in other shards)\n", gpu_test_case, g_runs, g_runs_elsewhere);
    else
        printf("ok %s (%d runs)\n", gpu_test_case, g_runs);
    fflush(stdout);
    return g_failed_runs != 0 || (g_runs == 0 && g_runs_elsewhere == 0);
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
    int i_shard, j_shard;
    static const char *const shard_vars[] = {"SHOAL_TEST_SHARD", "SHOAL_TEST_RUN_SHARD"};
    for (int v = 0; v < 2; ++v)
        if (!shard_of_env(shard_vars[v], v ? &g_run_i : &i_shard, v ? &g_run_j : &j_shard)) {
            fprintf(stderr, "%s='%s': expected I/J with 0 <= I < J\n", shard_vars[v], getenv(shard_vars[v]));
            return 2;
        }
    int seen = 0;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < s->n_cases; ++i)
            if (taken(s->case_name(i), i_shard, j_shard, &seen)) printf("%s\n", s->case_name(i));
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
        if (!failed && g_skip_why[0]) {
            if (s->teardown) s->teardown();
            shoal_destroy(*handle);
            return 77;
        }
    } else {
        int ran = 0;
        for (int i = 0; i < s->n_cases; ++i)
            if (taken(s->case_name(i), i_shard, j_shard, &seen)) failed += run_one(s, i), ++ran;
        if (ran < s->n_cases)
            printf("# SHOAL_TEST_CASES=%s SHOAL_TEST_SHARD=%d/%d selected %d of %d cases\n",
                   getenv("SHOAL_TEST_CASES") ? getenv("SHOAL_TEST_CASES") : "", i_shard, j_shard, ran, s->n_cases);
        printf("%d of %d cases failed\n", failed, ran);
    }
    if (s->teardown) s->teardown();
    shoal_destroy(*handle);
    return failed ? 1 : 0;
}
