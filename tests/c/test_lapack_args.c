/* Argument checks of the factorization API (getrf, getrs, gesv, getri, getri_fused, potrf,
 * potrs, posv, geqrf), needing no GPU: as in test_api_args.c every call uses a NULL handle, so an
 * invalid call must answer INVALID_VALUE and the same call with valid arguments must get as far
 * as the handle check (NOT_INITIALIZED). Pointers are host addresses the library must never
 * dereference.
 *
 * Usage: test_lapack_args [--list | --case NAME]; prints "ok NAME" or "FAILED NAME: why". */
#include "shoal.h"

#include <stdio.h>
#include <string.h>

static double fd[8];
static float fs[8];
static int fi[8];
static double *fdp[2] = {fd, fd};
static float *fsp[2] = {fs, fs};

/* One call of a routine in a precision ('s'/'d') and mode (0 strided, 1 pointer array) with
 * the common knobs; everything else valid. */
typedef struct args {
    int m, n, nrhs, op;       /* op: trans or uplo value */
    int64_t lda, ldb, batch;
    int64_t stride_a, stride_b, stride_p;
    int null_a, null_b, null_p, null_info;
} args;

enum routine { GETRF, GETRS, GESV, GETRI, GETRI_FUSED, POTRF, POTRS, POSV, GEQRF, N_ROUTINES };
static const char *const routine_names[N_ROUTINES] = {"getrf", "getrs", "gesv",  "getri", "getri_fused",
                                                      "potrf", "potrs", "posv", "geqrf"};

