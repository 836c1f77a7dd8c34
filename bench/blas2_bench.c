/* shoal_blas2_bench: batched level-2 routines and the variable-size routines, shoal vs cuBLAS, on
 * one GPU, in one run.
 *
 * Rows (precisions s and d by default, c and z with --prec, e.g. sdcz; --quick: fewer sizes):
 *   gemv             op N and T; m = n in {2, 4, 8, ..., 512} and (m, n) in {(8, 512), (512, 8),
 *                    (32, 512), (512, 32)}: shoal_?gemv_strided_batched, shoal_?gemv_batched and
 *                    "own" (the strided call on a handle with vendor dispatch off) vs
 *                    cublas?gemvStridedBatched and cublas?gemvBatched.
 *   gemv_misaligned  op N and T, m = n in {64, 128, 256, 512}, lda = n + 8, problems strideA =
 *                    lda n + 8 elements apart: A at the buffer's base ("align") and at base + 1
 *                    element ("misal": every column start off its natural alignment); shoal
 *                    strided and pointer array, cublas?gemvStridedBatched; ratio misal / align
 *                    (goal >= 0.9).
 *   trsv             uplo L, U x op N, T, non-unit diagonal, n in {4, 8, ..., 512}:
 *                    shoal_?trsv_strided_batched and shoal_?trsv_batched vs cublas?trsmBatched
 *                    (side left, 1 right-hand side, ldb = n; pointer arrays, its only form).
 *   c and z:         gemv and gemv_misaligned with op N, T and C (conjugate transpose), trsv with
 *                    uplo L, U x op N, T, C: shoal_{c,z}... vs cublas{C,Z}gemvStridedBatched /
 *                    gemvBatched / trsmBatched, alpha = 1 + 0i, beta = 0; gemm_vbatched N N as
 *                    below (cuBLAS has no complex grouped GEMM: its column is cublas{C,Z}gemmBatched
 *                    called once per distinct size, as a user would, on the groups' pointer
 *                    arrays); gemv_vbatched with op N, T and C as below.
 *   gemv_vbatched    op N and T, maximum N in {32, 128, 512}; sizes "equal" (m_i = n_i = N),
 *                    "uniform" (m_i, n_i independent, uniform in [1, N]) or "skewed" (1% of the
 *                    problems N x N, the others m_i, n_i independent in [1, N/10]):
 *                    shoal_?gemv_vbatched; on the equal batch also the fixed-size
 *                    shoal_?gemv_batched / _strided_batched on the same data (ratio goal >= 0.9).
 *   gemm_vbatched    N N, square problems m_i = n_i = k_i from the same three distributions:
 *                    shoal_?gemm_vbatched vs the fixed-size shoal_?gemm_batched (equal batch,
 *                    ratio goal >= 0.9) and cublas?gemmGroupedBatched as a user with such a batch
 *                    would call it: one group per distinct size, host arrays of the group
 *                    parameters and device pointer arrays in group order, all made once outside
 *                    the timing (ratio goal >= 1.5).
 *
 * Method (as bench/lapack_bench.c): alpha = 1, beta = 0, unit increments. Fixed-size data packed
 * (lda = m, strides m n, n, m for A, x, y), random on the GPU (uniform [-1, 1], never 0; complex:
 * both parts), except trsv's matrices: blas2_triangular / blas2_ctriangular (tuner/host_blas2.h:
 * well conditioned in single precision, the other triangle NaN, never to be read) for up to 256
 * distinct problems, tiled over the
 * batch. Variable-size problems: leading dimensions = rows, each matrix and vector starting on a
 * 16-byte boundary, sizes uploaded to device int arrays, max_m = max_n (= max_k) = N. Batch =
 * clamp(4 x L2 / bytes + 1, 1000, 4e6) problems (bytes per problem below, for vbatched its mean
 * over the distribution) so the data streams from memory, cut where a row would need more than
 * 2 GiB of device memory (noted "batch limited by memory"). Before every run, outside the timed
 * events, trsv's x is restored from a pristine copy; warm-up calls for at least 25 ms of device
 * time (the GPU's clocks drop while a row is set up), then the median of --runs runs, each
 * between its own pair of CUDA events. All methods of a row run in the same process
 * run on the same data.
 *
 * Useful work only: flops 2 m n (gemv), n^2 (trsv), 2 m n k (gemm), summed over the problems, x4
 * in c and z (a complex multiply-add is 8 real flops to a real one's 2, LAPACK Working Note 41).
 * Roof: the time the problems' bytes take at the device-to-device copy bandwidth measured in this
 * run (bytes read + written); % roof = that time / measured time = Gflop/s / roof Gflop/s.
 * Bytes per problem: gemv (m n + m + n) elem (A, x read, y written), trsv (n (n + 1) / 2 + 2 n)
 * elem (the triangle and b read, x written), gemm (m k + k n + m n) elem (an element is 4, 8, 8 or
 * 16 bytes in s, d, c, z); for gemm the roof is
 * also capped by the compute peak, a cuBLAS 8192^3 GEMM of the precision timed in this run.
 *
 * Correctness, before timing, for every method: outputs poisoned with NaN (gemv's y, gemm's C;
 * trsv's x holds b on entry), one run, then 16 sampled problems (spread over the batch; vbatched:
 * 15 spread and the largest) checked on the host against double references: gemv
 * blas2_gemv_error <= BLAS2_ERROR_LIMIT, trsv blas2_trsv_error <= 2 x BLAS2_ERROR_LIMIT (c, z:
 * blas2_cgemv_error and blas2_ctrsv_error in complex arithmetic, eps of the real type), gemm
 * max |C - Cref| / (eps (|alpha| k max|A| max|B| + |beta| max|C0|)) <= 16, eps = 2^-24 or 2^-53.
 * A shoal call that fails or a shoal result that errs makes the row FAILED (exit status 1); a
 * vendor call that returns an error is shown as "-"; a vendor result that errs also fails the row
 * (the comparison would be meaningless).
 *
 * Exit: 0 all rows ok, 1 a row FAILED, 2 usage, 77 no CUDA device ("SKIP: ..." printed).
 */
#include "bench_kernels.h"
#include "bench_util.h"
#include "host_blas2.h"
#include "shoal.h"

#include <ctype.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* Routines, methods, table columns. */

enum { R_GEMV, R_GEMV_MIS, R_TRSV, R_GEMV_V, R_GEMM_V, N_ROUTINES };
static const char *const routine_name[N_ROUTINES] = {"gemv", "gemv_misaligned", "trsv",
                                                     "gemv_vbatched", "gemm_vbatched"};

enum { D_EQUAL, D_UNIFORM, D_SKEWED, N_DISTS };
static const char *const dist_name[N_DISTS] = {"equal", "uniform", "skewed"};

#define PRECS "sdcz"
#define N_PRECS 4

/* Variants of the real rows, and of the complex ones (op C added; gemm_vbatched N N only). The last
 * letter of a gemv / trsv variant is its op: n, t or c. */
static const char *const variants[N_ROUTINES][7] = {
    [R_GEMV] = {"n", "t", NULL},
    [R_GEMV_MIS] = {"n", "t", NULL},
    [R_TRSV] = {"ln", "lt", "un", "ut", NULL},
    [R_GEMV_V] = {"n", "t", NULL},
    [R_GEMM_V] = {"nn", NULL},
};
static const char *const variants_complex[N_ROUTINES][7] = {
    [R_GEMV] = {"n", "t", "c", NULL},
    [R_GEMV_MIS] = {"n", "t", "c", NULL},
    [R_TRSV] = {"ln", "lt", "lc", "un", "ut", "uc", NULL},
    [R_GEMV_V] = {"n", "t", "c", NULL},
    [R_GEMM_V] = {"nn", NULL},
};

enum { W_SHOAL, W_OWN, W_VENDOR };                  /* who serves a method */
enum { K_STRIDED, K_ARRAY, K_VBATCHED, K_GROUPED }; /* the form of its call */
static const char *const kind_name[] = {"strided", "array", "vbatched", "grouped"};

typedef struct method_def {
    const char *name; /* CSV "method" */
    int who, kind;
    int misaligned;   /* gemv_misaligned: A at base + 1 element */
    int equal_only;   /* a fixed-size baseline of a vbatched row: the equal batch only */
} method_def;

#define MAX_METHODS 6
static const method_def methods[N_ROUTINES][MAX_METHODS] = {
    [R_GEMV] = {{"shoal", W_SHOAL, K_STRIDED, 0, 0},
                {"shoal", W_SHOAL, K_ARRAY, 0, 0},
                {"shoal_own", W_OWN, K_STRIDED, 0, 0},
                {"cublas", W_VENDOR, K_STRIDED, 0, 0},
                {"cublas", W_VENDOR, K_ARRAY, 0, 0}},
    [R_GEMV_MIS] = {{"shoal", W_SHOAL, K_STRIDED, 0, 0},
                    {"shoal", W_SHOAL, K_STRIDED, 1, 0},
                    {"shoal", W_SHOAL, K_ARRAY, 0, 0},
                    {"shoal", W_SHOAL, K_ARRAY, 1, 0},
                    {"cublas", W_VENDOR, K_STRIDED, 0, 0},
                    {"cublas", W_VENDOR, K_STRIDED, 1, 0}},
    [R_TRSV] = {{"shoal", W_SHOAL, K_STRIDED, 0, 0},
                {"shoal", W_SHOAL, K_ARRAY, 0, 0},
                {"cublas_trsm", W_VENDOR, K_ARRAY, 0, 0}},
    [R_GEMV_V] = {{"shoal", W_SHOAL, K_VBATCHED, 0, 0},
                  {"shoal_fixed", W_SHOAL, K_ARRAY, 0, 1},
                  {"shoal_fixed", W_SHOAL, K_STRIDED, 0, 1}},
    [R_GEMM_V] = {{"shoal", W_SHOAL, K_VBATCHED, 0, 0},
                  {"shoal_fixed", W_SHOAL, K_ARRAY, 0, 1},
                  {"cublas_grouped", W_VENDOR, K_GROUPED, 0, 0}},
};

/* A table column: 'g' Gflop/s of method a, 'r' ratio of the Gflop/s of methods a / b, 'p' % of
 * roof of method a, '|' a separator; what == 0 ends the list. */
typedef struct column {
    char what;
    int a, b;
    const char *label;
} column;
#define COL_G(a, l) {'g', a, 0, l}
#define COL_R(a, b, l) {'r', a, b, l}
#define COL_P(a, l) {'p', a, 0, l}
#define COL_BAR {'|', 0, 0, ""}

