/* Level-2 tasks (gemv, trsv, gemv_vbatched; docs/blas2.md): distinct problems made on the host
 * (tuner/host_blas2.c), tiled over a batch larger than the L2, the first problems checked against
 * the host reference, then the whole batch timed. gemv is verified twice (beta != 0, then
 * beta = 0 over a NaN-poisoned y, which must not be read) and timed with beta = 0, as its
 * memory roof counts it; trsv gets its right-hand sides restored before every run, outside the
 * timed events. The vendor takes pointer arrays for trsv (it has no strided batched call).
 * c and z (gemv_vbatched too): host elements are (re, im) pairs of doubles, alpha and beta
 * complex, errors in complex arithmetic with eps of the real type; a t variant is also verified
 * with shoal_blas2_params.conj (op C, which shares its kernels); timing is op T's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas2_launch.h"
#include "blas2_vendor.h"
#include "device_util.h"
#include "gemm_launch.h"
#include "host_blas2.h"
#include "measure_internal.h"

#define DISTINCT_MAX 1024
#define VERIFY_MAX 256

enum family { GEMV, TRSV, GEMV_V };

typedef struct blas2_bufs {
    char key[160];
    enum family fam;
    char prec;
    int m, n, variant, elem, nx, ny;   /* maxima; x and y lengths of a full-size problem */
    int cx;                            /* doubles per element on the host: 2 for c and z */
    long long batch, distinct;
    long long a_el;                    /* elements per problem slot of A (packed at the maxima) */
    void *A, *x, *x0, *y, *y0;
    void **Ap, **xp, **yp;
    int *mv, *nv, *ldav, *incv;        /* gemv_vbatched sizes (incx = incy = 1: incv) */
    double *hA, *hx, *hy;              /* the distinct inputs */
    int *hm, *hn;
} blas2_bufs;

void tuner_release_blas2(measure_env *env)
{
    blas2_bufs *B = env->blas2;
    if (!B) return;
    void *dev[] = {B->A, B->x, B->x0, B->y, B->y0, B->Ap, B->xp, B->yp, B->mv, B->nv, B->ldav, B->incv};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; ++i) cudaFree(dev[i]);
    free(B->hA);
    free(B->hx);
    free(B->hy);
    free(B->hm);
    free(B->hn);
    free(B);
    env->blas2 = NULL;
}

static cudaError_t upload_tiled(void *dst, const double *src, long long per, long long distinct, long long batch,
                                char prec)
{
    const size_t unit = (size_t)(per * shoal_elem_bytes(prec));
    cudaError_t e = tuner_upload(dst, src, distinct * per, prec);
    return e == cudaSuccess ? tuner_tile(dst, distinct, batch, unit) : e;
}

