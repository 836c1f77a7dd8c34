/* shoal_bench: batched GEMM, shoal vs cuBLAS vs OpenBLAS + OpenMP, on one GPU, in one run.
 *
 * Per row (precision, mode, transposes, m, n, k) it times, with CUDA events, a warm-up then the
 * median of --runs (>= 7 by default) calls of
 *   shoal   the handle as shipped (the tuned dispatch may route to cuBLAS),
 *   own     a handle with vendor dispatch off (shoal's best own kernel for the shape),
 *   cuBLAS  cublas?gemmStridedBatched / cublas?gemmBatched on the same data,
 * and, on the host, OpenBLAS cblas_?gemm in an OpenMP parallel for over (a subset of) the batch.
 * alpha = 1, beta = 0; data random in [-1, 1], never 0; leading dimensions = rows; the batch is
 * large enough for A + B + C to exceed 4 x L2 (so the data streams from memory).
 *
 * Precisions s, d (default) and c, z (--prec, e.g. sdcz): complex rows take ops N, T and C
 * (conjugate transpose), against cublas{C,Z}gemmStridedBatched / cublas{C,Z}gemmBatched and
 * cblas_{c,z}gemm; real and imaginary parts are random in [-1, 1], never 0. Their variants are a
 * subset that keeps a run short: nn (square and rectangular), nc, cn and cc (square; cc also
 * rectangular). A complex multiply-add counts 8 real flops (LAPACK Working Note 41): Gflop/s =
 * 8 m n k batch / time, and elements are 8 (c) or 16 (z) bytes in the roof's bytes.
 *
 * The roof is measured in the same run: roof = min(compute peak, copy_bw * flops / bytes), where
 * compute peak is a cuBLAS 8192^3 GEMM of that precision (FP32 and complex FP32 with
 * CUBLAS_PEDANTIC_MATH, so no TF32), copy_bw a device-to-device cudaMemcpy counted as bytes read + written, and bytes =
 * (m k + k n + m n) * elem per matrix (A, B read once, C written once), plus its three 8-byte
 * pointers with pointer arrays (from the run of 2026-11-27 on). A kernel at 100% of roof
 * moves its data at copy speed or computes at the large-GEMM rate.
 *
 * Correctness: shoal's and own's C are compared with cuBLAS's on sampled matrices (first, middle,
 * last), error = max |C - C_cublas| / (k max|A| max|B| eps), ok if <= 16 (|.| the modulus in c
 * and z, eps that of the real type).
 *
 * Exit: 0 all rows ok, 1 a call failed or an error is too large, 2 usage, 77 no CUDA device.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_kernels.h"
#include "bench_util.h"
#include "gemm_check.h"
#include "shoal.h"

#include <cblas.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { M_SHOAL, M_OWN, M_CUBLAS, N_METHODS };
enum { MODE_STRIDED, MODE_ARRAY, N_MODES };
static const char *const mode_names[N_MODES] = {"strided", "array"};

#define MAX_FILTERS 16
#define MAX_SAMPLE_RANGES 3
#define SAMPLE_PER_RANGE 8

typedef struct opts {
    const char *csv;
    int quick;
    int precs[4]; /* s, d, c, z (PRECS order) */
    const char *filters[MAX_FILTERS];
    int n_filters;
    int runs;
    int cpu;
    int64_t cpu_max;
    double cpu_flops_target;
    double l2_factor;
} opts;

typedef struct shape {
    int ta, tb, m, n, k;
} shape;

typedef struct row_result {
    double ms[N_METHODS];   /* median; NaN if the method failed */
    double err[2];          /* shoal, own vs cuBLAS */
    const char *kernel, *own_kernel;
    int call_failed[N_METHODS];
} row_result;

/* Everything that lives for the whole run. */
static struct {
    opts o;
    cudaStream_t st;
    cublasHandle_t cb;
    shoal_handle h, h_own;
    struct cudaDeviceProp prop;
    int64_t l2_bytes;
    double copy_gbs;
    double peak[4];          /* Gflop/s for s, d, c, z */
    FILE *csv;
    int failures;
    int rows;
} G;

/* ------------------------------------------------------------------------------------------ */