static const column columns[N_ROUTINES][16] = {
    [R_GEMV] = {COL_G(0, "shoal:str"), COL_G(1, "shoal:arr"), COL_G(2, "shoal:own"),
                COL_G(3, "cublas:str"), COL_G(4, "cublas:arr"), COL_BAR, COL_R(0, 3, "s/cs"),
                COL_R(1, 4, "a/ca"), COL_R(2, 3, "o/cs"), COL_BAR, COL_P(0, "s%roof"),
                COL_P(1, "a%roof"), COL_P(3, "cs%roof"), COL_BAR},
    [R_GEMV_MIS] = {COL_G(0, "str:align"), COL_G(1, "str:misal"), COL_R(1, 0, "mis/al"), COL_BAR,
                    COL_G(2, "arr:align"), COL_G(3, "arr:misal"), COL_R(3, 2, "mis/al"), COL_BAR,
                    COL_G(4, "cub:align"), COL_G(5, "cub:misal"), COL_R(5, 4, "mis/al"), COL_BAR,
                    COL_P(1, "sm%roof"), COL_BAR},
    [R_TRSV] = {COL_G(0, "shoal:str"), COL_G(1, "shoal:arr"), COL_G(2, "cublas"), COL_BAR,
                COL_R(0, 2, "s/v"), COL_R(1, 2, "a/v"), COL_BAR, COL_P(0, "s%roof"),
                COL_P(1, "a%roof"), COL_P(2, "v%roof"), COL_BAR},
    [R_GEMV_V] = {COL_G(0, "vbatched"), COL_G(1, "fixed:arr"), COL_G(2, "fixed:str"), COL_BAR,
                  COL_R(0, 1, "v/fa"), COL_R(0, 2, "v/fs"), COL_BAR, COL_P(0, "v%roof"),
                  COL_P(1, "fa%roof"), COL_BAR},
    [R_GEMM_V] = {COL_G(0, "vbatched"), COL_G(1, "fixed:arr"), COL_G(2, "cublas:grp"), COL_BAR,
                  COL_R(0, 1, "v/f"), COL_R(0, 2, "v/g"), COL_BAR, COL_P(0, "v%roof"),
                  COL_P(2, "g%roof"), COL_BAR},
};

enum { L_OK, L_SHOAL_FAILED, L_VENDOR_FAILED };

#define N_SAMPLES 16
#define MIN_BATCH 1000
#define MAX_BATCH 4000000
#define ROW_MEM_CAP ((double)(INT64_C(2) << 30)) /* device bytes one row may take */
#define TRSV_DISTINCT 256                         /* distinct triangles tiled over the batch */
#define GEMM_ERROR_LIMIT 16.0
#define MAX_ALLOCS 24

/* ------------------------------------------------------------------------------------------ */
/* State. */

typedef struct opts {
    const char *csv;
    int quick, list, runs;
    int prec_on[N_PRECS]; /* s, d, c, z */
    int routine_on[N_ROUTINES];
} opts;

/* One row: sizes, the device data all its methods share, what the checks need. */
typedef struct row {
    int rid, dist; /* dist: D_* for the vbatched routines, -1 otherwise */
    char prec;
    int cx;        /* complex (c, z): elements are (re, im) pairs */
    size_t es;     /* bytes per element */
    const char *var;
    int m, n;      /* fixed: the problem's sizes; vbatched: the maxima (N, N) */
    int64_t batch;
    int limited;   /* the batch was cut to fit the memory cap */
    uint64_t seed;
    double flops, bytes; /* useful flops and roof bytes of the whole batch */
    /* fixed-size layout (vbatched equal: the fixed-size baselines' view of the same data) */
    int64_t lda, sa, sx, sy;
    int distinct;  /* trsv: distinct triangles */
    /* device data; for gemm A, B, C; for gemv / trsv A, x, y (x0: trsv's pristine right sides) */
    void *dA, *dB, *dC, *dx, *dx0, *dy;
    int64_t nA, nx, ny; /* elements allocated (gemm: each of A, B, C) */
    void **pA, **pA1, **pB, **pC, **px, **py; /* pA1: gemv_misaligned, A at base + 1 */
    int *dm, *dn, *dones; /* vbatched sizes (gemm: m = n = k = lda = ldb = ldc = dm) */
    /* variable sizes on the host */
    int *hm, *hn;
    int64_t *offA, *offx, *offy; /* element offsets (gemm: offA for A, B and C) */
    /* cuBLAS grouped GEMM: one group per distinct size */
    int groups;
    int *gdim, *gsize;
    cublasOperation_t *gop;
    void *galpha, *gbeta;     /* host arrays, one per group, of the row's precision */
    void **gA, **gB, **gC;    /* device pointer arrays in group order */
    /* checks */
    int64_t sample[N_SAMPLES];
    double *ref, scale[N_SAMPLES]; /* gemm: reference C of each sample, its error unit */
    int64_t ref_off[N_SAMPLES];
    /* every allocation of the row, freed together */
    void *dev[MAX_ALLOCS], *host[MAX_ALLOCS];
    int n_dev, n_host;
} row;

typedef struct result {
    int present, launch, ok;
    double ms, err;
} result;

static struct {
    opts o;
    cudaStream_t st;
    cublasHandle_t cb;
    shoal_handle h, h_own; /* h_own: vendor dispatch off */
    struct cudaDeviceProp prop;
    int64_t l2;
    double copy_gbs, peak[2]; /* peak: GEMM Gflop/s, s and d (INFINITY: not measured) */
    cudaEvent_t *ev;
    FILE *csv;
    int rows, failed;
} S;

/* ------------------------------------------------------------------------------------------ */
/* Errors, memory, transfers. */

static void cuda_or_die(cudaError_t e, const char *expr, int line)
{
    if (e == cudaSuccess)
        return;
    fprintf(stderr, "shoal_blas2_bench:%d: %s: %s\n", line, expr, cudaGetErrorString(e));
    exit(1);
}
#define CK(x) cuda_or_die((x), #x, __LINE__)

/* Device memory owned by the row; NULL (error cleared) when it cannot be had. */
static void *dmem(row *r, size_t bytes)
{
    void *p = NULL;
    if (r->n_dev == MAX_ALLOCS || cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    r->dev[r->n_dev++] = p;
    return p;
}

static void *hmem(row *r, size_t bytes)
{
    if (r->n_host == MAX_ALLOCS) {
        fprintf(stderr, "shoal_blas2_bench: too many host buffers in a row\n");
        exit(1);
    }
    return r->host[r->n_host++] = bench_xmalloc(bytes);
}

static void release_row(row *r)
{
    for (int i = 0; i < r->n_dev; ++i)
        cudaFree(r->dev[i]);
    for (int i = 0; i < r->n_host; ++i)
        free(r->host[i]);
    r->n_dev = r->n_host = 0;
    (void)cudaGetLastError();
}

/* Host -> device on the benchmark's stream, complete on return. (A plain cudaMemcpy from pageable
 * memory runs on the legacy stream and may return before its DMA lands; work queued next on the
 * non-blocking S.st, such as the copies that tile the distinct problems over the batch, would
 * not wait for it.) */
static void upload(void *dst, const void *src, size_t bytes)
{
    CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, S.st));
    CK(cudaStreamSynchronize(S.st));
}

/* count elements from element offset off of a device buffer of the row's precision, as doubles
 * (complex: 2 count, real part first). */
static void fetch(const row *r, const void *base, int64_t off, int64_t count, double *out)
{
    void *tmp = bench_xmalloc((size_t)count * r->es);
    CK(cudaMemcpy(tmp, (const char *)base + (size_t)off * r->es, (size_t)count * r->es,
                  cudaMemcpyDeviceToHost));
    bench_to_double(bench_real_prec(r->prec), tmp, count * bench_reals_per(r->prec), out);
    free(tmp);
}

/* A device array of batch pointers base + off[order[i]] (order NULL: identity). 0 on failure. */
static int upload_pointers(row *r, void ***dst, void *base, const int64_t *off, const int *order)
{
    void **h = bench_xmalloc(sizeof(void *) * (size_t)r->batch);
    for (int64_t i = 0; i < r->batch; ++i)
        h[i] = (char *)base + (size_t)off[order ? order[i] : i] * r->es;
    *dst = dmem(r, sizeof(void *) * (size_t)r->batch);
    if (*dst)
        upload(*dst, h, sizeof(void *) * (size_t)r->batch);
    free(h);
    return *dst != NULL;
}

static int upload_ints(row *r, int **dst, const int *src)
{
    *dst = dmem(r, sizeof(int) * (size_t)r->batch);
    if (*dst)
        upload(*dst, src, sizeof(int) * (size_t)r->batch);
    return *dst != NULL;
}

static double eps_of(char prec) { return bench_real_prec(prec) == 's' ? ldexp(1.0, -24) : ldexp(1.0, -53); }

/* Real flops per real-counted flop: 4 in c and z (8 per complex multiply-add, LAWN 41). */
static double flop_scale(const row *r) { return r->cx ? 4.0 : 1.0; }

/* Random data: count elements, 2 count reals in c and z. */
static cudaError_t fill(const row *r, void *x, int64_t count, uint64_t seed)
{
    return bench_fill_uniform(bench_real_prec(r->prec), x, count * bench_reals_per(r->prec), seed, S.st);
}

/* ------------------------------------------------------------------------------------------ */
/* Batch sizes. */

/* Mean of s^p, s uniform in [1, k] (p = 1 or 2). */
static double uniform_moment(int k, int p)
{
    return p == 1 ? (k + 1) / 2.0 : (k + 1.0) * (2.0 * k + 1.0) / 6.0;
}

static int small_max(int N) { return N / 10 > 1 ? N / 10 : 1; }

/* Mean bytes of one vbatched problem over the row's distribution. */
static double mean_problem_bytes(const row *r)
{
    double N = r->m, big, small;
    if (r->rid == R_GEMV_V) { /* m n + m + n, m and n independent within a class */
        double mu = uniform_moment(r->dist == D_UNIFORM ? r->m : small_max(r->m), 1);
        big = N * N + 2 * N;
        small = mu * mu + 2 * mu;
    } else { /* 3 s^2 */
        big = 3 * N * N;
        small = 3 * uniform_moment(r->dist == D_UNIFORM ? r->m : small_max(r->m), 2);
    }
    double b = r->dist == D_EQUAL ? big : r->dist == D_UNIFORM ? small : 0.01 * big + 0.99 * small;
    return b * (double)r->es;
}

/* clamp(4 L2 / bytes + 1, 1000, 4e6), then cut to the memory cap (alloc = device bytes per
 * problem). */
static void pick_batch(row *r, double bytes, double alloc)
{
    int64_t b = bench_clamp64((int64_t)(4.0 * (double)S.l2 / bytes) + 1, MIN_BATCH, MAX_BATCH);
    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    double cap = 0.7 * (double)free_b < ROW_MEM_CAP ? 0.7 * (double)free_b : ROW_MEM_CAP;
    int64_t fit = (int64_t)(cap / alloc);
    r->limited = b > fit;
    r->batch = b > fit ? fit : b;
}

/* ------------------------------------------------------------------------------------------ */
/* Row set-up: data, pointer arrays, sizes. Each returns 0 when device memory is short. */

/* A seed from everything that names the row, so its data does not depend on the rows before. */
static uint64_t row_seed(const row *r)
{
    uint64_t z = 0x243f6a8885a308d3ull;
    const uint64_t part[] = {(uint64_t)r->rid, (uint64_t)(unsigned char)r->prec,
                             (uint64_t)(unsigned char)r->var[0], (uint64_t)(unsigned char)r->var[1],
                             (uint64_t)r->m, (uint64_t)r->n, (uint64_t)(r->dist + 1)};
    for (size_t i = 0; i < sizeof part / sizeof *part; ++i) {
        z = (z ^ part[i]) * 0x9fb21c651e98df25ull;
        z ^= z >> 28;
    }
    return z;
}

