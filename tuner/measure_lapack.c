/* Factorization tasks (docs/lapack.md): operands made by the routine's spec on the host, tiled
 * over a batch larger than the L2, verification of the first problems by the spec's residual
 * check, then timing with the overwritten inputs restored before every run.
 * c and z: host elements are (re, im) pairs of doubles (the spec's is_complex), errors with eps
 * of the real type; getrs's t variant is verified a second time with shoal_lapack_params.conj
 * (op C, which shares its kernels); timing is op T's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block_pointers.h"
#include "device_util.h"
#include "host_math.h"
#include "gemm_launch.h"
#include "lapack_launch.h"
#include "lapack_spec.h"
#include "lapack_vendor.h"
#include "measure_internal.h"

#define DISTINCT_MAX 4096 /* distinct problems generated on the host, then tiled */
#define VERIFY_MAX 256    /* problems checked per candidate (host residuals cost O(n^3) each) */

typedef struct lapack_bufs {
    char key[160];
    const lapack_spec *spec;
    char prec;
    int m, n, nrhs, variant, elem;
    int cx;                            /* doubles per element on the host: 2 for c and z */
    long long batch, distinct;
    long long a_el, b_el, p_el;       /* per problem: A, B elements; pivots / tau entries */
    void *A, *A0, *B, *B0, *tau;
    int *ipiv, *ipiv0, *info;
    void **Ap, **Bp, **taup;
    void **vendor_ws;                  /* SHOAL_WS_OPERANDS x SHOAL_WS_POINTERS: the vendor's strided route */
    double *hA0, *hB0;                 /* the distinct inputs, in double */
    int *hipiv0;
} lapack_bufs;

static int min_int(int a, int b) { return a < b ? a : b; }

void tuner_release_lapack(measure_env *env)
{
    lapack_bufs *L = env->lapack;
    if (!L) return;
    cudaFree(L->A);
    cudaFree(L->A0);
    cudaFree(L->B);
    cudaFree(L->B0);
    cudaFree(L->tau);
    cudaFree(L->ipiv);
    cudaFree(L->ipiv0);
    cudaFree(L->info);
    cudaFree(L->Ap);
    cudaFree(L->Bp);
    cudaFree(L->vendor_ws);
    cudaFree(L->taup);
    free(L->hA0);
    free(L->hB0);
    free(L->hipiv0);
    free(L);
    env->lapack = NULL;
}