static shoal_status call(enum routine r, char prec, int array, const args *a)
{
    const shoal_handle h = NULL;
    double *A = a->null_a ? NULL : fd, *B = a->null_b ? NULL : fd;
    float *As = a->null_a ? NULL : fs, *Bs = a->null_b ? NULL : fs;
    double **Ap = a->null_a ? NULL : fdp, **Bp = a->null_b ? NULL : fdp;
    float **Asp = a->null_a ? NULL : fsp, **Bsp = a->null_b ? NULL : fsp;
    int *P = a->null_p ? NULL : fi, *I = a->null_info ? NULL : fi;
    const shoal_operation t = (shoal_operation)a->op;
    const shoal_fill_mode u = (shoal_fill_mode)a->op;
    const int d = prec == 'd';
#define PICK(sfn, dfn) (d ? (dfn) : (sfn))
    switch (r) {
    case GETRF:
        if (array) return PICK(shoal_sgetrf_batched(h, a->m, a->n, Asp, a->lda, P, I, a->batch),
                               shoal_dgetrf_batched(h, a->m, a->n, Ap, a->lda, P, I, a->batch));
        return PICK(shoal_sgetrf_strided_batched(h, a->m, a->n, As, a->lda, a->stride_a, P, a->stride_p, I, a->batch),
                    shoal_dgetrf_strided_batched(h, a->m, a->n, A, a->lda, a->stride_a, P, a->stride_p, I, a->batch));
    case GETRS:
        if (array)
            return PICK(shoal_sgetrs_batched(h, t, a->n, a->nrhs, (const float *const *)Asp, a->lda, P, Bsp, a->ldb, a->batch),
                        shoal_dgetrs_batched(h, t, a->n, a->nrhs, (const double *const *)Ap, a->lda, P, Bp, a->ldb, a->batch));
        return PICK(shoal_sgetrs_strided_batched(h, t, a->n, a->nrhs, As, a->lda, a->stride_a, P, a->stride_p, Bs, a->ldb,
                                                 a->stride_b, a->batch),
                    shoal_dgetrs_strided_batched(h, t, a->n, a->nrhs, A, a->lda, a->stride_a, P, a->stride_p, B, a->ldb,
                                                 a->stride_b, a->batch));
    case GESV:
        if (array) return PICK(shoal_sgesv_batched(h, a->n, a->nrhs, Asp, a->lda, P, Bsp, a->ldb, I, a->batch),
                               shoal_dgesv_batched(h, a->n, a->nrhs, Ap, a->lda, P, Bp, a->ldb, I, a->batch));
        return PICK(shoal_sgesv_strided_batched(h, a->n, a->nrhs, As, a->lda, a->stride_a, P, a->stride_p, Bs, a->ldb,
                                                a->stride_b, I, a->batch),
                    shoal_dgesv_strided_batched(h, a->n, a->nrhs, A, a->lda, a->stride_a, P, a->stride_p, B, a->ldb,
                                                a->stride_b, I, a->batch));
    case GETRI:
        if (array)
            return PICK(shoal_sgetri_batched(h, a->n, (const float *const *)Asp, a->lda, P, Bsp, a->ldb, I, a->batch),
                        shoal_dgetri_batched(h, a->n, (const double *const *)Ap, a->lda, P, Bp, a->ldb, I, a->batch));
        return PICK(shoal_sgetri_strided_batched(h, a->n, As, a->lda, a->stride_a, P, a->stride_p, Bs, a->ldb, a->stride_b,
                                                 I, a->batch),
                    shoal_dgetri_strided_batched(h, a->n, A, a->lda, a->stride_a, P, a->stride_p, B, a->ldb, a->stride_b,
                                                 I, a->batch));
    case GETRI_FUSED:
        if (array)
            return PICK(shoal_sgetri_fused_batched(h, a->n, (const float *const *)Asp, a->lda, Bsp, a->ldb, I, a->batch),
                        shoal_dgetri_fused_batched(h, a->n, (const double *const *)Ap, a->lda, Bp, a->ldb, I, a->batch));
        return PICK(shoal_sgetri_fused_strided_batched(h, a->n, As, a->lda, a->stride_a, Bs, a->ldb, a->stride_b, I, a->batch),
                    shoal_dgetri_fused_strided_batched(h, a->n, A, a->lda, a->stride_a, B, a->ldb, a->stride_b, I, a->batch));
    case POTRF:
        if (array) return PICK(shoal_spotrf_batched(h, u, a->n, Asp, a->lda, I, a->batch),
                               shoal_dpotrf_batched(h, u, a->n, Ap, a->lda, I, a->batch));
        return PICK(shoal_spotrf_strided_batched(h, u, a->n, As, a->lda, a->stride_a, I, a->batch),
                    shoal_dpotrf_strided_batched(h, u, a->n, A, a->lda, a->stride_a, I, a->batch));
    case POTRS:
        if (array)
            return PICK(shoal_spotrs_batched(h, u, a->n, a->nrhs, (const float *const *)Asp, a->lda, Bsp, a->ldb, a->batch),
                        shoal_dpotrs_batched(h, u, a->n, a->nrhs, (const double *const *)Ap, a->lda, Bp, a->ldb, a->batch));
        return PICK(shoal_spotrs_strided_batched(h, u, a->n, a->nrhs, As, a->lda, a->stride_a, Bs, a->ldb, a->stride_b,
                                                 a->batch),
                    shoal_dpotrs_strided_batched(h, u, a->n, a->nrhs, A, a->lda, a->stride_a, B, a->ldb, a->stride_b,
                                                 a->batch));
    case POSV:
        if (array) return PICK(shoal_sposv_batched(h, u, a->n, a->nrhs, Asp, a->lda, Bsp, a->ldb, I, a->batch),
                               shoal_dposv_batched(h, u, a->n, a->nrhs, Ap, a->lda, Bp, a->ldb, I, a->batch));
        return PICK(shoal_sposv_strided_batched(h, u, a->n, a->nrhs, As, a->lda, a->stride_a, Bs, a->ldb, a->stride_b, I,
                                                a->batch),
                    shoal_dposv_strided_batched(h, u, a->n, a->nrhs, A, a->lda, a->stride_a, B, a->ldb, a->stride_b, I,
                                                a->batch));
    case GEQRF:
        /* tau rides on the B knobs: B's pointer (array) and stride_p (strided) */
        if (array) return PICK(shoal_sgeqrf_batched(h, a->m, a->n, Asp, a->lda, Bsp, a->batch),
                               shoal_dgeqrf_batched(h, a->m, a->n, Ap, a->lda, Bp, a->batch));
        return PICK(shoal_sgeqrf_strided_batched(h, a->m, a->n, As, a->lda, a->stride_a, Bs, a->stride_p, a->batch),
                    shoal_dgeqrf_strided_batched(h, a->m, a->n, A, a->lda, a->stride_a, B, a->stride_p, a->batch));
    default: return SHOAL_STATUS_SUCCESS;
    }
#undef PICK
}