static int setup_gemv(row *r)
{
    const int m = r->m, n = r->n, tr = r->var[0] != 'n', mis = r->rid == R_GEMV_MIS;
    const int64_t lenx = tr ? m : n, leny = tr ? n : m;
    r->lda = mis ? n + 8 : m;
    r->sa = mis ? r->lda * n + 8 : (int64_t)m * n;
    r->sx = lenx;
    r->sy = leny;
    const double per = (double)((int64_t)m * n + m + n) * (double)r->es;
    pick_batch(r, per, (double)(r->sa + lenx + leny) * (double)r->es + 4.0 * sizeof(void *));
    const size_t b = (size_t)r->batch, es = r->es;
    r->flops = 2.0 * m * n * (double)b * flop_scale(r);
    r->bytes = per * (double)b;
    r->nA = r->batch * r->sa + 8;
    r->nx = r->batch * lenx;
    r->ny = r->batch * leny;
    if (!(r->dA = dmem(r, (size_t)r->nA * es)) || !(r->dx = dmem(r, (size_t)r->nx * es)) ||
        !(r->dy = dmem(r, (size_t)r->ny * es)) || !(r->pA = dmem(r, b * sizeof(void *))) ||
        !(r->px = dmem(r, b * sizeof(void *))) || !(r->py = dmem(r, b * sizeof(void *))) ||
        (mis && !(r->pA1 = dmem(r, b * sizeof(void *)))))
        return 0;
    CK(fill(r, r->dA, r->nA, r->seed));
    CK(fill(r, r->dx, r->nx, r->seed ^ 0x5851f42d4c957f2dull));
    CK(bench_pointer_array(r->pA, r->dA, r->sa * (int64_t)es, r->batch, S.st));
    if (mis)
        CK(bench_pointer_array(r->pA1, (char *)r->dA + es, r->sa * (int64_t)es, r->batch, S.st));
    CK(bench_pointer_array(r->px, r->dx, lenx * (int64_t)es, r->batch, S.st));
    CK(bench_pointer_array(r->py, r->dy, leny * (int64_t)es, r->batch, S.st));
    return 1;
}

/* The row's distinct triangle i as doubles (complex: (re, im) pairs), ld = n. */
static void host_triangle(const row *r, int64_t i, double *t)
{
    const int single = bench_real_prec(r->prec) == 's', upper = r->var[0] == 'u';
    if (r->cx)
        blas2_ctriangular(r->n, r->n, upper, r->seed + (uint64_t)i, single, t);
    else
        blas2_triangular(r->n, r->n, upper, r->seed + (uint64_t)i, single, t);
}

static int setup_trsv(row *r)
{
    const int n = r->n;
    const int64_t nn = (int64_t)n * n;
    r->lda = n;
    r->sa = nn;
    r->sx = n;
    const double per = ((double)n * (n + 1) / 2.0 + 2.0 * n) * (double)r->es;
    pick_batch(r, per, (double)(nn + 2 * n) * (double)r->es + 2.0 * sizeof(void *));
    const size_t b = (size_t)r->batch, es = r->es;
    r->flops = (double)n * n * (double)b * flop_scale(r);
    r->bytes = per * (double)b;
    r->nA = r->batch * nn;
    r->nx = r->batch * n;
    if (!(r->dA = dmem(r, (size_t)r->nA * es)) || !(r->dx = dmem(r, (size_t)r->nx * es)) ||
        !(r->dx0 = dmem(r, (size_t)r->nx * es)) || !(r->pA = dmem(r, b * sizeof(void *))) ||
        !(r->px = dmem(r, b * sizeof(void *))))
        return 0;
    /* distinct triangles: at most 256 and about 32 MiB of host doubles */
    const int64_t rp = bench_reals_per(r->prec), nr = nn * rp; /* reals per triangle */
    const int single = bench_real_prec(r->prec) == 's';
    int64_t d = ((int64_t)32 << 20) / (nr * 8);
    d = bench_clamp64(d, 16, TRSV_DISTINCT);
    r->distinct = (int)(d < r->batch ? d : r->batch);
    double *t = bench_xmalloc(sizeof(double) * (size_t)nr);
    void *conv = bench_xmalloc((size_t)(r->distinct * nn) * es);
    for (int i = 0; i < r->distinct; ++i) {
        host_triangle(r, i, t);
        for (int64_t e = 0; e < nr; ++e) {
            if (single)
                ((float *)conv)[i * nr + e] = (float)t[e];
            else
                ((double *)conv)[i * nr + e] = t[e];
        }
    }
    upload(r->dA, conv, (size_t)(r->distinct * nn) * es);
    free(t);
    free(conv);
    for (int64_t done = r->distinct; done < r->batch;) { /* doubling copies of the tile */
        int64_t cnt = done < r->batch - done ? done : r->batch - done;
        CK(cudaMemcpyAsync((char *)r->dA + (size_t)(done * nn) * es, r->dA, (size_t)(cnt * nn) * es,
                           cudaMemcpyDeviceToDevice, S.st));
        done += cnt;
    }
    CK(fill(r, r->dx0, r->nx, r->seed ^ 0x2545f4914f6cdd1dull));
    CK(cudaMemcpyAsync(r->dx, r->dx0, (size_t)r->nx * es, cudaMemcpyDeviceToDevice, S.st));
    CK(bench_pointer_array(r->pA, r->dA, nn * (int64_t)es, r->batch, S.st));
    CK(bench_pointer_array(r->px, r->dx, (int64_t)n * (int64_t)es, r->batch, S.st));
    return 1;
}

/* Draws the sizes of a vbatched row: hm (and hn if not NULL) in [1, N] by the distribution. */
static void draw_sizes(row *r, int *hm, int *hn)
{
    const int N = r->m, lo_max = r->dist == D_UNIFORM ? N : small_max(N);
    const int64_t b = r->batch;
    double *u = bench_xmalloc(sizeof(double) * (size_t)(3 * b));
    blas2_random(u, 3 * b, r->seed ^ 0x9e3779b97f4a7c15ull, 0);
    int any_big = 0;
    for (int64_t i = 0; i < b; ++i) {
        int big = r->dist == D_EQUAL || (r->dist == D_SKEWED && u[3 * i + 2] < -0.98); /* 1% */
        for (int j = 0; j < 2; ++j) {
            int s = 1 + (int)((u[3 * i + j] + 1.0) * 0.5 * lo_max);
            int v = big ? N : s > lo_max ? lo_max : s;
            if (j == 0)
                hm[i] = v;
            else if (hn)
                hn[i] = v;
        }
        any_big |= big;
    }
    if (r->dist == D_SKEWED && !any_big) { /* at least one problem of the maximum size */
        hm[b / 2] = N;
        if (hn)
            hn[b / 2] = N;
    }
    free(u);
}

/* Offsets of problems of rows[i] x cols[i] elements (cols NULL: vectors), each starting on a
 * 16-byte boundary; returns the elements to allocate. */
static int64_t layout(const row *r, const int *rows, const int *cols, int64_t *off)
{
    const int64_t align = 16 / (int64_t)r->es;
    int64_t t = 0;
    for (int64_t i = 0; i < r->batch; ++i) {
        off[i] = t;
        t += (int64_t)rows[i] * (cols ? cols[i] : 1);
        t = (t + align - 1) / align * align;
    }
    return t;
}

static int setup_gemv_v(row *r)
{
    const int N = r->m, tr = r->var[0] != 'n'; /* op T or C */
    const double per = mean_problem_bytes(r);
    pick_batch(r, per, per + 48.0 + 3.0 * sizeof(void *) + 3.0 * sizeof(int));
    const size_t b = (size_t)r->batch;
    r->hm = hmem(r, sizeof(int) * b);
    r->hn = hmem(r, sizeof(int) * b);
    r->offA = hmem(r, sizeof(int64_t) * b);
    r->offx = hmem(r, sizeof(int64_t) * b);
    r->offy = hmem(r, sizeof(int64_t) * b);
    draw_sizes(r, r->hm, r->hn);
    r->nA = layout(r, r->hm, r->hn, r->offA);
    r->nx = layout(r, tr ? r->hm : r->hn, NULL, r->offx);
    r->ny = layout(r, tr ? r->hn : r->hm, NULL, r->offy);
    r->flops = r->bytes = 0;
    for (size_t i = 0; i < b; ++i) {
        r->flops += 2.0 * r->hm[i] * r->hn[i] * flop_scale(r);
        r->bytes += ((double)r->hm[i] * r->hn[i] + r->hm[i] + r->hn[i]) * (double)r->es;
    }
    int *ones = bench_xmalloc(sizeof(int) * b);
    for (size_t i = 0; i < b; ++i)
        ones[i] = 1;
    int ok = (r->dA = dmem(r, (size_t)r->nA * r->es)) && (r->dx = dmem(r, (size_t)r->nx * r->es)) &&
             (r->dy = dmem(r, (size_t)r->ny * r->es)) && upload_ints(r, &r->dm, r->hm) &&
             upload_ints(r, &r->dn, r->hn) && upload_ints(r, &r->dones, ones) &&
             upload_pointers(r, &r->pA, r->dA, r->offA, NULL) &&
             upload_pointers(r, &r->px, r->dx, r->offx, NULL) &&
             upload_pointers(r, &r->py, r->dy, r->offy, NULL);
    free(ones);
    if (!ok)
        return 0;
    /* the fixed-size baselines' view of the equal batch: uniform strides */
    r->lda = N;
    r->sa = r->batch > 1 ? r->offA[1] : (int64_t)N * N;
    r->sx = r->batch > 1 ? r->offx[1] : N;
    r->sy = r->batch > 1 ? r->offy[1] : N;
    CK(bench_fill_uniform(r->prec, r->dA, r->nA, r->seed, S.st));
    CK(bench_fill_uniform(r->prec, r->dx, r->nx, r->seed ^ 0x5851f42d4c957f2dull, S.st));
    return 1;
}

/* The grouping a cuBLAS user makes once: problems ordered by size, one group per size. */
static int make_groups(row *r)
{
    const int N = r->m;
    int *count = calloc((size_t)N + 1, sizeof(int)), *start = calloc((size_t)N + 1, sizeof(int));
    int *order = bench_xmalloc(sizeof(int) * (size_t)r->batch);
    if (!count || !start) {
        fprintf(stderr, "shoal_blas2_bench: host allocation failed\n");
        exit(1);
    }
    for (int64_t i = 0; i < r->batch; ++i)
        ++count[r->hm[i]];
    r->groups = 0;
    for (int s = 1; s <= N; ++s)
        r->groups += count[s] > 0;
    const size_t g = (size_t)r->groups;
    r->gdim = hmem(r, sizeof(int) * g);
    r->gsize = hmem(r, sizeof(int) * g);
    r->gop = hmem(r, sizeof(cublasOperation_t) * g);
    r->galpha = hmem(r, r->es * g);
    r->gbeta = hmem(r, r->es * g);
    for (int s = 1, k = 0, pos = 0; s <= N; ++s) {
        if (!count[s])
            continue;
        r->gdim[k] = s;
        r->gsize[k] = count[s];
        r->gop[k] = CUBLAS_OP_N;
        if (r->cx) { /* 1 + 0i, 0 + 0i (the complex per-size calls take the first) */
            const int single = r->prec == 'c';
            for (int part = 0; part < 2; ++part) {
                const double a = part ? 0.0 : 1.0;
                if (single)
                    ((float *)r->galpha)[2 * k + part] = (float)a, ((float *)r->gbeta)[2 * k + part] = 0.0f;
                else
                    ((double *)r->galpha)[2 * k + part] = a, ((double *)r->gbeta)[2 * k + part] = 0.0;
            }
        } else if (r->prec == 's') {
            ((float *)r->galpha)[k] = 1.0f;
            ((float *)r->gbeta)[k] = 0.0f;
        } else {
            ((double *)r->galpha)[k] = 1.0;
            ((double *)r->gbeta)[k] = 0.0;
        }
        start[s] = pos;
        pos += count[s];
        ++k;
    }
    for (int64_t i = 0; i < r->batch; ++i)
        order[start[r->hm[i]]++] = (int)i;
    int ok = upload_pointers(r, &r->gA, r->dA, r->offA, order) &&
             upload_pointers(r, &r->gB, r->dB, r->offA, order) &&
             upload_pointers(r, &r->gC, r->dC, r->offA, order);
    free(count);
    free(start);
    free(order);
    return ok;
}