static cudaError_t prepare_shape(measure_env *env, const tuner_task *t, const lapack_spec *spec)
{
    char key[160];
    snprintf(key, sizeof key, "%s %c %d %d %d %d %lld", t->routine, t->prec, t->m, t->n, t->k, t->variant,
             t->batch);
    if (env->lapack && strcmp(env->lapack->key, key) == 0) return cudaSuccess;
    tuner_release_lapack(env);
    tuner_release_gemm(env); /* one family's operands at a time: memory */
    tuner_release_blas2(env);
    tuner_release_vbatched(env);
    lapack_bufs *L = calloc(1, sizeof *L);
    if (!L) return cudaErrorMemoryAllocation;
    env->lapack = L;
    L->spec = spec;
    L->prec = t->prec;
    L->m = t->m;
    L->n = t->n;
    L->nrhs = (spec->flags & (LAPACK_B_IN | LAPACK_B_OUT)) && !(spec->flags & LAPACK_B_SQUARE) ? t->k : 0;
    L->variant = t->variant;
    L->elem = shoal_elem_bytes(t->prec);
    L->cx = t->prec == 'c' || t->prec == 'z' ? 2 : 1;
    L->batch = t->batch;
    L->distinct = t->batch < DISTINCT_MAX ? t->batch : DISTINCT_MAX;
    L->a_el = (long long)t->m * t->n;
    L->b_el = (spec->flags & LAPACK_B_SQUARE) ? (long long)t->n * t->n : (long long)t->n * L->nrhs;
    if (!(spec->flags & (LAPACK_B_IN | LAPACK_B_OUT))) L->b_el = 0;
    L->p_el = min_int(t->m, t->n);
    const long long nb = L->batch, es = L->elem;
    cudaError_t e;
    if ((e = tuner_alloc(&L->A, nb * L->a_el * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&L->A0, nb * L->a_el * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&L->B, nb * L->b_el * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&L->B0, nb * L->b_el * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&L->tau, nb * L->p_el * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&L->ipiv, nb * L->p_el * 4)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&L->ipiv0, nb * L->p_el * 4)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&L->info, nb * 4)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&L->Ap, nb * 8)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&L->Bp, nb * 8)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&L->taup, nb * 8)) != cudaSuccess) return e;
    e = tuner_alloc((void **)&L->vendor_ws, (long long)sizeof(void *) * SHOAL_WS_OPERANDS * SHOAL_WS_POINTERS);
    if (e != cudaSuccess) return e;
    tuner_make_pointers(L->Ap, L->A, L->a_el * es, nb);
    tuner_make_pointers(L->Bp, L->B, L->b_el * es, nb);
    tuner_make_pointers(L->taup, L->tau, L->p_el * es, nb);

    /* the distinct problems, fresh per shape (a seed from the shape key), tiled over the batch */
    const long long G = L->distinct, cx = L->cx;
    L->hA0 = calloc((size_t)(cx * G * L->a_el + 1), sizeof(double));
    L->hB0 = calloc((size_t)(cx * G * L->b_el + 1), sizeof(double));
    L->hipiv0 = calloc((size_t)(G * L->p_el + 1), sizeof(int));
    if (!L->hA0 || !L->hB0 || !L->hipiv0) return cudaErrorMemoryAllocation;
    const unsigned long long seed = tuner_key_seed(key);
    for (long long i = 0; i < G; ++i)
        spec->generate(L->m, L->n, L->nrhs, L->variant, cx == 2, seed + (unsigned long long)i,
                       L->hA0 + cx * i * L->a_el, (spec->flags & LAPACK_B_IN) ? L->hB0 + cx * i * L->b_el : NULL,
                       (spec->flags & LAPACK_IPIV_IN) ? L->hipiv0 + i * L->p_el : NULL);
    if ((e = tuner_upload(L->A0, L->hA0, G * L->a_el, L->prec)) != cudaSuccess) return e;
    if ((e = tuner_tile(L->A0, G, nb, (size_t)(L->a_el * es))) != cudaSuccess) return e;
    if (L->b_el) {
        if ((e = tuner_upload(L->B0, L->hB0, G * L->b_el, L->prec)) != cudaSuccess) return e;
        if ((e = tuner_tile(L->B0, G, nb, (size_t)(L->b_el * es))) != cudaSuccess) return e;
    }
    if (spec->flags & LAPACK_IPIV_IN) {
        e = cudaMemcpy(L->ipiv0, L->hipiv0, (size_t)(G * L->p_el) * 4, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) return e;
        if ((e = tuner_tile(L->ipiv0, G, nb, (size_t)L->p_el * 4)) != cudaSuccess) return e;
        if ((e = cudaMemcpy(L->ipiv, L->ipiv0, (size_t)(nb * L->p_el) * 4, cudaMemcpyDeviceToDevice)) != cudaSuccess)
            return e;
    }
    if ((e = cudaMemcpy(L->A, L->A0, (size_t)(nb * L->a_el * es), cudaMemcpyDeviceToDevice)) != cudaSuccess) return e;
    if (L->b_el && (e = cudaMemcpy(L->B, L->B0, (size_t)(nb * L->b_el * es), cudaMemcpyDeviceToDevice)) != cudaSuccess)
        return e;
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) return e;
    strcpy(L->key, key);
    return cudaSuccess;
}

static shoal_lapack_params params_for(const lapack_bufs *L, long long batch, int array, int conj)
{
    shoal_lapack_params p;
    memset(&p, 0, sizeof p);
    p.conj = conj;
    p.m = L->m;
    p.n = L->n;
    p.nrhs = L->nrhs;
    p.lda = L->m > 0 ? L->m : 1;
    p.ldb = L->n > 0 ? L->n : 1;
    p.ipiv = L->ipiv;
    p.stride_ipiv = L->p_el;
    p.info = L->info;
    p.batch = batch;
    /* tau only where the routine has it, as the entry points pass it: the vendor's strided route
     * writes pointer arrays for the operands a call has */
    const int has_tau = (L->spec->flags & LAPACK_TAU_OUT) != 0;
    if (array) {
        p.A_array = L->Ap;
        p.B_array = L->b_el ? L->Bp : NULL;
        p.tau_array = has_tau ? L->taup : NULL;
    } else {
        p.A = L->A;
        p.B = L->b_el ? L->B : NULL;
        p.tau = has_tau ? L->tau : NULL;
        p.stride_a = L->a_el;
        p.stride_b = L->b_el;
        p.stride_tau = L->p_el;
    }
    return p;
}

