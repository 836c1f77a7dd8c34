#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "dispatch.h"
#include "spec_run.h"

/* the drivers' pointer arrays, the strided vendor route's, the factorization drivers' and their
 * steps' info (context.h), one allocation */
#define WORKSPACE_SLOTS (2 * SHOAL_WS_OPERANDS + SHOAL_WS_LAPACK_SLOTS + 1)
#define POINTERS_BYTES (sizeof(void *) * WORKSPACE_SLOTS * SHOAL_WS_POINTERS)
/* then the solvers' elements (context.h) */
#define WORKSPACE_BYTES (POINTERS_BYTES + SHOAL_SOLVER_WS_BYTES)
_Static_assert(POINTERS_BYTES % 256 == 0, "the solvers' workspace starts aligned");
_Static_assert(sizeof(void *) >= sizeof(int), "a workspace slot holds SHOAL_WS_POINTERS ints");

/* out[slot]: the table each precision's calls dispatch from (shoal_select_table_for) */
static void select_tables(const struct shoal_context *ctx, const shoal_table *tables, int n_tables,
                          const shoal_table **out)
{
    for (int slot = 0; slot < SHOAL_N_PRECISIONS; ++slot) {
        int level = 0;
        out[slot] = shoal_select_table_for(tables, n_tables, ctx->device_name, ctx->cc_major, ctx->cc_minor,
                                           "sdcz"[slot], &level);
    }
}

struct shoal_context *shoal_context_get(shoal_handle h)
{
    return (h && h->magic == SHOAL_CONTEXT_MAGIC) ? h : NULL;
}

/* Why this thread's last shoal_create failed; per thread, so that concurrent creates on
 * different devices cannot overwrite each other's message. */
static _Thread_local char create_error[256];

const char *shoal_create_error_string(void)
{
    return create_error;
}

static shoal_status cuda_failed(shoal_status status, const char *call, cudaError_t e)
{
    snprintf(create_error, sizeof create_error, "%s: %s: %s", call, cudaGetErrorName(e), cudaGetErrorString(e));
    cudaGetLastError(); /* a failed probe must not leave an error for the caller's next check */
    return status;
}

static shoal_status lib_failed(shoal_status status, const char *call, const char *why)
{
    snprintf(create_error, sizeof create_error, "%s: %s", call, why);
    return status;
}