static int setup_gemm_v(row *r)
{
    const double per = mean_problem_bytes(r);
    pick_batch(r, per, per + 48.0 + 6.0 * sizeof(void *) + sizeof(int));
    const size_t b = (size_t)r->batch;
    r->hm = hmem(r, sizeof(int) * b);
    r->offA = hmem(r, sizeof(int64_t) * b);
    draw_sizes(r, r->hm, NULL);
    r->nA = layout(r, r->hm, r->hm, r->offA);
    r->flops = r->bytes = 0;
    for (size_t i = 0; i < b; ++i) {
        double s = r->hm[i];
        r->flops += 2.0 * s * s * s * flop_scale(r);
        r->bytes += 3.0 * s * s * (double)r->es;
    }
    const size_t bytes = (size_t)r->nA * r->es;
    if (!(r->dA = dmem(r, bytes)) || !(r->dB = dmem(r, bytes)) || !(r->dC = dmem(r, bytes)) ||
        !upload_ints(r, &r->dm, r->hm) || !upload_pointers(r, &r->pA, r->dA, r->offA, NULL) ||
        !upload_pointers(r, &r->pB, r->dB, r->offA, NULL) ||
        !upload_pointers(r, &r->pC, r->dC, r->offA, NULL) || !make_groups(r))
        return 0;
    CK(fill(r, r->dA, r->nA, r->seed));
    CK(fill(r, r->dB, r->nA, r->seed ^ 0x5851f42d4c957f2dull));
    return 1;
}

/* 16 problems over the batch, first and last included; vbatched: the last sample is the first
 * problem of the largest size instead (so the skewed rows check a large problem). */
static void pick_samples(row *r)
{
    int vb = r->rid == R_GEMV_V || r->rid == R_GEMM_V, spread = vb ? N_SAMPLES - 1 : N_SAMPLES;
    for (int k = 0; k < spread; ++k)
        r->sample[k] = spread > 1 ? (int64_t)llround((double)k * (double)(r->batch - 1) / (spread - 1)) : 0;
    if (vb) {
        int64_t best = 0;
        for (int64_t i = 1; i < r->batch; ++i)
            if ((int64_t)r->hm[i] * (r->hn ? r->hn[i] : r->hm[i]) >
                (int64_t)r->hm[best] * (r->hn ? r->hn[best] : r->hm[best]))
                best = i;
        r->sample[N_SAMPLES - 1] = best;
    }
}

/* gemm: the double-precision reference C = A B of every sample, once per row (c, z: complex
 * arithmetic, (re, im) pairs; the error unit from the moduli). */
static void make_gemm_reference(row *r)
{
    const int64_t rp = bench_reals_per(r->prec);
    int64_t total = 0;
    for (int k = 0; k < N_SAMPLES; ++k) {
        int64_t s = r->hm[r->sample[k]];
        r->ref_off[k] = total;
        total += s * s;
    }
    r->ref = hmem(r, sizeof(double) * (size_t)(total * rp));
    double *ab = hmem(r, sizeof(double) * (size_t)(2 * total * rp));
    for (int k = 0; k < N_SAMPLES; ++k) {
        int64_t i = r->sample[k], s = r->hm[i];
        fetch(r, r->dA, r->offA[i], s * s, ab + 2 * r->ref_off[k] * rp);
        fetch(r, r->dB, r->offA[i], s * s, ab + (2 * r->ref_off[k] + s * s) * rp);
    }
    const double eps = eps_of(r->prec);
#pragma omp parallel for schedule(dynamic, 1)
    for (int k = 0; k < N_SAMPLES; ++k) {
        const int s = r->hm[r->sample[k]];
        const double *a = ab + 2 * r->ref_off[k] * rp, *bm = a + (int64_t)s * s * rp;
        double *c = r->ref + r->ref_off[k] * rp, max_a = 0, max_b = 0;
        for (int64_t e = 0; e < (int64_t)s * s; ++e) {
            max_a = fmax(max_a, rp == 2 ? hypot(a[2 * e], a[2 * e + 1]) : fabs(a[e]));
            max_b = fmax(max_b, rp == 2 ? hypot(bm[2 * e], bm[2 * e + 1]) : fabs(bm[e]));
        }
        for (int64_t e = 0; e < (int64_t)s * s * rp; ++e)
            c[e] = 0;
        for (int j = 0; j < s; ++j)
            for (int l = 0; l < s; ++l) {
                const int64_t lj = l + (int64_t)j * s;
                const double *al = a + (int64_t)l * s * rp;
                double *cj = c + (int64_t)j * s * rp;
                if (rp == 1) {
                    const double blj = bm[lj];
                    for (int i = 0; i < s; ++i)
                        cj[i] += al[i] * blj;
                } else {
                    const double br = bm[2 * lj], bi = bm[2 * lj + 1];
                    for (int i = 0; i < s; ++i) {
                        cj[2 * i] += al[2 * i] * br - al[2 * i + 1] * bi;
                        cj[2 * i + 1] += al[2 * i] * bi + al[2 * i + 1] * br;
                    }
                }
            }
        /* |alpha| k max|A| max|B| + |beta| max|C0| with alpha = 1, beta = 0 */
        double unit = eps * (double)s * max_a * max_b;
        r->scale[k] = unit > 0 ? unit : eps;
    }
}

