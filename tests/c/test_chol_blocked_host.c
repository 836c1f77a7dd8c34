/* The blocked Cholesky drivers' arithmetic on the CPU (no GPU): runtime/drivers/chol_blocked.c and
 * lapack_steps.c, compiled into this program with a chunk of 2 problems (so that a batch of 5
 * crosses chunks), against host versions of their steps: the n <= 32 potrf kernel (LAPACK's
 * unblocked potf2, info included) and the info merge here, TRSM and SYRK / HERK the shared host
 * steps (tests/c/host_lapack_steps.c), all on host memory; the sub-matrix pointer arrays by the
 * host pointer launch (tests/c/host_block_pointers.c). The host steps read only the stored
 * triangle of A, as the kernels do.
 * What this proves: the block columns, their sub-matrices in both triangles and both forms
 * (strided, pointer arrays) with lda > n, the TRSM sides and ops (C in c and z), the rank-k
 * updates, the chunks, info as the first failure in the whole matrix (a failure in the first, a
 * middle and the last block), a failed matrix leaving the others bit-identical, and the solves.
 * What it cannot: the kernels (the GPU suites judge those).
 *
 *   test_chol_blocked_host       every case; last line "N passed, M failed" */
#define SHOAL_LAPACK_CHUNK 2
#include "../../runtime/drivers/lapack_steps.c"
#include "../../runtime/drivers/chol_blocked.c"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_block_pointers.h"
#include "host_lapack_steps.h"

/* ---- host steps (TRSM, SYRK / HERK: tests/c/host_lapack_steps.c); Cholesky's own: the potrf
 * kernel and the info merge ---- */

static int kernel_calls, merge_calls;

/* potf2: info = the first j (1-based) whose pivot is not positive; the rest left as it is */
static int host_potf2(char prec, void *a, long long ld, int n, int upper)
{
    for (int j = 0; j < n; ++j) {
        double ajj = creal(host_get(prec, a, j + j * ld));
        for (int l = 0; l < j; ++l) {
            const zval v = host_get(prec, a, upper ? l + j * ld : j + l * ld);
            ajj -= creal(v * conj(v));
        }
        if (!(ajj > 0.0)) {
            host_put(prec, a, j + j * ld, ajj);
            return j + 1;
        }
        ajj = sqrt(ajj);
        host_put(prec, a, j + j * ld, ajj);
        for (int i = j + 1; i < n; ++i) {
            zval s = host_get(prec, a, upper ? j + i * ld : i + j * ld);
            for (int l = 0; l < j; ++l)
                s -= upper ? conj(host_get(prec, a, l + j * ld)) * host_get(prec, a, l + i * ld)
                           : host_get(prec, a, i + l * ld) * conj(host_get(prec, a, j + l * ld));
            host_put(prec, a, upper ? j + i * ld : i + j * ld, s / ajj);
        }
    }
    return 0;
}

shoal_status shoal_lapack_run_kernel(struct shoal_context *ctx, int routine, char prec, int variant,
                                     shoal_lapack_params *p, int vendor)
{
    (void)ctx;
    if (routine != SHOAL_POTRF || vendor || p->n > 32 || p->m != p->n) return SHOAL_STATUS_INVALID_VALUE;
    ++kernel_calls;
    const shoal_operand a = {p->A, p->A_array, p->lda, p->stride_a};
    for (long long b = 0; b < p->batch; ++b) p->info[b] = host_potf2(prec, host_problem(prec, &a, b), p->lda, p->n, variant);
    return SHOAL_STATUS_SUCCESS;
}

cudaError_t shoal_info_merge(int *info, const int *step, long long n, int offset, cudaStream_t stream)
{
    (void)stream;
    ++merge_calls;
    for (long long i = 0; i < n; ++i)
        if (info[i] == 0 && step[i] > 0) info[i] = step[i] + offset;
    return cudaSuccess;
}

/* ---- cases ---- */

static struct shoal_context g_ctx;