static int has_m(enum routine r) { return r == GETRF || r == GEQRF; }
static int has_nrhs(enum routine r) { return r == GETRS || r == GESV || r == POTRS || r == POSV; }
static int has_b(enum routine r) { return r != GETRF && r != POTRF; }
static int has_ipiv(enum routine r) { return r == GETRF || r == GETRS || r == GESV || r == GETRI; }
static int has_info(enum routine r) { return r != GETRS && r != POTRS && r != GEQRF; }
static int has_op(enum routine r) { return r == GETRS || r == POTRF || r == POTRS || r == POSV; }
/* A is written (so its stride must keep the matrices apart) */
static int writes_a(enum routine r) { return r == GETRF || r == GESV || r == POTRF || r == POSV || r == GEQRF; }

static args valid(enum routine r)
{
    args a;
    memset(&a, 0, sizeof a);
    a.m = has_m(r) ? 6 : 5;
    a.n = 5;
    a.nrhs = 2;
    a.op = 1;
    a.lda = a.m + 1;
    a.ldb = a.n + 2;
    a.batch = 3;
    a.stride_a = a.lda * a.n;
    a.stride_b = a.ldb * (r == GETRI || r == GETRI_FUSED ? a.n : a.nrhs);
    a.stride_p = 5;
    return a;
}

static int g_fail;
static char g_why[512];

static void expect(enum routine r, char prec, int array, const args *a, shoal_status want, const char *what)
{
    const shoal_status got = call(r, prec, array, a);
    if (got != want && !g_fail) {
        snprintf(g_why, sizeof g_why, "%c%s %s %s: got %d, want %d", prec, routine_names[r],
                 array ? "batched" : "strided", what, (int)got, (int)want);
        g_fail = 1;
    }
}

static void run_routine(enum routine r)
{
    const shoal_status BAD = SHOAL_STATUS_INVALID_VALUE, NOINIT = SHOAL_STATUS_NOT_INITIALIZED;
    for (int pi = 0; pi < 2; ++pi) {
        const char prec = pi ? 'd' : 's';
        for (int array = 0; array < 2; ++array) {
            args a = valid(r);
            expect(r, prec, array, &a, NOINIT, "valid call");
            a.n = 40; /* too large for the kernels, but valid: the handle is checked first */
            a.lda = a.ldb = 41;
            if (has_m(r)) a.m = 40;
            a.stride_a = a.stride_b = 41 * 41 * 3;
            a.stride_p = 40;
            expect(r, prec, array, &a, NOINIT, "n = 40 (valid arguments)");
            a = valid(r), a.n = -1;
            expect(r, prec, array, &a, BAD, "n < 0");
            a = valid(r), a.batch = -1;
            expect(r, prec, array, &a, BAD, "batch < 0");
            a = valid(r), a.lda = (has_m(r) ? a.m : a.n) - 1;
            expect(r, prec, array, &a, BAD, "lda < rows");
            a = valid(r), a.null_a = 1;
            expect(r, prec, array, &a, BAD, "A NULL");
            a = valid(r), a.null_a = 1, a.batch = 0;
            expect(r, prec, array, &a, NOINIT, "A NULL with batch 0");
            if (has_m(r)) {
                a = valid(r), a.m = -2;
                expect(r, prec, array, &a, BAD, "m < 0");
                a = valid(r), a.m = 0, a.null_a = 1, a.null_p = 1, a.null_info = 1, a.null_b = 1;
                expect(r, prec, array, &a, NOINIT, "m = 0 with NULL pointers");
            }
            if (has_nrhs(r)) {
                a = valid(r), a.nrhs = -1;
                expect(r, prec, array, &a, BAD, "nrhs < 0");
                a = valid(r), a.ldb = a.n - 1;
                expect(r, prec, array, &a, BAD, "ldb < n");
            }
            if (has_b(r)) {
                a = valid(r), a.null_b = 1;
                expect(r, prec, array, &a, BAD, "B / C / tau NULL");
            }
            if (has_ipiv(r)) {
                a = valid(r), a.null_p = 1;
                expect(r, prec, array, &a, BAD, "ipiv NULL");
            }
            if (has_info(r)) {
                a = valid(r), a.null_info = 1;
                expect(r, prec, array, &a, BAD, "info NULL");
            }
            if (has_op(r)) {
                a = valid(r), a.op = 7;
                expect(r, prec, array, &a, BAD, "bad trans / uplo");
            }
            if (!array) {
                if (writes_a(r)) {
                    a = valid(r), a.stride_a = a.lda * a.n - 1;
                    expect(r, prec, array, &a, BAD, "overlapping A strides");
                    a.batch = 1;
                    expect(r, prec, array, &a, NOINIT, "small A stride with batch 1");
                }
                if (has_b(r) && r != GEQRF) {
                    a = valid(r), a.stride_b = a.stride_b - 1;
                    expect(r, prec, array, &a, BAD, "overlapping B / C strides");
                }
                if (r == GETRF || r == GESV || r == GEQRF) {
                    a = valid(r), a.stride_p = 4;
                    expect(r, prec, array, &a, BAD, "overlapping pivot / tau strides");
                }
                a = valid(r), a.stride_a = -1;
                expect(r, prec, array, &a, BAD, "negative A stride");
            }
        }
    }
}