static int setup_row(row *r)
{
    r->seed = row_seed(r);
    int ok = 0;
    switch (r->rid) {
    case R_GEMV: case R_GEMV_MIS: ok = setup_gemv(r); break;
    case R_TRSV: ok = setup_trsv(r); break;
    case R_GEMV_V: ok = setup_gemv_v(r); break;
    case R_GEMM_V: ok = setup_gemm_v(r); break;
    }
    if (!ok || r->batch < 1)
        return 0;
    CK(cudaStreamSynchronize(S.st));
    pick_samples(r);
    if (r->rid == R_GEMM_V)
        make_gemm_reference(r);
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Calls. Casts: the vendor's and shoal's pointer-array prototypes differ only in constness. */

#define CF(p) ((const float *)(p))
#define CD(p) ((const double *)(p))
#define CFA(p) ((const float *const *)(p))
#define CDA(p) ((const double *const *)(p))
#define FA(p) ((float *const *)(p))
#define DA(p) ((double *const *)(p))

/* The op of a variant's last letter (gemv "n"/"t"/"c", trsv "lc", ...). */
static char op_letter(const row *r) { return r->var[strlen(r->var) - 1]; }
static shoal_operation shoal_op(const row *r)
{
    const char c = op_letter(r);
    return c == 'c' ? SHOAL_OP_C : c == 't' ? SHOAL_OP_T : SHOAL_OP_N;
}
static cublasOperation_t vendor_op(const row *r)
{
    const char c = op_letter(r);
    return c == 'c' ? CUBLAS_OP_C : c == 't' ? CUBLAS_OP_T : CUBLAS_OP_N;
}

/* Complex element pointers (c: CX*, z: CZ*; A* const for the pointer arrays). */
#define CXC(p) ((const shoal_complex_float *)(p))
#define CZC(p) ((const shoal_complex_double *)(p))
#define CXCA(p) ((const shoal_complex_float *const *)(p))
#define CZCA(p) ((const shoal_complex_double *const *)(p))
#define CXA(p) ((shoal_complex_float *const *)(p))
#define CZA(p) ((shoal_complex_double *const *)(p))

/* gemv in c and z: alpha = 1, beta = 0 as in the real rows. */
static shoal_status shoal_gemv_call_complex(const row *r, const method_def *md)
{
    const shoal_handle h = md->who == W_OWN ? S.h_own : S.h;
    const shoal_operation op = shoal_op(r);
    const int m = r->m, n = r->n, z = r->prec == 'z';
    const int64_t lda = r->lda, b = r->batch;
    const shoal_complex_float c1 = {1.0f, 0.0f}, c0 = {0.0f, 0.0f};
    const shoal_complex_double z1 = {1.0, 0.0}, z0 = {0.0, 0.0};
    if (md->kind == K_ARRAY) {
        void *const *pa = md->misaligned ? r->pA1 : r->pA;
        return z ? shoal_zgemv_batched(h, op, m, n, z1, CZCA(pa), lda, CZCA(r->px), 1, z0, CZA(r->py), 1, b)
                 : shoal_cgemv_batched(h, op, m, n, c1, CXCA(pa), lda, CXCA(r->px), 1, c0, CXA(r->py), 1, b);
    }
    const char *a = (const char *)r->dA + (md->misaligned ? r->es : 0);
    return z ? shoal_zgemv_strided_batched(h, op, m, n, z1, CZC(a), lda, r->sa, CZC(r->dx), 1, r->sx, z0,
                                           (shoal_complex_double *)r->dy, 1, r->sy, b)
             : shoal_cgemv_strided_batched(h, op, m, n, c1, CXC(a), lda, r->sa, CXC(r->dx), 1, r->sx, c0,
                                           (shoal_complex_float *)r->dy, 1, r->sy, b);
}

static shoal_status shoal_gemv_call(const row *r, const method_def *md)
{
    if (r->cx)
        return shoal_gemv_call_complex(r, md);
    const shoal_handle h = md->who == W_OWN ? S.h_own : S.h;
    const shoal_operation op = r->var[0] == 't' ? SHOAL_OP_T : SHOAL_OP_N;
    const int m = r->m, n = r->n;
    const int64_t lda = r->lda, b = r->batch;
    if (md->kind == K_ARRAY) {
        void *const *pa = md->misaligned ? r->pA1 : r->pA;
        return r->prec == 's'
                   ? shoal_sgemv_batched(h, op, m, n, 1.0f, CFA(pa), lda, CFA(r->px), 1, 0.0f, FA(r->py), 1, b)
                   : shoal_dgemv_batched(h, op, m, n, 1.0, CDA(pa), lda, CDA(r->px), 1, 0.0, DA(r->py), 1, b);
    }
    const char *a = (const char *)r->dA + (md->misaligned ? r->es : 0);
    return r->prec == 's'
               ? shoal_sgemv_strided_batched(h, op, m, n, 1.0f, CF(a), lda, r->sa, CF(r->dx), 1, r->sx, 0.0f,
                                             (float *)r->dy, 1, r->sy, b)
               : shoal_dgemv_strided_batched(h, op, m, n, 1.0, CD(a), lda, r->sa, CD(r->dx), 1, r->sx, 0.0,
                                             (double *)r->dy, 1, r->sy, b);
}

static shoal_status shoal_trsv_call(const row *r, const method_def *md)
{
    const shoal_fill_mode u = r->var[0] == 'u' ? SHOAL_FILL_UPPER : SHOAL_FILL_LOWER;
    const shoal_operation op = shoal_op(r);
    const shoal_diag dg = SHOAL_DIAG_NON_UNIT;
    const int n = r->n;
    const int64_t b = r->batch;
    if (r->cx && md->kind == K_ARRAY)
        return r->prec == 'c' ? shoal_ctrsv_batched(S.h, u, op, dg, n, CXCA(r->pA), n, CXA(r->px), 1, b)
                              : shoal_ztrsv_batched(S.h, u, op, dg, n, CZCA(r->pA), n, CZA(r->px), 1, b);
    if (r->cx)
        return r->prec == 'c'
                   ? shoal_ctrsv_strided_batched(S.h, u, op, dg, n, CXC(r->dA), n, r->sa,
                                                 (shoal_complex_float *)r->dx, 1, n, b)
                   : shoal_ztrsv_strided_batched(S.h, u, op, dg, n, CZC(r->dA), n, r->sa,
                                                 (shoal_complex_double *)r->dx, 1, n, b);
    if (md->kind == K_ARRAY)
        return r->prec == 's' ? shoal_strsv_batched(S.h, u, op, dg, n, CFA(r->pA), n, FA(r->px), 1, b)
                              : shoal_dtrsv_batched(S.h, u, op, dg, n, CDA(r->pA), n, DA(r->px), 1, b);
    return r->prec == 's'
               ? shoal_strsv_strided_batched(S.h, u, op, dg, n, CF(r->dA), n, r->sa, (float *)r->dx, 1, n, b)
               : shoal_dtrsv_strided_batched(S.h, u, op, dg, n, CD(r->dA), n, r->sa, (double *)r->dx, 1, n, b);
}

/* gemm_vbatched in c and z: alpha = 1, beta = 0 as in the real rows; the fixed-size baseline
 * shoal_{c,z}gemm_batched on the equal batch. */
static shoal_status shoal_gemm_v_call_complex(const row *r, const method_def *md)
{
    const int N = r->m;
    const int64_t b = r->batch;
    const shoal_operation nn = SHOAL_OP_N;
    const shoal_complex_float c1 = {1.0f, 0.0f}, c0 = {0.0f, 0.0f};
    const shoal_complex_double z1 = {1.0, 0.0}, z0 = {0.0, 0.0};
    if (md->kind == K_VBATCHED)
        return r->prec == 'z'
                   ? shoal_zgemm_vbatched(S.h, nn, nn, r->dm, r->dm, r->dm, N, N, N, z1, CZCA(r->pA), r->dm,
                                          CZCA(r->pB), r->dm, z0, CZA(r->pC), r->dm, b)
                   : shoal_cgemm_vbatched(S.h, nn, nn, r->dm, r->dm, r->dm, N, N, N, c1, CXCA(r->pA), r->dm,
                                          CXCA(r->pB), r->dm, c0, CXA(r->pC), r->dm, b);
    return r->prec == 'z' ? shoal_zgemm_batched(S.h, nn, nn, N, N, N, z1, CZCA(r->pA), N, CZCA(r->pB), N, z0,
                                                CZA(r->pC), N, b)
                          : shoal_cgemm_batched(S.h, nn, nn, N, N, N, c1, CXCA(r->pA), N, CXCA(r->pB), N, c0,
                                                CXA(r->pC), N, b);
}

static shoal_status shoal_vbatched_call(const row *r, const method_def *md)
{
    const int N = r->m;
    const int64_t b = r->batch;
    if (r->rid == R_GEMV_V) {
        const shoal_operation op = shoal_op(r);
        if (md->kind == K_VBATCHED && r->cx) {
            const shoal_complex_float c1 = {1.0f, 0.0f}, c0 = {0.0f, 0.0f};
            const shoal_complex_double z1 = {1.0, 0.0}, z0 = {0.0, 0.0};
            return r->prec == 'z'
                       ? shoal_zgemv_vbatched(S.h, op, r->dm, r->dn, N, N, z1, CZCA(r->pA), r->dm, CZCA(r->px),
                                              r->dones, z0, CZA(r->py), r->dones, b)
                       : shoal_cgemv_vbatched(S.h, op, r->dm, r->dn, N, N, c1, CXCA(r->pA), r->dm, CXCA(r->px),
                                              r->dones, c0, CXA(r->py), r->dones, b);
        }
        if (md->kind == K_VBATCHED)
            return r->prec == 's'
                       ? shoal_sgemv_vbatched(S.h, op, r->dm, r->dn, N, N, 1.0f, CFA(r->pA), r->dm, CFA(r->px),
                                              r->dones, 0.0f, FA(r->py), r->dones, b)
                       : shoal_dgemv_vbatched(S.h, op, r->dm, r->dn, N, N, 1.0, CDA(r->pA), r->dm, CDA(r->px),
                                              r->dones, 0.0, DA(r->py), r->dones, b);
        return shoal_gemv_call(r, md); /* the fixed-size baselines of the equal batch */
    }
    const shoal_operation nn = SHOAL_OP_N;
    if (r->cx)
        return shoal_gemm_v_call_complex(r, md);
    if (md->kind == K_VBATCHED)
        return r->prec == 's'
                   ? shoal_sgemm_vbatched(S.h, nn, nn, r->dm, r->dm, r->dm, N, N, N, 1.0f, CFA(r->pA), r->dm,
                                          CFA(r->pB), r->dm, 0.0f, FA(r->pC), r->dm, b)
                   : shoal_dgemm_vbatched(S.h, nn, nn, r->dm, r->dm, r->dm, N, N, N, 1.0, CDA(r->pA), r->dm,
                                          CDA(r->pB), r->dm, 0.0, DA(r->pC), r->dm, b);
    return r->prec == 's' ? shoal_sgemm_batched(S.h, nn, nn, N, N, N, 1.0f, CFA(r->pA), N, CFA(r->pB), N, 0.0f,
                                                FA(r->pC), N, b)
                          : shoal_dgemm_batched(S.h, nn, nn, N, N, N, 1.0, CDA(r->pA), N, CDA(r->pB), N, 0.0,
                                                DA(r->pC), N, b);
}

/* gemm_vbatched's vendor in c and z: cuBLAS has no complex grouped GEMM, so one
 * cublas{C,Z}gemmBatched call per distinct size on that group's pointer arrays (in group order),
 * as a user would make them; alpha and beta the groups' first. */
static cublasStatus_t vendor_gemm_groups_complex(const row *r)
{
    int64_t start = 0;
    for (int k = 0; k < r->groups; ++k) {
        const int g = r->gdim[k];
        const cublasStatus_t st =
            r->prec == 'z'
                ? cublasZgemmBatched(S.cb, CUBLAS_OP_N, CUBLAS_OP_N, g, g, g, (const cuDoubleComplex *)r->galpha,
                                     (const cuDoubleComplex *const *)(r->gA + start), g,
                                     (const cuDoubleComplex *const *)(r->gB + start), g,
                                     (const cuDoubleComplex *)r->gbeta, (cuDoubleComplex *const *)(r->gC + start), g,
                                     r->gsize[k])
                : cublasCgemmBatched(S.cb, CUBLAS_OP_N, CUBLAS_OP_N, g, g, g, (const cuComplex *)r->galpha,
                                     (const cuComplex *const *)(r->gA + start), g,
                                     (const cuComplex *const *)(r->gB + start), g, (const cuComplex *)r->gbeta,
                                     (cuComplex *const *)(r->gC + start), g, r->gsize[k]);
        if (st != CUBLAS_STATUS_SUCCESS)
            return st;
        start += r->gsize[k];
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* The vendor in c and z: cublas{C,Z}gemv(Strided)Batched, cublas{C,Z}trsmBatched, and
 * gemm_vbatched's per-size calls. */
static cublasStatus_t vendor_call_complex(const row *r, const method_def *md)
{
    if (r->rid == R_GEMM_V)
        return vendor_gemm_groups_complex(r);
    static const cuComplex c1 = {1.0f, 0.0f}, c0 = {0.0f, 0.0f};
    static const cuDoubleComplex z1 = {1.0, 0.0}, z0 = {0.0, 0.0};
    const int z = r->prec == 'z', b = (int)r->batch, m = r->m, n = r->n, lda = (int)r->lda;
    const cublasOperation_t op = vendor_op(r);
    if (r->rid == R_TRSV) {
        const cublasFillMode_t u = r->var[0] == 'u' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        return z ? cublasZtrsmBatched(S.cb, CUBLAS_SIDE_LEFT, u, op, CUBLAS_DIAG_NON_UNIT, n, 1, &z1,
                                      (const cuDoubleComplex *const *)r->pA, n, (cuDoubleComplex *const *)r->px, n, b)
                 : cublasCtrsmBatched(S.cb, CUBLAS_SIDE_LEFT, u, op, CUBLAS_DIAG_NON_UNIT, n, 1, &c1,
                                      (const cuComplex *const *)r->pA, n, (cuComplex *const *)r->px, n, b);
    }
    if (md->kind == K_ARRAY) {
        void *const *pa = md->misaligned ? r->pA1 : r->pA;
        return z ? cublasZgemvBatched(S.cb, op, m, n, &z1, (const cuDoubleComplex *const *)pa, lda,
                                      (const cuDoubleComplex *const *)r->px, 1, &z0, (cuDoubleComplex *const *)r->py,
                                      1, b)
                 : cublasCgemvBatched(S.cb, op, m, n, &c1, (const cuComplex *const *)pa, lda,
                                      (const cuComplex *const *)r->px, 1, &c0, (cuComplex *const *)r->py, 1, b);
    }
    const char *a = (const char *)r->dA + (md->misaligned ? r->es : 0);
    return z ? cublasZgemvStridedBatched(S.cb, op, m, n, &z1, (const cuDoubleComplex *)a, lda, r->sa,
                                         (const cuDoubleComplex *)r->dx, 1, r->sx, &z0, (cuDoubleComplex *)r->dy, 1,
                                         r->sy, b)
             : cublasCgemvStridedBatched(S.cb, op, m, n, &c1, (const cuComplex *)a, lda, r->sa,
                                         (const cuComplex *)r->dx, 1, r->sx, &c0, (cuComplex *)r->dy, 1, r->sy, b);
}

static cublasStatus_t vendor_call(const row *r, const method_def *md)
{
    if (r->cx)
        return vendor_call_complex(r, md);
    static const float f1 = 1.0f, f0 = 0.0f;
    static const double d1 = 1.0, d0 = 0.0;
    const int s = r->prec == 's', b = (int)r->batch, m = r->m, n = r->n, lda = (int)r->lda;
    switch (r->rid) {
    case R_GEMV:
    case R_GEMV_MIS: {
        const cublasOperation_t op = r->var[0] == 't' ? CUBLAS_OP_T : CUBLAS_OP_N;
        if (md->kind == K_ARRAY)
            return s ? cublasSgemvBatched(S.cb, op, m, n, &f1, CFA(r->pA), lda, CFA(r->px), 1, &f0, FA(r->py), 1, b)
                     : cublasDgemvBatched(S.cb, op, m, n, &d1, CDA(r->pA), lda, CDA(r->px), 1, &d0, DA(r->py), 1, b);
        const char *a = (const char *)r->dA + (md->misaligned ? r->es : 0);
        return s ? cublasSgemvStridedBatched(S.cb, op, m, n, &f1, CF(a), lda, r->sa, CF(r->dx), 1, r->sx, &f0,
                                             (float *)r->dy, 1, r->sy, b)
                 : cublasDgemvStridedBatched(S.cb, op, m, n, &d1, CD(a), lda, r->sa, CD(r->dx), 1, r->sx, &d0,
                                             (double *)r->dy, 1, r->sy, b);
    }
    case R_TRSV: {
        const cublasFillMode_t u = r->var[0] == 'u' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        const cublasOperation_t op = r->var[1] == 't' ? CUBLAS_OP_T : CUBLAS_OP_N;
        return s ? cublasStrsmBatched(S.cb, CUBLAS_SIDE_LEFT, u, op, CUBLAS_DIAG_NON_UNIT, n, 1, &f1, CFA(r->pA), n,
                                      FA(r->px), n, b)
                 : cublasDtrsmBatched(S.cb, CUBLAS_SIDE_LEFT, u, op, CUBLAS_DIAG_NON_UNIT, n, 1, &d1, CDA(r->pA), n,
                                      DA(r->px), n, b);
    }
    case R_GEMM_V: {
        const int *g = r->gdim; /* m = n = k = lda = ldb = ldc within a group */
        return s ? cublasSgemmGroupedBatched(S.cb, r->gop, r->gop, g, g, g, (const float *)r->galpha, CFA(r->gA), g,
                                             CFA(r->gB), g, (const float *)r->gbeta, FA(r->gC), g, r->groups,
                                             r->gsize)
                 : cublasDgemmGroupedBatched(S.cb, r->gop, r->gop, g, g, g, (const double *)r->galpha, CDA(r->gA),
                                             g, CDA(r->gB), g, (const double *)r->gbeta, DA(r->gC), g, r->groups,
                                             r->gsize);
    }
    }
    return CUBLAS_STATUS_NOT_SUPPORTED;
}

static const char *case_of(const row *r, const method_def *md)
{
    if (r->dist >= 0)
        return dist_name[r->dist];
    if (r->rid == R_GEMV_MIS)
        return md->misaligned ? "misaligned" : "aligned";
    return "packed";
}

static int launch(const row *r, int mi)
{
    const method_def *md = &methods[r->rid][mi];
    if (md->who == W_VENDOR) {
        cublasStatus_t st = vendor_call(r, md);
        if (st == CUBLAS_STATUS_SUCCESS)
            return L_OK;
        (void)cudaGetLastError();
        fprintf(stderr, "shoal_blas2_bench: %c %s %s %s %dx%d: %s %s returned cuBLAS status %d (shown as -)\n",
                r->prec, routine_name[r->rid], r->var, case_of(r, md), r->m, r->n, md->name, kind_name[md->kind],
                (int)st);
        return L_VENDOR_FAILED;
    }
    shoal_status st;
    switch (r->rid) {
    case R_GEMV: case R_GEMV_MIS: st = shoal_gemv_call(r, md); break;
    case R_TRSV: st = shoal_trsv_call(r, md); break;
    default: st = shoal_vbatched_call(r, md); break;
    }
    if (st == SHOAL_STATUS_SUCCESS)
        return L_OK;
    fprintf(stderr, "shoal_blas2_bench: %c %s %s %s %dx%d: %s %s: %s\n", r->prec, routine_name[r->rid], r->var,
            case_of(r, md), r->m, r->n, md->name, kind_name[md->kind], shoal_status_string(st));
    return L_SHOAL_FAILED;
}

/* ------------------------------------------------------------------------------------------ */
/* Restores, poisoning, checks. */

/* Before every run, outside the timed events: trsv overwrites its right-hand sides. */
static void restore(const row *r)
{
    if (r->rid == R_TRSV)
        CK(cudaMemcpyAsync(r->dx, r->dx0, (size_t)r->nx * r->es, cudaMemcpyDeviceToDevice, S.st));
}

/* Outputs written whole with beta = 0 get NaN (all-ones bytes) before the check run. */
static void poison(const row *r)
{
    if (r->rid == R_GEMM_V)
        CK(cudaMemsetAsync(r->dC, 0xff, (size_t)r->nA * r->es, S.st));
    else if (r->rid != R_TRSV)
        CK(cudaMemsetAsync(r->dy, 0xff, (size_t)r->ny * r->es, S.st));
}

static double error_limit(int rid)
{
    return rid == R_TRSV ? 2.0 * BLAS2_ERROR_LIMIT : rid == R_GEMM_V ? GEMM_ERROR_LIMIT : BLAS2_ERROR_LIMIT;
}

static double gemv_sample_error(const row *r, const method_def *md, int64_t i)
{
    const int tr = r->var[0] != 'n', vb = r->rid == R_GEMV_V;
    const int m = vb ? r->hm[i] : r->m, n = vb ? r->hn[i] : r->n;
    const int64_t lda = vb ? m : r->lda, lenx = tr ? m : n, leny = tr ? n : m;
    const int64_t oa = vb ? r->offA[i] : (md->misaligned ? 1 : 0) + i * r->sa;
    const int64_t ox = vb ? r->offx[i] : i * r->sx, oy = vb ? r->offy[i] : i * r->sy;
    const int64_t acount = lda * (n - 1) + m, rp = bench_reals_per(r->prec);
    double *a = bench_xmalloc(sizeof(double) * (size_t)((acount + lenx + leny) * rp));
    double *x = a + acount * rp, *y = x + lenx * rp;
    fetch(r, r->dA, oa, acount, a);
    fetch(r, r->dx, ox, lenx, x);
    fetch(r, r->dy, oy, leny, y);
    double e;
    if (r->cx) { /* trans 0 N, 1 T, 2 C */
        static const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
        const int trans = op_letter(r) == 'c' ? 2 : tr;
        e = blas2_cgemv_error(trans, m, n, one, a, lda, x, 1, zero, NULL, y, 1, eps_of(r->prec));
    } else {
        e = blas2_gemv_error(tr, m, n, 1.0, a, lda, x, 1, 0.0, NULL, y, 1, eps_of(r->prec));
    }
    free(a);
    return e;
}

static double trsv_sample_error(const row *r, int64_t i)
{
    const int n = r->n;
    const int64_t rp = bench_reals_per(r->prec);
    double *a = bench_xmalloc(sizeof(double) * (size_t)(((int64_t)n * n + 2 * n) * rp));
    double *b = a + (int64_t)n * n * rp, *x = b + n * rp;
    host_triangle(r, i % r->distinct, a);
    fetch(r, r->dx0, i * n, n, b);
    fetch(r, r->dx, i * n, n, x);
    const int upper = r->var[0] == 'u', trans = r->var[1] == 'c' ? 2 : r->var[1] == 't';
    double e = r->cx ? blas2_ctrsv_error(upper, trans, 0, n, a, n, b, x, 1, eps_of(r->prec))
                     : blas2_trsv_error(upper, trans, 0, n, a, n, b, x, 1, eps_of(r->prec));
    free(a);
    return e;
}

static double gemm_sample_error(const row *r, int k)
{
    const int64_t i = r->sample[k], cnt = (int64_t)r->hm[i] * r->hm[i], rp = bench_reals_per(r->prec);
    double *c = bench_xmalloc(sizeof(double) * (size_t)(cnt * rp)), worst = 0;
    fetch(r, r->dC, r->offA[i], cnt, c);
    const double *ref = r->ref + r->ref_off[k] * rp;
    for (int64_t e = 0; e < cnt * rp; ++e) { /* c, z: each part */
        double d = fabs(c[e] - ref[e]) / r->scale[k];
        if (!(d <= worst)) /* NaN included */
            worst = isnan(d) ? INFINITY : d;
    }
    free(c);
    return worst;
}

/* Worst normalized error of the sampled problems after a run of method mi. */
static double check_samples(const row *r, int mi)
{
    const method_def *md = &methods[r->rid][mi];
    double worst = 0;
    for (int k = 0; k < N_SAMPLES; ++k) {
        double e = r->rid == R_TRSV   ? trsv_sample_error(r, r->sample[k])
                   : r->rid == R_GEMM_V ? gemm_sample_error(r, k)
                                        : gemv_sample_error(r, md, r->sample[k]);
        if (!(e <= worst))
            worst = isnan(e) ? INFINITY : e;
    }
    return worst;
}

/* ------------------------------------------------------------------------------------------ */
/* Timing. */

typedef int (*step_fn)(void *ctx, int arg); /* 0 on success */

/* Warm-up by time, not by count (METHOD.md): rounds of 2, 4, 8, ... calls until WARM_MS of
 * device time have passed. The row's set-up (host data, uploads) leaves the GPU idle long enough
 * for its clocks to drop, and a call of tens of microseconds repeated 17 times is over before
 * they are back. */
#define WARM_MS 25.0f

static int warm_up(step_fn before, step_fn call, void *ctx, int arg)
{
    float spent = 0;
    for (int n = 2; spent < WARM_MS; n *= 2) {
        CK(cudaEventRecord(S.ev[0], S.st));
        for (int i = 0; i < n; ++i) {
            if (before)
                before(ctx, arg);
            if (call(ctx, arg) != 0)
                return 1;
        }
        CK(cudaEventRecord(S.ev[1], S.st));
        CK(cudaEventSynchronize(S.ev[1]));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, S.ev[0], S.ev[1]));
        spent += ms;
    }
    return 0;
}

/* The warm-up above, then the median milliseconds of --runs calls, each between its own events;
 * before (may be NULL) runs ahead of every call, outside the events. NaN if a call fails. */
static double median_ms(step_fn before, step_fn call, void *ctx, int arg)
{
    const int runs = S.o.runs;
    int bad = warm_up(before, call, ctx, arg);
    for (int i = 0; i < runs && !bad; ++i) {
        if (before)
            before(ctx, arg);
        CK(cudaEventRecord(S.ev[2 * i], S.st));
        bad = call(ctx, arg) != 0;
        CK(cudaEventRecord(S.ev[2 * i + 1], S.st));
    }
    cudaError_t e = cudaStreamSynchronize(S.st);
    if (e != cudaSuccess)
        cuda_or_die(e, "synchronize after the timed runs (a kernel faulted?)", __LINE__);
    if (bad)
        return NAN;
    double *t = bench_xmalloc(sizeof(double) * (size_t)runs);
    for (int i = 0; i < runs; ++i) {
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, S.ev[2 * i], S.ev[2 * i + 1]));
        t[i] = ms;
    }
    double med = bench_median(t, runs);
    free(t);
    return med;
}

