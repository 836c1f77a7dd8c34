/* Variable-size GEMM tasks (gemm_vbatched; docs/blas2.md): square problems with sizes uniform in
 * [1, max], each in a max x max slot with leading dimension = its size, random data made on the
 * GPU. The first problems are checked against a double-precision reference computed on the GPU
 * (tuner_ref_gemm_v), once with beta != 0 and once with beta = 0 over NaN-poisoned C (which must
 * not be read); then the whole batch is timed with beta = 0. In c and z the scalars are complex
 * and the second check conjugates the transposed operands (op C: the t kernels with
 * shoal_gemm_vparams.conj), so a t variant is verified for both ops it serves. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas2_launch.h"
#include "device_util.h"
#include "gemm_launch.h"
#include "host_math.h" /* oracle_eps */
#include "measure_internal.h"

#define VERIFY_MAX 64
#define GEMM_V_ERROR_LIMIT 16.0

typedef struct vgemm_bufs {
    char key[160];
    char prec;
    int max, ta, tb;
    long long batch, slot;       /* elements per operand slot: max * max */
    void *A, *B, *C, *C0;
    void **Ap, **Bp, **Cp, **C0p;
    int *sizes, *lds;            /* m = n = k = sizes[b], every leading dimension = lds[b] */
    int *hsizes;
    int w;                       /* doubles per element on the host: 2 in c and z */
    double *R;                   /* reference of the verified problems */
} vgemm_bufs;

void tuner_release_vbatched(measure_env *env)
{
    vgemm_bufs *V = env->vgemm;
    if (!V) return;
    void *dev[] = {V->A, V->B, V->C, V->C0, V->Ap, V->Bp, V->Cp, V->C0p, V->sizes, V->R};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; ++i) cudaFree(dev[i]);
    free(V->hsizes);
    free(V);
    env->vgemm = NULL;
}

static cudaError_t prepare(measure_env *env, const tuner_task *t)
{
    char key[160];
    snprintf(key, sizeof key, "%s %c %d %lld", t->routine, t->prec, t->m, t->batch);
    if (env->vgemm && strcmp(env->vgemm->key, key) == 0) {
        env->vgemm->ta = t->variant >> 1;
        env->vgemm->tb = t->variant & 1;
        return cudaSuccess;
    }
    tuner_release_vbatched(env);
    tuner_release_blas2(env);
    tuner_release_gemm(env);
    tuner_release_lapack(env);
    vgemm_bufs *V = calloc(1, sizeof *V);
    if (!V) return cudaErrorMemoryAllocation;
    env->vgemm = V;
    V->prec = t->prec;
    V->w = t->prec == 'c' || t->prec == 'z' ? 2 : 1;
    V->max = t->m;
    V->ta = t->variant >> 1;
    V->tb = t->variant & 1;
    V->batch = t->batch;
    V->slot = (long long)t->m * t->m;
    const long long nb = V->batch, es = shoal_elem_bytes(t->prec);
    cudaError_t e;
    void **bufs[] = {&V->A, &V->B, &V->C, &V->C0};
    void ***ptrs[] = {&V->Ap, &V->Bp, &V->Cp, &V->C0p};
    for (int i = 0; i < 4; ++i) {
        if ((e = tuner_alloc(bufs[i], nb * V->slot * es)) != cudaSuccess) return e;
        if ((e = tuner_alloc((void **)ptrs[i], nb * 8)) != cudaSuccess) return e;
        if ((e = tuner_make_pointers(*ptrs[i], *bufs[i], V->slot * es, nb)) != cudaSuccess) return e;
        if ((e = tuner_fill_random(*bufs[i], t->prec, nb * V->slot, 0x5eed0000ULL + (unsigned)i * 7919u + (unsigned)t->m)) !=
            cudaSuccess)
            return e;
    }
    V->hsizes = malloc((size_t)nb * sizeof(int));
    if (!V->hsizes) return cudaErrorMemoryAllocation;
    unsigned long long z = 0x9e3779b97f4a7c15ULL ^ (unsigned long long)t->m;
    for (long long b = 0; b < nb; ++b) {
        z = z * 6364136223846793005ULL + 1442695040888963407ULL;
        V->hsizes[b] = 1 + (int)((z >> 33) % (unsigned long long)t->m);
    }
    if ((e = tuner_alloc((void **)&V->sizes, nb * 4)) != cudaSuccess) return e;
    if ((e = cudaMemcpy(V->sizes, V->hsizes, (size_t)nb * 4, cudaMemcpyHostToDevice)) != cudaSuccess) return e;
    V->lds = V->sizes;
    if ((e = tuner_alloc((void **)&V->R, VERIFY_MAX * V->slot * 8 * V->w)) != cudaSuccess) return e;
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) return e;
    strcpy(V->key, key);
    return cudaSuccess;
}

/* A call's scalars: (real, imaginary) as the ABI carries them (s and d: imaginary parts 0) and
 * the ABI's conj bits (0 in s and d). */
typedef struct vgemm_scalars {
    double alpha[2], beta[2];
    int conj;
} vgemm_scalars;

static shoal_gemm_vparams params_for(const vgemm_bufs *V, long long batch, vgemm_scalars sc)
{
    shoal_gemm_vparams p;
    memset(&p, 0, sizeof p);
    p.m = p.n = p.k = V->max;
    memcpy(p.alpha, sc.alpha, sizeof p.alpha);
    memcpy(p.beta, sc.beta, sizeof p.beta);
    p.conj = sc.conj;
    p.A_array = (const void *const *)V->Ap;
    p.B_array = (const void *const *)V->Bp;
    p.C_array = V->Cp;
    p.m_v = p.n_v = p.k_v = V->sizes;
    p.lda_v = p.ldb_v = p.ldc_v = V->lds;
    p.batch = batch;
    return p;
}