static void die_cuda(cudaError_t e, const char *what, int line)
{
    fprintf(stderr, "shoal_bench:%d: %s: %s\n", line, what, cudaGetErrorString(e));
    exit(1);
}
#define CUDA_CHECK(x)                                                                         \
    do {                                                                                      \
        cudaError_t e_ = (x);                                                                 \
        if (e_ != cudaSuccess)                                                                \
            die_cuda(e_, #x, __LINE__);                                                       \
    } while (0)
#define CUBLAS_CHECK(x)                                                                       \
    do {                                                                                      \
        cublasStatus_t s_ = (x);                                                              \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                    \
            fprintf(stderr, "shoal_bench:%d: %s: cuBLAS status %d\n", __LINE__, #x, (int)s_); \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

/* ta, tb: shoal_operation values (0 N, 1 T, 2 C; C only in the complex precisions) */
static const char *trans_str(int ta, int tb)
{
    static const char *s[9] = {"nn", "nt", "nc", "tn", "tt", "tc", "cn", "ct", "cc"};
    return s[ta * 3 + tb];
}

#define PRECS "sdcz"

static int prec_index(char prec) { return (int)(strchr(PRECS, prec) - PRECS); }
/* real flops of one multiply-add: 8 for complex (LAPACK Working Note 41) */
static double flops_per_fma(char prec) { return gc_is_complex(prec) ? 8.0 : 2.0; }

static cublasOperation_t cublas_op(int t)
{
    return t == 2 ? CUBLAS_OP_C : t == 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
}

/* ------------------------------------------------------------------------------------------ */
/* Ceilings. */

static double measure_gemm_peak(char prec)
{
    size_t es = gc_elem_size(prec);
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    int n = 8192;
    while (n > 1024 && 3 * (size_t)n * n * es > free_b / 2)
        n /= 2;
    size_t bytes = (size_t)n * n * es;
    void *a, *b, *c;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMalloc(&c, bytes));
    CUDA_CHECK(bench_fill_uniform(bench_real_prec(prec), a, (int64_t)n * n * bench_reals_per(prec), 11, G.st));
    CUDA_CHECK(bench_fill_uniform(bench_real_prec(prec), b, (int64_t)n * n * bench_reals_per(prec), 12, G.st));
    int pedantic = bench_real_prec(prec) == 's';
    CUBLAS_CHECK(cublasSetMathMode(G.cb, pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH));
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    int runs = G.o.runs;
    double *t = bench_xmalloc(sizeof(double) * (size_t)runs);
    for (int r = -1; r < runs; ++r) {
        CUDA_CHECK(cudaEventRecord(e0, G.st));
        if (prec == 's') {
            const float one = 1.0f, zero = 0.0f;
            CUBLAS_CHECK(cublasSgemm(G.cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n,
                                     &zero, c, n));
        } else if (prec == 'd') {
            const double one = 1.0, zero = 0.0;
            CUBLAS_CHECK(cublasDgemm(G.cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n,
                                     &zero, c, n));
        } else if (prec == 'c') {
            const cuComplex one = {1.0f, 0.0f}, zero = {0.0f, 0.0f};
            CUBLAS_CHECK(cublasCgemm(G.cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n,
                                     &zero, c, n));
        } else {
            const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0};
            CUBLAS_CHECK(cublasZgemm(G.cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n,
                                     &zero, c, n));
        }
        CUDA_CHECK(cudaEventRecord(e1, G.st));
        CUDA_CHECK(cudaEventSynchronize(e1));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0)
            t[r] = ms;
    }
    double ms = bench_median(t, runs);
    double gflops = flops_per_fma(prec) * (double)n * n * n / (ms * 1e6);
    CUBLAS_CHECK(cublasSetMathMode(G.cb, CUBLAS_DEFAULT_MATH));
    free(t);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    printf("# compute peak %cgemm %d^3 (cuBLAS%s): %.0f Gflop/s\n", prec, n,
           pedantic ? ", CUBLAS_PEDANTIC_MATH" : "", gflops);
    return gflops;
}

/* ------------------------------------------------------------------------------------------ */
/* Shapes. */

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* Appends square shapes of the given sizes in op pair (ta, tb) at out[n]; returns the new count. */
static int add_squares(shape *out, int n, const int *sizes, int count, int ta, int tb)
{
    for (int i = 0; i < count; ++i)
        out[n++] = (shape){ta, tb, sizes[i], sizes[i], sizes[i]};
    return n;
}

/* The rectangular shapes (m, n, k), the first `count` of them, in op pair (ta, tb). */
static int add_rects(shape *out, int n, int count, int ta, int tb)
{
    static const int rect[][3] = {{4, 8, 2},    {16, 4, 8},    {8, 16, 16},
                                  {2, 16, 4},   {64, 32, 128}, {256, 64, 32}};
    for (int i = 0; i < count && i < COUNT(rect); ++i)
        out[n++] = (shape){ta, tb, rect[i][0], rect[i][1], rect[i][2]};
    return n;
}

/* s and d: nn square over the sizes, nt, tn and tt square, every op pair rectangular; --quick:
 * fewer sizes, three rectangles in nn only. */
static int build_shapes(shape *out, int quick)
{
    static const int nn_full[] = {2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 48, 64, 96, 128,
                                  192, 256, 384, 512};
    static const int nn_quick[] = {2, 4, 8, 16, 32, 64, 128, 256, 512};
    static const int other_full[] = {2, 4, 8, 16, 32, 64, 128, 256};
    static const int other_quick[] = {4, 16, 64};
    int n = quick ? add_squares(out, 0, nn_quick, COUNT(nn_quick), 0, 0)
                  : add_squares(out, 0, nn_full, COUNT(nn_full), 0, 0);
    for (int t = 1; t < 4; ++t)
        n = quick ? add_squares(out, n, other_quick, COUNT(other_quick), t >> 1, t & 1)
                  : add_squares(out, n, other_full, COUNT(other_full), t >> 1, t & 1);
    for (int t = 0; t < (quick ? 1 : 4); ++t)
        n = add_rects(out, n, quick ? 3 : 6, t >> 1, t & 1);
    return n;
}

/* The complex precisions' subset (ta, tb as shoal_operation: 0 N, 2 C): nn square and
 * rectangular, nc, cn and cc square, cc rectangular; --quick: fewer sizes, rectangles in nn only. */
static int build_complex_shapes(shape *out, int quick)
{
    static const int nn_full[] = {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256};
    static const int nn_quick[] = {2, 4, 8, 16, 32, 64, 128};
    static const int other_full[] = {2, 4, 8, 16, 32, 64, 128};
    static const int other_quick[] = {4, 16, 64};
    static const int ops[][2] = {{0, 2}, {2, 0}, {2, 2}};
    int n = quick ? add_squares(out, 0, nn_quick, COUNT(nn_quick), 0, 0)
                  : add_squares(out, 0, nn_full, COUNT(nn_full), 0, 0);
    for (int t = 0; t < COUNT(ops); ++t)
        n = quick ? add_squares(out, n, other_quick, COUNT(other_quick), ops[t][0], ops[t][1])
                  : add_squares(out, n, other_full, COUNT(other_full), ops[t][0], ops[t][1]);
    for (int t = 0; t < (quick ? 1 : 2); ++t)
        n = add_rects(out, n, quick ? 3 : 6, 2 * t, 2 * t);
    return n;
}

static void row_key(char *buf, size_t len, char prec, int mode, const shape *s)
{
    snprintf(buf, len, "%c:%s:%s:%dx%dx%d", prec, mode_names[mode], trans_str(s->ta, s->tb), s->m,
             s->n, s->k);
}