typedef struct lapack_run {
    measure_env *env;
    const tuner_task *t;
    const shoal_kernel_desc *kd;
    lapack_bufs *L;
    shoal_lapack_params p;
    int vendor_result;
    int resident_blocks; /* per SM, from the hardware pruning's occupancy query */
    void **vendor_ws;    /* the vendor's strided route: its pointer arrays (runtime/block_pointers.h) */
} lapack_run;

static cudaError_t run_once(void *ctx)
{
    lapack_run *r = ctx;
    if (!r->kd) {
        const shoal_vendor_handles vh = {r->env->cublas, r->env->cusolver};
        /* strided tasks time the route the library takes: pointer arrays written, then the call */
        r->vendor_result = r->p.A_array ? shoal_lapack_vendor(&vh, r->t->routine, r->t->prec, r->t->variant, &r->p)
                                        : shoal_lapack_vendor_strided(&vh, r->vendor_ws, 0, r->t->routine, r->t->prec,
                                                                      r->t->variant, &r->p);
        if (r->vendor_result != SHOAL_VENDOR_OK) return cudaErrorNotSupported;
        return cudaGetLastError();
    }
    return shoal_lapack_launch(r->kd, &r->p, r->resident_blocks, r->env->sm_count, 0);
}

/* Restores what the routine overwrites (outside the timed events). */
static cudaError_t restore(void *ctx)
{
    lapack_run *r = ctx;
    const lapack_bufs *L = r->L;
    const unsigned f = L->spec->flags;
    const long long nb = r->p.batch, es = L->elem;
    cudaError_t e = cudaSuccess;
    if (f & LAPACK_A_OUT) e = cudaMemcpyAsync(L->A, L->A0, (size_t)(nb * L->a_el * es), cudaMemcpyDeviceToDevice, 0);
    if (e == cudaSuccess && (f & LAPACK_B_IN) && (f & LAPACK_B_OUT))
        e = cudaMemcpyAsync(L->B, L->B0, (size_t)(nb * L->b_el * es), cudaMemcpyDeviceToDevice, 0);
    return e;
}

/* Poisons every output of the first vb problems, so that an element left unwritten shows. */
static cudaError_t poison(const lapack_bufs *L, long long vb)
{
    const unsigned f = L->spec->flags;
    cudaError_t e = cudaSuccess;
    if ((f & LAPACK_B_OUT) && !(f & LAPACK_B_IN)) e = tuner_fill_nan(L->B, L->prec, vb * L->b_el);
    if (e == cudaSuccess && (f & LAPACK_TAU_OUT)) e = tuner_fill_nan(L->tau, L->prec, vb * L->p_el);
    if (e == cudaSuccess && (f & LAPACK_IPIV_OUT)) e = cudaMemset(L->ipiv, 0xff, (size_t)(vb * L->p_el) * 4);
    if (e == cudaSuccess && (f & LAPACK_INFO_OUT)) e = cudaMemset(L->info, 0xff, (size_t)vb * 4);
    return e;
}

