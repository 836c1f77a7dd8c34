/* shoal_tune: compiles candidate kernels with NVRTC, verifies them against cuBLAS and times them.
 * (GEMM against cuBLAS; factorizations by residual checks, docs/lapack.md).
 * Usage: shoal_tune --device-info
 *        shoal_tune --job FILE --out RESULTS.jsonl [--max-seconds S] [--runs R] [--threads T]
 * Exit codes: 0 done, 1 usage or setup error, 3 GPU context lost (restart with the remaining
 * tasks), 4 time budget reached. See docs/internals.md, section 3. */
#include <cublas_v2.h>
#include <math.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "job.h"
#include "measure.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') fputc('\\', f), fputc(*s, f);
        else if ((unsigned char)*s < 0x20) fputc(' ', f);
        else fputc(*s, f);
    }
    fputc('"', f);
}

static int device_info(int device)
{
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        fprintf(stderr, "shoal_tune: no CUDA device %d\n", device);
        return 1;
    }
    int driver = 0, runtime = 0, nv_major = 0, nv_minor = 0, cublas_version = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    nvrtcVersion(&nv_major, &nv_minor);
    cublasHandle_t h;
    if (cublasCreate(&h) == CUBLAS_STATUS_SUCCESS) {
        cublasGetVersion(h, &cublas_version);
        cublasDestroy(h);
    }
    printf("{\"name\":");
    json_string(stdout, prop.name);
    printf(",\"cc_major\":%d,\"cc_minor\":%d,\"sm_count\":%d,\"max_threads_per_block\":%d,"
           "\"max_threads_per_sm\":%d,\"smem_per_block\":%zu,\"smem_per_block_optin\":%zu,\"smem_per_sm\":%zu,"
           "\"regs_per_block\":%d,\"regs_per_sm\":%d,\"l2_bytes\":%d,\"mem_bytes\":%zu,\"driver_version\":%d,"
           "\"runtime_version\":%d,\"nvrtc_version\":\"%d.%d\",\"cublas_version\":%d}\n",
           prop.major, prop.minor, prop.multiProcessorCount, prop.maxThreadsPerBlock,
           prop.maxThreadsPerMultiProcessor, prop.sharedMemPerBlock, prop.sharedMemPerBlockOptin,
           prop.sharedMemPerMultiprocessor, prop.regsPerBlock, prop.regsPerMultiprocessor, prop.l2CacheSize,
           prop.totalGlobalMem, driver, runtime, nv_major, nv_minor, cublas_version);
    return 0;
}

/* JSON has no NaN or infinity */
static void json_number(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.6g", v);
    else fputs("null", f);
}

static void write_result(FILE *out, const tuner_task *t, const task_result *r)
{
    fprintf(out, "{\"id\":%lld,\"status\":\"%s\",\"reason\":", t->id, r->status);
    json_string(out, r->reason);
    fputs(",\"median_ms\":", out);
    json_number(out, r->median_ms);
    fputs(",\"min_ms\":", out);
    json_number(out, r->min_ms);
    fputs(",\"error\":", out);
    json_number(out, r->error);
    fprintf(out, ",\"regs\":%d,\"smem\":%d,\"resident_threads\":%d}\n", r->regs, r->smem, r->resident_threads);
    fflush(out);
}