static void verdict(int ok, const char *what, char prec, int n, int upper, int array, const char *why)
{
    host_verdict(ok, "%s %c n=%d %s %s: %s", what, prec, n, upper ? "upper" : "lower", array ? "array" : "strided", why);
}

typedef struct batch_data {
    char prec;
    int n, nrhs, upper, array;
    long long lda, ldb, batch;
    char *A, *A0, *B, *B0;
    void *a_ptrs[8], *b_ptrs[8];
    int info[8];
} batch_data;

/* Hermitian, strictly diagonally dominant (SPD) problems; the unstored triangle NaN (never read);
 * matrix `bad` (if >= 0) not positive definite at minor bad_j. */
static void make(batch_data *d, char prec, int n, int nrhs, int upper, int array, long long batch, int bad, int bad_j)
{
    const long long es = shoal_spec_elem_bytes(prec);
    memset(d, 0, sizeof *d);
    d->prec = prec, d->n = n, d->nrhs = nrhs, d->upper = upper, d->array = array, d->batch = batch;
    d->lda = n + (n % 3), d->ldb = n + 2;
    const long long asz = d->lda * n * es * batch, bsz = d->ldb * (nrhs > 0 ? nrhs : 1) * es * batch;
    d->A = malloc(asz), d->A0 = malloc(asz), d->B = malloc(bsz), d->B0 = malloc(bsz);
    for (long long b = 0; b < batch; ++b) {
        char *a = d->A + b * d->lda * n * es;
        for (int j = 0; j < n; ++j)
            for (long long i = 0; i < d->lda; ++i) {
                const int stored = i < n && (upper ? i <= j : i >= j);
                zval v = shoal_spec_is_complex(prec) ? host_uniform() + I * host_uniform() : host_uniform();
                if (i == j) v = n + 1.0 + (shoal_spec_is_complex(prec) ? I * 0.5 : 0.0); /* imaginary part not read */
                if (b == bad && i == j && i == bad_j - 1) v = -1.0;
                host_put(prec, a, i + j * d->lda, stored ? v : NAN);
            }
        char *x = d->B + b * d->ldb * nrhs * es;
        for (long long k = 0; k < d->ldb * nrhs; ++k) host_put(prec, x, k, shoal_spec_is_complex(prec) ? host_uniform() + I * host_uniform() : host_uniform());
        d->a_ptrs[b] = a;
        d->b_ptrs[b] = x;
    }
    memcpy(d->A0, d->A, asz);
    memcpy(d->B0, d->B, bsz);
    for (int b = 0; b < 8; ++b) d->info[b] = -7;
}

static void release(batch_data *d) { free(d->A), free(d->A0), free(d->B), free(d->B0); }

static shoal_lapack_params params(batch_data *d)
{
    shoal_lapack_params p = {0};
    p.m = p.n = d->n;
    p.nrhs = d->nrhs;
    p.lda = d->lda;
    p.ldb = d->ldb;
    if (d->array) p.A_array = d->a_ptrs, p.B_array = d->b_ptrs;
    else p.A = d->A, p.B = d->B, p.stride_a = d->lda * d->n, p.stride_b = d->ldb * d->nrhs;
    p.info = d->info;
    p.batch = d->batch;
    return p;
}

/* A(i, j) of the Hermitian input from its stored triangle */
static zval herm(const batch_data *d, const char *a, int i, int j)
{
    const int stored = d->upper ? i <= j : i >= j;
    if (i == j) return creal(host_get(d->prec, a, i + i * d->lda));
    return stored ? host_get(d->prec, a, i + j * d->lda) : conj(host_get(d->prec, a, j + i * d->lda));
}

