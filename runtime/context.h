/* What a shoal handle holds. Filled once by shoal_create; calls only read it (and the
 * one-entry dispatch cache), so the hot path does no allocation and no device query. */
#ifndef SHOAL_CONTEXT_H
#define SHOAL_CONTEXT_H

#include <cublas_v2.h>
#include <cusolverDn.h>
#include "shoal.h"
#include "block_pointers.h"
#include "dispatch_table.h"
#include "lapack_routines.h"

#define SHOAL_CONTEXT_MAGIC 0x5a0a1c0du

/* The solvers' element workspace (gels: the reflectors' tau, and A^H for m < n): a call runs as
 * many problems at a time as fit. 32 MiB holds the largest problem (1024 x 1024 in z, 16 MiB)
 * and tau for 2048 of them. */
#ifndef SHOAL_SOLVER_WS_BYTES /* the host test (tests/c/test_gels_host.c) makes it small */
#define SHOAL_SOLVER_WS_BYTES ((size_t)32 << 20)
#endif

/* The last dispatch decision, reused while an application repeats one shape. */
typedef struct shoal_dispatch_cache {
    int valid;
    char precision;
    unsigned char mode, variant, vendor_enabled;
    int dims[3];
    short kernel; /* index into the routine's kernel array, or SHOAL_KERNEL_VENDOR */
    int resident_blocks; /* factorizations: the kernel's resident blocks per SM for a resident
                            grid (runtime/lapack_launch.h), asked once per cached kernel; 0 until then */
} shoal_dispatch_cache;

struct shoal_context {
    unsigned magic;
    int device;
    int cc_major, cc_minor;
    int smem_optin;
    int sm_count;
    char device_name[256];
    cudaStream_t stream;
    cublasHandle_t cublas;
    int vendor_enabled;
    const shoal_table *gemm_table; /* the table of any precision (shoal_get_dispatch_info) */
    /* the tables dispatch reads, per precision slot (shoal_precision_slot; NULL: portable
     * default): a table tuned in some precisions only leaves the others to the next in the chain */
    const shoal_table *gemm_tables[SHOAL_N_PRECISIONS];
    int gemm_match_level;
    shoal_dispatch_cache gemm_cache;
    cusolverDnHandle_t cusolver;   /* vendor of the Cholesky routines */
    const shoal_table *lapack_table[SHOAL_LAPACK_N_ROUTINES][SHOAL_N_PRECISIONS]; /* as gemm_tables */
    shoal_dispatch_cache lapack_cache[SHOAL_LAPACK_N_ROUTINES];
    int *scratch;                  /* one device int: shoal_imax_device's result */
    /* spec routines (runtime/spec_run.h): a table and a dispatch cache per routine */
    const shoal_table **spec_table; /* [routine * SHOAL_N_PRECISIONS + precision slot], as gemm_tables */
    shoal_dispatch_cache *spec_cache;
    /* drivers' workspace: pointer arrays of sub-matrices, SHOAL_WS_OPERANDS x SHOAL_WS_POINTERS;
     * then, in the same allocation, as many for strided factorization calls the vendor serves
     * (runtime/lapack_vendor_strided.c): apart, so that a driver's arrays outlive such a step;
     * then SHOAL_WS_LAPACK_SLOTS arrays for the factorizations' drivers (runtime/drivers/
     * lapack_steps.h) and SHOAL_WS_POINTERS ints of a step's per-problem info */
    void **ws_ptrs;
    void **vendor_ptrs;
    void **lapack_ptrs;
    int *step_info;
    void *solver_ws;               /* SHOAL_SOLVER_WS_BYTES after the pointer arrays, 256-byte aligned */
    const char *served;            /* kernel or vendor of the last call with work (runtime/served.h) */
};

#ifdef __cplusplus
extern "C" {
#endif

/* NULL unless h is a live handle. */
struct shoal_context *shoal_context_get(shoal_handle h);

#ifdef __cplusplus
}
#endif

#endif