int main(int argc, char **argv)
{
    const char *job_path = NULL, *out_path = NULL;
    double max_seconds = 1e30;
    int runs = 9, threads = (int)sysconf(_SC_NPROCESSORS_ONLN), want_info = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--device-info")) want_info = 1;
        else if (!strcmp(argv[i], "--job") && i + 1 < argc) job_path = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_path = argv[++i];
        else if (!strcmp(argv[i], "--max-seconds") && i + 1 < argc) max_seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: shoal_tune --device-info | --job FILE --out RESULTS.jsonl [--max-seconds S]"
                            " [--runs R] [--threads T]\n");
            return 1;
        }
    }
    if (want_info) return device_info(0);
    if (!job_path || !out_path) {
        fprintf(stderr, "shoal_tune: --job and --out are required\n");
        return 1;
    }
    if (runs < 3) runs = 3;
    if (runs > 32) runs = 32;
    const double t0 = now_s();
    tuner_job job;
    if (tuner_job_read(job_path, &job) != 0) return 1;
    if (cudaSetDevice(job.device) != cudaSuccess) {
        fprintf(stderr, "shoal_tune: cannot use device %d\n", job.device);
        return 1;
    }
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, job.device);
    FILE *out = fopen(out_path, "a");
    if (!out) {
        perror(out_path);
        return 1;
    }

    compiled_module *mods = tuner_compile_all(&job, prop.major, prop.minor, threads);
    int compiled = 0;
    for (int i = 0; i < job.n_modules; ++i) compiled += mods[i].ok;
    fprintf(stderr, "shoal_tune: %d/%d modules compiled in %.1f s\n", compiled, job.n_modules, now_s() - t0);

    cudaLibrary_t *libs = calloc((size_t)job.n_modules + 1, sizeof *libs);
    measure_env env;
    memset(&env, 0, sizeof env);
    env.smem_optin = (int)prop.sharedMemPerBlockOptin;
    env.sm_count = prop.multiProcessorCount;
    env.timed_runs = runs;
    if (cublasCreate(&env.cublas) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "shoal_tune: cublasCreate failed\n");
        return 1;
    }
    if (cusolverDnCreate(&env.cusolver) != CUSOLVER_STATUS_SUCCESS) {
        fprintf(stderr, "shoal_tune: cusolverDnCreate failed\n");
        return 1;
    }

    int rc = 0;
    for (int ti = 0; ti < job.n_tasks; ++ti) {
        const tuner_task *t = &job.tasks[ti];
        if (now_s() - t0 > max_seconds) {
            rc = 4;
            break;
        }
        fprintf(out, "{\"id\":%lld,\"status\":\"running\"}\n", t->id);
        fflush(out);
        task_result r;
        memset(&r, 0, sizeof r);
        const void *kernel = NULL;
        if (t->module >= 0) {
            int mi = -1;
            for (int i = 0; i < job.n_modules; ++i)
                if (job.modules[i].id == t->module) mi = i;
            if (mi < 0 || !mods[mi].ok) {
                r.status = "compile_failed";
                snprintf(r.reason, sizeof r.reason, "%.250s", mi < 0 ? "unknown module" : mods[mi].log);
                write_result(out, t, &r);
                continue;
            }
            if (!libs[mi] && cudaLibraryLoadData(&libs[mi], mods[mi].cubin, NULL, NULL, 0, NULL, NULL, 0) != cudaSuccess) {
                cudaGetLastError();
                r.status = "compile_failed";
                snprintf(r.reason, sizeof r.reason, "cubin did not load");
                write_result(out, t, &r);
                continue;
            }
            cudaKernel_t k;
            if (cudaLibraryGetKernel(&k, libs[mi], t->kernel) != cudaSuccess) {
                cudaGetLastError();
                r.status = "compile_failed";
                snprintf(r.reason, sizeof r.reason, "kernel %.200s not in module", t->kernel);
                write_result(out, t, &r);
                continue;
            }
            kernel = (const void *)k;
        }
        tuner_measure(&env, t, kernel, &r);
        write_result(out, t, &r);
        if (r.context_lost) {
            rc = 3;
            break;
        }
        cudaGetLastError(); /* a non-sticky launch error must not leak into the next task */
    }
    fclose(out);
    if (rc != 3) {
        tuner_measure_release(&env);
        cublasDestroy(env.cublas);
        cusolverDnDestroy(env.cusolver);
    }
    tuner_compiled_free(mods, job.n_modules);
    tuner_job_free(&job);
    free(libs);
    return rc;
}
