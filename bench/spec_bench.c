/* Benchmark of the spec routines against their peer (spec: `peer`) in one run, with the copy
 * bandwidth of the same run as the memory roof (METHOD.md: correct first, events, warm-up by
 * time, medians, data larger than the L2, never zeros).
 *
 *   spec_bench ROUTINE PREC FORM N [N ...]
 * FORM: array or strided. Each N is a square size (every dim = N). Rows per N: shoal through
 * the public entry point (tables, vendor dispatch on), shoal's own path (vendor dispatch off),
 * and the peer; CSV on stdout:
 *   routine,prec,form,variant,n,batch,method,served_by,median_ms,gflops,gbs,roof_pct,error */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_harness.h"

shoal_status spec_invoke(shoal_handle handle, const shoal_spec_call *c);

#define RUNS 15
#define WARMUP_MS 25.0

static double copy_gbs(void)
{
    const size_t bytes = (size_t)1 << 30;
    void *a = NULL, *b = NULL;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return 0.0;
    cudaMemset(a, 1, bytes);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float best = INFINITY;
    for (int i = 0; i < 8; ++i) {
        cudaEventRecord(e0, 0);
        cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        if (i > 1 && ms < best) best = ms;
    }
    cudaFree(a);
    cudaFree(b);
    return 2.0 * (double)bytes / (best * 1e-3) / 1e9; /* read + write */
}

typedef int (*bench_fn)(shoal_handle h, const shoal_spec_call *c);

static int run_shoal(shoal_handle h, const shoal_spec_call *c) { return spec_invoke(h, c) != SHOAL_STATUS_SUCCESS; }

static cublasHandle_t g_cublas;
static int run_peer(shoal_handle h, const shoal_spec_call *c)
{
    (void)h;
    return shoal_spec_routines[c->routine].peer(g_cublas, c) != SHOAL_SPEC_VENDOR_OK;
}

static int cmp(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median time of fn over RUNS runs, inputs restored (untimed) before each; -1 on failure. */
static double time_it(shoal_handle h, spec_harness *hs, const shoal_spec_call *c, bench_fn fn)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float t[RUNS];
    double warm = 0.0;
    for (int i = 0; warm < WARMUP_MS || i < 2; ++i) {
        spec_harness_restore(hs);
        cudaEventRecord(e0, 0);
        if (fn(h, c)) return -1.0;
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        warm += ms;
        if (i > 10000) break;
    }
    for (int i = 0; i < RUNS; ++i) {
        spec_harness_restore(hs);
        cudaEventRecord(e0, 0);
        if (fn(h, c)) return -1.0;
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t[i], e0, e1);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (cudaGetLastError() != cudaSuccess) return -1.0;
    qsort(t, RUNS, sizeof t[0], cmp);
    return t[RUNS / 2];
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s ROUTINE PREC array|strided N [N ...]\n", argv[0]);
        return 2;
    }
    const int r = shoal_spec_routine_id(argv[1]);
    const char prec = argv[2][0];
    const int mode = strcmp(argv[3], "array") == 0 ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED;
    if (r < 0) {
        fprintf(stderr, "unknown routine %s\n", argv[1]);
        return 2;
    }
    const shoal_spec_routine *ri = &shoal_spec_routines[r];
    shoal_handle h;
    if (shoal_create(&h) != SHOAL_STATUS_SUCCESS || cublasCreate(&g_cublas) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "no GPU\n");
        return 77;
    }
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    const double roof = copy_gbs();
    fprintf(stderr, "# %s, copy bandwidth %.0f GB/s\n", prop.name, roof);
    printf("routine,prec,form,variant,n,batch,method,served_by,median_ms,gflops,gbs,roof_pct,error\n");
    for (int a = 4; a < argc; ++a) {
        const int n = atoi(argv[a]);
        for (int v = 0; v < ri->n_variants; ++v) {
            int dims[4] = {n, n, n, n}, opts[4] = {0};
            opts[ri->variant_option] = v;
            /* batch: data four times the L2, at least 16 problems */
            shoal_spec_call probe;
            memset(&probe, 0, sizeof probe);
            memcpy(probe.p.dims, dims, sizeof dims);
            memcpy(probe.p.opts, opts, sizeof opts);
            probe.prec = prec;
            const double bytes = ri->bytes(&probe), flops = ri->flops(&probe);
            long long batch = (long long)(4.0 * prop.l2CacheSize / bytes) + 1;
            batch = batch < 16 ? 16 : batch > 4000000 ? 4000000 : batch;
            spec_harness hs;
            /* complex precisions: complex scalars (1.5 + 0.5i, 0.5 - 0.25i); the real ones ignore the parts */
            if (spec_harness_init_complex(&hs, r, prec, mode, dims, opts, 1.5, 0.5, 0.5, -0.25, batch, 0, -1,
                                          0xbe7c4ULL + n) != cudaSuccess) {
                fprintf(stderr, "operands of n = %d failed\n", n);
                return 1;
            }
            const char *methods[3] = {"shoal", "shoal_own", "peer"};
            for (int m = 0; m < 3; ++m) {
                if (m == 2 && !ri->peer) continue;
                shoal_set_vendor_dispatch(h, m != 1);
                const char *who = m == 2 ? "peer" : shoal_spec_served_by(h, &hs.call);
                const double ms = time_it(h, &hs, &hs.call, m == 2 ? run_peer : run_shoal);
                /* correct first: the timed result is judged (the last run's output); a peer that is
                 * not the vendor's same routine (SYRK's full GEMM) writes more than the routine may */
                long long bad = -1;
                const int judged = ms > 0 && (m != 2 || ri->vendor);
                const double err = judged ? spec_harness_check(&hs, 0, spec_harness_check_count(&hs, 32, SPEC_HARNESS_CHECK_FLOPS), NULL, 0, &bad) : NAN;
                const double gbs = bytes * batch / (ms * 1e-3) / 1e9;
                printf("%s,%c,%s,%c,%d,%lld,%s,%s,%.6f,%.2f,%.1f,%.1f,%.2f%s\n", ri->name, prec, argv[3],
                       ri->variants[v], n, batch, methods[m], who, ms, flops * batch / (ms * 1e-3) / 1e9, gbs,
                       100.0 * gbs / roof, err, bad >= 0 ? " WRONG" : "");
                fflush(stdout);
            }
            spec_harness_free(&hs);
        }
    }
    cublasDestroy(g_cublas);
    shoal_destroy(h);
    return 0;
}