static int row_before(void *ctx, int mi)
{
    (void)mi;
    restore(ctx);
    return 0;
}

static int row_call(void *ctx, int mi) { return launch(ctx, mi) != L_OK; }

/* Check, then time, method mi of the row. */
static void measure(row *r, int mi, result *res)
{
    const method_def *md = &methods[r->rid][mi];
    memset(res, 0, sizeof *res);
    res->ms = res->err = NAN;
    res->present = md->name && (!md->equal_only || r->dist == D_EQUAL);
    if (!res->present)
        return;
    restore(r);
    poison(r);
    res->launch = launch(r, mi);
    if (res->launch != L_OK)
        return;
    cudaError_t e = cudaStreamSynchronize(S.st);
    if (e != cudaSuccess)
        cuda_or_die(e, "synchronize after the check run (a kernel faulted?)", __LINE__);
    res->err = check_samples(r, mi);
    res->ms = median_ms(row_before, row_call, r, mi);
    res->ok = res->err <= error_limit(r->rid) && isfinite(res->ms);
}

/* The compute ceiling of the gemm roof: a cuBLAS n^3 GEMM (n = 8192, less if memory is short). */
typedef struct peak_ctx {
    char prec;
    int n;
    void *a, *b, *c;
} peak_ctx;

static int peak_call(void *ctx, int arg)
{
    (void)arg;
    const peak_ctx *p = ctx;
    const float f1 = 1.0f, f0 = 0.0f;
    const double d1 = 1.0, d0 = 0.0;
    const int n = p->n;
    cublasStatus_t st =
        p->prec == 's'
            ? cublasSgemm(S.cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &f1, CF(p->a), n, CF(p->b), n, &f0, p->c, n)
            : cublasDgemm(S.cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &d1, CD(p->a), n, CD(p->b), n, &d0, p->c, n);
    return st != CUBLAS_STATUS_SUCCESS;
}

