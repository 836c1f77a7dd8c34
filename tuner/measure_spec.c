/* The one measure driver of the spec routines: operands from the routine's oracle through the
 * shared harness (oracle/spec_harness.h), tiled over a batch larger than the L2; the candidate
 * (a kernel, the vendor or the driver) verified on the first problems, then timed with the
 * written operands restored before every run. The kernel launches through runtime/spec_launch.c
 * and the driver runs through the library, as they ship. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure_internal.h"
#include "spec_harness.h"
#include "spec_run.h"

#define VERIFY_MAX 128 /* problems checked per candidate, within SPEC_HARNESS_CHECK_FLOPS */

typedef struct spec_bufs {
    char key[200];
    spec_harness h;
} spec_bufs;

/* The scalars every tuned call uses: not 1 and not 0, so that the scaling paths run; the
 * complex precisions add imaginary parts (the real ones ignore them). */
#define TUNE_ALPHA 1.5
#define TUNE_BETA 0.5
#define TUNE_ALPHA_IM 0.5
#define TUNE_BETA_IM (-0.25)

void tuner_release_spec(measure_env *env)
{
    if (!env->spec) return;
    spec_harness_free(&env->spec->h);
    free(env->spec);
    env->spec = NULL;
}

int tuner_spec_task_args(const tuner_task *t, int routine, int dims[4], int opts[4])
{
    const shoal_spec_routine *ri = &shoal_spec_routines[routine];
    /* the spec's dims from the task's (m, n, k) slots; the variant's option from the variant
     * index, the other options 0 (as the generator's tasks say: generator/search_space.py) */
    const int slots[3] = {t->m, t->n, t->k};
    static const char slot_names[] = "mnk";
    for (int i = 0; i < 4; ++i) dims[i] = opts[i] = 0;
    for (int i = 0; i < ri->n_dims; ++i) {
        const char *at = strchr(slot_names, ri->dim_names[i]);
        if (!at || !*at) return -1; /* the registry names a dim no task slot carries */
        dims[i] = slots[at - slot_names];
    }
    opts[ri->variant_option] = t->variant;
    return 0;
}

static cudaError_t prepare_shape(measure_env *env, const tuner_task *t, int routine)
{
    char key[200];
    snprintf(key, sizeof key, "%s %c %d %d %d %d %d %lld", t->routine, t->prec, t->array_mode, t->m, t->n, t->k,
             t->variant, t->batch);
    if (env->spec && strcmp(env->spec->key, key) == 0) return cudaSuccess;
    tuner_measure_release(env); /* one shape's operands at a time: memory */
    spec_bufs *S = calloc(1, sizeof *S);
    if (!S) return cudaErrorMemoryAllocation;
    env->spec = S;
    snprintf(S->key, sizeof S->key, "%s", key);
    int dims[4], opts[4];
    if (tuner_spec_task_args(t, routine, dims, opts) != 0) return cudaErrorInvalidValue;
    return spec_harness_init_complex(&S->h, routine, t->prec, t->array_mode ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED,
                                     dims, opts, TUNE_ALPHA, TUNE_ALPHA_IM, TUNE_BETA, TUNE_BETA_IM, t->batch, 0, -1,
                                     tuner_key_seed(key));
}

typedef struct run_ctx {
    measure_env *env;
    const tuner_task *t;
    const shoal_kernel_desc *kd;
    const shoal_spec_routine *ri;
    spec_harness *h;
    shoal_spec_call vendor_call;  /* the vendor takes pointer arrays, for strided tasks too */
} run_ctx;

static cudaError_t restore(void *p)
{
    run_ctx *r = p;
    return spec_harness_restore(r->h);
}

static cudaError_t run_once(void *p)
{
    run_ctx *r = p;
    if (r->kd) return shoal_spec_launch(r->ri, r->kd, &r->h->call, 0);
    if (strcmp(r->t->design, "driver") == 0) {
        const shoal_status st = shoal_spec_run_driver(r->env->shoal, &r->h->call, r->t->p[0]);
        /* a refusal (e.g. no kernel in this build takes the leaf size) is no launch failure:
         * cudaErrorLaunchFailure would read as a crashed kernel, a sticky error that restarts
         * the tuner; cudaErrorNotSupported fails the task alone */
        return st == SHOAL_STATUS_SUCCESS ? cudaGetLastError() : cudaErrorNotSupported;
    }
    const int v = r->ri->vendor(r->env->cublas, &r->vendor_call);
    return v == SHOAL_SPEC_VENDOR_OK ? cudaGetLastError() : cudaErrorNotSupported;
}

/* The call as the vendor takes it: pointer arrays (the harness makes them in both forms). */
static shoal_spec_call vendor_call(const spec_harness *h)
{
    shoal_spec_call c = h->call;
    for (int o = 0; o < h->ri->n_operands; ++o) c.p.op[o].array = h->d_ptrs[o];
    return c;
}

void tuner_measure_spec(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res)
{
    const int routine = shoal_spec_routine_id(t->routine);
    const shoal_spec_routine *ri = &shoal_spec_routines[routine];
    const int driver = !kd && strcmp(t->design, "driver") == 0;
    if (!kd && !driver && !ri->vendor) {
        res->status = "launch_failed";
        snprintf(res->reason, sizeof res->reason, "routine %s has no vendor call", t->routine);
        return;
    }
    if (driver && !env->shoal && shoal_create(&env->shoal) != SHOAL_STATUS_SUCCESS) {
        res->status = "launch_failed";
        snprintf(res->reason, sizeof res->reason, "shoal_create failed");
        return;
    }
    cudaError_t e = prepare_shape(env, t, routine);
    if (e != cudaSuccess) {
        tuner_fail(res, "launch_failed", e, "operands");
        return;
    }
    run_ctx r = {env, t, kd, ri, &env->spec->h, vendor_call(&env->spec->h)};
    /* verify */
    e = restore(&r);
    if (e == cudaSuccess) e = run_once(&r);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        tuner_fail(res, "launch_failed", e, "verification run");
        return;
    }
    long long bad = -1;
    res->error = spec_harness_check(r.h, 0, spec_harness_check_count(r.h, VERIFY_MAX, SPEC_HARNESS_CHECK_FLOPS), NULL, 0, &bad);
    if (bad >= 0) {
        res->status = "wrong";
        snprintf(res->reason, sizeof res->reason, "problem %lld: error %.3g eps", bad, res->error);
        return;
    }
    e = tuner_time_runs(env->timed_runs, restore, run_once, &r, res);
    if (e != cudaSuccess) tuner_fail(res, "launch_failed", e, "timed runs");
}
