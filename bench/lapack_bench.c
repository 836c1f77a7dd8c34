/* shoal_lapack_bench: batched small-matrix factorizations, shoal vs cuBLAS / cuSOLVER vs
 * OpenBLAS + OpenMP, on one GPU, in one run.
 *
 * Rows (precision s and d by default, c and z with --prec, e.g. sdcz; n = 2..32; --quick: n in
 * {2, 4, 8, 16, 32}; --n picks sizes up to 1024, see "Sizes" below):
 *   getrf        shoal_?getrf_{strided_,}batched  vs cublas?getrfBatched
 *   inverse      shoal_?getri_fused_{strided_,}batched vs the faster of cublas?matinvBatched and
 *                cublas?getrfBatched + cublas?getriBatched (timed together)
 *   getri        shoal_?getri_{strided_,}batched (from LU factors) vs cublas?getriBatched
 *   potrf L, U   shoal_?potrf_{strided_,}batched  vs cusolverDn?potrfBatched
 *   geqrf        shoal_?geqrf_{strided_,}batched  vs cublas?geqrfBatched
 *   getrs N      (n in {4, 8, 16, 32} unless --n, nrhs 1) vs cublas?getrsBatched
 *   gesv         vs cublas?getrfBatched + cublas?getrsBatched (timed together: the factors and
 *                pivots the first writes are what the second reads)
 *   potrs L, U   vs cusolverDn?potrsBatched
 *   posv L, U    vs cusolverDn?potrfBatched + cusolverDn?potrsBatched
 * plus, for getrf, potrf and geqrf, OpenBLAS's LAPACK one matrix per call in an OpenMP parallel
 * for over a subset of the batch (time-limited; per-matrix rates do not depend on the batch),
 * and NVIDIA's cuSolverDx (method `cusolverdx`, strided data, in place) where the bench was built
 * with libmathdx (bench/dx_peer.h): getrf with partial pivoting, potrf, geqrf, one kernel per
 * (prec, uplo, n) generated at start-up (or taken from the cache, $SHOAL_DX_CACHE) with the
 * library's suggested BatchesPerBlock and block dim. Without libmathdx the bench says
 * "cusolverdx: unavailable (libmathdx not found)" once and goes on; a peer that ran must pass
 * the same checks as the vendor.
 * The vendors only take pointer arrays, so they are compared with both shoal forms.
 *
 * c and z: the same rows (getrs with trans N, T and C; potrf / potrs / posv Hermitian) against
 * the vendors' complex routines (cublas{C,Z}getrfBatched, getrsBatched, getriBatched,
 * matinvBatched, geqrfBatched; cusolverDn{C,Z}potrfBatched / potrsBatched) and OpenBLAS's
 * {c,z}getrf / potrf / geqrf; no cuSolverDx peer (the bench's wrapper and generator are real
 * only). Inputs: both
 * parts of every element uniform in [-1, 1], never 0; the Hermitian matrices strictly diagonally
 * dominant with a real diagonal (bench_fill_spd). Checks: the same measures in complex
 * arithmetic (oracle/lapack_check.h's oracle_z* forms), the same limit. Flops: the LAWN 41 counts below x4
 * (a complex multiply-add is 8 real flops to a real one's 2), as the tuner and the other
 * benchmarks count them.
 *
 * Sizes: inverse serves n <= 32; getrf, getri, getrs, gesv (the blocked LU drivers above 32),
 * potrf, potrs, posv (the blocked Cholesky drivers) and geqrf (its blocked driver) serve n <= 1024 (routine_info's
 * max_n). --n takes 1..1024 for every selected routine; a routine's sizes above what it serves
 * are skipped (no row, no CSV line), said once before the tables ("# n > 32: skipped for ...",
 * on stderr with --list), not an error; a routine left with no size prints no table. Solves:
 * n <= 32 take --nrhs (default 1); n > 32 take nrhs 1 and nrhs n/4 (two rows each; an explicit
 * --nrhs K takes K at every n instead). cuSOLVER's batched potrs takes nrhs 1 only: its rows at
 * nrhs > 1 show the vendor as "-". The cuBLAS LU calls (getrfBatched, getrsBatched,
 * getriBatched) take any n (cuBLAS documents them for small matrices, not a bound; matinvBatched,
 * the inverse row's, stops at 32 as that row does): a vendor call that refuses a size returns an
 * error, and the row shows the vendor as "-" with "vendor n/a" in its notes and no vendor line in
 * the CSV.
 *
 * Method (as bench/shoal_bench.c): matrices are n x n, lda = ldb = n, packed (stride n^2); batch
 * = clamp(4 x L2 / bytes per problem + 1, 2048, 4e6), so the data streams from memory (never
 * fewer than 1000 matrices: the floor is 2048), and exactly 1024 for n >= 256 (as the published
 * large-n batched figures use); then capped so that the row's device allocations (A and its
 * pristine copy, B and its copy, C, tau, pivots, info, the vendor's pointer arrays) stay below
 * 40 GB and 70% of the free memory ("batch limited by memory" in the notes where the cap cut
 * it, which at n = 1024 in z with nrhs n/4 can leave a little under 1000); random
 * data made on the GPU (uniform [-1, 1], never 0; for the Cholesky routines symmetric and
 * strictly diagonally dominant, hence SPD); the inputs of getri / getrs / potrs are genuine
 * factors made by the vendor's getrf / potrf before timing. Every run is preceded by restoring
 * the inputs the routine overwrites from a pristine copy (cudaMemcpyAsync, outside the timed
 * events); 2 warm-up runs, then the median of --runs runs, each between its own pair of events.
 *
 * Correctness, for every method, from one run before its timing: outputs are poisoned (NaN,
 * pivots and info -1), one run is made, info must be 0 for every matrix (the inputs are
 * nonsingular / SPD) and 16 sampled problems (2 from n = 256), spread over the batch, first and
 * last included, must have a normalized residual <= 30 (oracle/lapack_check.h, the LAPACK test
 * suite's measures). The samples' outputs of that run are copied to the host; their residuals
 * (O(n^3) a matrix on the host: at n = 1024 about 1.5 s for getrf, 9 s for getri's A C, 2.5 s
 * for a solve with nrhs 256, 4x that in c and z) are computed once the row's GPU work is done,
 * every method's samples at once in parallel threads (OpenMP), so a row's checks cost about one
 * residual's time, not methods x samples of them. A shoal method that fails or errs makes the
 * row FAILED (exit status 1); a vendor call that returns an error is shown as "-" (not
 * supported), a vendor result that errs also fails the row (the comparison would be
 * meaningless).
 *
 * Slow calls: the first warm-up run after the check is timed on the host; a method whose call
 * took longer than --method-seconds / (runs + 2) there (default 10 s: at n <= 32 every call is
 * far below it; at n = 1024 a slow vendor call may not be) gets no second warm-up and fewer runs,
 * the odd number that fits --method-seconds, or one where fewer than 3 fit; the notes say
 * "<method> R runs".
 *
 * Flop counts: LAPACK Working Note 41 exactly (m = n, per matrix; the adds + multiplies; x4 in c, z):
 *   getrf 2n^3/3 - n^2/2 + 5n/6         getri 4n^3/3 - n^2 + 5n/3
 *   inverse = getrf + getri = 2n^3 - 3n^2/2 + 5n/2
 *   potrf n^3/3 + n^2/2 + n/6           geqrf 4n^3/3 + 2n^2 + 14n/3
 *   getrs (2n^2 - n) nrhs               potrs 2n^2 nrhs
 *   gesv = getrf + getrs                posv = potrf + potrs
 * Roof: the time to move the problem's bytes at the device-to-device copy bandwidth measured in
 * the same run (bytes read + written), i.e. roof Gflop/s = copy GB/s x flops / bytes, with
 *   getrf, potrf, geqrf: A read + written (2 n^2 elements; the whole matrix for potrf),
 *   inverse, getri: A read + C written (2 n^2), getrs, potrs: A read + B read + written
 *   (n^2 + 2 n nrhs), gesv, posv: A and B read + written (2 n^2 + 2 n nrhs).
 * Pivots, tau and info are not counted (at most n + 1 words per matrix). At n <= 32 every
 * routine has < 6 flop/byte, far below the compute peak, so no compute ceiling enters the roof.
 * Above (potrf at n = 1024: n/48 ~ 21 flop/byte in d) the memory roof can pass the compute peak:
 * --peak-gflops S,D gives the compute ceilings (Gflop/s, single and double; c rows use S, z rows
 * D) and then roof = min(memory roof, peak); the table's %roof columns and the CSV's pct_roof use
 * that roof. Without the flag the roof is the memory roof alone (pct_roof = GB/s over copy GB/s).
 *
 * Peers at n > 32: the OpenBLAS row (getrf, potrf) stays time-limited (a pilot pass of at most
 * 256 MiB of matrices, then (runs + 2) passes sharing --cpu-seconds, at least one matrix per
 * thread a pass: a few seconds per row at n = 1024 at most; --no-cpu skips it); cuSolverDx serves
 * potrf to n = 64 (DX_MAX_N, bench/dx_peer.h: one matrix in shared memory; --no-dx skips it), no
 * peer above. PyTorch is measured by bench/torch_lapack_peer.py (getrf, getri, getrs, gesv, potrf;
 * run_lapack_bench.py appends its rows to the same CSV, method `torch`; its getri is lu_solve of
 * the identity from factors, as this bench's getri starts from factors: see that script).
 *
 * Exit: 0 all rows ok, 1 a row FAILED, 2 usage, 77 no CUDA device ("SKIP: ..." printed).
 */
#include "bench_kernels.h"
#include "bench_util.h"
#include "dx_peer.h"
#include "host_math.h"
#include "lapack_check.h"
#include "oracle.h" /* ORACLE_ERROR_LIMIT */
#include "shoal.h"

#include <cblas.h> /* openblas_set_num_threads, openblas_get_config */
#include <ctype.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h> /* sysconf */

/* OpenBLAS's LAPACK (libopenblas contains it; NO_LAPACKE builds have no header for it). The
 * Cholesky routine takes the Fortran hidden length of its character argument last. */
extern void sgetrf_(const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
extern void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void spotrf_(const char *uplo, const int *n, float *a, const int *lda, int *info,
                    size_t uplo_len);
extern void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info,
                    size_t uplo_len);
extern void sgeqrf_(const int *m, const int *n, float *a, const int *lda, float *tau, float *work,
                    const int *lwork, int *info);
extern void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau,
                    double *work, const int *lwork, int *info);
/* The complex ones: elements are (re, im) pairs, passed as their real type. */
extern void cgetrf_(const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
extern void zgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void cpotrf_(const char *uplo, const int *n, float *a, const int *lda, int *info,
                    size_t uplo_len);
extern void zpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info,
                    size_t uplo_len);
extern void cgeqrf_(const int *m, const int *n, float *a, const int *lda, float *tau, float *work,
                    const int *lwork, int *info);
extern void zgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau,
                    double *work, const int *lwork, int *info);

/* ------------------------------------------------------------------------------------------ */
/* Routines and methods. */

enum { R_GETRF, R_INVERSE, R_GETRI, R_POTRF, R_GEQRF, R_GETRS, R_GESV, R_POTRS, R_POSV,
       N_ROUTINES };

#define MAX_N_SMALL 32     /* the kernels' sizes: what inverse serves */
#define MAX_N_BLOCKED 1024 /* the LU, Cholesky and QR routines, through their blocked drivers above 32 */