static cudaError_t prepare_shape(measure_env *env, const tuner_task *t, enum family fam)
{
    char key[160];
    snprintf(key, sizeof key, "%s %c %d %d %d %lld", t->routine, t->prec, t->m, t->n, t->variant, t->batch);
    if (env->blas2 && strcmp(env->blas2->key, key) == 0) return cudaSuccess;
    tuner_release_blas2(env);
    tuner_release_gemm(env);   /* one family's operands at a time: memory */
    tuner_release_lapack(env);
    tuner_release_vbatched(env);
    blas2_bufs *B = calloc(1, sizeof *B);
    if (!B) return cudaErrorMemoryAllocation;
    env->blas2 = B;
    B->fam = fam;
    B->prec = t->prec;
    B->m = fam == TRSV ? t->n : t->m;
    B->n = t->n;
    B->variant = t->variant;
    const int ta = fam == TRSV ? (t->variant & 1) : t->variant;
    B->nx = ta ? B->m : B->n;
    B->ny = fam == TRSV ? B->n : (ta ? B->n : B->m);
    B->elem = shoal_elem_bytes(t->prec);
    B->cx = t->prec == 'c' || t->prec == 'z' ? 2 : 1;
    B->batch = t->batch;
    B->distinct = t->batch < DISTINCT_MAX ? t->batch : DISTINCT_MAX;
    B->a_el = (long long)B->m * B->n;
    const long long nb = B->batch, es = B->elem, G = B->distinct;
    const int single = t->prec == 's' || t->prec == 'c';
    const long long cx = B->cx;
    cudaError_t e;
    if ((e = tuner_alloc(&B->A, nb * B->a_el * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&B->x, nb * B->nx * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&B->x0, nb * B->nx * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&B->y, nb * B->ny * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc(&B->y0, nb * B->ny * es)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&B->Ap, nb * 8)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&B->xp, nb * 8)) != cudaSuccess) return e;
    if ((e = tuner_alloc((void **)&B->yp, nb * 8)) != cudaSuccess) return e;
    tuner_make_pointers(B->Ap, B->A, B->a_el * es, nb);
    tuner_make_pointers(B->xp, B->x, B->nx * es, nb);
    tuner_make_pointers(B->yp, B->y, B->ny * es, nb);

    B->hA = malloc((size_t)(cx * G * B->a_el + 1) * sizeof(double));
    B->hx = malloc((size_t)(cx * G * B->nx + 1) * sizeof(double));
    B->hy = malloc((size_t)(cx * G * B->ny + 1) * sizeof(double));
    if (!B->hA || !B->hx || !B->hy) return cudaErrorMemoryAllocation;
    const unsigned long long seed = tuner_key_seed(key);
    if (fam == TRSV) {
        for (long long i = 0; i < G; ++i) {
            if (cx == 2)
                blas2_ctriangular(B->n, B->n, t->variant >> 1, seed + (unsigned long long)i, single,
                                  B->hA + 2 * i * B->a_el);
            else
                blas2_triangular(B->n, B->n, t->variant >> 1, seed + (unsigned long long)i, single, B->hA + i * B->a_el);
        }
    } else {
        blas2_random(B->hA, cx * G * B->a_el, seed, single);
    }
    blas2_random(B->hx, cx * G * B->nx, seed ^ 0x5bd1e995ULL, single);
    blas2_random(B->hy, cx * G * B->ny, seed ^ 0x27d4eb2fULL, single);
    if (fam == GEMV_V) {
        /* sizes uniform in [1, max], leading dimension = rows (packed in a maximum-size slot) */
        B->hm = malloc((size_t)G * sizeof(int));
        B->hn = malloc((size_t)G * sizeof(int));
        int *all = malloc((size_t)nb * 4 * sizeof(int));
        double *r = malloc((size_t)2 * G * sizeof(double));
        if (!B->hm || !B->hn || !all || !r) {
            free(all);
            free(r);
            return cudaErrorMemoryAllocation;
        }
        blas2_random(r, 2 * G, seed ^ 0x1234567ULL, 0);
        for (long long i = 0; i < G; ++i) {
            B->hm[i] = 1 + (int)((r[2 * i] + 1.0) * 0.5 * B->m);
            B->hn[i] = 1 + (int)((r[2 * i + 1] + 1.0) * 0.5 * B->n);
            if (B->hm[i] > B->m) B->hm[i] = B->m;
            if (B->hn[i] > B->n) B->hn[i] = B->n;
        }
        for (long long i = 0; i < nb; ++i) {
            all[i] = B->hm[i % G];
            all[nb + i] = B->hn[i % G];
            all[2 * nb + i] = B->hm[i % G];
            all[3 * nb + i] = 1;
        }
        free(r);
        e = tuner_alloc((void **)&B->mv, nb * 4 * 4);
        if (e == cudaSuccess) e = cudaMemcpy(B->mv, all, (size_t)nb * 4 * sizeof(int), cudaMemcpyHostToDevice);
        free(all);
        if (e != cudaSuccess) return e;
        B->nv = B->mv + nb;
        B->ldav = B->mv + 2 * nb;
        B->incv = B->mv + 3 * nb;
    }
    if ((e = upload_tiled(B->A, B->hA, B->a_el, G, nb, t->prec)) != cudaSuccess) return e;
    if ((e = upload_tiled(B->x0, B->hx, B->nx, G, nb, t->prec)) != cudaSuccess) return e;
    if ((e = upload_tiled(B->y0, B->hy, B->ny, G, nb, t->prec)) != cudaSuccess) return e;
    if ((e = cudaMemcpy(B->x, B->x0, (size_t)(nb * B->nx * es), cudaMemcpyDeviceToDevice)) != cudaSuccess) return e;
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) return e;
    strcpy(B->key, key);
    return cudaSuccess;
}