static int selected(char prec, int mode, const shape *s)
{
    if (G.o.n_filters == 0)
        return 1;
    char key[96];
    row_key(key, sizeof key, prec, mode, s);
    for (int i = 0; i < G.o.n_filters; ++i)
        if (strstr(key, G.o.filters[i]))
            return 1;
    return 0;
}

/* 2^25 / (m n) matrices clamped to [1000, 1e6] (4e6 when m, n <= 4), as in the anchors; then at
 * least enough that A + B + C exceed l2_factor x L2; then what fits in 70% of free memory. */
static int64_t batch_for(const shape *s, size_t es, int *limited)
{
    int64_t mn = (int64_t)s->m * s->n;
    int64_t cap = (s->m <= 4 && s->n <= 4) ? 4000000 : 1000000;
    int64_t b = bench_clamp64(((int64_t)1 << 25) / mn, 1000, cap);
    int64_t bytes = ((int64_t)s->m * s->k + (int64_t)s->k * s->n + mn) * (int64_t)es;
    int64_t need = (int64_t)(G.o.l2_factor * (double)G.l2_bytes) / bytes + 1;
    if (b < need)
        b = need;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    int64_t fit = (int64_t)(0.7 * (double)free_b) / (bytes + 3 * (int64_t)sizeof(void *));
    *limited = b > fit;
    if (b > fit)
        b = fit;
    return b < 1 ? 1 : b;
}

/* ------------------------------------------------------------------------------------------ */
/* One shape: device data shared by both modes and all methods. */

typedef struct shape_data {
    char prec;
    size_t es;
    shape s;
    int64_t batch;
    int64_t lda, ldb, ldc, sa, sb, sc;
    void *da, *db, *dc;
    void **dap, **dbp, **dcp;
    /* sampled matrices: ranges [start, start + count) */
    int n_ranges;
    int64_t r_start[MAX_SAMPLE_RANGES], r_count[MAX_SAMPLE_RANGES];
    int64_t n_sampled;
    void *ha, *hb;            /* sampled A, B */
    void *hc[N_METHODS];      /* sampled C per method */
    double cpu_gflops;        /* NaN until measured */
    int cpu_batch;
} shape_data;

static void pick_samples(shape_data *d)
{
    int64_t b = d->batch, per = SAMPLE_PER_RANGE;
    d->n_ranges = 0;
    d->n_sampled = 0;
    if (b <= MAX_SAMPLE_RANGES * per) {
        d->r_start[0] = 0;
        d->r_count[0] = b;
        d->n_ranges = 1;
    } else {
        int64_t starts[MAX_SAMPLE_RANGES] = {0, b / 2 - per / 2, b - per};
        for (int i = 0; i < MAX_SAMPLE_RANGES; ++i) {
            d->r_start[i] = starts[i];
            d->r_count[i] = per;
        }
        d->n_ranges = MAX_SAMPLE_RANGES;
    }
    for (int i = 0; i < d->n_ranges; ++i)
        d->n_sampled += d->r_count[i];
}

static void download_samples(const shape_data *d, const void *dev, int64_t stride, void *host)
{
    char *out = host;
    for (int i = 0; i < d->n_ranges; ++i) {
        size_t bytes = (size_t)(d->r_count[i] * stride) * d->es;
        CUDA_CHECK(cudaMemcpy(out, (const char *)dev + (size_t)(d->r_start[i] * stride) * d->es,
                              bytes, cudaMemcpyDeviceToHost));
        out += bytes;
    }
}