/* What each routine reads and writes decides the restores, the poisoning and the checks. */
typedef struct routine_info {
    const char *name;      /* table, CSV and --routine name */
    const char *api;       /* shoal routine name (shoal_lapack_kernel_name) */
    const char *variants;  /* option letters: "n" (getrs: trans N; c/z: variants_of), or "lu" (uplo) */
    const char *vendor[2]; /* CSV method names of the vendor baselines; [1] may be NULL */
    const char *vendor_label; /* for the table title; '?' becomes S or D */
    int solve;       /* a solve: n in {4, 8, 16, 32}, nrhs right-hand sides */
    int spd;         /* symmetric positive definite input instead of a general one */
    int factor_in;   /* A holds factors made before timing (read only) */
    int restore_a;   /* A is restored from the pristine copy before every run: the routine
                      * overwrites it (inverse: only the vendor's getrf+getri does, but every
                      * method gets the restore so all start from the same cache state) */
    int has_c;       /* an n x n output C (the inverse) */
    int has_info;    /* every method writes one info per matrix */
    int uses_ipiv;   /* pivots are read or written */
    int writes_ipiv; /* pivots are an output (poisoned before the check) */
    int has_tau;
    int cpu;         /* an OpenBLAS baseline exists */
    int max_n;       /* the largest n it serves: MAX_N_SMALL (kernels only) or MAX_N_BLOCKED */
} routine_info;

static const routine_info routines[N_ROUTINES] = {
    [R_GETRF] = {"getrf", "getrf", "n", {"cublas", NULL}, "cublas?getrfBatched",
                 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, MAX_N_BLOCKED},
    [R_INVERSE] = {"inverse", "getri_fused", "n", {"cublas_matinv", "cublas_getrf+getri"},
                   "best of cublas?matinvBatched, cublas?getrfBatched+cublas?getriBatched",
                   0, 0, 0, 1, 1, 1, 1, 1, 0, 0, MAX_N_SMALL},
    [R_GETRI] = {"getri", "getri", "n", {"cublas", NULL}, "cublas?getriBatched",
                 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, MAX_N_BLOCKED},
    [R_POTRF] = {"potrf", "potrf", "lu", {"cusolver", NULL}, "cusolverDn?potrfBatched",
                 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, MAX_N_BLOCKED},
    [R_GEQRF] = {"geqrf", "geqrf", "n", {"cublas", NULL}, "cublas?geqrfBatched",
                 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, MAX_N_BLOCKED},
    [R_GETRS] = {"getrs", "getrs", "n", {"cublas", NULL}, "cublas?getrsBatched",
                 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, MAX_N_BLOCKED},
    [R_GESV] = {"gesv", "gesv", "n", {"cublas_getrf+getrs", NULL},
                "cublas?getrfBatched+cublas?getrsBatched", 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, MAX_N_BLOCKED},
    [R_POTRS] = {"potrs", "potrs", "lu", {"cusolver", NULL}, "cusolverDn?potrsBatched",
                 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, MAX_N_BLOCKED},
    [R_POSV] = {"posv", "posv", "lu", {"cusolver_potrf+potrs", NULL},
                "cusolverDn?potrfBatched+cusolverDn?potrsBatched", 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, MAX_N_BLOCKED},
};

#define PRECS "sdcz"
#define N_PRECS 4

/* The option letters of a routine in a precision: getrs takes trans N, T and C in c and z (the
 * real rows keep N, the runs before c and z keep their meaning). */
static const char *variants_of(int rid, char prec)
{
    return rid == R_GETRS && bench_is_complex(prec) ? "ntc" : routines[rid].variants;
}

/* GPU methods of a row: shoal in both forms, up to two vendor baselines, the cuSolverDx peer. */
enum { M_STRIDED, M_ARRAY, M_V1, M_V2, M_DX, N_METHODS };

/* Outcome of one launch. */
enum { L_OK = 0, L_SHOAL_FAILED = 1, L_VENDOR_FAILED = 2 };

#define N_SAMPLES 16       /* sampled problems checked per method (at most) */
#define N_SAMPLES_BIG 2    /* from n = BIG_N: the host check is O(n^3) a matrix */
#define MIN_BATCH 2048
#define MAX_BATCH 4000000
#define BIG_N 256          /* from here the batch is BIG_BATCH exactly */
#define BIG_BATCH 1024
#define MEM_CAP_BYTES 40e9 /* device bytes a row may allocate */

typedef struct opts {
    const char *csv;
    int quick, list, cpu, vendor_dispatch;
    int dx, dx_gen_only, dx_sm, dx_jobs; /* the cuSolverDx peer: on, --gen-only, its SM, jobs */
    int precs[N_PRECS];          /* s, d, c, z */
    int routine_on[N_ROUTINES];
    int sizes[64], n_sizes;      /* --n; 0 = the defaults */
    int runs, nrhs;
    int nrhs_set;                /* --nrhs given: K at every n (else 1 and n/4 above 32) */
    double peak[2];              /* --peak-gflops S,D; 0: no compute ceiling */
    double cpu_seconds;          /* wall-clock budget of one CPU row */
    double method_seconds;       /* --method-seconds: fewer runs for a slower method */
    int64_t cpu_max;
} opts;

/* One row: the device data every method of the row shares. */
typedef struct row_data {
    char prec, variant;
    int cx;                      /* complex (c, z): elements are (re, im) pairs */
    size_t es;                   /* bytes per element */
    int rid, n, nrhs;
    const routine_info *ri;
    int64_t batch;
    int limited;                 /* the batch was cut to fit in memory */
    int64_t sa, sb, sc;          /* strides (elements) of A, B, C */
    void *dA, *dA0, *dB, *dB0, *dC, *dtau;
    int *dipiv, *dinfo, *dinfo1; /* dinfo1: cuSOLVER potrs's single info */
    void **pA, **pB, **pC, **pTau;
    dx_kernel *dx;               /* the cuSolverDx peer of this row, NULL if none */
    int n_samples;               /* N_SAMPLES, N_SAMPLES_BIG from n = BIG_N */
    int64_t sample[N_SAMPLES];
    double *hA0, *hB0;           /* sampled originals, as doubles */
    int *hinfo;                  /* host copy of dinfo */
} row_data;

/* Sampled problem k's outputs after a method's check run, on the host (w doubles an element):
 * the result matrix (A, C, or B for the solves), tau after it (geqrf) and the pivots (getrf). */
typedef struct sample_out {
    double *x;
    int *ipiv;
} sample_out;

typedef struct method_result {
    int present;  /* the row has this method */
    int launch;   /* L_OK, L_SHOAL_FAILED, L_VENDOR_FAILED */
    double ms;    /* median; NaN if not timed */
    double call_s; /* wall seconds of the first warm-up call */
    int runs;     /* timed runs (G.o.runs, fewer for a slow call) */
    double resid; /* worst sampled residual; NaN if not checked */
    long long info_bad; /* matrices with info != 0 */
    int n_out;    /* samples in out[] (the check run's outputs, until their residuals are taken) */
    sample_out out[N_SAMPLES];
    int ok;
} method_result;

typedef struct cpu_result {
    double ms, gflops;
    int64_t count;
    int ok;
} cpu_result;

/* Everything that lives for the whole run. */
static struct {
    opts o;
    cudaStream_t st;
    cublasHandle_t cb;
    cusolverDnHandle_t cs;
    shoal_handle h;
    struct cudaDeviceProp prop;
    int64_t l2_bytes;
    double copy_gbs;
    cudaEvent_t *ev; /* 2 per timed run */
    FILE *csv;
    int failures, rows;
} G;

/* ------------------------------------------------------------------------------------------ */
/* Error handling and small utilities. */