static double measure_peak(char prec)
{
    peak_ctx p = {prec, 8192, NULL, NULL, NULL};
    const size_t es = prec == 's' ? sizeof(float) : sizeof(double);
    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    while (p.n > 1024 && 3.0 * p.n * p.n * (double)es > 0.5 * (double)free_b)
        p.n /= 2;
    const size_t bytes = (size_t)p.n * (size_t)p.n * es;
    double gf = INFINITY;
    if (cudaMalloc(&p.a, bytes) == cudaSuccess && cudaMalloc(&p.b, bytes) == cudaSuccess &&
        cudaMalloc(&p.c, bytes) == cudaSuccess) {
        CK(bench_fill_uniform(prec, p.a, (int64_t)p.n * p.n, 1, S.st));
        CK(bench_fill_uniform(prec, p.b, (int64_t)p.n * p.n, 2, S.st));
        double ms = median_ms(NULL, peak_call, &p, 0);
        if (isfinite(ms))
            gf = 2.0 * p.n * (double)p.n * p.n / (ms * 1e6);
    }
    (void)cudaGetLastError();
    cudaFree(p.a);
    cudaFree(p.b);
    cudaFree(p.c);
    if (isfinite(gf))
        printf("# %c compute peak: cublas%cgemm %d^3 %.0f Gflop/s (median of %d; the gemm roof's cap)\n", prec,
               prec == 's' ? 'S' : 'D', p.n, gf, S.o.runs);
    else
        printf("# %c compute peak: not measured (no memory or cuBLAS error); gemm roof = memory only\n", prec);
    return gf;
}

/* ------------------------------------------------------------------------------------------ */
/* Output. */

static double roof_gflops(const row *r)
{
    double mem = S.copy_gbs * r->flops / r->bytes;
    if (r->rid != R_GEMM_V)
        return mem;
    double peak = S.peak[r->prec == 'd'];
    return peak < mem ? peak : mem;
}

static void csv_header(void)
{
    fprintf(S.csv, "device,prec,routine,variant,case,m,n,batch,method,mode,median_ms,gflops,gbs,pct_roof,ok\n");
}

static void csv_value(double v, char end)
{
    if (isfinite(v))
        fprintf(S.csv, "%.6g", v);
    fputc(end, S.csv);
}

static void csv_rows(const row *r, const result *res)
{
    if (!S.csv)
        return;
    for (int mi = 0; mi < MAX_METHODS; ++mi) {
        const method_def *md = &methods[r->rid][mi];
        if (!res[mi].present || res[mi].launch == L_VENDOR_FAILED)
            continue;
        double ms = res[mi].ms, gf = r->flops / (ms * 1e6);
        fprintf(S.csv, "\"%s\",%c,%s,%s,%s,%d,%d,%lld,%s,%s,", S.prop.name, r->prec, routine_name[r->rid], r->var,
                case_of(r, md), r->m, r->n, (long long)r->batch, md->name, kind_name[md->kind]);
        csv_value(ms, ',');
        csv_value(gf, ',');
        csv_value(r->bytes / (ms * 1e6), ',');
        csv_value(100.0 * gf / roof_gflops(r), ',');
        fprintf(S.csv, "%d\n", res[mi].ok);
    }
    fflush(S.csv);
}

static int col_width(const column *c)
{
    int w = (int)strlen(c->label), min = c->what == 'g' ? 9 : 6;
    return w > min ? w : min;
}

/* One number of the table, "-" where there is none. */
static void put(double v, int width, int decimals)
{
    if (isfinite(v))
        printf(" %*.*f", width, decimals, v);
    else
        printf(" %*s", width, "-");
}

static int is_vbatched(int rid) { return rid == R_GEMV_V || rid == R_GEMM_V; }

static void print_title(char prec, int rid, const char *var)
{
    const char P = (char)toupper((unsigned char)prec);
    const char opc = var[strlen(var) - 1], *op = opc == 'c' ? "C" : opc == 't' ? "T" : "N";
    printf("\n## %c %s ", prec, routine_name[rid]);
    switch (rid) {
    case R_GEMV:
        printf("trans=%s: shoal_%cgemv_strided_batched / _batched / own (vendor dispatch off) vs "
               "cublas%cgemvStridedBatched / cublas%cgemvBatched; packed\n", op, prec, P, P);
        break;
    case R_GEMV_MIS:
        printf("trans=%s: lda = n + 8, strideA = lda n + 8; A at the base (align) or base + 1 element (misal); "
               "shoal strided / array, cublas%cgemvStridedBatched\n", op, P);
        break;
    case R_TRSV:
        printf("uplo=%c trans=%s diag=N: shoal_%ctrsv_strided_batched / _batched vs cublas%ctrsmBatched "
               "(left, nrhs 1)\n", var[0] == 'u' ? 'U' : 'L', op, prec, P);
        break;
    case R_GEMV_V:
        printf("trans=%s: shoal_%cgemv_vbatched vs fixed-size shoal_%cgemv_batched / _strided_batched "
               "(equal batch, same data); Gflop/s of useful work\n", op, prec, prec);
        break;
    case R_GEMM_V:
        printf("NN: shoal_%cgemm_vbatched vs fixed-size shoal_%cgemm_batched (equal batch) and %s%c%s; Gflop/s of "
               "useful work\n", prec, prec, "cublas", P,
               bench_is_complex(prec) ? "gemmBatched (one call per size: no complex grouped GEMM)"
                                      : "gemmGroupedBatched (one group per size)");
        break;
    }
    if (is_vbatched(rid))
        printf("%5s %-7s %8s", "N", "dist", "batch");
    else
        printf("%5s %5s %8s", "m", "n", "batch");
    if (rid == R_GEMM_V)
        printf(" %6s", "groups");
    printf(" |");
    for (const column *c = columns[rid]; c->what; ++c) {
        if (c->what == '|')
            printf(" |");
        else
            printf(" %*s", col_width(c), c->label);
    }
    printf(" %8s | %9s | %-6s | %s\n", "roof", "error", "check", "kernels / notes");
    fflush(stdout);
}

