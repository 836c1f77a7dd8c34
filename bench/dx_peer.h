/* cuSolverDx as a peer of the factorization benchmark (bench/lapack_bench.c, method
 * `cusolverdx`): one batched kernel per (routine, precision, uplo, n, SM) around the device
 * function that NVIDIA's libmathdx generates, with the library's suggested BatchesPerBlock and
 * block dimension (what its documentation tells a user to do).
 *
 * Pipeline, split by concern:
 *   dx_gen.c     libmathdx descriptor -> LTOIR + universal fatbin; the wrapper kernel
 *                (dx_wrapper.c) through NVRTC -dlto; nvJitLink -> cubin. Host only, no GPU.
 *   dx_cache.c   cubins on disk keyed by routine/prec/uplo/n/sm under a folder named by the
 *                libmathdx version and the recipe (generation takes seconds per kernel);
 *                parallel generation of what is missing.
 *   dx_load.c    cudaLibraryLoadData + launch (the CUDA runtime only, no libcuda link).
 *   dx_none.c    the same interface where libmathdx was not found at build time: every call
 *                says "unavailable (libmathdx not found)" and the bench goes on without it.
 *
 * Data layout is the bench's: n x n column-major, lda = n, packed (stride n^2), in place; ipiv
 * and tau stride n; one info per matrix. */
#ifndef SHOAL_DX_PEER_H
#define SHOAL_DX_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#define DX_MAX_N 64 /* the peer is measured for n <= 64 (one matrix fits in shared memory) */

typedef enum dx_routine { DX_GETRF, DX_POTRF, DX_GEQRF } dx_routine;

typedef struct dx_config {
    dx_routine routine; /* getrf: partial pivoting; potrf: uplo; geqrf: LAPACK layout + tau */
    char prec;          /* 's' or 'd' */
    char uplo;          /* potrf: 'l' or 'u'; else 'n' */
    int n;
    int sm;             /* libmathdx's SM value: 100 x major + 10 x minor (900 for sm_90) */
} dx_config;

/* What code generation decided for one kernel. */
typedef struct dx_shape {
    int bpb;           /* matrices per thread block (the library's suggestion) */
    int threads;       /* threads per block (the library's block dim for that BPB) */
    int block[3];      /* that block dim */
    long long smem;    /* dynamic shared memory bytes of the kernel */
    double gen_s;      /* generation seconds (0 when it came from the cache) */
} dx_shape;

typedef struct dx_kernel dx_kernel;

/* NULL where the peer was built with libmathdx; else why it is unavailable. */
const char *dx_peer_missing(void);

/* "libmathdx 401 (MathDx 26.06.1) cuSolverDx 0.5.0" or the reason it is unavailable. */
const char *dx_peer_version(void);

/* The cache folder: $SHOAL_DX_CACHE, else build/dx_cache (relative to the working directory). */
const char *dx_peer_cache_dir(void);

/* "getrf_d_n_8_sm900": the configuration's name (cache key, messages). */
void dx_config_name(const dx_config *c, char *buf, size_t len);

/* Generates the configurations the cache lacks, with up to `jobs` forked processes (NVRTC
 * compiles the library's headers: ~1 GB of memory and tens of seconds each). Needs no GPU and
 * touches no CUDA runtime state in this process. One "[dx] name ..." line per configuration on
 * stdout when verbose. Returns how many failed. */
int dx_peer_prepare(const dx_config *cfgs, int count, int jobs, int verbose);

/* The configuration's shape from the cache (0 on success). */
int dx_peer_cached_shape(const dx_config *c, dx_shape *out);

/* Loads the cached (or freshly generated) kernel into the current CUDA context; NULL with the
 * reason in why on failure. */
dx_kernel *dx_peer_open(const dx_config *c, char *why, size_t len);
const dx_shape *dx_peer_shape(const dx_kernel *k);

/* Factors `batch` matrices of A in place on stream; ipiv (getrf) and tau (geqrf) stride n,
 * info (getrf, potrf) one per matrix; the others may be NULL. */
cudaError_t dx_peer_launch(const dx_kernel *k, void *a, int *ipiv, void *tau, int *info,
                           int64_t batch, cudaStream_t stream);
void dx_peer_close(dx_kernel *k);

#endif