static void die(const char *what, const char *why, int line)
{
    fprintf(stderr, "shoal_lapack_bench:%d: %s: %s\n", line, what, why);
    exit(1);
}
#define CUDA_CHECK(x)                                                                         \
    do {                                                                                      \
        cudaError_t e_ = (x);                                                                 \
        if (e_ != cudaSuccess)                                                                \
            die(#x, cudaGetErrorString(e_), __LINE__);                                        \
    } while (0)

/* FNV-1a then splitmix: a row's data depends on its key only, not on the rows run before. */
static uint64_t seed_of(const char *key)
{
    uint64_t h = 1469598103934665603ull;
    for (; *key; ++key)
        h = (h ^ (unsigned char)*key) * 1099511628211ull;
    h += 0x9e3779b97f4a7c15ull;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

/* "cublas?getrfBatched" -> "cublasDgetrfBatched". */
static void vendor_label(char *buf, size_t len, const char *tmpl, char prec)
{
    snprintf(buf, len, "%s", tmpl);
    for (char *c = buf; *c; ++c)
        if (*c == '?')
            *c = (char)toupper((unsigned char)prec);
}

static void row_key(char *buf, size_t len, char prec, int rid, char variant, int n, int nrhs)
{
    if (routines[rid].solve)
        snprintf(buf, len, "%c:%s:%c:%d:%d", prec, routines[rid].name, variant, n, nrhs);
    else
        snprintf(buf, len, "%c:%s:%c:%d", prec, routines[rid].name, variant, n);
}

/* ------------------------------------------------------------------------------------------ */
/* Flop counts (LAWN 41) and roof bytes; see the comment at the top. */

static double flops_getrf(double n) { return 2.0 * n * n * n / 3.0 - n * n / 2.0 + 5.0 * n / 6.0; }
static double flops_getri(double n) { return 4.0 * n * n * n / 3.0 - n * n + 5.0 * n / 3.0; }
static double flops_potrf(double n) { return n * n * n / 3.0 + n * n / 2.0 + n / 6.0; }
static double flops_geqrf(double n) { return 4.0 * n * n * n / 3.0 + 2.0 * n * n + 14.0 * n / 3.0; }
static double flops_getrs(double n, double r) { return (2.0 * n * n - n) * r; }
static double flops_potrs(double n, double r) { return 2.0 * n * n * r; }

static double flops_per_problem(int rid, int n, int nrhs)
{
    switch (rid) {
    case R_GETRF: return flops_getrf(n);
    case R_INVERSE: return flops_getrf(n) + flops_getri(n);
    case R_GETRI: return flops_getri(n);
    case R_POTRF: return flops_potrf(n);
    case R_GEQRF: return flops_geqrf(n);
    case R_GETRS: return flops_getrs(n, nrhs);
    case R_GESV: return flops_getrf(n) + flops_getrs(n, nrhs);
    case R_POTRS: return flops_potrs(n, nrhs);
    case R_POSV: return flops_potrf(n) + flops_potrs(n, nrhs);
    }
    return NAN;
}

/* Real flops of the row's problem: x4 in c and z (8 real flops a complex multiply-add). */
static double row_flops(const row_data *d)
{
    return flops_per_problem(d->rid, d->n, d->nrhs) * (d->cx ? 4.0 : 1.0);
}

/* Bytes the roof counts per problem (pivots, tau and info left out). */
static double roof_bytes_per_problem(int rid, int n, int nrhs, size_t es)
{
    double a = (double)n * n, b = (double)n * nrhs;
    switch (rid) {
    case R_GETRF: case R_POTRF: case R_GEQRF: return 2.0 * a * (double)es;
    case R_INVERSE: case R_GETRI: return 2.0 * a * (double)es;
    case R_GETRS: case R_POTRS: return (a + 2.0 * b) * (double)es;
    case R_GESV: case R_POSV: return (2.0 * a + 2.0 * b) * (double)es;
    }
    return NAN;
}

/* The row's roof in Gflop/s: the memory roof (copy GB/s x flops / bytes), capped by the compute
 * peak of the row's real type where --peak-gflops gave one. */
static double row_roof(const row_data *d)
{
    double roof = G.copy_gbs * row_flops(d) / roof_bytes_per_problem(d->rid, d->n, d->nrhs, d->es);
    double peak = G.o.peak[bench_real_prec(d->prec) == 'd'];
    return peak > 0 && peak < roof ? peak : roof;
}

/* Whether the routine serves size n (larger sizes of --n are skipped for it). */
static int serves(int rid, int n)
{
    return n >= 1 && n <= routines[rid].max_n;
}

/* The right-hand-side counts of a row of size n: none for a factorization; --nrhs (default 1) to
 * n = 32; above, 1 and n/4 (the sizes the large-n solves are judged at) unless --nrhs was given.
 * Returns how many (1 or 2). */
static int nrhs_list(int rid, int n, int out[2])
{
    if (!routines[rid].solve) {
        out[0] = 0;
        return 1;
    }
    out[0] = G.o.nrhs_set || n <= MAX_N_SMALL ? G.o.nrhs : 1;
    if (G.o.nrhs_set || n <= MAX_N_SMALL || n / 4 <= 1)
        return 1;
    out[1] = n / 4;
    return 2;
}

/* ------------------------------------------------------------------------------------------ */
/* Launches. Pointer-array casts: the vendor and shoal prototypes differ only in constness. */

#define FP(p) ((float *const *)(p))
#define DP(p) ((double *const *)(p))
#define CFP(p) ((const float *const *)(p))
#define CDP(p) ((const double *const *)(p))
/* c and z: the vendors' element pointers (VX: cuComplex, VZ: cuDoubleComplex); SDCZ picks a
 * vendor call by precision. */
#define CZ(d, c_call, z_call) ((d)->prec == 'c' ? (c_call) : (z_call))
#define SDCZ(d, s_call, d_call, c_call, z_call) \
    ((d)->prec == 's' ? (s_call) : (d)->prec == 'd' ? (d_call) : CZ(d, c_call, z_call))
#define VXP(p) ((cuComplex *const *)(p))
#define VZP(p) ((cuDoubleComplex *const *)(p))
#define CVXP(p) ((const cuComplex *const *)(p))
#define CVZP(p) ((const cuDoubleComplex *const *)(p))

static shoal_fill_mode shoal_uplo(const row_data *d)
{
    return d->variant == 'u' ? SHOAL_FILL_UPPER : SHOAL_FILL_LOWER;
}

static cublasFillMode_t vendor_uplo(const row_data *d)
{
    return d->variant == 'u' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

/* getrs's trans from the row's variant: n, t or c (the real rows: n). */
static shoal_operation getrs_op(const row_data *d)
{
    return d->variant == 'c' ? SHOAL_OP_C : d->variant == 't' ? SHOAL_OP_T : SHOAL_OP_N;
}

/* shoal in precision X (s, d, c, z) with elements T, strided (array = 0) or pointer arrays
 * (array = 1); getrs takes the row's op (n in the real rows). One body for the four precisions:
 * the entry points differ only in their names and element types. */
#define CALL_SHOAL(X, T)                                                                                         \
    static shoal_status call_shoal_##X(const row_data *d, int array)                                             \
    {                                                                                                            \
        shoal_handle h = G.h;                                                                                    \
        const int n = d->n, r = d->nrhs;                                                                         \
        const int64_t b = d->batch, sa = d->sa, sb = d->sb, sc = d->sc;                                          \
        const shoal_fill_mode u = shoal_uplo(d);                                                                 \
        T *const *pA = (T *const *)d->pA, *const *pB = (T *const *)d->pB, *const *pC = (T *const *)d->pC;       \
        T *const *pTau = (T *const *)d->pTau;                                                                    \
        const T *const *cA = (const T *const *)d->pA;                                                            \
        T *dA = (T *)d->dA, *dB = (T *)d->dB, *dC = (T *)d->dC, *dtau = (T *)d->dtau;                            \
        switch (d->rid) {                                                                                        \
        case R_GETRF:                                                                                            \
            return array ? shoal_##X##getrf_batched(h, n, n, pA, n, d->dipiv, d->dinfo, b)                       \
                         : shoal_##X##getrf_strided_batched(h, n, n, dA, n, sa, d->dipiv, n, d->dinfo, b);      \
        case R_INVERSE:                                                                                          \
            return array ? shoal_##X##getri_fused_batched(h, n, cA, n, pC, n, d->dinfo, b)                       \
                         : shoal_##X##getri_fused_strided_batched(h, n, dA, n, sa, dC, n, sc, d->dinfo, b);     \
        case R_GETRI:                                                                                            \
            return array ? shoal_##X##getri_batched(h, n, cA, n, d->dipiv, pC, n, d->dinfo, b)                   \
                         : shoal_##X##getri_strided_batched(h, n, dA, n, sa, d->dipiv, n, dC, n, sc, d->dinfo, \
                                                            b);                                                  \
        case R_POTRF:                                                                                            \
            return array ? shoal_##X##potrf_batched(h, u, n, pA, n, d->dinfo, b)                                 \
                         : shoal_##X##potrf_strided_batched(h, u, n, dA, n, sa, d->dinfo, b);                    \
        case R_GEQRF:                                                                                            \
            return array ? shoal_##X##geqrf_batched(h, n, n, pA, n, pTau, b)                                     \
                         : shoal_##X##geqrf_strided_batched(h, n, n, dA, n, sa, dtau, n, b);                     \
        case R_GETRS:                                                                                            \
            return array ? shoal_##X##getrs_batched(h, getrs_op(d), n, r, cA, n, d->dipiv, pB, n, b)             \
                         : shoal_##X##getrs_strided_batched(h, getrs_op(d), n, r, dA, n, sa, d->dipiv, n, dB,  \
                                                            n, sb, b);                                           \
        case R_GESV:                                                                                             \
            return array ? shoal_##X##gesv_batched(h, n, r, pA, n, d->dipiv, pB, n, d->dinfo, b)                 \
                         : shoal_##X##gesv_strided_batched(h, n, r, dA, n, sa, d->dipiv, n, dB, n, sb,         \
                                                           d->dinfo, b);                                         \
        case R_POTRS:                                                                                            \
            return array ? shoal_##X##potrs_batched(h, u, n, r, cA, n, pB, n, b)                                 \
                         : shoal_##X##potrs_strided_batched(h, u, n, r, dA, n, sa, dB, n, sb, b);                \
        case R_POSV:                                                                                             \
            return array ? shoal_##X##posv_batched(h, u, n, r, pA, n, pB, n, d->dinfo, b)                        \
                         : shoal_##X##posv_strided_batched(h, u, n, r, dA, n, sa, dB, n, sb, d->dinfo, b);      \
        }                                                                                                        \
        return SHOAL_STATUS_INVALID_VALUE;                                                                       \
    }

CALL_SHOAL(s, float)
CALL_SHOAL(d, double)
CALL_SHOAL(c, shoal_complex_float)
CALL_SHOAL(z, shoal_complex_double)

/* shoal, strided (array = 0) or pointer array (array = 1). */
static shoal_status call_shoal(const row_data *d, int array)
{
    switch (d->prec) {
    case 's': return call_shoal_s(d, array);
    case 'd': return call_shoal_d(d, array);
    case 'c': return call_shoal_c(d, array);
    case 'z': return call_shoal_z(d, array);
    }
    return SHOAL_STATUS_INVALID_VALUE;
}

/* The vendor's building blocks; 0 on success. cuBLAS takes int batch counts (<= 4e6 here). */
static int cublas_getrf(const row_data *d)
{
    int n = d->n, b = (int)d->batch;
    return SDCZ(d, cublasSgetrfBatched(G.cb, n, FP(d->pA), n, d->dipiv, d->dinfo, b),
                cublasDgetrfBatched(G.cb, n, DP(d->pA), n, d->dipiv, d->dinfo, b),
                cublasCgetrfBatched(G.cb, n, VXP(d->pA), n, d->dipiv, d->dinfo, b),
                cublasZgetrfBatched(G.cb, n, VZP(d->pA), n, d->dipiv, d->dinfo, b)) !=
           CUBLAS_STATUS_SUCCESS;
}

static int cublas_getri(const row_data *d)
{
    int n = d->n, b = (int)d->batch;
    return SDCZ(d, cublasSgetriBatched(G.cb, n, CFP(d->pA), n, d->dipiv, FP(d->pC), n, d->dinfo, b),
                cublasDgetriBatched(G.cb, n, CDP(d->pA), n, d->dipiv, DP(d->pC), n, d->dinfo, b),
                cublasCgetriBatched(G.cb, n, CVXP(d->pA), n, d->dipiv, VXP(d->pC), n, d->dinfo, b),
                cublasZgetriBatched(G.cb, n, CVZP(d->pA), n, d->dipiv, VZP(d->pC), n, d->dinfo, b)) !=
           CUBLAS_STATUS_SUCCESS;
}

static int cublas_matinv(const row_data *d)
{
    int n = d->n, b = (int)d->batch;
    return SDCZ(d, cublasSmatinvBatched(G.cb, n, CFP(d->pA), n, FP(d->pC), n, d->dinfo, b),
                cublasDmatinvBatched(G.cb, n, CDP(d->pA), n, DP(d->pC), n, d->dinfo, b),
                cublasCmatinvBatched(G.cb, n, CVXP(d->pA), n, VXP(d->pC), n, d->dinfo, b),
                cublasZmatinvBatched(G.cb, n, CVZP(d->pA), n, VZP(d->pC), n, d->dinfo, b)) !=
           CUBLAS_STATUS_SUCCESS;
}

/* cuBLAS's geqrf and getrs report argument errors in a host info. */
static int cublas_geqrf(const row_data *d)
{
    int n = d->n, b = (int)d->batch, info = 0;
    cublasStatus_t st = SDCZ(d, cublasSgeqrfBatched(G.cb, n, n, FP(d->pA), n, FP(d->pTau), &info, b),
                             cublasDgeqrfBatched(G.cb, n, n, DP(d->pA), n, DP(d->pTau), &info, b),
                             cublasCgeqrfBatched(G.cb, n, n, VXP(d->pA), n, VXP(d->pTau), &info, b),
                             cublasZgeqrfBatched(G.cb, n, n, VZP(d->pA), n, VZP(d->pTau), &info, b));
    return st != CUBLAS_STATUS_SUCCESS || info != 0;
}

static int cublas_getrs(const row_data *d)
{
    int n = d->n, r = d->nrhs, b = (int)d->batch, info = 0;
    cublasOperation_t op = d->variant == 'c' ? CUBLAS_OP_C : d->variant == 't' ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasStatus_t st = SDCZ(d, cublasSgetrsBatched(G.cb, op, n, r, CFP(d->pA), n, d->dipiv,
                                                    FP(d->pB), n, &info, b),
                             cublasDgetrsBatched(G.cb, op, n, r, CDP(d->pA), n, d->dipiv,
                                                 DP(d->pB), n, &info, b),
                             cublasCgetrsBatched(G.cb, op, n, r, CVXP(d->pA), n, d->dipiv,
                                                 VXP(d->pB), n, &info, b),
                             cublasZgetrsBatched(G.cb, op, n, r, CVZP(d->pA), n, d->dipiv,
                                                 VZP(d->pB), n, &info, b));
    return st != CUBLAS_STATUS_SUCCESS || info != 0;
}

static int cusolver_potrf(const row_data *d)
{
    int n = d->n, b = (int)d->batch;
    cublasFillMode_t u = vendor_uplo(d);
    return SDCZ(d, cusolverDnSpotrfBatched(G.cs, u, n, (float **)d->pA, n, d->dinfo, b),
                cusolverDnDpotrfBatched(G.cs, u, n, (double **)d->pA, n, d->dinfo, b),
                cusolverDnCpotrfBatched(G.cs, u, n, (cuComplex **)d->pA, n, d->dinfo, b),
                cusolverDnZpotrfBatched(G.cs, u, n, (cuDoubleComplex **)d->pA, n, d->dinfo, b)) !=
           CUSOLVER_STATUS_SUCCESS;
}