static int setup_shape(shape_data *d, char prec, const shape *s, uint64_t seed, int *limited)
{
    memset(d, 0, sizeof *d);
    d->prec = prec;
    d->es = gc_elem_size(prec);
    d->s = *s;
    d->batch = batch_for(s, d->es, limited);
    int64_t rows_a = s->ta ? s->k : s->m, cols_a = s->ta ? s->m : s->k;
    int64_t rows_b = s->tb ? s->n : s->k, cols_b = s->tb ? s->k : s->n;
    d->lda = rows_a;
    d->ldb = rows_b;
    d->ldc = s->m;
    d->sa = rows_a * cols_a;
    d->sb = rows_b * cols_b;
    d->sc = (int64_t)s->m * s->n;
    size_t na = (size_t)(d->batch * d->sa), nb = (size_t)(d->batch * d->sb),
           nc = (size_t)(d->batch * d->sc);
    if (cudaMalloc(&d->da, na * d->es) != cudaSuccess ||
        cudaMalloc(&d->db, nb * d->es) != cudaSuccess ||
        cudaMalloc(&d->dc, nc * d->es) != cudaSuccess ||
        cudaMalloc((void **)&d->dap, (size_t)d->batch * sizeof(void *)) != cudaSuccess ||
        cudaMalloc((void **)&d->dbp, (size_t)d->batch * sizeof(void *)) != cudaSuccess ||
        cudaMalloc((void **)&d->dcp, (size_t)d->batch * sizeof(void *)) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    /* complex: real and imaginary parts filled as 2 reals per element */
    char rp = bench_real_prec(prec);
    int64_t rpe = bench_reals_per(prec);
    CUDA_CHECK(bench_fill_uniform(rp, d->da, (int64_t)na * rpe, gc_mix(seed, 1), G.st));
    CUDA_CHECK(bench_fill_uniform(rp, d->db, (int64_t)nb * rpe, gc_mix(seed, 2), G.st));
    CUDA_CHECK(bench_fill_uniform(rp, d->dc, (int64_t)nc * rpe, gc_mix(seed, 3), G.st));
    CUDA_CHECK(bench_pointer_array(d->dap, d->da, d->sa * (int64_t)d->es, d->batch, G.st));
    CUDA_CHECK(bench_pointer_array(d->dbp, d->db, d->sb * (int64_t)d->es, d->batch, G.st));
    CUDA_CHECK(bench_pointer_array(d->dcp, d->dc, d->sc * (int64_t)d->es, d->batch, G.st));
    CUDA_CHECK(cudaStreamSynchronize(G.st));
    pick_samples(d);
    d->ha = bench_xmalloc((size_t)(d->n_sampled * d->sa) * d->es);
    d->hb = bench_xmalloc((size_t)(d->n_sampled * d->sb) * d->es);
    for (int m = 0; m < N_METHODS; ++m)
        d->hc[m] = bench_xmalloc((size_t)(d->n_sampled * d->sc) * d->es);
    download_samples(d, d->da, d->sa, d->ha);
    download_samples(d, d->db, d->sb, d->hb);
    d->cpu_gflops = NAN;
    return 1;
}

static void free_shape(shape_data *d)
{
    cudaFree(d->da);
    cudaFree(d->db);
    cudaFree(d->dc);
    cudaFree(d->dap);
    cudaFree(d->dbp);
    cudaFree(d->dcp);
    free(d->ha);
    free(d->hb);
    for (int m = 0; m < N_METHODS; ++m)
        free(d->hc[m]);
    (void)cudaGetLastError();
}

/* ------------------------------------------------------------------------------------------ */
/* Launching the three GPU methods. Returns 0 on success. */

static int launch(const shape_data *d, int method, int mode)
{
    const shape *s = &d->s;
    if (method == M_CUBLAS) {
        cublasOperation_t ta = cublas_op(s->ta), tb = cublas_op(s->tb);
        cublasStatus_t st;
        if (d->prec == 's') {
            const float one = 1.0f, zero = 0.0f;
            st = mode == MODE_STRIDED
                     ? cublasSgemmStridedBatched(G.cb, ta, tb, s->m, s->n, s->k, &one, d->da,
                                                 (int)d->lda, d->sa, d->db, (int)d->ldb, d->sb,
                                                 &zero, d->dc, (int)d->ldc, d->sc, (int)d->batch)
                     : cublasSgemmBatched(G.cb, ta, tb, s->m, s->n, s->k, &one,
                                          (const float *const *)d->dap, (int)d->lda,
                                          (const float *const *)d->dbp, (int)d->ldb, &zero,
                                          (float *const *)d->dcp, (int)d->ldc, (int)d->batch);
        } else if (d->prec == 'd') {
            const double one = 1.0, zero = 0.0;
            st = mode == MODE_STRIDED
                     ? cublasDgemmStridedBatched(G.cb, ta, tb, s->m, s->n, s->k, &one, d->da,
                                                 (int)d->lda, d->sa, d->db, (int)d->ldb, d->sb,
                                                 &zero, d->dc, (int)d->ldc, d->sc, (int)d->batch)
                     : cublasDgemmBatched(G.cb, ta, tb, s->m, s->n, s->k, &one,
                                          (const double *const *)d->dap, (int)d->lda,
                                          (const double *const *)d->dbp, (int)d->ldb, &zero,
                                          (double *const *)d->dcp, (int)d->ldc, (int)d->batch);
        } else if (d->prec == 'c') {
            const cuComplex one = {1.0f, 0.0f}, zero = {0.0f, 0.0f};
            st = mode == MODE_STRIDED
                     ? cublasCgemmStridedBatched(G.cb, ta, tb, s->m, s->n, s->k, &one, d->da,
                                                 (int)d->lda, d->sa, d->db, (int)d->ldb, d->sb,
                                                 &zero, d->dc, (int)d->ldc, d->sc, (int)d->batch)
                     : cublasCgemmBatched(G.cb, ta, tb, s->m, s->n, s->k, &one,
                                          (const cuComplex *const *)d->dap, (int)d->lda,
                                          (const cuComplex *const *)d->dbp, (int)d->ldb, &zero,
                                          (cuComplex *const *)d->dcp, (int)d->ldc, (int)d->batch);
        } else {
            const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0};
            st = mode == MODE_STRIDED
                     ? cublasZgemmStridedBatched(G.cb, ta, tb, s->m, s->n, s->k, &one, d->da,
                                                 (int)d->lda, d->sa, d->db, (int)d->ldb, d->sb,
                                                 &zero, d->dc, (int)d->ldc, d->sc, (int)d->batch)
                     : cublasZgemmBatched(G.cb, ta, tb, s->m, s->n, s->k, &one,
                                          (const cuDoubleComplex *const *)d->dap, (int)d->lda,
                                          (const cuDoubleComplex *const *)d->dbp, (int)d->ldb,
                                          &zero, (cuDoubleComplex *const *)d->dcp, (int)d->ldc,
                                          (int)d->batch);
        }
        return st != CUBLAS_STATUS_SUCCESS;
    }
    shoal_handle h = method == M_SHOAL ? G.h : G.h_own;
    shoal_operation ta = (shoal_operation)s->ta, tb = (shoal_operation)s->tb;
    shoal_status st;
    if (d->prec == 's')
        st = mode == MODE_STRIDED
                 ? shoal_sgemm_strided_batched(h, ta, tb, s->m, s->n, s->k, 1.0f, d->da, d->lda,
                                               d->sa, d->db, d->ldb, d->sb, 0.0f, d->dc, d->ldc,
                                               d->sc, d->batch)
                 : shoal_sgemm_batched(h, ta, tb, s->m, s->n, s->k, 1.0f,
                                       (const float *const *)d->dap, d->lda,
                                       (const float *const *)d->dbp, d->ldb, 0.0f,
                                       (float *const *)d->dcp, d->ldc, d->batch);
    else if (d->prec == 'd')
        st = mode == MODE_STRIDED
                 ? shoal_dgemm_strided_batched(h, ta, tb, s->m, s->n, s->k, 1.0, d->da, d->lda,
                                               d->sa, d->db, d->ldb, d->sb, 0.0, d->dc, d->ldc,
                                               d->sc, d->batch)
                 : shoal_dgemm_batched(h, ta, tb, s->m, s->n, s->k, 1.0,
                                       (const double *const *)d->dap, d->lda,
                                       (const double *const *)d->dbp, d->ldb, 0.0,
                                       (double *const *)d->dcp, d->ldc, d->batch);
    else if (d->prec == 'c') {
        const shoal_complex_float one = {1.0f, 0.0f}, zero = {0.0f, 0.0f};
        st = mode == MODE_STRIDED
                 ? shoal_cgemm_strided_batched(h, ta, tb, s->m, s->n, s->k, one, d->da, d->lda,
                                               d->sa, d->db, d->ldb, d->sb, zero, d->dc, d->ldc,
                                               d->sc, d->batch)
                 : shoal_cgemm_batched(h, ta, tb, s->m, s->n, s->k, one,
                                       (const shoal_complex_float *const *)d->dap, d->lda,
                                       (const shoal_complex_float *const *)d->dbp, d->ldb, zero,
                                       (shoal_complex_float *const *)d->dcp, d->ldc, d->batch);
    } else {
        const shoal_complex_double one = {1.0, 0.0}, zero = {0.0, 0.0};
        st = mode == MODE_STRIDED
                 ? shoal_zgemm_strided_batched(h, ta, tb, s->m, s->n, s->k, one, d->da, d->lda,
                                               d->sa, d->db, d->ldb, d->sb, zero, d->dc, d->ldc,
                                               d->sc, d->batch)
                 : shoal_zgemm_batched(h, ta, tb, s->m, s->n, s->k, one,
                                       (const shoal_complex_double *const *)d->dap, d->lda,
                                       (const shoal_complex_double *const *)d->dbp, d->ldb, zero,
                                       (shoal_complex_double *const *)d->dcp, d->ldc, d->batch);
    }
    if (st != SHOAL_STATUS_SUCCESS)
        fprintf(stderr, "shoal_bench: %s returned %s\n", method == M_SHOAL ? "shoal" : "own",
                shoal_status_string(st));
    return st != SHOAL_STATUS_SUCCESS;
}