/* max |A - F^H F| (upper) or |A - F F^H| (lower) over the stored triangle, / (n ||A|| eps) */
static double factor_error(const batch_data *d, long long b, int cols)
{
    const long long es = shoal_spec_elem_bytes(d->prec), off = b * d->lda * d->n * es;
    const char *a0 = d->A0 + off, *f = d->A + off;
    double err = 0.0, norm = 0.0;
    for (int j = 0; j < cols; ++j)
        for (int i = j; i < d->n; ++i) {
            zval s = 0.0;
            for (int l = 0; l <= j; ++l) {
                const zval li = d->upper ? conj(host_get(d->prec, f, l + i * d->lda)) : host_get(d->prec, f, i + l * d->lda);
                const zval lj = d->upper ? conj(host_get(d->prec, f, l + j * d->lda)) : host_get(d->prec, f, j + l * d->lda);
                s += li * conj(lj);
            }
            const double e = cabs(herm(d, a0, i, j) - s);
            err = e > err || e != e ? e : err;
            if (cabs(herm(d, a0, i, j)) > norm) norm = cabs(herm(d, a0, i, j));
        }
    return err / (d->n * norm * host_eps(d->prec));
}

/* the unstored triangle and the padding rows below n still NaN-poisoned, bit for bit */
static int untouched(const batch_data *d, long long b)
{
    const long long es = shoal_spec_elem_bytes(d->prec), off = b * d->lda * d->n * es;
    for (int j = 0; j < d->n; ++j)
        for (long long i = 0; i < d->lda; ++i)
            if (!(i < d->n && (d->upper ? i <= j : i >= j)) &&
                memcmp(d->A + off + (i + j * d->lda) * es, d->A0 + off + (i + j * d->lda) * es, es))
                return 0;
    return 1;
}

/* max |A X - B| / (n ||A|| ||X|| eps) */
static double solve_error(const batch_data *d, long long b)
{
    const long long es = shoal_spec_elem_bytes(d->prec);
    const char *a0 = d->A0 + b * d->lda * d->n * es;
    const char *x = d->B + b * d->ldb * d->nrhs * es, *b0 = d->B0 + b * d->ldb * d->nrhs * es;
    double err = 0.0, na = 0.0, nx = 0.0;
    for (int c = 0; c < d->nrhs; ++c)
        for (int i = 0; i < d->n; ++i) {
            zval s = 0.0;
            for (int l = 0; l < d->n; ++l) {
                s += herm(d, a0, i, l) * host_get(d->prec, x, l + c * d->ldb);
                if (cabs(herm(d, a0, i, l)) > na) na = cabs(herm(d, a0, i, l));
            }
            const double e = cabs(s - host_get(d->prec, b0, i + c * d->ldb));
            err = e > err || e != e ? e : err;
            if (cabs(host_get(d->prec, x, i + c * d->ldb)) > nx) nx = cabs(host_get(d->prec, x, i + c * d->ldb));
        }
    return err / (d->n * na * nx * host_eps(d->prec));
}

static const double LIMIT = 30.0;

static void case_potrf(char prec, int n, int upper, int array, long long batch)
{
    batch_data d;
    make(&d, prec, n, 0, upper, array, batch, -1, 0);
    shoal_lapack_params p = params(&d);
    char why[160] = "";
    int ok = shoal_driver_potrf_blocked(&g_ctx, prec, upper, &p) == SHOAL_STATUS_SUCCESS;
    for (long long b = 0; ok && b < batch; ++b) {
        const double e = factor_error(&d, b, n);
        if (d.info[b] != 0 || !(e <= LIMIT) || !untouched(&d, b)) {
            snprintf(why, sizeof why, "matrix %lld: info %d, error %.3g, other triangle %s", b, d.info[b], e,
                     untouched(&d, b) ? "untouched" : "WRITTEN");
            ok = 0;
        }
    }
    verdict(ok, "potrf", prec, n, upper, array, why);
    release(&d);
}

/* matrix 1 of 5 not positive definite at minor j: info exact, its columns before j a factor, the
 * others bit-identical to a run where matrix 1 is good */