typedef struct vgemm_run {
    const shoal_kernel_desc *kd;
    shoal_gemm_vparams p;
    int sm_count;
} vgemm_run;

static cudaError_t run_once(void *ctx)
{
    vgemm_run *r = ctx;
    return shoal_gemm_vbatched_launch(r->kd, &r->p, r->sm_count, 0);
}

/* sc with its imaginary parts and conj bits dropped in s and d */
static vgemm_scalars scalars_for(const vgemm_bufs *V, double alpha_re, double alpha_im, double beta_re, double beta_im,
                                 int conj)
{
    const int cplx = V->w == 2;
    vgemm_scalars sc = {{alpha_re, cplx ? alpha_im : 0}, {beta_re, cplx ? beta_im : 0}, cplx ? conj : 0};
    return sc;
}

/* One checked run of the first vb problems; 1 when the task ends here (res says why). */
static int verify(const vgemm_bufs *V, const shoal_kernel_desc *kd, int sm_count, long long vb, vgemm_scalars sc,
                  task_result *res)
{
    const long long es = shoal_elem_bytes(V->prec), w = V->w;
    const int beta_nonzero = sc.beta[0] != 0 || sc.beta[1] != 0;
    cudaError_t e = beta_nonzero ? cudaMemcpy(V->C, V->C0, (size_t)(vb * V->slot * es), cudaMemcpyDeviceToDevice)
                                 : tuner_fill_nan(V->C, V->prec, vb * V->slot);
    /* the reference reads C before the call: C0 (beta != 0) or nothing (beta = 0) */
    shoal_gemm_vparams ref = params_for(V, vb, sc);
    ref.C_array = V->C0p;
    if (e == cudaSuccess) e = tuner_ref_gemm_v(&ref, V->prec, V->ta, V->tb, vb, V->R, V->slot);
    vgemm_run r = {kd, params_for(V, vb, sc), sm_count};
    if (e == cudaSuccess) e = run_once(&r);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "verify"), 1;
    double *C = malloc((size_t)(vb * V->slot * w) * sizeof(double));
    double *R = malloc((size_t)(vb * V->slot * w) * sizeof(double));
    if (!C || !R) {
        free(C);
        free(R);
        return tuner_fail(res, "launch_failed", cudaErrorMemoryAllocation, "verify"), 1;
    }
    e = tuner_download(C, V->C, vb * V->slot, V->prec);
    if (e == cudaSuccess) e = cudaMemcpy(R, V->R, (size_t)(vb * V->slot * w) * sizeof(double), cudaMemcpyDeviceToHost);
    const double eps = oracle_eps(V->prec);
    double worst = 0;
    long long where = -1;
    for (long long b = 0; b < vb && e == cudaSuccess; ++b) {
        const int s = V->hsizes[b];
        /* operands are uniform in [-1, 1] (each part of a complex one): |alpha| k max|A| max|B| +
         * |beta| max|C0| <= this, a part of a complex product being at most 2 (as measure_gemm.c) */
        const double scale = eps * (double)w * (hypot(sc.alpha[0], sc.alpha[1]) * s + hypot(sc.beta[0], sc.beta[1]));
        for (long long i = 0; i < (long long)s * s * w; ++i) {
            const double err = fabs(C[b * V->slot * w + i] - R[b * V->slot * w + i]) / scale;
            if (!(err <= worst)) {
                worst = isnan(err) ? INFINITY : err;
                where = b;
            }
        }
    }
    free(C);
    free(R);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "check"), 1;
    if (worst > res->error) res->error = worst;
    if (!(worst <= GEMM_V_ERROR_LIMIT)) {
        res->status = "wrong";
        snprintf(res->reason, sizeof res->reason, "normalized error %.3g > %g (problem %lld, beta %g%+gi, conj %d)",
                 worst, GEMM_V_ERROR_LIMIT, where, sc.beta[0], sc.beta[1], sc.conj);
        return 1;
    }
    return 0;
}

void tuner_measure_vbatched(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res)
{
    if (!kd) { /* cuBLAS's grouped GEMM takes host-side sizes: never a dispatch candidate */
        res->status = "pruned";
        snprintf(res->reason, sizeof res->reason, "vendor: no variable-size call with device sizes");
        return;
    }
    cudaError_t e = prepare(env, t);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "allocation");
    const vgemm_bufs *V = env->vgemm;
    const long long vb = V->batch < VERIFY_MAX ? V->batch : VERIFY_MAX;
    res->error = 0;
    /* c and z: complex scalars; the second check takes op C for each transposed operand */
    if (verify(V, kd, env->sm_count, vb, scalars_for(V, 0.75, 0.5, -0.5, 0.25, 0), res) ||
        verify(V, kd, env->sm_count, vb, scalars_for(V, 1.25, -0.5, 0.0, 0.0, V->ta | V->tb << 1), res))
        return;
    vgemm_run r = {kd, params_for(V, t->batch, scalars_for(V, 1.0, 0.5, 0.0, 0.0, 0)), env->sm_count};
    e = tuner_time_runs(env->timed_runs, NULL, run_once, &r, res);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "timing");
}