/* Median milliseconds of G.o.runs launches after two warm-ups; C is poisoned with NaN first so a
 * method that writes nothing cannot pass on an earlier method's results. NaN on failure. */
static double time_method(shape_data *d, int method, int mode)
{
    size_t c_bytes = (size_t)(d->batch * d->sc) * d->es;
    CUDA_CHECK(cudaMemsetAsync(d->dc, 0xff, c_bytes, G.st));
    int runs = G.o.runs;
    cudaEvent_t *ev = bench_xmalloc(sizeof(cudaEvent_t) * 2 * (size_t)runs);
    for (int i = 0; i < 2 * runs; ++i)
        CUDA_CHECK(cudaEventCreate(&ev[i]));
    double ms = NAN;
    int failed = 0;
    for (int w = 0; w < 2 && !failed; ++w)
        failed = launch(d, method, mode);
    CUDA_CHECK(cudaStreamSynchronize(G.st));
    for (int r = 0; r < runs && !failed; ++r) {
        CUDA_CHECK(cudaEventRecord(ev[2 * r], G.st));
        failed = launch(d, method, mode);
        CUDA_CHECK(cudaEventRecord(ev[2 * r + 1], G.st));
    }
    cudaError_t e = cudaStreamSynchronize(G.st);
    if (e != cudaSuccess)
        die_cuda(e, "synchronize after timed runs (a kernel faulted?)", __LINE__);
    if (!failed) {
        double *t = bench_xmalloc(sizeof(double) * (size_t)runs);
        for (int r = 0; r < runs; ++r) {
            float f;
            CUDA_CHECK(cudaEventElapsedTime(&f, ev[2 * r], ev[2 * r + 1]));
            t[r] = f;
        }
        ms = bench_median(t, runs);
        free(t);
        download_samples(d, d->dc, d->sc, d->hc[method]);
    }
    for (int i = 0; i < 2 * runs; ++i)
        cudaEventDestroy(ev[i]);
    free(ev);
    return ms;
}

/* Normalized error of method's sampled C against cuBLAS's (gemm_check: moduli in c and z, whose
 * reference holds (re, im) pairs). */
static double sample_error(const shape_data *d, int method)
{
    const shape *s = &d->s;
    int64_t rows_a = s->ta ? s->k : s->m, cols_a = s->ta ? s->m : s->k;
    int64_t rows_b = s->tb ? s->n : s->k, cols_b = s->tb ? s->k : s->n;
    double *ref = bench_xmalloc(sizeof(double) * (size_t)(d->sc * bench_reals_per(d->prec)));
    double worst = 0.0;
    for (int64_t i = 0; i < d->n_sampled; ++i) {
        const char *a = (const char *)d->ha + (size_t)(i * d->sa) * d->es;
        const char *b = (const char *)d->hb + (size_t)(i * d->sb) * d->es;
        const char *cr = (const char *)d->hc[M_CUBLAS] + (size_t)(i * d->sc) * d->es;
        const char *c = (const char *)d->hc[method] + (size_t)(i * d->sc) * d->es;
        for (int64_t j = 0; j < d->sc; ++j) {
            if (gc_is_complex(d->prec)) {
                gc_complex v = gc_cget(d->prec, cr, j);
                ref[2 * j] = v.re;
                ref[2 * j + 1] = v.im;
            } else {
                ref[j] = gc_get(d->prec, cr, j);
            }
        }
        double scale = gc_gemm_scale(d->prec, s->k, 1.0, 0.0,
                                     gc_max_abs(d->prec, a, rows_a, cols_a, d->lda),
                                     gc_max_abs(d->prec, b, rows_b, cols_b, d->ldb), 0.0);
        double e = gc_gemm_error(d->prec, s->m, s->n, c, d->ldc, ref, d->ldc, scale);
        if (!(e <= worst))
            worst = e;
    }
    free(ref);
    return worst;
}

/* ------------------------------------------------------------------------------------------ */
/* Host baseline: OpenBLAS, one matrix per call, OpenMP over the batch. Per-matrix rates do not
 * depend on the batch, so only a subset (enough for ~cpu_flops_target flops, at least one
 * matrix per thread, at most cpu_max) is timed. */