static void case_not_pd(char prec, int n, int upper, int array, int j)
{
    batch_data d, g;
    host_seed = 777; /* the same numbers in both */
    make(&d, prec, n, 0, upper, array, 5, 1, j);
    host_seed = 777;
    make(&g, prec, n, 0, upper, array, 5, -1, 0);
    shoal_lapack_params p = params(&d), q = params(&g);
    char why[160] = "";
    int ok = shoal_driver_potrf_blocked(&g_ctx, prec, upper, &p) == SHOAL_STATUS_SUCCESS &&
             shoal_driver_potrf_blocked(&g_ctx, prec, upper, &q) == SHOAL_STATUS_SUCCESS;
    const long long msz = d.lda * n * shoal_spec_elem_bytes(prec);
    for (long long b = 0; ok && b < 5; ++b) {
        const int want = b == 1 ? j : 0;
        const double e = factor_error(&d, b, b == 1 ? j - 1 : n);
        if (d.info[b] != want || !(e <= LIMIT) || (b != 1 && memcmp(d.A + b * msz, g.A + b * msz, msz))) {
            snprintf(why, sizeof why, "j=%d matrix %lld: info %d (want %d), error %.3g", j, b, d.info[b], want, e);
            ok = 0;
        }
    }
    verdict(ok, "potrf_not_pd", prec, n, upper, array, why);
    release(&d);
    release(&g);
}

static void case_solve(int posv, char prec, int n, int nrhs, int upper, int array)
{
    batch_data d;
    make(&d, prec, n, nrhs, upper, array, 3, -1, 0);
    shoal_lapack_params p = params(&d);
    int ok = 1;
    if (!posv) {
        ok = shoal_driver_potrf_blocked(&g_ctx, prec, upper, &p) == SHOAL_STATUS_SUCCESS;
        ok = ok && shoal_driver_potrs_blocked(&g_ctx, prec, upper, &p) == SHOAL_STATUS_SUCCESS;
    } else {
        ok = shoal_driver_posv_blocked(&g_ctx, prec, upper, &p) == SHOAL_STATUS_SUCCESS;
    }
    char why[160] = "";
    for (long long b = 0; ok && b < 3; ++b) {
        const double e = solve_error(&d, b);
        if (d.info[b] != 0 || !(e <= LIMIT)) {
            snprintf(why, sizeof why, "matrix %lld: info %d, solve error %.3g (nrhs %d)", b, d.info[b], e, nrhs);
            ok = 0;
        }
    }
    verdict(ok, posv ? "posv" : "potrf+potrs", prec, n, upper, array, why);
    release(&d);
}

int main(void)
{
    host_context(&g_ctx);
    const char precs[] = "sdcz";
    const int sizes[] = {33, 40, 64, 65, 97, 130};
    for (int pi = 0; pi < 4; ++pi)
        for (int si = 0; si < 6; ++si)
            for (int upper = 0; upper < 2; ++upper)
                for (int array = 0; array < 2; ++array) {
                    const char prec = precs[pi];
                    const int n = sizes[si];
                    case_potrf(prec, n, upper, array, si % 2 ? 5 : 1);
                    if (si == 2 || si == 4) {
                        case_not_pd(prec, n, upper, array, 5);       /* first block */
                        case_not_pd(prec, n, upper, array, n / 2 + 1); /* a middle one */
                        case_not_pd(prec, n, upper, array, n);       /* the last */
                    }
                    if (si == 0 || si == 3) {
                        case_solve(0, prec, n, 1, upper, array);
                        case_solve(1, prec, n, n / 4, upper, array);
                    }
                }
    /* every step ran where it should: the kernel, TRSM, the rank-k updates and the merges */
    const int steps_ok = kernel_calls > 0 && host_spec_calls[HOST_TRSM] > 0 && host_spec_calls[HOST_SYRK] > 0 &&
                         host_spec_calls[HOST_HERK] > 0 &&
                         merge_calls > 0 && host_block_pointer_launches > 0;
    verdict(steps_ok, "steps", '-', 0, 0, 0, "a step kind never ran");
    return host_report();
}