/* cuSOLVER's batched potrs supports nrhs = 1 only and reports one info for the whole batch. */
static int cusolver_potrs(const row_data *d)
{
    int n = d->n, r = d->nrhs, b = (int)d->batch;
    cublasFillMode_t u = vendor_uplo(d);
    return SDCZ(d, cusolverDnSpotrsBatched(G.cs, u, n, r, (float **)d->pA, n, (float **)d->pB, n,
                                           d->dinfo1, b),
                cusolverDnDpotrsBatched(G.cs, u, n, r, (double **)d->pA, n, (double **)d->pB, n,
                                        d->dinfo1, b),
                cusolverDnCpotrsBatched(G.cs, u, n, r, (cuComplex **)d->pA, n, (cuComplex **)d->pB, n,
                                        d->dinfo1, b),
                cusolverDnZpotrsBatched(G.cs, u, n, r, (cuDoubleComplex **)d->pA, n,
                                        (cuDoubleComplex **)d->pB, n, d->dinfo1, b)) != CUSOLVER_STATUS_SUCCESS;
}

/* Vendor baseline `which` (0 or 1) of the row's routine; 0 on success. */
static int call_vendor(const row_data *d, int which)
{
    switch (d->rid) {
    case R_GETRF: return cublas_getrf(d);
    case R_INVERSE: return which == 0 ? cublas_matinv(d) : (cublas_getrf(d) || cublas_getri(d));
    case R_GETRI: return cublas_getri(d);
    case R_POTRF: return cusolver_potrf(d);
    case R_GEQRF: return cublas_geqrf(d);
    case R_GETRS: return cublas_getrs(d);
    case R_GESV: return cublas_getrf(d) || cublas_getrs(d);
    case R_POTRS: return cusolver_potrs(d);
    case R_POSV: return cusolver_potrf(d) || cusolver_potrs(d);
    }
    return 1;
}

static const char *method_name(const row_data *d, int m)
{
    return m <= M_ARRAY ? "shoal" : m == M_DX ? "cusolverdx" : d->ri->vendor[m - M_V1];
}

static int launch(const row_data *d, int m)
{
    if (m == M_STRIDED || m == M_ARRAY) {
        shoal_status st = call_shoal(d, m == M_ARRAY);
        if (st == SHOAL_STATUS_SUCCESS)
            return L_OK;
        fprintf(stderr, "shoal_lapack_bench: %c %s n=%d %s: %s\n", d->prec, d->ri->name, d->n,
                m == M_ARRAY ? "pointer array" : "strided", shoal_status_string(st));
        return L_SHOAL_FAILED;
    }
    if (m == M_DX ? dx_peer_launch(d->dx, d->dA, d->dipiv, d->dtau, d->dinfo, d->batch, G.st) == cudaSuccess
                  : call_vendor(d, m - M_V1) == 0)
        return L_OK;
    (void)cudaGetLastError();
    fprintf(stderr, "shoal_lapack_bench: %c %s %c n=%d: vendor %s returned an error (shown as -)\n",
            d->prec, d->ri->name, d->variant, d->n, method_name(d, m));
    return L_VENDOR_FAILED;
}

/* ------------------------------------------------------------------------------------------ */
/* Row data. */

static int64_t problem_bytes(const row_data *d)
{
    int64_t e = (int64_t)d->n * d->n; /* A */
    if (d->ri->has_c)
        e += (int64_t)d->n * d->n;
    if (d->ri->solve)
        e += (int64_t)d->n * d->nrhs;
    return e * (int64_t)d->es;
}

/* Device bytes allocated per problem, to keep the batch within free memory. */
static int64_t alloc_bytes(const row_data *d)
{
    int64_t nn = (int64_t)d->n * d->n, nb = (int64_t)d->n * d->nrhs;
    int64_t e = 2 * nn + (d->ri->has_c ? nn : 0) + (d->ri->solve ? 2 * nb : 0) +
                (d->ri->has_tau ? d->n : 0);
    return e * (int64_t)d->es + (int64_t)sizeof(int) * (d->n + 1) + 4 * (int64_t)sizeof(void *);
}

/* The batch rule of the comment at the top: 4 x L2 worth of problems (at least MIN_BATCH),
 * BIG_BATCH from n = BIG_N, then what fits under MEM_CAP_BYTES and 70% of the free memory. */
static void choose_batch(row_data *d)
{
    int64_t b = d->n >= BIG_N ? BIG_BATCH
                              : bench_clamp64(4 * G.l2_bytes / problem_bytes(d) + 1, MIN_BATCH, MAX_BATCH);
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    double room = 0.7 * (double)free_b < MEM_CAP_BYTES ? 0.7 * (double)free_b : MEM_CAP_BYTES;
    int64_t fit = (int64_t)(room / (double)alloc_bytes(d));
    d->limited = b > fit;
    d->batch = b > fit ? fit : b;
}

