#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_util.h"
#include "gemm_launch.h"
#include "gemm_vendor.h"

#define VERIFY_BYTES (64LL << 20) /* operands checked per candidate */
#define WARMUP_RUNS 2
#define ERROR_LIMIT 16.0          /* in units of eps, see docs/internals.md */

static int sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown: return 1;
    default: return 0;
    }
}

static void fail(task_result *res, const char *status, cudaError_t e, const char *what)
{
    res->status = status;
    snprintf(res->reason, sizeof res->reason, "%s: %s", what, cudaGetErrorString(e));
    res->context_lost = sticky(e);
}

void tuner_measure_release(measure_env *env)
{
    cudaFree(env->A);
    cudaFree(env->B);
    cudaFree(env->C);
    cudaFree(env->R);
    cudaFree(env->Ap);
    cudaFree(env->Bp);
    cudaFree(env->Cp);
    env->A = env->B = env->C = env->R = NULL;
    env->Ap = env->Bp = env->Cp = NULL;
    env->key[0] = '\0';
}

/* Packed operands for the whole batch (ld = rows, stride = rows * cols), random, plus the
 * pointer arrays over them. Reallocated only when the shape changes. */
static cudaError_t prepare_shape(measure_env *env, const tuner_task *t, int elem)
{
    char key[128];
    snprintf(key, sizeof key, "%c %d %d %d %d %lld", t->prec, t->array_mode, t->m, t->n, t->k, t->batch);
    if (strcmp(key, env->key) == 0) return cudaSuccess;
    tuner_measure_release(env);
    const long long a_el = (long long)t->m * t->k, b_el = (long long)t->k * t->n, c_el = (long long)t->m * t->n;
    const long long per = (a_el + b_el + c_el) * elem;
    env->verify_batch = VERIFY_BYTES / (per > 0 ? per : 1);
    if (env->verify_batch < 1) env->verify_batch = 1;
    if (env->verify_batch > t->batch) env->verify_batch = t->batch;
    cudaError_t e;
    if ((e = cudaMalloc(&env->A, (size_t)(a_el * t->batch * elem + 16))) != cudaSuccess) return e;
    if ((e = cudaMalloc(&env->B, (size_t)(b_el * t->batch * elem + 16))) != cudaSuccess) return e;
    if ((e = cudaMalloc(&env->C, (size_t)(c_el * t->batch * elem + 16))) != cudaSuccess) return e;
    if ((e = cudaMalloc(&env->R, (size_t)(c_el * env->verify_batch * elem + 16))) != cudaSuccess) return e;
    tuner_fill_random(env->A, t->prec, a_el * t->batch, 11);
    tuner_fill_random(env->B, t->prec, b_el * t->batch, 12);
    tuner_fill_random(env->C, t->prec, c_el * t->batch, 13);
    if (t->array_mode) {
        if ((e = cudaMalloc((void **)&env->Ap, (size_t)t->batch * sizeof(void *))) != cudaSuccess) return e;
        if ((e = cudaMalloc((void **)&env->Bp, (size_t)t->batch * sizeof(void *))) != cudaSuccess) return e;
        if ((e = cudaMalloc((void **)&env->Cp, (size_t)t->batch * sizeof(void *))) != cudaSuccess) return e;
        tuner_make_pointers(env->Ap, env->A, a_el * elem, t->batch);
        tuner_make_pointers(env->Bp, env->B, b_el * elem, t->batch);
        tuner_make_pointers(env->Cp, env->C, c_el * elem, t->batch);
    }
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) return e;
    strcpy(env->key, key);
    return cudaSuccess;
}

/* Arguments over the packed operands; through the pointer arrays when array is set. */
static shoal_gemm_params params_for(const measure_env *env, const tuner_task *t, long long batch, double alpha,
                                    int array)
{
    shoal_gemm_params p;
    memset(&p, 0, sizeof p);
    p.m = t->m;
    p.n = t->n;
    p.k = t->k;
    p.alpha[0] = alpha;
    p.beta[0] = 0.0; /* the roof counts A and B read, C written */
    const int ta = t->variant >> 1, tb = t->variant & 1;
    p.lda = ta ? t->k : t->m;
    p.ldb = tb ? t->n : t->k;
    p.ldc = t->m;
    if (p.lda < 1) p.lda = 1;
    if (p.ldb < 1) p.ldb = 1;
    p.batch = batch;
    if (array) {
        p.A_array = (const void *const *)env->Ap;
        p.B_array = (const void *const *)env->Bp;
        p.C_array = (void *const *)env->Cp;
    } else {
        p.A = env->A;
        p.B = env->B;
        p.C = env->C;
        p.stride_a = (long long)t->m * t->k;
        p.stride_b = (long long)t->k * t->n;
        p.stride_c = (long long)t->m * t->n;
    }
    return p;
}