static void measure_cpu(shape_data *d)
{
    const shape *s = &d->s;
    double flops1 = flops_per_fma(d->prec) * s->m * s->n * s->k;
    int threads = omp_get_max_threads();
    int64_t cnt = (int64_t)(G.o.cpu_flops_target / flops1);
    cnt = bench_clamp64(cnt, threads, G.o.cpu_max);
    if (cnt > d->batch)
        cnt = d->batch;
    d->cpu_batch = (int)cnt;
    void *a = bench_xmalloc((size_t)(cnt * d->sa) * d->es);
    void *b = bench_xmalloc((size_t)(cnt * d->sb) * d->es);
    void *c = bench_xmalloc((size_t)(cnt * d->sc) * d->es);
    CUDA_CHECK(cudaMemcpy(a, d->da, (size_t)(cnt * d->sa) * d->es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b, d->db, (size_t)(cnt * d->sb) * d->es, cudaMemcpyDeviceToHost));
    memset(c, 0, (size_t)(cnt * d->sc) * d->es);
    static const CBLAS_TRANSPOSE cblas_op[3] = {CblasNoTrans, CblasTrans, CblasConjTrans};
    CBLAS_TRANSPOSE ta = cblas_op[s->ta], tb = cblas_op[s->tb];
    const float cone[2] = {1.0f, 0.0f}, czero[2] = {0.0f, 0.0f};
    const double zone[2] = {1.0, 0.0}, zzero[2] = {0.0, 0.0};
    int runs = G.o.runs;
    double *t = bench_xmalloc(sizeof(double) * (size_t)runs);
    for (int r = -1; r < runs; ++r) {
        double t0 = omp_get_wtime();
        if (d->prec == 's') {
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < cnt; ++i)
                cblas_sgemm(CblasColMajor, ta, tb, s->m, s->n, s->k, 1.0f,
                            (const float *)a + i * d->sa, (int)d->lda,
                            (const float *)b + i * d->sb, (int)d->ldb, 0.0f,
                            (float *)c + i * d->sc, (int)d->ldc);
        } else if (d->prec == 'd') {
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < cnt; ++i)
                cblas_dgemm(CblasColMajor, ta, tb, s->m, s->n, s->k, 1.0,
                            (const double *)a + i * d->sa, (int)d->lda,
                            (const double *)b + i * d->sb, (int)d->ldb, 0.0,
                            (double *)c + i * d->sc, (int)d->ldc);
        } else if (d->prec == 'c') {
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < cnt; ++i)
                cblas_cgemm(CblasColMajor, ta, tb, s->m, s->n, s->k, cone,
                            (const float *)a + 2 * i * d->sa, (int)d->lda,
                            (const float *)b + 2 * i * d->sb, (int)d->ldb, czero,
                            (float *)c + 2 * i * d->sc, (int)d->ldc);
        } else {
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < cnt; ++i)
                cblas_zgemm(CblasColMajor, ta, tb, s->m, s->n, s->k, zone,
                            (const double *)a + 2 * i * d->sa, (int)d->lda,
                            (const double *)b + 2 * i * d->sb, (int)d->ldb, zzero,
                            (double *)c + 2 * i * d->sc, (int)d->ldc);
        }
        double dt = omp_get_wtime() - t0;
        if (r >= 0)
            t[r] = dt;
    }
    double sec = bench_median(t, runs);
    d->cpu_gflops = flops1 * (double)cnt / (sec * 1e9);
    free(t);
    free(a);
    free(b);
    free(c);
}

/* ------------------------------------------------------------------------------------------ */
/* Output. */

static void print_table_header(void)
{
    printf("%-1s %-7s %-2s %5s %5s %5s %8s | %9s %9s %9s | %6s %6s | %6s %6s %6s | %9s | %8s | "
           "%8s %8s %-6s | %s\n",
           "p", "mode", "op", "m", "n", "k", "batch", "shoal", "own", "cuBLAS", "s/cuB", "o/cuB",
           "s%roof", "o%roof", "c%roof", "roof", "cpu", "err_s", "err_o", "check",
           "kernel [own kernel]");
    fflush(stdout);
}

static void csv_header(void)
{
    if (!G.csv)
        return;
    fprintf(G.csv,
            "device,prec,mode,trans,m,n,k,batch,shoal_gflops,own_gflops,cublas_gflops,shoal_ms,"
            "own_ms,cublas_ms,ratio_shoal_cublas,ratio_own_cublas,shoal_pct_roof,own_pct_roof,"
            "cublas_pct_roof,roof_gflops,copy_gbs,peak_gflops,cpu_gflops,cpu_batch,kernel,"
            "own_kernel,err_shoal,err_own,ok\n");
    fflush(G.csv);
}

static void csv_num(double v)
{
    if (isfinite(v))
        fprintf(G.csv, "%.6g,", v);
    else
        fprintf(G.csv, ",");
}