/* Max normalized error of the first vb problems after a run; the worst problem's index. */
static cudaError_t check_outputs(const lapack_bufs *L, long long vb, int conj, double eps, double *worst,
                                 long long *where)
{
    const long long cx = L->cx;
    double *A = malloc((size_t)(cx * vb * L->a_el + 1) * sizeof(double));
    double *B = malloc((size_t)(cx * vb * L->b_el + 1) * sizeof(double));
    double *tau = malloc((size_t)(cx * vb * L->p_el + 1) * sizeof(double));
    int *ipiv = malloc((size_t)(vb * L->p_el + 1) * sizeof(int));
    int *info = malloc((size_t)vb * sizeof(int) + 4);
    cudaError_t e = cudaErrorMemoryAllocation;
    if (!A || !B || !tau || !ipiv || !info) goto done;
    const unsigned f = L->spec->flags;
    e = tuner_download(A, L->A, vb * L->a_el, L->prec);
    if (e == cudaSuccess && L->b_el) e = tuner_download(B, L->B, vb * L->b_el, L->prec);
    if (e == cudaSuccess && (f & LAPACK_TAU_OUT)) e = tuner_download(tau, L->tau, vb * L->p_el, L->prec);
    if (e == cudaSuccess && (f & LAPACK_IPIV_OUT))
        e = cudaMemcpy(ipiv, L->ipiv, (size_t)(vb * L->p_el) * 4, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && (f & LAPACK_INFO_OUT)) e = cudaMemcpy(info, L->info, (size_t)vb * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) goto done;
    *worst = 0.0;
    *where = -1;
    for (long long i = 0; i < vb; ++i) {
        lapack_problem pr;
        memset(&pr, 0, sizeof pr);
        pr.m = L->m;
        pr.n = L->n;
        pr.nrhs = L->nrhs;
        pr.variant = L->variant;
        pr.is_complex = cx == 2;
        pr.conj = conj;
        pr.A0 = L->hA0 + cx * i * L->a_el;
        pr.B0 = (f & LAPACK_B_IN) ? L->hB0 + cx * i * L->b_el : NULL;
        pr.ipiv0 = (f & LAPACK_IPIV_IN) ? L->hipiv0 + i * L->p_el : NULL;
        pr.A = A + cx * i * L->a_el;
        pr.B = L->b_el ? B + cx * i * L->b_el : NULL;
        pr.ipiv = (f & LAPACK_IPIV_OUT) ? ipiv + i * L->p_el : NULL;
        pr.tau = (f & LAPACK_TAU_OUT) ? tau + cx * i * L->p_el : NULL;
        pr.info = (f & LAPACK_INFO_OUT) ? info[i] : 0;
        const double err = L->spec->check(&pr, eps);
        if (!(err <= *worst)) { /* NaN counts as the worst */
            *worst = isnan(err) ? INFINITY : err;
            *where = i;
            if (isinf(*worst)) break;
        }
    }
done:
    free(A);
    free(B);
    free(tau);
    free(ipiv);
    free(info);
    return e;
}

void tuner_measure_lapack(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res)
{
    const lapack_spec *spec = lapack_spec_find(t->routine);
    if (!spec) {
        res->status = "launch_failed";
        snprintf(res->reason, sizeof res->reason, "no spec for routine %s", t->routine);
        return;
    }
    cudaError_t e = prepare_shape(env, t, spec);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "allocation");
    lapack_bufs *L = env->lapack;
    /* every candidate runs in the task's mode: the vendor's strided rows through its strided route */
    const int array = t->array_mode;

    /* correctness first: the first problems, with their outputs poisoned; c/z getrs's t variant
     * also as op C (conj set), which its kernels serve too */
    const long long vb = L->distinct < VERIFY_MAX ? L->distinct : VERIFY_MAX;
    /* hardware_prune (measure.c) counted the kernel's resident threads per SM with the launch's
     * block and no dynamic shared memory: the resident grid's blocks per SM, without a second query */
    const int resident_blocks = kd ? res->resident_threads / shoal_lapack_threads(kd) : 0;
    lapack_run r = {env, t, kd, L, params_for(L, vb, array, 0), SHOAL_VENDOR_OK, resident_blocks, L->vendor_ws};
    const int conj_too = L->cx == 2 && strcmp(t->routine, "getrs") == 0 && t->variant == 1;
    res->error = 0;
    for (int conj = 0; conj <= conj_too; ++conj) {
        r.p = params_for(L, vb, array, conj);
        if ((e = restore(&r)) != cudaSuccess || (e = poison(L, vb)) != cudaSuccess)
            return tuner_fail(res, "launch_failed", e, "prepare");
        e = run_once(&r);
        if (!kd && r.vendor_result == SHOAL_VENDOR_UNSUPPORTED) {
            res->status = "pruned";
            snprintf(res->reason, sizeof res->reason, "vendor: no call for this case");
            return;
        }
        if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "launch");
        if ((e = cudaDeviceSynchronize()) != cudaSuccess) return tuner_fail(res, "launch_failed", e, "run");
        double err = 0.0;
        long long where = -1;
        e = check_outputs(L, vb, conj, oracle_eps(t->prec), &err, &where);
        if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "check");
        if (!(err <= res->error)) res->error = isnan(err) ? INFINITY : err;
        if (!(err <= LAPACK_ERROR_LIMIT)) {
            res->status = "wrong";
            snprintf(res->reason, sizeof res->reason, "normalized error %.3g > %g (problem %lld%s)", err,
                     LAPACK_ERROR_LIMIT, where, conj ? ", op C" : "");
            return;
        }
    }

    /* then the whole batch, inputs restored before every run */
    r.p = params_for(L, t->batch, array, 0);
    e = tuner_time_runs(env->timed_runs, restore, run_once, &r, res);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "timing");
}