static cudaError_t launch(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd,
                          const shoal_gemm_params *p)
{
    if (!kd) {
        cublasStatus_t st = shoal_gemm_vendor(env->cublas, t->prec, t->variant, p);
        return st == CUBLAS_STATUS_SUCCESS ? cudaGetLastError() : cudaErrorUnknown;
    }
    return shoal_gemm_launch(kd, p, env->sm_count, 0);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void tuner_measure(measure_env *env, const tuner_task *t, const void *kernel, task_result *res)
{
    const int elem = shoal_elem_bytes(t->prec);
    shoal_kernel_desc kd_storage;
    const shoal_kernel_desc *kd = NULL;
    res->status = "ok";
    if (kernel) {
        memset(&kd_storage, 0, sizeof kd_storage);
        kd_storage.name = t->kernel;
        kd_storage.precision = t->prec;
        kd_storage.variant = (unsigned char)t->variant;
        kd_storage.design = (unsigned char)shoal_design_from_name(t->design);
        kd_storage.dim_x = (short)t->dim_x;
        kd_storage.dim_y = (short)(t->dim_y > 0 ? t->dim_y : 1);
        for (int i = 0; i < 4; ++i) kd_storage.p[i] = (short)t->p[i];
        kd_storage.func = kernel;
        kd = &kd_storage;

        /* hardware pruning from the compiler's resource report and the occupancy calculator */
        struct cudaFuncAttributes attr;
        cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
        if (e != cudaSuccess) return fail(res, "launch_failed", e, "attributes");
        const int threads = kd->dim_x * kd->dim_y;
        const size_t smem = shoal_gemm_dynamic_smem(kd, t->m, t->n, t->k, t->array_mode);
        res->regs = attr.numRegs;
        res->smem = (int)(attr.sharedSizeBytes + smem);
        if (threads > attr.maxThreadsPerBlock) {
            res->status = "pruned";
            snprintf(res->reason, sizeof res->reason, "registers: %d per thread allow %d threads", attr.numRegs,
                     attr.maxThreadsPerBlock);
            return;
        }
        if (!shoal_gemm_kernel_fits(kd, t->m, t->n, t->k, env->smem_optin)) {
            res->status = "pruned";
            snprintf(res->reason, sizeof res->reason, "shared_memory: %zu bytes", smem);
            return;
        }
        if (smem > 49152) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        int blocks = 0;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem);
        if (e != cudaSuccess) return fail(res, "launch_failed", e, "occupancy");
        res->resident_threads = blocks * threads;
        if (res->resident_threads < 512) { /* the paper's soft constraint */
            res->status = "pruned";
            snprintf(res->reason, sizeof res->reason, "occupancy: %d resident threads per SM", res->resident_threads);
            return;
        }
    }

    cudaError_t e = prepare_shape(env, t, elem);
    if (e != cudaSuccess) return fail(res, "launch_failed", e, "allocation");

    /* correctness first, on fresh data: the first verify_batch problems get new values */
    const long long vb = env->verify_batch;
    const long long c_el = (long long)t->m * t->n;
    const unsigned long long seed = 1000003ULL * (unsigned long long)(t->id + 1);
    tuner_fill_random(env->A, t->prec, (long long)t->m * t->k * vb, seed);
    tuner_fill_random(env->B, t->prec, (long long)t->k * t->n * vb, seed + 1);
    const double alpha = 0.75;
    shoal_gemm_params pv = params_for(env, t, vb, alpha, t->array_mode);
    /* the reference: cuBLAS strided on the same packed operands, writing R */
    shoal_gemm_params pr = params_for(env, t, vb, alpha, 0);
    pr.C = env->R;
    if (shoal_gemm_vendor(env->cublas, t->prec, t->variant, &pr) != CUBLAS_STATUS_SUCCESS) {
        res->status = "launch_failed";
        snprintf(res->reason, sizeof res->reason, "reference cuBLAS call failed");
        return;
    }
    tuner_fill_nan(env->C, t->prec, c_el * vb); /* every element must be written */
    e = launch(env, t, kd, &pv);
    if (e != cudaSuccess) return fail(res, "launch_failed", e, "launch");
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return fail(res, "launch_failed", e, "run");
    double diff = 0;
    e = tuner_max_abs_diff(env->C, env->R, t->prec, c_el * vb, &diff);
    if (e != cudaSuccess) return fail(res, "launch_failed", e, "check");
    const double eps = t->prec == 's' ? ldexp(1.0, -24) : ldexp(1.0, -53);
    /* operands lie in [-1, 1): |alpha| k max|A| max|B| <= |alpha| k */
    res->error = diff / (alpha * (t->k > 0 ? t->k : 1) * eps);
    if (!(res->error <= ERROR_LIMIT)) {
        res->status = "wrong";
        snprintf(res->reason, sizeof res->reason, "normalized error %.3g > %g", res->error, ERROR_LIMIT);
        return;
    }

    /* then time the whole batch: warm-up, then each run between its own pair of events */
    shoal_gemm_params pt = params_for(env, t, t->batch, 1.0, t->array_mode);
    const int runs = env->timed_runs;
    cudaEvent_t ev[2 * 32];
    double ms[32];
    for (int i = 0; i < 2 * runs; ++i) cudaEventCreate(&ev[i]);
    for (int i = 0; i < WARMUP_RUNS && e == cudaSuccess; ++i) e = launch(env, t, kd, &pt);
    for (int i = 0; i < runs && e == cudaSuccess; ++i) {
        cudaEventRecord(ev[2 * i], 0);
        e = launch(env, t, kd, &pt);
        cudaEventRecord(ev[2 * i + 1], 0);
    }
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    for (int i = 0; i < runs && e == cudaSuccess; ++i) {
        float f = 0;
        cudaEventElapsedTime(&f, ev[2 * i], ev[2 * i + 1]);
        ms[i] = f;
    }
    for (int i = 0; i < 2 * runs; ++i) cudaEventDestroy(ev[i]);
    if (e != cudaSuccess) return fail(res, "launch_failed", e, "timing");
    qsort(ms, (size_t)runs, sizeof ms[0], cmp_double);
    res->min_ms = ms[0];
    res->median_ms = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
}