static void case_kernel_name(void)
{
    const char *name = NULL;
    if (shoal_lapack_kernel_name(NULL, "getrf", 'd', 0, 'n', 4, 4, 1, &name) != SHOAL_STATUS_NOT_INITIALIZED) {
        snprintf(g_why, sizeof g_why, "valid query with NULL handle must answer NOT_INITIALIZED");
        g_fail = 1;
    }
    /* precisions: none a search space lists (c and z are valid where it lists them; '\0' must not
     * match the end of the routine's precision string) */
    const struct { const char *r; char p, v; } bad[] = {
        {"nosuch", 'd', 'n'}, {NULL, 'd', 'n'}, {"getrf", 'x', 'n'}, {"getrf", 'D', 'n'}, {"getrf", '\0', 'n'},
        {"getrs", 'd', 'x'}, {"potrf", 'd', 'n'}, {"gemv", 'd', 'n'}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0] && !g_fail; ++i)
        if (shoal_lapack_kernel_name(NULL, bad[i].r, bad[i].p, 0, bad[i].v, 4, 4, 1, &name) != SHOAL_STATUS_INVALID_VALUE) {
            snprintf(g_why, sizeof g_why, "bad query %zu must answer INVALID_VALUE", i);
            g_fail = 1;
        }
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (int r = 0; r < N_ROUTINES; ++r) printf("lapack_args_%s\n", routine_names[r]);
        printf("lapack_kernel_name_args\n");
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--case")) only = argv[2];
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--list | --case NAME]\n", argv[0]);
        return 2;
    }
    int failed = 0, ran = 0;
    char name[64];
    for (int r = 0; r <= N_ROUTINES; ++r) {
        if (r < N_ROUTINES) snprintf(name, sizeof name, "lapack_args_%s", routine_names[r]);
        else snprintf(name, sizeof name, "lapack_kernel_name_args");
        if (only && strcmp(only, name)) continue;
        g_fail = 0;
        g_why[0] = '\0';
        if (r < N_ROUTINES) run_routine((enum routine)r);
        else case_kernel_name();
        ++ran;
        if (g_fail) printf("FAILED %s: %s\n", name, g_why), ++failed;
        else printf("ok %s\n", name);
    }
    if (only && !ran) {
        fprintf(stderr, "unknown case '%s'\n", only);
        return 2;
    }
    return failed ? 1 : 0;
}