static int dev_alloc(void **p, size_t bytes)
{
    *p = NULL;
    if (cudaMalloc(p, bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        *p = NULL;
        return 0;
    }
    return 1;
}

static int alloc_row(row_data *d)
{
    size_t b = (size_t)d->batch, es = d->es;
    int ok = dev_alloc(&d->dA, b * (size_t)d->sa * es) && dev_alloc(&d->dA0, b * (size_t)d->sa * es) &&
             dev_alloc((void **)&d->dinfo, b * sizeof(int)) &&
             dev_alloc((void **)&d->dinfo1, sizeof(int)) &&
             dev_alloc((void **)&d->pA, b * sizeof(void *));
    if (ok && d->ri->has_c)
        ok = dev_alloc(&d->dC, b * (size_t)d->sc * es) && dev_alloc((void **)&d->pC, b * sizeof(void *));
    if (ok && d->ri->solve)
        ok = dev_alloc(&d->dB, b * (size_t)d->sb * es) && dev_alloc(&d->dB0, b * (size_t)d->sb * es) &&
             dev_alloc((void **)&d->pB, b * sizeof(void *));
    if (ok && d->ri->uses_ipiv)
        ok = dev_alloc((void **)&d->dipiv, b * (size_t)d->n * sizeof(int));
    if (ok && d->ri->has_tau)
        ok = dev_alloc(&d->dtau, b * (size_t)d->n * es) && dev_alloc((void **)&d->pTau, b * sizeof(void *));
    return ok;
}

static void free_row(row_data *d)
{
    void *dev[] = {d->dA, d->dA0, d->dB, d->dB0, d->dC, d->dtau, d->dipiv, d->dinfo, d->dinfo1,
                   d->pA, d->pB, d->pC, d->pTau};
    for (size_t i = 0; i < sizeof dev / sizeof *dev; ++i)
        cudaFree(dev[i]);
    free(d->hA0);
    free(d->hB0);
    free(d->hinfo);
    dx_peer_close(d->dx);
    (void)cudaGetLastError();
}

/* Number of matrices with info != 0, from the device info array. */
static long long count_bad_info(row_data *d)
{
    CUDA_CHECK(cudaMemcpy(d->hinfo, d->dinfo, (size_t)d->batch * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int64_t i = 0; i < d->batch; ++i)
        bad += d->hinfo[i] != 0;
    return bad;
}

/* getri / getrs / potrs read factors: make genuine ones with the vendor's factorization (shoal's
 * if the vendor refuses), once, before any timing. The originals stay in dA0. */
static int make_factors(row_data *d)
{
    int lu = d->rid != R_POTRS;
    CUDA_CHECK(cudaMemcpyAsync(d->dA, d->dA0, (size_t)(d->batch * d->sa) * d->es,
                               cudaMemcpyDeviceToDevice, G.st));
    int failed = lu ? cublas_getrf(d) : cusolver_potrf(d);
    if (failed) {
        (void)cudaGetLastError();
        CUDA_CHECK(cudaMemcpyAsync(d->dA, d->dA0, (size_t)(d->batch * d->sa) * d->es,
                                   cudaMemcpyDeviceToDevice, G.st));
        row_data f = *d; /* the same data seen as a getrf / potrf row: shoal's strided call */
        f.rid = lu ? R_GETRF : R_POTRF;
        f.ri = &routines[f.rid];
        shoal_status st = call_shoal(&f, 0);
        if (st != SHOAL_STATUS_SUCCESS)
            return 0;
    }
    CUDA_CHECK(cudaStreamSynchronize(G.st));
    return count_bad_info(d) == 0;
}

/* n_samples problems spread over the whole batch, first and last included (16; 2 from
 * n = BIG_N, where one host check costs seconds). */
static void pick_samples(row_data *d)
{
    d->n_samples = d->n >= BIG_N ? N_SAMPLES_BIG : N_SAMPLES;
    for (int k = 0; k < d->n_samples; ++k)
        d->sample[k] = (int64_t)((double)k * (double)(d->batch - 1) / (d->n_samples - 1) + 0.5);
}

/* count elements of problem idx of a strided device buffer (strides in elements), as doubles:
 * count of them, 2 count in c and z ((re, im) pairs). */
static void fetch(const row_data *d, const void *dev, int64_t stride, int64_t idx, int64_t count,
                  double *out)
{
    void *tmp = bench_xmalloc((size_t)count * d->es);
    CUDA_CHECK(cudaMemcpy(tmp, (const char *)dev + (size_t)(idx * stride) * d->es,
                          (size_t)count * d->es, cudaMemcpyDeviceToHost));
    bench_to_double(bench_real_prec(d->prec), tmp, count * bench_reals_per(d->prec), out);
    free(tmp);
}

static void download_originals(row_data *d)
{
    const int64_t rp = bench_reals_per(d->prec), nn = (int64_t)d->n * d->n, ns = d->n_samples;
    d->hA0 = bench_xmalloc(sizeof(double) * (size_t)(ns * nn * rp));
    for (int k = 0; k < ns; ++k)
        fetch(d, d->dA0, d->sa, d->sample[k], nn, d->hA0 + k * nn * rp);
    if (d->ri->solve) {
        d->hB0 = bench_xmalloc(sizeof(double) * (size_t)(ns * d->sb * rp));
        for (int k = 0; k < ns; ++k)
            fetch(d, d->dB0, d->sb, d->sample[k], d->sb, d->hB0 + k * d->sb * rp);
    }
}

static void fill_inputs(row_data *d, uint64_t seed)
{
    size_t a_count = (size_t)(d->batch * d->sa);
    if (d->ri->spd)
        CUDA_CHECK(bench_fill_spd(d->prec, d->dA0, d->n, d->n, d->sa, d->batch, seed, G.st));
    else
        CUDA_CHECK(bench_fill_uniform(bench_real_prec(d->prec), d->dA0,
                                      (int64_t)a_count * bench_reals_per(d->prec), seed, G.st));
    CUDA_CHECK(cudaMemcpyAsync(d->dA, d->dA0, a_count * d->es, cudaMemcpyDeviceToDevice, G.st));
    CUDA_CHECK(bench_pointer_array(d->pA, d->dA, d->sa * (int64_t)d->es, d->batch, G.st));
    if (d->ri->has_c)
        CUDA_CHECK(bench_pointer_array(d->pC, d->dC, d->sc * (int64_t)d->es, d->batch, G.st));
    if (d->ri->has_tau)
        CUDA_CHECK(bench_pointer_array(d->pTau, d->dtau, (int64_t)d->n * (int64_t)d->es, d->batch, G.st));
    if (d->ri->solve) {
        size_t b_count = (size_t)(d->batch * d->sb);
        CUDA_CHECK(bench_fill_uniform(bench_real_prec(d->prec), d->dB0,
                                      (int64_t)b_count * bench_reals_per(d->prec), seed ^ 0x5bd1e995ull, G.st));
        CUDA_CHECK(cudaMemcpyAsync(d->dB, d->dB0, b_count * d->es, cudaMemcpyDeviceToDevice, G.st));
        CUDA_CHECK(bench_pointer_array(d->pB, d->dB, d->sb * (int64_t)d->es, d->batch, G.st));
    }
    CUDA_CHECK(cudaStreamSynchronize(G.st));
}

/* 0 if the device memory could not be had or the factors for getri/getrs/potrs failed. */
static int setup_row(row_data *d, char prec, int rid, char variant, int n, int nrhs)
{
    memset(d, 0, sizeof *d);
    d->prec = prec;
    d->cx = bench_is_complex(prec);
    d->es = bench_elem_size(prec);
    d->rid = rid;
    d->ri = &routines[rid];
    d->variant = variant;
    d->n = n;
    d->nrhs = d->ri->solve ? nrhs : 0;
    d->sa = d->sc = (int64_t)n * n;
    d->sb = (int64_t)n * d->nrhs;
    choose_batch(d);
    if (d->batch < 1 || !alloc_row(d))
        return 0;
    d->hinfo = bench_xmalloc(sizeof(int) * (size_t)d->batch);
    char key[64];
    row_key(key, sizeof key, prec, rid, variant, n, d->nrhs);
    fill_inputs(d, seed_of(key));
    pick_samples(d);
    download_originals(d);
    if (d->ri->factor_in && !make_factors(d))
        return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* One method: restore, check, time. */

/* Before every run, outside the timed events: the inputs the routine overwrites. */
static void restore_inputs(const row_data *d)
{
    if (d->ri->restore_a)
        CUDA_CHECK(cudaMemcpyAsync(d->dA, d->dA0, (size_t)(d->batch * d->sa) * d->es,
                                   cudaMemcpyDeviceToDevice, G.st));
    if (d->ri->solve)
        CUDA_CHECK(cudaMemcpyAsync(d->dB, d->dB0, (size_t)(d->batch * d->sb) * d->es,
                                   cudaMemcpyDeviceToDevice, G.st));
}

/* Outputs that are not also inputs get NaN (all-ones bytes) or -1, so that a method that does
 * not write them cannot pass on what an earlier method left there. */
static void poison_outputs(const row_data *d)
{
    CUDA_CHECK(cudaMemsetAsync(d->dinfo, 0xff, (size_t)d->batch * sizeof(int), G.st));
    CUDA_CHECK(cudaMemsetAsync(d->dinfo1, 0xff, sizeof(int), G.st));
    if (d->ri->has_c)
        CUDA_CHECK(cudaMemsetAsync(d->dC, 0xff, (size_t)(d->batch * d->sc) * d->es, G.st));
    if (d->ri->writes_ipiv)
        CUDA_CHECK(cudaMemsetAsync(d->dipiv, 0xff, (size_t)d->batch * (size_t)d->n * sizeof(int), G.st));
    if (d->ri->has_tau)
        CUDA_CHECK(cudaMemsetAsync(d->dtau, 0xff, (size_t)d->batch * (size_t)d->n * d->es, G.st));
}

/* Sampled problem k's outputs after a run, copied to the host (before the timed runs rewrite them). */
static void fetch_sample(const row_data *d, int k, sample_out *s)
{
    const int n = d->n, w = d->cx ? 2 : 1;
    const int64_t nn = (int64_t)n * n, idx = d->sample[k];
    s->x = bench_xmalloc(sizeof(double) * (size_t)w * (size_t)(nn + n)); /* a result matrix + tau */
    s->ipiv = bench_xmalloc(sizeof(int) * (size_t)n);
    switch (d->rid) {
    case R_GETRF:
        fetch(d, d->dA, d->sa, idx, nn, s->x);
        CUDA_CHECK(cudaMemcpy(s->ipiv, d->dipiv + idx * n, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost));
        break;
    case R_INVERSE:
    case R_GETRI: fetch(d, d->dC, d->sc, idx, nn, s->x); break;
    case R_POTRF: fetch(d, d->dA, d->sa, idx, nn, s->x); break;
    case R_GEQRF:
        fetch(d, d->dA, d->sa, idx, nn, s->x);
        fetch(d, d->dtau, n, idx, n, s->x + w * nn);
        break;
    default: fetch(d, d->dB, d->sb, idx, d->sb, s->x); break; /* the solves: X in B */
    }
}

/* Residual of sampled problem k from its outputs: oracle/lapack_check.h's measures, their z forms
 * for c and z rows. Host arithmetic only (no CUDA call): the samples run in parallel. */
static double sample_residual(const row_data *d, int k, const sample_out *s)
{
    const int n = d->n, w = d->cx ? 2 : 1, cx = d->cx;
    const int64_t nn = (int64_t)n * n;
    const double *a0 = d->hA0 + (int64_t)w * k * nn, *x = s->x;
    const double eps = oracle_eps(d->prec);
    switch (d->rid) {
    case R_GETRF: return (cx ? oracle_zgetrf_residual : oracle_getrf_residual)(n, n, a0, n, x, n, s->ipiv, eps);
    case R_INVERSE:
    case R_GETRI: return (cx ? oracle_zinverse_residual : oracle_inverse_residual)(n, a0, n, x, n, eps);
    case R_POTRF:
        return (cx ? oracle_zpotrf_residual : oracle_potrf_residual)(d->variant == 'u', n, a0, n, x, n, eps);
    case R_GEQRF: return (cx ? oracle_zgeqrf_residual : oracle_geqrf_residual)(n, n, a0, n, x, n, x + w * nn, eps);
    default: { /* the solves; getrs with the row's trans (the real rows: N) */
        int op = d->rid == R_GETRS ? (int)getrs_op(d) : 0;
        return (cx ? oracle_zsolve_residual : oracle_solve_residual)(op, n, d->nrhs, a0, n,
                                                                     d->hB0 + (int64_t)w * k * d->sb, n, x, n, eps);
    }
    }
}

/* One untimed run on poisoned outputs: launch status, info, and the sampled problems' outputs
 * copied to the host (their residuals are taken by row_residuals). */
static void check_method(row_data *d, int m, method_result *res)
{
    restore_inputs(d);
    poison_outputs(d);
    res->launch = launch(d, m);
    if (res->launch != L_OK)
        return;
    cudaError_t e = cudaStreamSynchronize(G.st);
    if (e != cudaSuccess)
        die("synchronize after the check run (a kernel faulted?)", cudaGetErrorString(e), __LINE__);
    int vendor_potrs = m >= M_V1 && (d->rid == R_POTRS || d->rid == R_POSV);
    res->info_bad = d->ri->has_info ? count_bad_info(d) : 0;
    if (vendor_potrs) {
        int i1 = -1;
        CUDA_CHECK(cudaMemcpy(&i1, d->dinfo1, sizeof i1, cudaMemcpyDeviceToHost));
        res->info_bad += i1 != 0;
    }
    for (; res->n_out < d->n_samples; ++res->n_out)
        fetch_sample(d, res->n_out, &res->out[res->n_out]);
}

/* The worst sampled residual of every method of the row that ran its check, from the outputs
 * check_method kept: all methods' samples in parallel threads (O(n^3) each on the host, seconds at
 * n = 1024), after the row's GPU work. */
static void row_residuals(const row_data *d, method_result *r)
{
    int task_m[N_METHODS * N_SAMPLES], task_k[N_METHODS * N_SAMPLES], tasks = 0;
    double resid[N_METHODS * N_SAMPLES];
    for (int m = 0; m < N_METHODS; ++m)
        for (int k = 0; k < r[m].n_out; ++k, ++tasks)
            task_m[tasks] = m, task_k[tasks] = k;
#pragma omp parallel for schedule(dynamic, 1)
    for (int t = 0; t < tasks; ++t)
        resid[t] = sample_residual(d, task_k[t], &r[task_m[t]].out[task_k[t]]);
    for (int t = 0; t < tasks; ++t) {
        method_result *res = &r[task_m[t]];
        if (task_k[t] == 0)
            res->resid = 0.0;
        if (!(resid[t] <= res->resid))
            res->resid = resid[t];
        free(res->out[task_k[t]].x);
        free(res->out[task_k[t]].ipiv);
    }
    for (int m = 0; m < N_METHODS; ++m) {
        r[m].n_out = 0;
        r[m].ok = r[m].launch == L_OK && r[m].info_bad == 0 && r[m].resid <= ORACLE_ERROR_LIMIT &&
                  isfinite(r[m].ms);
    }
}

/* The first warm-up: one call timed on the host (inputs restored outside), seconds; NaN if the
 * launch fails. A warm call, unlike the check run, which may carry first-use costs. */
static double warm_call_seconds(row_data *d, int m)
{
    restore_inputs(d);
    CUDA_CHECK(cudaStreamSynchronize(G.st));
    double t0 = omp_get_wtime();
    int failed = launch(d, m) != L_OK;
    cudaError_t e = cudaStreamSynchronize(G.st);
    if (e != cudaSuccess)
        die("synchronize after a warm-up run (a kernel faulted?)", cudaGetErrorString(e), __LINE__);
    return failed ? NAN : omp_get_wtime() - t0;
}

/* The timed runs of a method whose first warm-up took call_s seconds, and the warm-ups still to
 * make: --runs after one more; where runs + 2 such calls would pass --method-seconds, none more
 * and the odd number of runs that fits it with the first warm-up, if that is 3 or more (never
 * more than --runs), else 1: a call of seconds costs the row a few of them, not --runs + 3. */
static int runs_within(double call_s, int *warmups)
{
    const int runs = G.o.runs;
    *warmups = 1;
    if (!(call_s * (runs + 2) > G.o.method_seconds))
        return runs;
    *warmups = 0;
    int fit = (int)(G.o.method_seconds / call_s) - 1;
    fit = fit < 3 ? 1 : fit % 2 ? fit : fit - 1;
    return fit < runs ? fit : runs;
}

/* Median milliseconds of `runs` runs after `warmups` warm-ups; NaN if a launch fails. */
static double time_method(row_data *d, int m, int runs, int warmups)
{
    int failed = 0;
    for (int r = -warmups; r < runs && !failed; ++r) {
        restore_inputs(d);
        if (r >= 0)
            CUDA_CHECK(cudaEventRecord(G.ev[2 * r], G.st));
        failed = launch(d, m) != L_OK;
        if (r >= 0)
            CUDA_CHECK(cudaEventRecord(G.ev[2 * r + 1], G.st));
    }
    cudaError_t e = cudaStreamSynchronize(G.st);
    if (e != cudaSuccess)
        die("synchronize after the timed runs (a kernel faulted?)", cudaGetErrorString(e), __LINE__);
    if (failed || runs < 1)
        return NAN;
    double *t = bench_xmalloc(sizeof(double) * (size_t)runs);
    for (int r = 0; r < runs; ++r) {
        float f;
        CUDA_CHECK(cudaEventElapsedTime(&f, G.ev[2 * r], G.ev[2 * r + 1]));
        t[r] = f;
    }
    double ms = bench_median(t, runs);
    free(t);
    return ms;
}

static void run_method(row_data *d, int m, method_result *res)
{
    memset(res, 0, sizeof *res);
    res->ms = res->resid = res->call_s = NAN;
    res->present = m < M_V2 || (m == M_V2 && d->ri->vendor[1] != NULL) || (m == M_DX && d->dx);
    if (!res->present)
        return;
    check_method(d, m, res);
    if (res->launch == L_OK) {
        int warmups;
        res->call_s = warm_call_seconds(d, m);
        res->runs = runs_within(res->call_s, &warmups);
        if (isfinite(res->call_s))
            res->ms = time_method(d, m, res->runs, warmups);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Host baseline: OpenBLAS's LAPACK, one matrix per call, OpenMP over the matrices. */

static int cpu_lwork(const row_data *d)
{
    return 64 * d->n; /* geqrf's optimal lwork is n * block size <= 64 n */
}

/* Factors cnt packed matrices in place; info[i] per matrix. */
static void cpu_factor(const row_data *d, void *a, int64_t cnt, int *ipiv, void *tau, void *work,
                       int *info)
{
    const int n = d->n, lwork = cpu_lwork(d);
    const char uplo = d->variant == 'u' ? 'U' : 'L';
    const int rid = d->rid;
    const char prec = d->prec;
    const int64_t sa = d->sa * bench_reals_per(prec), st = (int64_t)n * bench_reals_per(prec); /* in reals */
#pragma omp parallel
    {
        size_t t = (size_t)omp_get_thread_num() * (size_t)lwork * (size_t)bench_reals_per(prec); /* reals */
#pragma omp for schedule(static)
        for (int64_t i = 0; i < cnt; ++i) {
            float *fa = (float *)a + i * sa, *ft = (float *)tau + i * st, *fw = (float *)work + t;
            double *da = (double *)a + i * sa, *dt = (double *)tau + i * st, *dw = (double *)work + t;
            if (rid == R_GETRF) {
                switch (prec) {
                case 's': sgetrf_(&n, &n, fa, &n, ipiv + i * n, &info[i]); break;
                case 'd': dgetrf_(&n, &n, da, &n, ipiv + i * n, &info[i]); break;
                case 'c': cgetrf_(&n, &n, fa, &n, ipiv + i * n, &info[i]); break;
                default: zgetrf_(&n, &n, da, &n, ipiv + i * n, &info[i]); break;
                }
            } else if (rid == R_POTRF) {
                switch (prec) {
                case 's': spotrf_(&uplo, &n, fa, &n, &info[i], 1); break;
                case 'd': dpotrf_(&uplo, &n, da, &n, &info[i], 1); break;
                case 'c': cpotrf_(&uplo, &n, fa, &n, &info[i], 1); break;
                default: zpotrf_(&uplo, &n, da, &n, &info[i], 1); break;
                }
            } else {
                switch (prec) {
                case 's': sgeqrf_(&n, &n, fa, &n, ft, fw, &lwork, &info[i]); break;
                case 'd': dgeqrf_(&n, &n, da, &n, dt, dw, &lwork, &info[i]); break;
                case 'c': cgeqrf_(&n, &n, fa, &n, ft, fw, &lwork, &info[i]); break;
                default: zgeqrf_(&n, &n, da, &n, dt, dw, &lwork, &info[i]); break;
                }
            }
        }
    }
}

/* Host buffers for cnt problems; pristine holds the originals from the GPU. */
typedef struct cpu_buffers {
    void *pristine, *a, *tau, *work;
    int *ipiv, *info;
} cpu_buffers;

static void cpu_alloc(const row_data *d, int64_t cnt, cpu_buffers *b)
{
    size_t abytes = (size_t)(cnt * d->sa) * d->es;
    b->pristine = bench_xmalloc(abytes);
    b->a = bench_xmalloc(abytes);
    b->tau = bench_xmalloc((size_t)(cnt * d->n) * d->es);
    b->work = bench_xmalloc((size_t)omp_get_max_threads() * (size_t)cpu_lwork(d) * d->es);
    b->ipiv = bench_xmalloc(sizeof(int) * (size_t)(cnt * d->n));
    b->info = bench_xmalloc(sizeof(int) * (size_t)cnt);
    CUDA_CHECK(cudaMemcpy(b->pristine, d->dA0, abytes, cudaMemcpyDeviceToHost));
}

static void cpu_free(cpu_buffers *b)
{
    free(b->pristine);
    free(b->a);
    free(b->tau);
    free(b->work);
    free(b->ipiv);
    free(b->info);
}

/* Seconds for one pass over cnt problems (restore outside the timing). */
static double cpu_pass(const row_data *d, int64_t cnt, cpu_buffers *b)
{
    memcpy(b->a, b->pristine, (size_t)(cnt * d->sa) * d->es);
    double t0 = omp_get_wtime();
    cpu_factor(d, b->a, cnt, b->ipiv, b->tau, b->work, b->info);
    return omp_get_wtime() - t0;
}

/* How many problems fit the row's time budget: a pilot pass measures the time per problem, then
 * the runs + 2 passes share G.o.cpu_seconds. At least one problem per thread. */
static int64_t cpu_count(const row_data *d)
{
    int threads = omp_get_max_threads();
    int64_t limit = d->batch < G.o.cpu_max ? d->batch : G.o.cpu_max;
    int64_t by_mem = ((int64_t)256 << 20) / (d->sa * (int64_t)d->es); /* 256 MiB per copy */
    if (limit > by_mem)
        limit = by_mem;
    int64_t pilot = bench_clamp64(64 * (int64_t)threads, 1, limit);
    cpu_buffers b;
    cpu_alloc(d, pilot, &b);
    double per = cpu_pass(d, pilot, &b) / (double)pilot;
    cpu_free(&b);
    double pass = G.o.cpu_seconds / (G.o.runs + 2);
    int64_t cnt = per > 0 ? (int64_t)(pass / per) : limit;
    return bench_clamp64(cnt, threads < limit ? threads : limit, limit);
}

static cpu_result measure_cpu(const row_data *d)
{
    cpu_result c = {NAN, NAN, 0, 0};
    c.count = cpu_count(d);
    cpu_buffers b;
    cpu_alloc(d, c.count, &b);
    int runs = G.o.runs;
    double *t = bench_xmalloc(sizeof(double) * (size_t)runs);
    cpu_pass(d, c.count, &b); /* warm-up */
    for (int r = 0; r < runs; ++r)
        t[r] = cpu_pass(d, c.count, &b);
    c.ok = 1;
    for (int64_t i = 0; i < c.count; ++i)
        c.ok &= b.info[i] == 0;
    c.ms = 1e3 * bench_median(t, runs);
    c.gflops = c.ok ? row_flops(d) * (double)c.count / (c.ms * 1e6) : NAN;
    free(t);
    cpu_free(&b);
    return c;
}

/* ------------------------------------------------------------------------------------------ */
/* Output. */

static const char *const mode_of[N_METHODS] = {"strided", "array", "array", "array", "strided"};

static void print_table_title(char prec, int rid, char variant)
{
    const routine_info *ri = &routines[rid];
    char vend[160];
    vendor_label(vend, sizeof vend, ri->vendor_label, prec);
    const char *what = ri->variants[0] == 'l'   ? (variant == 'u' ? " uplo=U" : " uplo=L")
                       : rid != R_GETRS         ? ""
                       : variant == 'c'         ? " trans=C"
                       : variant == 't'         ? " trans=T"
                                                : " trans=N";
    printf("\n## %c %s%s: shoal_%c%s_strided_batched / _batched vs %s\n", prec, ri->name, what,
           prec, ri->api, vend);
    printf("%4s %4s %8s | %9s %9s %9s %9s | %6s %6s | %6s %6s %6s | %8s | %8s | %9s | %-6s | %s\n",
           "n", "nrhs", "batch", "shoal:str", "shoal:arr", "vendor", "cusolvdx", "s/v", "a/v",
           "s%roof", "a%roof", "v%roof", "roof", "cpu", "resid", "check",
           "kernel (strided [array]) / notes");
    fflush(stdout);
}

static void csv_header(void)
{
    if (G.csv)
        fprintf(G.csv, "device,prec,routine,variant,mode,n,nrhs,batch,method,median_ms,gflops,gbs,"
                       "pct_roof,ok\n");
}

static void csv_num(double v, int last)
{
    if (isfinite(v))
        fprintf(G.csv, "%.6g", v);
    fputc(last ? '\n' : ',', G.csv);
}

static void csv_row(const row_data *d, const char *mode, const char *method, int64_t batch,
                    double ms, int ok)
{
    if (!G.csv)
        return;
    double flops = row_flops(d) * (double)batch;
    double bytes = roof_bytes_per_problem(d->rid, d->n, d->nrhs, d->es) * (double)batch;
    double gbs = bytes / (ms * 1e6);
    int host = !strcmp(mode, "host");
    fprintf(G.csv, "\"%s\",%c,%s,%c,%s,%d,%d,%lld,%s,", G.prop.name, d->prec, d->ri->name,
            d->variant, mode, d->n, d->nrhs, (long long)batch, method);
    csv_num(ms, 0);
    csv_num(flops / (ms * 1e6), 0);
    csv_num(gbs, 0);
    /* the roof is a GPU roof; without --peak-gflops this is GB/s over the copy's GB/s */
    csv_num(host ? NAN : 100.0 * (flops / (ms * 1e6)) / row_roof(d), 0);
    fprintf(G.csv, "%d\n", ok);
    fflush(G.csv);
}

/* The vendor figure of the row: the faster of its baselines that ran and checked out. */
static int best_vendor(const method_result *r)
{
    int best = -1;
    for (int m = M_V1; m <= M_V2; ++m)
        if (r[m].present && r[m].ok && (best < 0 || r[m].ms < r[best].ms))
            best = m;
    return best;
}

static void kernel_names(const row_data *d, char *buf, size_t len)
{
    const char *ks = NULL, *ka = NULL;
    const char v = d->variant == 'c' ? 't' : d->variant; /* getrs op C: the t variant's kernels */
    shoal_lapack_kernel_name(G.h, d->ri->api, d->prec, 0, v, d->n, d->n, d->nrhs, &ks);
    shoal_lapack_kernel_name(G.h, d->ri->api, d->prec, 1, v, d->n, d->n, d->nrhs, &ka);
    if (ks && ka && strcmp(ks, ka))
        snprintf(buf, len, "%s [%s]", ks, ka);
    else
        snprintf(buf, len, "%s", ks ? ks : "?");
}

/* One table number, "-" where it does not exist (a method that did not run). */
static void col(double v, int width, int decimals, const char *after)
{
    if (isfinite(v))
        printf(" %*.*f%s", width, decimals, v, after);
    else
        printf(" %*s%s", width, "-", after);
}

static void emit_row(const row_data *d, const method_result *r, const cpu_result *c, int ok)
{
    double flops = row_flops(d) * (double)d->batch;
    double roof = row_roof(d);
    double gf[N_METHODS];
    for (int m = 0; m < N_METHODS; ++m)
        gf[m] = r[m].present && isfinite(r[m].ms) ? flops / (r[m].ms * 1e6) : NAN;
    int bv = best_vendor(r);
    double gv = bv >= 0 ? gf[bv] : NAN, worst = 0.0;
    for (int m = 0; m < N_METHODS; ++m)
        if (r[m].present && r[m].launch == L_OK && !(r[m].resid <= worst))
            worst = r[m].resid;
    char names[256], notes[600], dx[64] = "", cut[200] = "";
    kernel_names(d, names, sizeof names);
    if (d->dx) /* the library's configuration: matrices per block / threads */
        snprintf(dx, sizeof dx, "; cusolverdx bpb %d/%d", dx_peer_shape(d->dx)->bpb, dx_peer_shape(d->dx)->threads);
    for (int m = 0; m < N_METHODS; ++m) /* the methods timed with fewer runs (--method-seconds) */
        if (r[m].present && isfinite(r[m].ms) && r[m].runs < G.o.runs) {
            size_t used = strlen(cut);
            snprintf(cut + used, sizeof cut - used, "; %s%s %d run%s", method_name(d, m),
                     m == M_STRIDED ? ":str" : m == M_ARRAY ? ":arr" : "", r[m].runs, r[m].runs > 1 ? "s" : "");
        }
    snprintf(notes, sizeof notes, "%s%s%s%s%s%s", names, dx,
             d->rid == R_INVERSE && bv >= 0 ? (bv == M_V1 ? "; vendor=matinv" : "; vendor=getrf+getri") : "",
             bv < 0 ? "; vendor n/a" : "", d->limited ? "; batch limited by memory" : "", cut);
    printf("%4d %4d %8lld |", d->n, d->nrhs, (long long)d->batch);
    col(gf[M_STRIDED], 9, 1, "");
    col(gf[M_ARRAY], 9, 1, "");
    col(gv, 9, 1, "");
    col(r[M_DX].ok ? gf[M_DX] : NAN, 9, 1, " |");
    col(gf[M_STRIDED] / gv, 6, 2, "");
    col(gf[M_ARRAY] / gv, 6, 2, " |");
    col(100.0 * gf[M_STRIDED] / roof, 6, 1, "");
    col(100.0 * gf[M_ARRAY] / roof, 6, 1, "");
    col(100.0 * gv / roof, 6, 1, " |");
    col(roof, 8, 1, " |");
    col(c->gflops, 8, 2, " |");
    printf(" %9.2e | %-6s | %s\n", worst, ok ? "ok" : "FAILED", notes);
    fflush(stdout);
    for (int m = 0; m < N_METHODS; ++m)
        if (r[m].present && r[m].launch != L_VENDOR_FAILED)
            csv_row(d, mode_of[m], method_name(d, m), d->batch, r[m].ms, r[m].ok);
    if (c->count > 0)
        csv_row(d, "host", "openblas", c->count, c->ms, c->ok);
}

/* Why a row failed, on stderr, so the table stays a table. */
static void explain_failure(const row_data *d, const method_result *r)
{
    for (int m = 0; m < N_METHODS; ++m) {
        if (!r[m].present || r[m].ok || r[m].launch == L_VENDOR_FAILED)
            continue;
        fprintf(stderr, "shoal_lapack_bench: FAILED %c %s %c n=%d %s %s: launch %s, %lld matrices "
                        "with info != 0, worst residual %.3g (limit %g)\n",
                d->prec, d->ri->name, d->variant, d->n, method_name(d, m), mode_of[m],
                r[m].launch == L_OK ? "ok" : "failed", r[m].info_bad, r[m].resid, ORACLE_ERROR_LIMIT);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The cuSolverDx peer (bench/dx_peer.h). */

static int served_sizes(int rid, int *out);

/* The peer's configuration of a row; 0 where cuSolverDx has no such routine or size. */
static int dx_config_of(char prec, int rid, char variant, int n, dx_config *c)
{
    if ((rid != R_GETRF && rid != R_POTRF && rid != R_GEQRF) || n > DX_MAX_N || bench_is_complex(prec))
        return 0; /* c, z: the wrapper (dx_wrapper.c) and generator (dx_gen.c) are real only */
    c->routine = rid == R_GETRF ? DX_GETRF : rid == R_POTRF ? DX_POTRF : DX_GEQRF;
    c->prec = prec;
    c->uplo = rid == R_POTRF ? variant : 'n';
    c->n = n;
    c->sm = G.o.dx_sm;
    return 1;
}

/* Generates the kernels of every selected row the cache lacks, before any row is measured
 * (forked generators, no GPU use). Returns how many failed; those rows go without the peer. */
static int dx_prepare_rows(void)
{
    static dx_config cfgs[4 * 2 * 64];
    int count = 0;
    for (int p = 0; p < N_PRECS; ++p)
        for (int rid = 0; rid < N_ROUTINES; ++rid) {
            if (!G.o.precs[p] || !G.o.routine_on[rid])
                continue;
            for (const char *v = variants_of(rid, PRECS[p]); *v; ++v) {
                int sizes[64], ns = served_sizes(rid, sizes);
                for (int i = 0; i < ns; ++i)
                    count += dx_config_of(PRECS[p], rid, *v, sizes[i], &cfgs[count]);
            }
        }
    return dx_peer_prepare(cfgs, count, G.o.dx_jobs, 1);
}

/* The row's peer kernel, or NULL (said on stderr) when it has none or it cannot be had. */
static dx_kernel *dx_open_row(const row_data *d)
{
    dx_config c;
    if (!G.o.dx || dx_peer_missing() || !dx_config_of(d->prec, d->rid, d->variant, d->n, &c))
        return NULL;
    char why[4096], name[64];
    dx_kernel *k = dx_peer_open(&c, why, sizeof why);
    if (!k) {
        dx_config_name(&c, name, sizeof name);
        fprintf(stderr, "shoal_lapack_bench: cusolverdx %s unavailable: %s\n", name, why);
    }
    return k;
}

/* ------------------------------------------------------------------------------------------ */

static void bench_row(char prec, int rid, char variant, int n, int nrhs)
{
    row_data d;
    if (!setup_row(&d, prec, rid, variant, n, nrhs)) {
        printf("%4d %4d %8lld | device allocation or input factorization failed | FAILED\n", n,
               routines[rid].solve ? nrhs : 0, (long long)d.batch);
        free_row(&d);
        ++G.failures;
        ++G.rows;
        return;
    }
    d.dx = dx_open_row(&d);
    method_result r[N_METHODS];
    for (int m = 0; m < N_METHODS; ++m)
        run_method(&d, m, &r[m]);
    row_residuals(&d, r);
    cpu_result c = {NAN, NAN, 0, 0};
    if (G.o.cpu && d.ri->cpu)
        c = measure_cpu(&d);
    /* shoal must run and be right in both forms; a vendor that ran must be right too. */
    int ok = r[M_STRIDED].ok && r[M_ARRAY].ok;
    for (int m = M_V1; m < N_METHODS; ++m)
        if (r[m].present && r[m].launch != L_VENDOR_FAILED)
            ok &= r[m].ok;
    if (!ok) {
        explain_failure(&d, r);
        ++G.failures;
    }
    ++G.rows;
    emit_row(&d, r, &c, ok);
    free_row(&d);
}

/* The sizes of a routine: --n if given, else 2..32 (--quick: powers of 2), solves 4, 8, 16, 32. */
static int sizes_for(int rid, int *out)
{
    static const int quick[] = {2, 4, 8, 16, 32}, solve[] = {4, 8, 16, 32};
    int k = 0;
    if (G.o.n_sizes) {
        for (int i = 0; i < G.o.n_sizes; ++i)
            out[k++] = G.o.sizes[i];
    } else if (routines[rid].solve) {
        for (int i = 0; i < 4; ++i)
            out[k++] = solve[i];
    } else if (G.o.quick) {
        for (int i = 0; i < 5; ++i)
            out[k++] = quick[i];
    } else {
        for (int n = 2; n <= 32; ++n)
            out[k++] = n;
    }
    return k;
}

/* The sizes of a routine that it serves (sizes_for less those above its limit). */
static int served_sizes(int rid, int *out)
{
    int all[64], na = sizes_for(rid, all), k = 0;
    for (int i = 0; i < na; ++i)
        if (serves(rid, all[i]))
            out[k++] = all[i];
    return k;
}

/* Once, before the tables: the selected routines that skip some --n sizes, and which; then the
 * routines that serve up to MAX_N_BLOCKED. */
static void say_skipped(FILE *f)
{
    char names[128] = "", sizes[512] = "", blocked[128] = "";
    int seen[MAX_N_BLOCKED + 1] = {0}, any = 0;
    for (int rid = 0; rid < N_ROUTINES; ++rid) {
        int all[64], na = sizes_for(rid, all), skips = 0;
        for (int i = 0; G.o.routine_on[rid] && i < na; ++i)
            if (!serves(rid, all[i])) {
                skips = 1;
                if (!seen[all[i]]++) {
                    size_t used = strlen(sizes);
                    snprintf(sizes + used, sizeof sizes - used, "%s%d", any++ ? ", " : "", all[i]);
                }
            }
        char *list = skips ? names : routines[rid].max_n == MAX_N_BLOCKED ? blocked : NULL;
        if (list) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof names - used, "%s%s", list[0] ? ", " : "", routines[rid].name);
        }
    }
    if (any)
        fprintf(f, "# n > %d: skipped for %s (n <= %d only) at n = %s; %s serve n <= %d\n", MAX_N_SMALL, names,
                MAX_N_SMALL, sizes, blocked, MAX_N_BLOCKED);
}

/* Visits every selected row in table order; with list set, prints its key instead. */
static void for_each_row(int list)
{
    for (int p = 0; p < N_PRECS; ++p) {
        if (!G.o.precs[p])
            continue;
        char prec = PRECS[p];
        for (int rid = 0; rid < N_ROUTINES; ++rid) {
            int sizes[64], ns = served_sizes(rid, sizes);
            if (!G.o.routine_on[rid] || ns == 0)
                continue;
            for (const char *v = variants_of(rid, prec); *v; ++v) {
                if (!list)
                    print_table_title(prec, rid, *v);
                for (int i = 0; i < ns; ++i) {
                    int rhs[2], nr = nrhs_list(rid, sizes[i], rhs);
                    for (int j = 0; j < nr; ++j) {
                        if (list) {
                            char key[64];
                            row_key(key, sizeof key, prec, rid, *v, sizes[i], rhs[j]);
                            printf("%s\n", key);
                        } else {
                            bench_row(prec, rid, *v, sizes[i], rhs[j]);
                        }
                    }
                }
            }
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Command line. */


static void usage(FILE *f)
{
    fprintf(f,
            "usage: shoal_lapack_bench [options]\n"
            "Batched small-matrix factorizations, solves and inverses (n <= 32; getrf, getri, getrs,\n"
            "gesv, potrf, potrs, posv to n = 1024): shoal (strided and pointer array) vs cuBLAS /\n"
            "cuSOLVER and OpenBLAS+OpenMP, roof measured in the same run.\n\n"
            "  --csv FILE          also write one CSV row per measurement to FILE\n"
            "  --quick             n in {2, 4, 8, 16, 32} (default every n in 2..32; the solves\n"
            "                      always use n in {4, 8, 16, 32})\n"
            "  --prec LIST         precisions, any of s, d, c, z (e.g. sd, cz, sdcz; default sd;\n"
            "                      c and z: getrs with trans N, T and C, no cusolverdx peer)\n"
            "  --routine LIST      comma-separated, repeatable: getrf, inverse (= getri_fused),\n"
            "                      getri, potrf, geqrf, getrs, gesv, potrs, posv (default all)\n"
            "  --n LIST            comma-separated sizes 1..1024 for every selected routine; above 32\n"
            "                      inverse and geqrf skip them (said once), the LU and Cholesky\n"
            "                      routines run their blocked drivers; batch 1024 from n = 256, at\n"
            "                      most 40 GB of device memory\n"
            "  --nrhs K            right-hand sides of the solves (default 1 to n = 32, and both 1 and\n"
            "                      n/4 above; K given: K at every n; cuSOLVER's batched potrs takes\n"
            "                      only 1)\n"
            "  --peak-gflops S,D   compute ceilings in Gflop/s for s and d (c uses S, z uses D): roof =\n"
            "                      min(copy GB/s x flops / bytes, peak), for %%roof and pct_roof\n"
            "                      (default: the memory roof alone)\n"
            "  --runs R            timed runs per method, median reported (default 9)\n"
            "  --method-seconds X  a method whose warm-up call takes over X / (runs + 2) s gets no more\n"
            "                      warm-ups and the odd number of runs that fits X, or 1 run where fewer\n"
            "                      than 3 fit (default 10; said in the notes)\n"
            "  --no-cpu            skip the OpenBLAS baseline\n"
            "  --cpu-seconds X     time budget of one CPU row (default 0.2)\n"
            "  --cpu-max N         at most N matrices in the CPU baseline (default 1000000)\n"
            "  --no-vendor-dispatch  shoal's own kernels even where the tuned dispatch would call\n"
            "                      the vendor (pointer arrays only)\n"
            "  --no-dx             skip the cuSolverDx peer (method cusolverdx)\n"
            "  --dx-jobs J         processes generating the peer's kernels (default: CPUs)\n"
            "  --gen-only          generate the peer's kernels of the selected rows into the cache\n"
            "                      ($SHOAL_DX_CACHE, default build/dx_cache) and exit (needs no GPU)\n"
            "  --dx-sm SM          the SM --gen-only generates for (default 900: sm_90)\n"
            "  --list              print the row keys that would run and exit (needs no GPU)\n"
            "  -h, --help          this text\n\n"
            "Exit status: 0 all rows ok, 1 a row FAILED, 2 usage, 77 no CUDA device.\n");
}

static int routine_by_name(const char *s, size_t len)
{
    if (len == 11 && !strncmp(s, "getri_fused", len))
        return R_INVERSE;
    for (int r = 0; r < N_ROUTINES; ++r)
        if (strlen(routines[r].name) == len && !strncmp(s, routines[r].name, len))
            return r;
    return -1;
}

/* "a,b,c" -> routine_on[]; 0 on an unknown name. */
static int parse_routines(const char *v, opts *o)
{
    while (*v) {
        size_t len = strcspn(v, ",");
        int r = routine_by_name(v, len);
        if (r < 0)
            return 0;
        o->routine_on[r] = 1;
        v += len + (v[len] == ',');
    }
    return 1;
}

/* "S,D": two positive Gflop/s figures; 0 on anything else. */
static int parse_peak(const char *v, opts *o)
{
    char *end;
    double s = strtod(v, &end);
    if (end == v || *end != ',')
        return 0;
    const char *dv = end + 1;
    double dp = strtod(dv, &end);
    if (end == dv || *end || !(s > 0) || !(dp > 0) || !isfinite(s) || !isfinite(dp))
        return 0;
    o->peak[0] = s;
    o->peak[1] = dp;
    return 1;
}

static int parse_sizes(const char *v, opts *o)
{
    while (*v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (end == v || n < 1 || n > MAX_N_BLOCKED || o->n_sizes == (int)(sizeof o->sizes / sizeof *o->sizes))
            return 0;
        o->sizes[o->n_sizes++] = (int)n;
        v = end + (*end == ',');
        if (*end && *end != ',')
            return 0;
    }
    return o->n_sizes > 0;
}

static int parse_args(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->precs[0] = o->precs[1] = 1; /* s, d: the runs before c and z keep their meaning */
    o->runs = 9;
    o->nrhs = 1;
    o->cpu = 1;
    o->vendor_dispatch = 1;
    o->dx = 1;
    o->dx_sm = 900;
    o->dx_jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    o->cpu_seconds = 0.2;
    o->method_seconds = 10.0;
    o->cpu_max = 1000000;
    int any_routine = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1; /* most options take a value */
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1, takes = 0;
        } else if (!strcmp(a, "--list")) {
            o->list = 1, takes = 0;
        } else if (!strcmp(a, "--no-cpu")) {
            o->cpu = 0, takes = 0;
        } else if (!strcmp(a, "--no-vendor-dispatch")) {
            o->vendor_dispatch = 0, takes = 0;
        } else if (!strcmp(a, "--no-dx")) {
            o->dx = 0, takes = 0;
        } else if (!strcmp(a, "--gen-only")) {
            o->dx_gen_only = 1, takes = 0;
        } else if (!v) {
            return 0;
        } else if (!strcmp(a, "--csv")) {
            o->csv = v;
        } else if (!strcmp(a, "--prec")) {
            if (!*v || v[strspn(v, PRECS)] != 0)
                return 0;
            for (int p = 0; p < N_PRECS; ++p)
                o->precs[p] = strchr(v, PRECS[p]) != NULL;
        } else if (!strcmp(a, "--routine")) {
            if (!parse_routines(v, o))
                return 0;
            any_routine = 1;
        } else if (!strcmp(a, "--n")) {
            if (!parse_sizes(v, o))
                return 0;
        } else if (!strcmp(a, "--nrhs")) {
            o->nrhs = atoi(v);
            o->nrhs_set = 1;
            if (o->nrhs < 1 || o->nrhs > 1024)
                return 0;
        } else if (!strcmp(a, "--peak-gflops")) {
            if (!parse_peak(v, o))
                return 0;
        } else if (!strcmp(a, "--runs")) {
            o->runs = atoi(v);
            if (o->runs < 1 || o->runs > 1000)
                return 0;
        } else if (!strcmp(a, "--method-seconds")) {
            o->method_seconds = atof(v);
            if (!(o->method_seconds > 0))
                return 0;
        } else if (!strcmp(a, "--cpu-seconds")) {
            o->cpu_seconds = atof(v);
            if (!(o->cpu_seconds > 0))
                return 0;
        } else if (!strcmp(a, "--dx-sm")) {
            o->dx_sm = atoi(v);
            if (o->dx_sm < 500)
                return 0;
        } else if (!strcmp(a, "--dx-jobs")) {
            o->dx_jobs = atoi(v);
            if (o->dx_jobs < 1)
                return 0;
        } else if (!strcmp(a, "--cpu-max")) {
            o->cpu_max = atoll(v);
            if (o->cpu_max < 1)
                return 0;
        } else {
            return 0;
        }
        i += takes;
    }
    if (!any_routine)
        for (int r = 0; r < N_ROUTINES; ++r)
            o->routine_on[r] = 1;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */

/* 0 when there is no device (SKIP), else the device index. Exits on other CUDA errors. */
static int open_device(int *dev)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("SKIP: no CUDA device (%s)\n",
               e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
        return 0;
    }
    CUDA_CHECK(cudaGetDevice(dev));
    CUDA_CHECK(cudaGetDeviceProperties(&G.prop, *dev));
    int l2 = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, *dev));
    G.l2_bytes = l2;
    return 1;
}

/* Stream, cuBLAS, cuSOLVER and shoal handles on it; events. Returns an exit status or -1. */
static int open_handles(void)
{
    CUDA_CHECK(cudaStreamCreateWithFlags(&G.st, cudaStreamNonBlocking));
    if (cublasCreate(&G.cb) != CUBLAS_STATUS_SUCCESS || cublasSetStream(G.cb, G.st) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnCreate(&G.cs) != CUSOLVER_STATUS_SUCCESS ||
        cusolverDnSetStream(G.cs, G.st) != CUSOLVER_STATUS_SUCCESS) {
        printf("FAILED: cannot create the cuBLAS / cuSOLVER handles\n");
        return 1;
    }
    shoal_status st = shoal_create(&G.h);
    if (st != SHOAL_STATUS_SUCCESS) {
        printf("%s: shoal_create: %s\n", st == SHOAL_STATUS_NO_DEVICE ? "SKIP" : "FAILED",
               shoal_status_string(st));
        return st == SHOAL_STATUS_NO_DEVICE ? 77 : 1;
    }
    if (shoal_set_stream(G.h, G.st) != SHOAL_STATUS_SUCCESS ||
        shoal_set_vendor_dispatch(G.h, G.o.vendor_dispatch) != SHOAL_STATUS_SUCCESS) {
        printf("FAILED: cannot configure the shoal handle\n");
        return 1;
    }
    int n_ev = 2 * (G.o.runs > 9 ? G.o.runs : 9);
    G.ev = bench_xmalloc(sizeof(cudaEvent_t) * (size_t)n_ev);
    for (int i = 0; i < n_ev; ++i)
        CUDA_CHECK(cudaEventCreate(&G.ev[i]));
    return -1;
}

static void print_preamble(int dev)
{
    const char *table = NULL;
    int level = -1, cublas_version = 0, cusolver_version = 0;
    shoal_get_dispatch_info(G.h, &table, &level);
    cublasGetVersion(G.cb, &cublas_version);
    cusolverGetVersion(&cusolver_version);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&now));
    printf("# shoal_lapack_bench %d.%d.%d, %s\n", SHOAL_VERSION_MAJOR, SHOAL_VERSION_MINOR,
           SHOAL_VERSION_PATCH, date);
    printf("# device %d: %s (cc %d.%d, %d SMs, L2 %.1f MiB, %.1f GiB); cuBLAS %d; cuSOLVER %d; "
           "shoal table \"%s\" (match level %d)%s\n",
           dev, G.prop.name, G.prop.major, G.prop.minor, G.prop.multiProcessorCount,
           (double)G.l2_bytes / (1 << 20), (double)G.prop.totalGlobalMem / (1 << 30),
           cublas_version, cusolver_version, table ? table : "?", level,
           G.o.vendor_dispatch ? "" : "; vendor dispatch off");
    if (G.o.dx)
        printf("# cusolverdx: %s, suggested BatchesPerBlock and block dim, strided, in place; kernel "
               "cache %s\n", dx_peer_version(), dx_peer_cache_dir());
    printf("# host: OpenBLAS (%s), %d OpenMP threads\n", openblas_get_config(),
           omp_get_max_threads());
    G.copy_gbs = bench_copy_bandwidth(G.st, G.o.runs);
    printf("# Gflop/s: LAWN 41 flops (x4 in c, z) x batch / median of %d runs (2 warm-ups; overwritten inputs "
           "restored outside the timed events; a method whose warm-up call takes over %g s / %d: fewer runs, "
           "said in the notes); lda = n, packed\n", G.o.runs, G.o.method_seconds, G.o.runs + 2);
    printf("# roof = copy GB/s x flops / bytes; bytes: A read+written (getrf, potrf, geqrf), A read "
           "+ C written (inverse, getri), + B read+written (solves); pivots, tau, info not "
           "counted\n");
    if (G.o.peak[0] > 0)
        printf("# roof capped by the compute peak (--peak-gflops): %.0f Gflop/s in s and c, %.0f in d and z\n",
               G.o.peak[0], G.o.peak[1]);
    printf("# vendor: pointer arrays (its only form); s/v, a/v = shoal strided, pointer array over "
           "vendor; inverse vendor = faster of matinv and getrf+getri\n");
    printf("# check: info == 0 for all matrices and max normalized residual of %d sampled "
           "problems (%d from n = %d; LAPACK test measures, host threads) <= %g, for every method; cpu = "
           "OpenBLAS LAPACK per matrix, OpenMP over a subset (<= %.2g s per row)\n",
           N_SAMPLES, N_SAMPLES_BIG, BIG_N, ORACLE_ERROR_LIMIT, G.o.cpu_seconds);
}

int main(int argc, char **argv)
{
    if (!parse_args(argc, argv, &G.o)) {
        usage(stderr);
        return 2;
    }
    if (G.o.list) {
        say_skipped(stderr); /* stdout holds the keys alone */
        for_each_row(1);
        return 0;
    }
    if (dx_peer_missing() && (G.o.dx || G.o.dx_gen_only)) {
        printf("cusolverdx: unavailable (%s)\n", dx_peer_missing());
        G.o.dx = 0;
    }
    if (G.o.dx_gen_only) /* no GPU: the kernels for --dx-sm, then out */
        return dx_peer_missing() ? 3 : dx_prepare_rows() ? 1 : 0;
    int dev = 0;
    if (!open_device(&dev))
        return 77;
    if (G.o.dx) { /* the device's own SM; generation forks before any handle or allocation */
        G.o.dx_sm = 100 * G.prop.major + 10 * G.prop.minor;
        dx_prepare_rows();
    }
    int rc = open_handles();
    if (rc >= 0)
        return rc;
    openblas_set_num_threads(1); /* one matrix per call, parallel over the batch with OpenMP */
    print_preamble(dev);
    if (G.o.csv) {
        G.csv = fopen(G.o.csv, "w");
        if (!G.csv) {
            perror(G.o.csv);
            return 1;
        }
        csv_header();
    }
    say_skipped(stdout);
    for_each_row(0);
    if (G.csv)
        fclose(G.csv);
    printf("\n# %d rows, %d failed\n", G.rows, G.failures);
    shoal_destroy(G.h);
    cusolverDnDestroy(G.cs);
    cublasDestroy(G.cb);
    cudaStreamDestroy(G.st);
    return G.failures ? 1 : 0;
}