static void emit_row(const shape_data *d, int mode, const row_result *r, int ok, int limited)
{
    const shape *s = &d->s;
    double flops = flops_per_fma(d->prec) * s->m * s->n * s->k * (double)d->batch;
    /* pointer arrays: each problem also reads its three pointers (A, B, C) */
    double bytes = (((double)s->m * s->k + (double)s->k * s->n + (double)s->m * s->n) * (double)d->es +
                    (mode == MODE_ARRAY ? 3.0 * sizeof(void *) : 0.0)) *
                   (double)d->batch;
    double peak = G.peak[prec_index(d->prec)];
    double roof = fmin(peak, G.copy_gbs * flops / bytes);
    double gf[N_METHODS];
    for (int m = 0; m < N_METHODS; ++m)
        gf[m] = isfinite(r->ms[m]) ? flops / (r->ms[m] * 1e6) : NAN;
    double rs = gf[M_SHOAL] / gf[M_CUBLAS], ro = gf[M_OWN] / gf[M_CUBLAS];
    int same = r->kernel && r->own_kernel && strcmp(r->kernel, r->own_kernel) == 0;
    printf("%c %-7s %-2s %5d %5d %5d %8lld | %9.1f %9.1f %9.1f | %6.2f %6.2f | %6.1f %6.1f %6.1f "
           "| %9.1f | %8.2f | %8.2e %8.2e %-6s | %s%s%s%s%s\n",
           d->prec, mode_names[mode], trans_str(s->ta, s->tb), s->m, s->n, s->k,
           (long long)d->batch, gf[M_SHOAL], gf[M_OWN], gf[M_CUBLAS], rs, ro,
           100.0 * gf[M_SHOAL] / roof, 100.0 * gf[M_OWN] / roof, 100.0 * gf[M_CUBLAS] / roof,
           roof, d->cpu_gflops, r->err[0], r->err[1], ok ? "ok" : "FAILED",
           r->kernel ? r->kernel : "?", same ? "" : " [", same ? "" : (r->own_kernel ? r->own_kernel : "?"),
           same ? "" : "]", limited ? " (batch limited by memory)" : "");
    fflush(stdout);
    if (!G.csv)
        return;
    fprintf(G.csv, "\"%s\",%c,%s,%s,%d,%d,%d,%lld,", G.prop.name, d->prec, mode_names[mode],
            trans_str(s->ta, s->tb), s->m, s->n, s->k, (long long)d->batch);
    for (int m = 0; m < N_METHODS; ++m)
        csv_num(gf[m]);
    for (int m = 0; m < N_METHODS; ++m)
        csv_num(r->ms[m]);
    csv_num(rs);
    csv_num(ro);
    csv_num(100.0 * gf[M_SHOAL] / roof);
    csv_num(100.0 * gf[M_OWN] / roof);
    csv_num(100.0 * gf[M_CUBLAS] / roof);
    csv_num(roof);
    csv_num(G.copy_gbs);
    csv_num(peak);
    csv_num(d->cpu_gflops);
    fprintf(G.csv, "%d,%s,%s,", d->cpu_batch, r->kernel ? r->kernel : "",
            r->own_kernel ? r->own_kernel : "");
    csv_num(r->err[0]);
    csv_num(r->err[1]);
    fprintf(G.csv, "%d\n", ok);
    fflush(G.csv);
}

/* ------------------------------------------------------------------------------------------ */

static void bench_shape(char prec, const shape *s)
{
    int want[N_MODES], any = 0;
    for (int mode = 0; mode < N_MODES; ++mode)
        any |= want[mode] = selected(prec, mode, s);
    if (!any)
        return;
    shape_data d;
    int limited = 0;
    char key[96];
    row_key(key, sizeof key, prec, MODE_STRIDED, s);
    if (!setup_shape(&d, prec, s, gc_hash_string(key), &limited)) {
        printf("%c %s %dx%dx%d: device allocation failed, row skipped\n", prec,
               trans_str(s->ta, s->tb), s->m, s->n, s->k);
        free_shape(&d);
        ++G.failures;
        return;
    }
    if (G.o.cpu)
        measure_cpu(&d);
    for (int mode = 0; mode < N_MODES; ++mode) {
        if (!want[mode])
            continue;
        row_result r;
        memset(&r, 0, sizeof r);
        shoal_gemm_kernel_name(G.h, prec, mode == MODE_ARRAY, (shoal_operation)s->ta,
                               (shoal_operation)s->tb, s->m, s->n, s->k, &r.kernel);
        shoal_gemm_kernel_name(G.h_own, prec, mode == MODE_ARRAY, (shoal_operation)s->ta,
                               (shoal_operation)s->tb, s->m, s->n, s->k, &r.own_kernel);
        for (int m = 0; m < N_METHODS; ++m)
            r.ms[m] = time_method(&d, m, mode);
        int ok = 1;
        if (isfinite(r.ms[M_CUBLAS])) {
            for (int m = 0; m < 2; ++m) {
                r.err[m] = isfinite(r.ms[m]) ? sample_error(&d, m) : NAN;
                if (!(r.err[m] <= GC_ERROR_LIMIT))
                    ok = 0;
            }
        } else {
            /* No reference to compare with; shoal must still have run. */
            r.err[0] = r.err[1] = NAN;
            ok = isfinite(r.ms[M_SHOAL]) && isfinite(r.ms[M_OWN]);
        }
        if (!ok)
            ++G.failures;
        ++G.rows;
        emit_row(&d, mode, &r, ok, limited);
    }
    free_shape(&d);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: shoal_bench [options]\n"
            "Batched GEMM: shoal (dispatched), shoal's own kernels (vendor dispatch off), cuBLAS\n"
            "and OpenBLAS+OpenMP, with the roof measured in the same run.\n\n"
            "  --csv FILE        also write the rows as CSV to FILE\n"
            "  --quick           fewer sizes (nn 2..512 in powers of 2; nt/tn/tt 4, 16, 64;\n"
            "                    3 rectangular shapes in nn; c, z: nn 2..128, nc/cn/cc 4, 16,\n"
            "                    64, 3 rectangular shapes in nn)\n"
            "  --prec LETTERS    precisions to run, any of s, d, c, z (e.g. sd, sdcz, cz or\n"
            "                    s,d,c,z; default sd). c and z: nn, nc, cn, cc (C = conjugate\n"
            "                    transpose), 8 m n k flops per product\n"
            "  --filter SUBSTR   only rows whose key contains SUBSTR (repeatable, OR); keys look\n"
            "                    like d:strided:nn:16x16x16, s:array:tt:4x8x2 or z:array:nc:8x8x8\n"
            "  --runs N          timed runs per method, median reported (default 7)\n"
            "  --no-cpu          skip the OpenBLAS baseline\n"
            "  --cpu-max N       at most N matrices in the CPU baseline (default 20000)\n"
            "  --l2-factor X     data at least X times the L2 size (default 4)\n"
            "  -h, --help        this text\n\n"
            "Exit status: 0 all rows ok, 1 a call failed or an error exceeded 16, 77 no GPU.\n");
}