static void row_notes(const row *r, const result *res, char *buf, size_t len)
{
    const char *ks = NULL, *ka = NULL, *ko = NULL;
    char kv[4] = {0};
    size_t used = 0;
    buf[0] = 0;
    switch (r->rid) {
    case R_GEMV:
    case R_GEMV_MIS:
    case R_TRSV: {
        const char *routine = r->rid == R_TRSV ? "trsv" : "gemv";
        snprintf(kv, sizeof kv, "%s", r->var);
        if (kv[strlen(kv) - 1] == 'c') /* op C is served by the t variant's kernels (conjugating) */
            kv[strlen(kv) - 1] = 't';
        shoal_blas2_kernel_name(S.h, routine, r->prec, 0, kv, r->m, r->n, &ks);
        shoal_blas2_kernel_name(S.h, routine, r->prec, 1, kv, r->m, r->n, &ka);
        if (r->rid == R_GEMV)
            shoal_blas2_kernel_name(S.h_own, routine, r->prec, 0, kv, r->m, r->n, &ko);
        used = (size_t)snprintf(buf, len, "str=%s arr=%s", ks ? ks : "?", ka ? ka : "?");
        if (ko && used < len)
            used += (size_t)snprintf(buf + used, len - used, " own=%s", ko);
        break;
    }
    case R_GEMV_V:
        shoal_blas2_kernel_name(S.h, "gemv_vbatched", r->prec, 1, r->var, r->m, r->n, &ks);
        used = (size_t)snprintf(buf, len, "vb=%s", ks ? ks : "?");
        if (r->dist == D_EQUAL && used < len) {
            shoal_blas2_kernel_name(S.h, "gemv", r->prec, 1, r->var, r->m, r->n, &ka);
            shoal_blas2_kernel_name(S.h, "gemv", r->prec, 0, r->var, r->m, r->n, &ko);
            used += (size_t)snprintf(buf + used, len - used, " fixed arr=%s str=%s", ka ? ka : "?", ko ? ko : "?");
        }
        break;
    case R_GEMM_V:
        if (r->dist == D_EQUAL) {
            shoal_gemm_kernel_name(S.h, r->prec, 1, SHOAL_OP_N, SHOAL_OP_N, r->m, r->m, r->m, &ka);
            used = (size_t)snprintf(buf, len, "fixed=%s", ka ? ka : "?");
        }
        break;
    }
    int vendor_na = 0;
    for (int mi = 0; mi < MAX_METHODS; ++mi)
        vendor_na |= res[mi].present && res[mi].launch == L_VENDOR_FAILED;
    if (vendor_na && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%svendor n/a", used ? "; " : "");
    if (r->limited && used < len)
        snprintf(buf + used, len - used, "%sbatch limited by memory", used ? "; " : "");
}

static void print_row(const row *r, const result *res, int ok)
{
    double gf[MAX_METHODS], worst = 0, roof = roof_gflops(r);
    for (int mi = 0; mi < MAX_METHODS; ++mi) {
        gf[mi] = res[mi].present ? r->flops / (res[mi].ms * 1e6) : NAN;
        if (res[mi].present && res[mi].launch == L_OK && !(res[mi].err <= worst))
            worst = res[mi].err;
    }
    if (is_vbatched(r->rid))
        printf("%5d %-7s %8lld", r->m, dist_name[r->dist], (long long)r->batch);
    else
        printf("%5d %5d %8lld", r->m, r->n, (long long)r->batch);
    if (r->rid == R_GEMM_V)
        printf(" %6d", r->groups);
    printf(" |");
    for (const column *c = columns[r->rid]; c->what; ++c) {
        int w = col_width(c);
        switch (c->what) {
        case '|': printf(" |"); break;
        case 'g': put(gf[c->a], w, 1); break;
        case 'r': put(gf[c->a] / gf[c->b], w, 2); break;
        case 'p': put(100.0 * gf[c->a] / roof, w, 1); break;
        }
    }
    char notes[512];
    row_notes(r, res, notes, sizeof notes);
    put(roof, 8, 1);
    printf(" | %9.2e | %-6s | %s\n", worst, ok ? "ok" : "FAILED", notes);
    fflush(stdout);
}

static void explain(const row *r, const result *res)
{
    for (int mi = 0; mi < MAX_METHODS; ++mi) {
        const method_def *md = &methods[r->rid][mi];
        if (!res[mi].present || res[mi].ok || res[mi].launch == L_VENDOR_FAILED)
            continue;
        fprintf(stderr,
                "shoal_blas2_bench: FAILED %c %s %s %s %dx%d %s %s: launch %s, worst sampled error %.3g (limit %g), "
                "median %.4g ms\n",
                r->prec, routine_name[r->rid], r->var, case_of(r, md), r->m, r->n, md->name, kind_name[md->kind],
                res[mi].launch == L_OK ? "ok" : "failed", res[mi].err, error_limit(r->rid), res[mi].ms);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Rows. */

static void bench_row(int rid, char prec, const char *var, int m, int n, int dist)
{
    row *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "shoal_blas2_bench: host allocation failed\n");
        exit(1);
    }
    r->rid = rid;
    r->prec = prec;
    r->cx = bench_is_complex(prec);
    r->es = bench_elem_size(prec);
    r->var = var;
    r->m = m;
    r->n = n;
    r->dist = dist;
    ++S.rows;
    if (!setup_row(r)) {
        if (is_vbatched(rid))
            printf("%5d %-7s %8lld | device allocation failed | FAILED\n", m, dist_name[dist], (long long)r->batch);
        else
            printf("%5d %5d %8lld | device allocation failed | FAILED\n", m, n, (long long)r->batch);
        ++S.failed;
        release_row(r);
        free(r);
        return;
    }
    result res[MAX_METHODS];
    int ok = 1;
    for (int mi = 0; mi < MAX_METHODS; ++mi) {
        measure(r, mi, &res[mi]);
        if (res[mi].present && res[mi].launch != L_VENDOR_FAILED)
            ok &= res[mi].ok;
    }
    if (!ok) {
        explain(r, res);
        ++S.failed;
    }
    print_row(r, res, ok);
    csv_rows(r, res);
    release_row(r);
    free(r);
}

/* The (m, n) shapes of a fixed-size routine, or the maxima N (as N x N) of a vbatched one. */
static int shapes_of(int rid, int (*mn)[2])
{
    static const int sq_full[] = {2, 4, 8, 16, 32, 64, 128, 256, 512}, sq_quick[] = {2, 8, 32, 128, 512};
    static const int rect_full[][2] = {{8, 512}, {512, 8}, {32, 512}, {512, 32}};
    static const int mis_full[] = {64, 128, 256, 512}, mis_quick[] = {64, 512};
    static const int trsv_full[] = {4, 8, 16, 32, 64, 128, 256, 512}, trsv_quick[] = {8, 32, 128, 512};
    static const int vb_full[] = {32, 128, 512}, vb_quick[] = {32, 512};
    const int q = S.o.quick;
    const int *sq = NULL;
    int nsq = 0, nrect = 0, k = 0;
    switch (rid) {
    case R_GEMV:
        sq = q ? sq_quick : sq_full;
        nsq = q ? 5 : 9;
        nrect = q ? 2 : 4;
        break;
    case R_GEMV_MIS: sq = q ? mis_quick : mis_full; nsq = q ? 2 : 4; break;
    case R_TRSV: sq = q ? trsv_quick : trsv_full; nsq = q ? 4 : 8; break;
    default: sq = q ? vb_quick : vb_full; nsq = q ? 2 : 3; break;
    }
    for (int i = 0; i < nsq; ++i, ++k)
        mn[k][0] = mn[k][1] = sq[i];
    for (int i = 0; i < nrect; ++i, ++k) {
        mn[k][0] = rect_full[i][0];
        mn[k][1] = rect_full[i][1];
    }
    return k;
}

/* Every selected row in table order; list: print its key instead of running it. */
static void run_rows(int list)
{
    for (int p = 0; p < N_PRECS; ++p) {
        if (!S.o.prec_on[p])
            continue;
        const char prec = PRECS[p];
        for (int rid = 0; rid < N_ROUTINES; ++rid) {
            if (!S.o.routine_on[rid])
                continue;
            for (const char *const *v = bench_is_complex(prec) ? variants_complex[rid] : variants[rid]; *v; ++v) {
                int mn[16][2], ns = shapes_of(rid, mn);
                if (!list)
                    print_title(prec, rid, *v);
                for (int s = 0; s < ns; ++s)
                    for (int d = is_vbatched(rid) ? 0 : -1; d < (is_vbatched(rid) ? N_DISTS : 0); ++d) {
                        if (list)
                            printf("%c:%s:%s:%s:%dx%d\n", prec, routine_name[rid], *v,
                                   d >= 0 ? dist_name[d] : rid == R_GEMV_MIS ? "aligned+misaligned" : "packed",
                                   mn[s][0], mn[s][1]);
                        else
                            bench_row(rid, prec, *v, mn[s][0], mn[s][1], d);
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
            "usage: shoal_blas2_bench [options]\n"
            "Batched GEMV and TRSV (s, d, c, z) and the variable-size GEMV / GEMM (s, d): shoal (strided, pointer array,\n"
            "vbatched) vs cuBLAS (gemv, trsm, grouped GEMM), the roof measured in the same run.\n\n"
            "  --csv FILE       also write one CSV row per measurement to FILE\n"
            "  --quick          fewer sizes (gemv n in {2, 8, 32, 128, 512} + (8, 512), (512, 8);\n"
            "                   misaligned n in {64, 512}; trsv n in {8, 32, 128, 512}; vbatched N in\n"
            "                   {32, 512})\n"
            "  --prec LIST      precisions, any of s, d, c, z (e.g. sd, cz, sdcz; default sd);\n"
            "                   c and z run gemv, gemv_misaligned (ops N, T, C) and trsv (op C too)\n"
            "  --routine LIST   comma-separated, repeatable: gemv, gemv_misaligned, trsv,\n"
            "                   gemv_vbatched, gemm_vbatched (default all; the vbatched two: s, d)\n"
            "  --runs R         timed runs per method, the median reported (default 15)\n"
            "  --list           print the row keys that would run and exit (needs no GPU)\n"
            "  -h, --help       this text\n\n"
            "Exit status: 0 all rows ok, 1 a row FAILED, 2 usage, 77 no CUDA device.\n");
}

static int set_routines(const char *v, opts *o)
{
    while (*v) {
        size_t len = strcspn(v, ",");
        int found = -1;
        for (int r = 0; r < N_ROUTINES; ++r)
            if (strlen(routine_name[r]) == len && !strncmp(v, routine_name[r], len))
                found = r;
        if (found < 0)
            return 0;
        o->routine_on[found] = 1;
        v += len;
        if (*v == ',')
            ++v;
    }
    return 1;
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->prec_on[0] = o->prec_on[1] = 1; /* s, d: the runs before c and z keep their meaning */
    o->runs = 15;
    int routines = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (!strcmp(a, "--quick")) {
            o->quick = 1;
            continue;
        }
        if (!strcmp(a, "--list")) {
            o->list = 1;
            continue;
        }
        if (i + 1 >= argc)
            return 0;
        const char *v = argv[++i];
        if (!strcmp(a, "--csv")) {
            o->csv = v;
        } else if (!strcmp(a, "--prec")) {
            if (!*v || v[strspn(v, PRECS)] != 0)
                return 0;
            for (int p = 0; p < N_PRECS; ++p)
                o->prec_on[p] = strchr(v, PRECS[p]) != NULL;
        } else if (!strcmp(a, "--routine")) {
            if (!set_routines(v, o))
                return 0;
            routines = 1;
        } else if (!strcmp(a, "--runs")) {
            char *end;
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 1000)
                return 0;
            o->runs = (int)r;
        } else {
            return 0;
        }
    }
    if (!routines)
        for (int r = 0; r < N_ROUTINES; ++r)
            o->routine_on[r] = 1;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */

/* 1 with a device (properties in S), 0 after printing the SKIP line. */
static int find_device(int *dev)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count < 1) {
        printf("SKIP: no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
        return 0;
    }
    CK(cudaGetDevice(dev));
    CK(cudaGetDeviceProperties(&S.prop, *dev));
    S.l2 = S.prop.l2CacheSize;
    return 1;
}

/* Stream, handles, events; an exit status, or -1 to go on. */
static int open_handles(void)
{
    CK(cudaStreamCreateWithFlags(&S.st, cudaStreamNonBlocking));
    if (cublasCreate(&S.cb) != CUBLAS_STATUS_SUCCESS || cublasSetStream(S.cb, S.st) != CUBLAS_STATUS_SUCCESS) {
        printf("FAILED: cannot create the cuBLAS handle\n");
        return 1;
    }
    shoal_status st = shoal_create(&S.h);
    if (st == SHOAL_STATUS_SUCCESS)
        st = shoal_create(&S.h_own);
    if (st != SHOAL_STATUS_SUCCESS) {
        printf("%s: shoal_create: %s\n", st == SHOAL_STATUS_NO_DEVICE ? "SKIP" : "FAILED", shoal_status_string(st));
        return st == SHOAL_STATUS_NO_DEVICE ? 77 : 1;
    }
    if (shoal_set_stream(S.h, S.st) != SHOAL_STATUS_SUCCESS || shoal_set_stream(S.h_own, S.st) != SHOAL_STATUS_SUCCESS ||
        shoal_set_vendor_dispatch(S.h_own, 0) != SHOAL_STATUS_SUCCESS) {
        printf("FAILED: cannot configure the shoal handles\n");
        return 1;
    }
    S.ev = bench_xmalloc(sizeof(cudaEvent_t) * (size_t)(2 * S.o.runs));
    for (int i = 0; i < 2 * S.o.runs; ++i)
        CK(cudaEventCreate(&S.ev[i]));
    return -1;
}

static void preamble(int dev)
{
    const char *table = NULL;
    int level = -1, cublas_version = 0;
    shoal_get_dispatch_info(S.h, &table, &level);
    cublasGetVersion(S.cb, &cublas_version);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&now));
    printf("# shoal_blas2_bench %d.%d.%d, %s\n", SHOAL_VERSION_MAJOR, SHOAL_VERSION_MINOR, SHOAL_VERSION_PATCH, date);
    printf("# device %d: %s (cc %d.%d, %d SMs, L2 %.1f MiB, %.1f GiB); cuBLAS %d; shoal table \"%s\" (match level "
           "%d)\n",
           dev, S.prop.name, S.prop.major, S.prop.minor, S.prop.multiProcessorCount, (double)S.l2 / (1 << 20),
           (double)S.prop.totalGlobalMem / (1 << 30), cublas_version, table ? table : "?", level);
    S.copy_gbs = bench_copy_bandwidth(S.st, S.o.runs);
    S.peak[0] = S.peak[1] = INFINITY;
    if (S.o.routine_on[R_GEMM_V])
        for (int p = 0; p < 2; ++p)
            if (S.o.prec_on[p])
                S.peak[p] = measure_peak(p ? 'd' : 's');
    printf("# Gflop/s: useful flops (gemv 2mn, trsv n^2, gemm 2mnk, summed over the problems; x4 in c and z) / median of %d runs "
           "(after %.0f ms of warm-up calls; trsv's x restored outside the timed events); alpha = 1, beta = 0, unit increments\n",
           S.o.runs, (double)WARM_MS);
    printf("# roof = copy GB/s x flops / bytes (gemm: capped by the compute peak); bytes per problem: gemv "
           "(mn + m + n) elem, trsv (n(n+1)/2 + 2n) elem, gemm (mk + kn + mn) elem (4, 8, 8, 16 bytes in s, d, c, z); %%roof = time at copy "
           "bandwidth / measured time\n");
    printf("# batch = clamp(4 x L2 / bytes + 1, %d, %d) problems (vbatched: mean bytes of the distribution), at "
           "most 2 GiB of device memory per row; ratios are Gflop/s over Gflop/s\n", MIN_BATCH, MAX_BATCH);
    printf("# check before timing, every method: outputs NaN-poisoned, %d sampled problems vs double host "
           "references; error = normalized error in units of eps, limits gemv %g, trsv %g, gemm %g\n",
           N_SAMPLES, BLAS2_ERROR_LIMIT, 2 * BLAS2_ERROR_LIMIT, GEMM_ERROR_LIMIT);
    printf("# goals: gemv_misaligned mis/al >= 0.9; gemv_vbatched v/fa >= 0.9; gemm_vbatched v/f >= 0.9, "
           "v/g >= 1.5\n");
}

int main(int argc, char **argv)
{
    if (!parse(argc, argv, &S.o)) {
        usage(stderr);
        return 2;
    }
    if (S.o.list) {
        run_rows(1);
        return 0;
    }
    int dev = 0;
    if (!find_device(&dev))
        return 77;
    int rc = open_handles();
    if (rc >= 0)
        return rc;
    preamble(dev);
    if (S.o.csv) {
        S.csv = fopen(S.o.csv, "w");
        if (!S.csv) {
            perror(S.o.csv);
            return 1;
        }
        csv_header();
    }
    run_rows(0);
    if (S.csv)
        fclose(S.csv);
    printf("\n# %d rows, %d failed\n", S.rows, S.failed);
    for (int i = 0; i < 2 * S.o.runs; ++i)
        cudaEventDestroy(S.ev[i]);
    free(S.ev);
    shoal_destroy(S.h_own);
    shoal_destroy(S.h);
    cublasDestroy(S.cb);
    cudaStreamDestroy(S.st);
    return S.failed ? 1 : 0;
}