static shoal_blas2_params params_for(const blas2_bufs *B, long long batch, int array, const double alpha[2],
                                     const double beta[2], int conj)
{
    shoal_blas2_params p;
    memset(&p, 0, sizeof p);
    p.m = B->m;
    p.n = B->n;
    p.alpha[0] = alpha[0];
    p.beta[0] = beta[0];
    if (B->cx == 2) { /* complex scalars; real rows keep the imaginary parts 0 */
        p.alpha[1] = alpha[1];
        p.beta[1] = beta[1];
        p.conj = conj;
    }
    p.lda = B->m;
    p.incx = 1;
    p.incy = 1;
    p.batch = batch;
    if (array) {
        p.A_array = (const void *const *)B->Ap;
        p.x_array = B->xp;
        p.y_array = B->yp;
    } else {
        p.A = B->A;
        p.x = B->x;
        p.y = B->y;
        p.stride_a = B->a_el;
        p.stride_x = B->nx;
        p.stride_y = B->ny;
    }
    if (B->fam == GEMV_V) {
        p.m_v = B->mv;
        p.n_v = B->nv;
        p.lda_v = B->ldav;
        p.incx_v = B->incv;
        p.incy_v = B->incv;
    }
    return p;
}

typedef struct blas2_run {
    measure_env *env;
    const tuner_task *t;
    const shoal_kernel_desc *kd;
    blas2_bufs *B;
    shoal_blas2_params p;
    int vendor_result;
} blas2_run;

static cudaError_t run_once(void *ctx)
{
    blas2_run *r = ctx;
    if (!r->kd) {
        r->vendor_result = shoal_blas2_vendor(r->env->cublas, r->t->routine, r->t->prec, r->t->variant, &r->p);
        if (r->vendor_result != SHOAL_VENDOR_OK) return cudaErrorNotSupported;
        return cudaGetLastError();
    }
    return shoal_blas2_launch(r->kd, &r->p, r->env->sm_count, 0);
}

/* trsv overwrites its right-hand sides: restored outside the timed events */
static cudaError_t restore(void *ctx)
{
    blas2_run *r = ctx;
    const blas2_bufs *B = r->B;
    if (B->fam != TRSV) return cudaSuccess;
    return cudaMemcpyAsync(B->x, B->x0, (size_t)(r->p.batch * B->nx * B->elem), cudaMemcpyDeviceToDevice, 0);
}

/* Max normalized error of the first vb problems; the worst problem's index. */
static cudaError_t check(const blas2_bufs *B, long long vb, const double alpha[2], const double beta[2], int conj,
                         double eps, double *worst, long long *where)
{
    const long long out_el = B->fam == TRSV ? B->nx : B->ny, cx = B->cx;
    double *out = malloc((size_t)(cx * vb * out_el + 1) * sizeof(double));
    if (!out) return cudaErrorMemoryAllocation;
    cudaError_t e = tuner_download(out, B->fam == TRSV ? B->x : B->y, vb * out_el, B->prec);
    *worst = 0;
    *where = -1;
    for (long long i = 0; i < vb && e == cudaSuccess; ++i) {
        const double *A = B->hA + cx * i * B->a_el, *x = B->hx + cx * i * B->nx, *y0 = B->hy + cx * i * B->ny;
        double err;
        /* gemv_vbatched: problem i's drawn sizes, its lda = its rows (packed in a maximum-size slot) */
        const int m = B->fam == GEMV_V ? B->hm[i] : B->m, n = B->fam == GEMV_V ? B->hn[i] : B->n;
        if (cx == 2) {
            /* op C: the t variant with conj set */
            const int op = (B->fam == TRSV ? B->variant & 1 : B->variant) ? (conj ? 2 : 1) : 0;
            if (B->fam == TRSV)
                err = blas2_ctrsv_error(B->variant >> 1, op, 0, B->n, A, B->n, x, out + 2 * i * out_el, 1, eps);
            else
                err = blas2_cgemv_error(op, m, n, alpha, A, m, x, 1, beta, y0, out + 2 * i * out_el, 1, eps);
        } else if (B->fam == TRSV) {
            err = blas2_trsv_error(B->variant >> 1, B->variant & 1, 0, B->n, A, B->n, x, out + i * out_el, 1, eps);
        } else {
            err = blas2_gemv_error(B->variant, m, n, alpha[0], A, m, x, 1, beta[0], y0, out + i * out_el, 1, eps);
        }
        if (!(err <= *worst)) {
            *worst = isnan(err) ? INFINITY : err;
            *where = i;
            if (isinf(*worst)) break;
        }
    }
    free(out);
    return e;
}