static int parse_args(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->precs[0] = o->precs[1] = 1; /* s, d; c and z on request */
    o->runs = 7;
    o->cpu = 1;
    o->cpu_max = 20000;
    o->cpu_flops_target = 5e8;
    o->l2_factor = 4.0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1;
        } else if (!strcmp(a, "--no-cpu")) {
            o->cpu = 0;
        } else if (!strcmp(a, "--csv") && v) {
            o->csv = v;
            ++i;
        } else if (!strcmp(a, "--prec") && v) {
            int any = 0;
            for (int p = 0; p < 4; ++p)
                any |= o->precs[p] = strchr(v, PRECS[p]) != NULL;
            if (!any || v[strspn(v, PRECS ",")] != '\0')
                return 0;
            ++i;
        } else if (!strcmp(a, "--filter") && v) {
            if (o->n_filters == MAX_FILTERS)
                return 0;
            o->filters[o->n_filters++] = v;
            ++i;
        } else if (!strcmp(a, "--runs") && v) {
            o->runs = atoi(v);
            if (o->runs < 1)
                return 0;
            ++i;
        } else if (!strcmp(a, "--cpu-max") && v) {
            o->cpu_max = atoll(v);
            if (o->cpu_max < 1)
                return 0;
            ++i;
        } else if (!strcmp(a, "--l2-factor") && v) {
            o->l2_factor = atof(v);
            if (!(o->l2_factor >= 0))
                return 0;
            ++i;
        } else {
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (!parse_args(argc, argv, &G.o)) {
        usage(stderr);
        return 2;
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("SKIP: no CUDA device (%s)\n",
               e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
        return 77;
    }
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&G.prop, dev));
    int l2 = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    G.l2_bytes = l2;
    CUDA_CHECK(cudaStreamCreateWithFlags(&G.st, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasCreate(&G.cb));
    CUBLAS_CHECK(cublasSetStream(G.cb, G.st));
    shoal_status st = shoal_create(&G.h);
    if (st == SHOAL_STATUS_SUCCESS)
        st = shoal_create(&G.h_own);
    if (st != SHOAL_STATUS_SUCCESS) {
        printf("%s: shoal_create: %s\n", st == SHOAL_STATUS_NO_DEVICE ? "SKIP" : "FAILED",
               shoal_status_string(st));
        return st == SHOAL_STATUS_NO_DEVICE ? 77 : 1;
    }
    if (shoal_set_vendor_dispatch(G.h_own, 0) != SHOAL_STATUS_SUCCESS ||
        shoal_set_stream(G.h, G.st) != SHOAL_STATUS_SUCCESS ||
        shoal_set_stream(G.h_own, G.st) != SHOAL_STATUS_SUCCESS) {
        printf("FAILED: cannot configure the shoal handles\n");
        return 1;
    }
    openblas_set_num_threads(1); /* one matrix per call, parallel over the batch with OpenMP */
    const char *table = NULL;
    int level = -1;
    shoal_get_dispatch_info(G.h, &table, &level);
    int cublas_version = 0;
    cublasGetVersion(G.cb, &cublas_version);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&now));
    printf("# shoal_bench %d.%d.%d, %s\n", SHOAL_VERSION_MAJOR, SHOAL_VERSION_MINOR,
           SHOAL_VERSION_PATCH, date);
    printf("# device %d: %s (cc %d.%d, %d SMs, L2 %.1f MiB, %.1f GiB); cuBLAS %d; shoal table "
           "\"%s\" (match level %d)\n",
           dev, G.prop.name, G.prop.major, G.prop.minor, G.prop.multiProcessorCount,
           (double)G.l2_bytes / (1 << 20), (double)G.prop.totalGlobalMem / (1 << 30),
           cublas_version, table ? table : "?", level);
    printf("# host: OpenBLAS (%s), %d OpenMP threads\n", openblas_get_config(),
           omp_get_max_threads());
    G.copy_gbs = bench_copy_bandwidth(G.st, G.o.runs);
    for (int p = 0; p < 4; ++p)
        G.peak[p] = G.o.precs[p] ? measure_gemm_peak(PRECS[p]) : NAN;
    printf("# roof = min(peak, copy * flops / bytes), bytes = (mk + kn + mn) elem per matrix, + 3 pointers with "
           "pointer arrays; "
           "alpha = 1, beta = 0; Gflop/s = 2mnk batch (8mnk in c and z) / median time of %d runs\n",
           G.o.runs);
    printf("# error = max|C - C_cublas| / (k max|A| max|B| eps) on sampled matrices (moduli in c "
           "and z), ok <= %g; "
           "cpu = OpenBLAS per matrix, OpenMP over <= %lld matrices\n",
           GC_ERROR_LIMIT, (long long)G.o.cpu_max);
    if (G.o.csv) {
        G.csv = fopen(G.o.csv, "w");
        if (!G.csv) {
            perror(G.o.csv);
            return 1;
        }
        csv_header();
    }
    shape shapes[128], cshapes[128];
    int n_shapes = build_shapes(shapes, G.o.quick);
    int n_cshapes = build_complex_shapes(cshapes, G.o.quick);
    for (int p = 0; p < 4; ++p) {
        if (!G.o.precs[p])
            continue;
        printf("\n");
        print_table_header();
        int cplx = gc_is_complex(PRECS[p]);
        for (int i = 0; i < (cplx ? n_cshapes : n_shapes); ++i)
            bench_shape(PRECS[p], cplx ? &cshapes[i] : &shapes[i]);
    }
    if (G.csv)
        fclose(G.csv);
    printf("\n# %d rows, %d failed\n", G.rows, G.failures);
    shoal_destroy(G.h);
    shoal_destroy(G.h_own);
    cublasDestroy(G.cb);
    cudaStreamDestroy(G.st);
    return G.failures ? 1 : 0;
}
