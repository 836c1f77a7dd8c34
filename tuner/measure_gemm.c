/* GEMM tasks: operands, verification against cuBLAS, timing. */
#include "measure_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_util.h"
#include "gemm_launch.h"
#include "gemm_vendor.h"
#include "host_math.h"

#define VERIFY_BYTES (64LL << 20) /* operands checked per candidate */
#define ERROR_LIMIT 16.0          /* in units of eps, see docs/internals.md */

void tuner_release_gemm(measure_env *env)
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
    tuner_release_gemm(env);
    tuner_release_lapack(env); /* one family's operands at a time: memory */
    tuner_release_blas2(env);
    tuner_release_vbatched(env);
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

typedef struct timed_gemm {
    measure_env *env;
    const tuner_task *t;
    const shoal_kernel_desc *kd;
    shoal_gemm_params p;
} timed_gemm;

static cudaError_t run_timed(void *ctx)
{
    timed_gemm *g = ctx;
    return launch(g->env, g->t, g->kd, &g->p);
}

void tuner_measure_gemm(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res)
{
    const int elem = shoal_elem_bytes(t->prec);
    cudaError_t e = prepare_shape(env, t, elem);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "allocation");

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
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "launch");
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "run");
    double diff = 0;
    e = tuner_max_abs_diff(env->C, env->R, t->prec, c_el * vb, &diff);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "check");
    const int cplx = t->prec == 'c' || t->prec == 'z';
    const double eps = oracle_eps(t->prec);
    /* operands lie in [-1, 1) (each part of a complex one): |alpha| k max|A| max|B| <= |alpha| k,
     * and a part of a complex product is at most 2 */
    res->error = diff / ((cplx ? 2 : 1) * alpha * (t->k > 0 ? t->k : 1) * eps);
    if (!(res->error <= ERROR_LIMIT)) {
        res->status = "wrong";
        snprintf(res->reason, sizeof res->reason, "normalized error %.3g > %g", res->error, ERROR_LIMIT);
        return;
    }

    /* then time the whole batch */
    timed_gemm g = {env, t, kd, params_for(env, t, t->batch, 1.0, t->array_mode)};
    e = tuner_time_runs(env->timed_runs, NULL, run_timed, &g, res);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "timing");
}