/* One verification run on the first vb problems: y (gemv) from y0 or NaN, x (trsv) from x0. */
static int verify(blas2_run *r, long long vb, int array, const double alpha[2], const double beta[2], int conj,
                  task_result *res)
{
    const blas2_bufs *B = r->B;
    const long long es = B->elem;
    cudaError_t e = cudaMemcpy(B->x, B->x0, (size_t)(vb * B->nx * es), cudaMemcpyDeviceToDevice);
    if (e == cudaSuccess && B->fam != TRSV)
        e = beta[0] != 0 || beta[1] != 0 ? cudaMemcpy(B->y, B->y0, (size_t)(vb * B->ny * es), cudaMemcpyDeviceToDevice)
                      : tuner_fill_nan(B->y, B->prec, vb * B->ny);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "prepare"), 1;
    r->p = params_for(B, vb, array, alpha, beta, conj);
    e = run_once(r);
    if (!r->kd && r->vendor_result == SHOAL_VENDOR_UNSUPPORTED) {
        res->status = "pruned";
        snprintf(res->reason, sizeof res->reason, "vendor: no call for this case");
        return 1;
    }
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "run"), 1;
    const double eps = B->prec == 's' || B->prec == 'c' ? ldexp(1.0, -24) : ldexp(1.0, -53);
    const double limit = B->fam == TRSV ? BLAS2_ERROR_LIMIT * 2 : BLAS2_ERROR_LIMIT;
    double err = 0;
    long long where = -1;
    if ((e = check(B, vb, alpha, beta, conj, eps, &err, &where)) != cudaSuccess)
        return tuner_fail(res, "launch_failed", e, "check"), 1;
    if (err > res->error) res->error = err;
    if (!(err <= limit)) {
        res->status = "wrong";
        snprintf(res->reason, sizeof res->reason, "normalized error %.3g > %g (problem %lld, beta %g%s)", err, limit,
                 where, beta[0], conj ? ", op C" : "");
        return 1;
    }
    return 0;
}

void tuner_measure_blas2(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res)
{
    const enum family fam = strcmp(t->routine, "trsv") == 0 ? TRSV
                            : strcmp(t->routine, "gemv_vbatched") == 0 ? GEMV_V : GEMV;
    cudaError_t e = prepare_shape(env, t, fam);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "allocation");
    blas2_bufs *B = env->blas2;
    /* the vendor's trsv takes pointer arrays only */
    const int array = fam == GEMV_V || t->array_mode || (!kd && fam == TRSV);
    const long long vb = B->distinct < VERIFY_MAX ? B->distinct : VERIFY_MAX;
    blas2_run r = {env, t, kd, B, {0}, SHOAL_VENDOR_OK};
    res->error = 0;
    /* imaginary parts: read by c and z only */
    const double a1[2] = {0.75, 0.5}, b1[2] = {-0.5, 0.25}, a2[2] = {1.25, -0.5}, b0[2] = {0.0, 0.0};
    const double one[2] = {1.0, 0.0};
    if (fam != TRSV && verify(&r, vb, array, a1, b1, 0, res)) return;
    if (verify(&r, vb, array, a2, b0, 0, res)) return;
    /* c, z: op C runs the t variant's kernel with conj set */
    const int transposed = fam == TRSV ? (t->variant & 1) : t->variant;
    if (B->cx == 2 && transposed) {
        if (fam != TRSV && verify(&r, vb, array, a1, b1, 1, res)) return;
        if (fam == TRSV && verify(&r, vb, array, one, b0, 1, res)) return;
    }

    r.p = params_for(B, t->batch, array, one, b0, 0);
    e = tuner_time_runs(env->timed_runs, fam == TRSV ? restore : NULL, run_once, &r, res);
    if (e != cudaSuccess) return tuner_fail(res, "launch_failed", e, "timing");
}