shoal_status shoal_create(shoal_handle *handle)
{
    create_error[0] = '\0';
    if (!handle) return lib_failed(SHOAL_STATUS_INVALID_VALUE, "shoal_create", "handle is NULL");
    *handle = NULL;
    int device = 0, count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) return cuda_failed(SHOAL_STATUS_NO_DEVICE, "cudaGetDeviceCount", e);
    if (count == 0) return lib_failed(SHOAL_STATUS_NO_DEVICE, "cudaGetDeviceCount", "0 devices");
    if ((e = cudaGetDevice(&device)) != cudaSuccess) return cuda_failed(SHOAL_STATUS_NO_DEVICE, "cudaGetDevice", e);
    struct cudaDeviceProp prop;
    if ((e = cudaGetDeviceProperties(&prop, device)) != cudaSuccess)
        return cuda_failed(SHOAL_STATUS_CUDA_ERROR, "cudaGetDeviceProperties", e);

    struct shoal_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return lib_failed(SHOAL_STATUS_ALLOC_FAILED, "calloc", "out of host memory");
    ctx->device = device;
    ctx->cc_major = prop.major;
    ctx->cc_minor = prop.minor;
    ctx->smem_optin = (int)prop.sharedMemPerBlockOptin;
    ctx->sm_count = prop.multiProcessorCount;
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s", prop.name);
    ctx->vendor_enabled = 1;
    cublasStatus_t cb = cublasCreate(&ctx->cublas);
    if (cb != CUBLAS_STATUS_SUCCESS) {
        free(ctx);
        return lib_failed(SHOAL_STATUS_VENDOR_ERROR, "cublasCreate", cublasGetStatusString(cb));
    }
    cusolverStatus_t cs = cusolverDnCreate(&ctx->cusolver);
    if (cs != CUSOLVER_STATUS_SUCCESS) {
        cublasDestroy(ctx->cublas);
        free(ctx);
        char why[48];
        snprintf(why, sizeof why, "cusolverStatus_t %d", (int)cs);
        return lib_failed(SHOAL_STATUS_VENDOR_ERROR, "cusolverDnCreate", why);
    }
    if ((e = cudaMalloc((void **)&ctx->scratch, sizeof(int))) != cudaSuccess) {
        cusolverDnDestroy(ctx->cusolver);
        cublasDestroy(ctx->cublas);
        free(ctx);
        return cuda_failed(SHOAL_STATUS_ALLOC_FAILED, "cudaMalloc", e);
    }
    ctx->gemm_table = shoal_select_table(shoal_gemm_tables, shoal_gemm_n_tables, ctx->device_name,
                                         ctx->cc_major, ctx->cc_minor, &ctx->gemm_match_level);
    select_tables(ctx, shoal_gemm_tables, shoal_gemm_n_tables, ctx->gemm_tables);
    for (int r = 0; r < SHOAL_LAPACK_N_ROUTINES; ++r)
        select_tables(ctx, shoal_lapack_routines[r].tables, *shoal_lapack_routines[r].n_tables, ctx->lapack_table[r]);
    ctx->spec_table = calloc(((size_t)shoal_spec_n_routines + 1) * SHOAL_N_PRECISIONS, sizeof *ctx->spec_table);
    ctx->spec_cache = calloc((size_t)shoal_spec_n_routines + 1, sizeof *ctx->spec_cache);
    e = !ctx->spec_table || !ctx->spec_cache
            ? cudaErrorMemoryAllocation
            : cudaMalloc((void **)&ctx->ws_ptrs, WORKSPACE_BYTES);
    if (e != cudaSuccess) {
        free(ctx->spec_table);
        free(ctx->spec_cache);
        cudaFree(ctx->scratch);
        cusolverDnDestroy(ctx->cusolver);
        cublasDestroy(ctx->cublas);
        free(ctx);
        return cuda_failed(SHOAL_STATUS_ALLOC_FAILED, "drivers' workspace", e);
    }
    ctx->vendor_ptrs = ctx->ws_ptrs + (size_t)SHOAL_WS_OPERANDS * SHOAL_WS_POINTERS;
    ctx->lapack_ptrs = ctx->vendor_ptrs + (size_t)SHOAL_WS_OPERANDS * SHOAL_WS_POINTERS;
    ctx->step_info = (int *)(ctx->lapack_ptrs + (size_t)SHOAL_WS_LAPACK_SLOTS * SHOAL_WS_POINTERS);
    ctx->solver_ws = (char *)ctx->ws_ptrs + POINTERS_BYTES;
    for (int r = 0; r < shoal_spec_n_routines; ++r)
        select_tables(ctx, shoal_spec_routines[r].tables, *shoal_spec_routines[r].n_tables,
                      ctx->spec_table + (size_t)r * SHOAL_N_PRECISIONS);
    ctx->magic = SHOAL_CONTEXT_MAGIC;
    *handle = ctx;
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_destroy(shoal_handle handle)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    cublasDestroy(ctx->cublas);
    cusolverDnDestroy(ctx->cusolver);
    cudaFree(ctx->scratch);
    cudaFree(ctx->ws_ptrs);
    free(ctx->spec_table);
    free(ctx->spec_cache);
    ctx->magic = 0;
    free(ctx);
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_set_stream(shoal_handle handle, cudaStream_t stream)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (cublasSetStream(ctx->cublas, stream) != CUBLAS_STATUS_SUCCESS) return SHOAL_STATUS_VENDOR_ERROR;
    if (cusolverDnSetStream(ctx->cusolver, stream) != CUSOLVER_STATUS_SUCCESS) return SHOAL_STATUS_VENDOR_ERROR;
    ctx->stream = stream;
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_get_stream(shoal_handle handle, cudaStream_t *stream)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (!stream) return SHOAL_STATUS_INVALID_VALUE;
    *stream = ctx->stream;
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_set_vendor_dispatch(shoal_handle handle, int enabled)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    ctx->vendor_enabled = enabled != 0;
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_get_dispatch_info(shoal_handle handle, const char **table_device, int *match_level)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (table_device) *table_device = ctx->gemm_table ? ctx->gemm_table->device_name : "portable";
    if (match_level) *match_level = ctx->gemm_match_level;
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_get_workspace_size(shoal_handle handle, size_t *bytes)
{
    struct shoal_context *ctx = shoal_context_get(handle);
    if (!ctx) return SHOAL_STATUS_NOT_INITIALIZED;
    if (!bytes) return SHOAL_STATUS_INVALID_VALUE;
    *bytes = WORKSPACE_BYTES;
    return SHOAL_STATUS_SUCCESS;
}

