/* Argument checks of the level-2 API (gemv, trsv, gemv_vbatched, shoal_imax_device,
 * shoal_blas2_kernel_name), needing no GPU: as in test_lapack_args.c every call uses a NULL
 * handle, so an invalid call must answer INVALID_VALUE and the same call with valid arguments
 * must get as far as the handle check (NOT_INITIALIZED), calls without work (m, n or batch 0,
 * gemv's alpha = 0 and beta = 1) included: argument and handle checks come first. Pointers are
 * host addresses the library must never dereference.
 *
 * Usage: test_blas2_args [--list | --case NAME]; prints "ok NAME" or "FAILED NAME: why". */
#include "shoal.h"

#include <stdio.h>
#include <string.h>

static double fd[8];
static float fs[8];
static int fi[8];
static const double *fdp[2] = {fd, fd};
static const float *fsp[2] = {fs, fs};
static double *fdw[2] = {fd, fd};
static float *fsw[2] = {fs, fs};

static int g_fail;
static char g_why[512];

static void note_failure(const char *what, shoal_status got, shoal_status want)
{
    if (g_fail) return;
    snprintf(g_why, sizeof g_why, "%s: got %d, want %d", what, (int)got, (int)want);
    g_fail = 1;
}

/* ------------------------------------------------------------------------------------------ */
/* gemv */

typedef struct gemv_args {
    int trans, m, n;
    double alpha, beta;
    int64_t lda, incx, incy, batch;
    int64_t stride_a, stride_x, stride_y;
    int null_a, null_x, null_y;
} gemv_args;

static shoal_status call_gemv(char prec, int array, const gemv_args *a)
{
    const shoal_handle h = NULL;
    const shoal_operation t = (shoal_operation)a->trans;
    if (prec == 'd') {
        if (array)
            return shoal_dgemv_batched(h, t, a->m, a->n, a->alpha, a->null_a ? NULL : fdp, a->lda,
                                       a->null_x ? NULL : fdp, a->incx, a->beta, a->null_y ? NULL : fdw, a->incy,
                                       a->batch);
        return shoal_dgemv_strided_batched(h, t, a->m, a->n, a->alpha, a->null_a ? NULL : fd, a->lda, a->stride_a,
                                           a->null_x ? NULL : fd, a->incx, a->stride_x, a->beta,
                                           a->null_y ? NULL : fd, a->incy, a->stride_y, a->batch);
    }
    if (array)
        return shoal_sgemv_batched(h, t, a->m, a->n, (float)a->alpha, a->null_a ? NULL : fsp, a->lda,
                                   a->null_x ? NULL : fsp, a->incx, (float)a->beta, a->null_y ? NULL : fsw, a->incy,
                                   a->batch);
    return shoal_sgemv_strided_batched(h, t, a->m, a->n, (float)a->alpha, a->null_a ? NULL : fs, a->lda, a->stride_a,
                                       a->null_x ? NULL : fs, a->incx, a->stride_x, (float)a->beta,
                                       a->null_y ? NULL : fs, a->incy, a->stride_y, a->batch);
}

/* y's length and the smallest stride that keeps the y vectors apart */
static int gemv_ylen(const gemv_args *a) { return a->trans ? a->n : a->m; }
static int64_t min_stride(int len, int64_t inc) { return 1 + (int64_t)(len - 1) * (inc < 0 ? -inc : inc); }

static gemv_args gemv_valid(int trans)
{
    gemv_args a;
    memset(&a, 0, sizeof a);
    a.trans = trans;
    a.m = 6;
    a.n = 5;
    a.alpha = 1.5;
    a.beta = 0.5;
    a.lda = 7;
    a.incx = 2;
    a.incy = -3;
    a.batch = 3;
    a.stride_a = a.lda * a.n;
    a.stride_x = 1 + 4 * 2 + 3;   /* any nonnegative value: x is only read */
    a.stride_y = min_stride(gemv_ylen(&a), a.incy) + 1;
    return a;
}

static void expect_gemv(char prec, int array, const gemv_args *a, shoal_status want, const char *what)
{
    const shoal_status got = call_gemv(prec, array, a);
    if (got != want) {
        char buf[256];
        snprintf(buf, sizeof buf, "%cgemv%s op %d %s", prec, array ? "_batched" : "_strided_batched", a->trans, what);
        note_failure(buf, got, want);
    }
}

static void case_gemv(void)
{
    const shoal_status BAD = SHOAL_STATUS_INVALID_VALUE, NOINIT = SHOAL_STATUS_NOT_INITIALIZED;
    for (int pi = 0; pi < 2; ++pi) {
        const char prec = pi ? 'd' : 's';
        for (int array = 0; array < 2; ++array)
            for (int trans = 0; trans < 2; ++trans) {
                gemv_args a = gemv_valid(trans);
                expect_gemv(prec, array, &a, NOINIT, "valid call");
                a.m = 600, a.n = 700, a.lda = 600, a.incx = 1, a.incy = 1;
                a.stride_a = 600 * 700, a.stride_y = 700;
                expect_gemv(prec, array, &a, NOINIT, "600 x 700 (valid arguments)");
                a = gemv_valid(trans), a.incx = -1, a.incy = 1, a.stride_y = min_stride(gemv_ylen(&a), 1);
                expect_gemv(prec, array, &a, NOINIT, "negative incx, y stride at its minimum");
                a = gemv_valid(trans), a.alpha = 0, a.beta = 1;
                expect_gemv(prec, array, &a, NOINIT, "alpha 0, beta 1 (quick return after the handle check)");
                a = gemv_valid(trans), a.alpha = 0, a.beta = 0;
                expect_gemv(prec, array, &a, NOINIT, "alpha 0, beta 0");

                a = gemv_valid(trans), a.trans = 7;
                expect_gemv(prec, array, &a, BAD, "bad trans 7");
                a = gemv_valid(trans), a.trans = -1;
                expect_gemv(prec, array, &a, BAD, "bad trans -1");
                a = gemv_valid(trans), a.trans = 3, a.batch = 0;
                expect_gemv(prec, array, &a, BAD, "bad trans with batch 0");
                a = gemv_valid(trans), a.trans = SHOAL_OP_C;
                expect_gemv(prec, array, &a, NOINIT, "trans SHOAL_OP_C (T in s and d)");
                a = gemv_valid(trans), a.m = -1;
                expect_gemv(prec, array, &a, BAD, "m < 0");
                a = gemv_valid(trans), a.n = -1;
                expect_gemv(prec, array, &a, BAD, "n < 0");
                a = gemv_valid(trans), a.batch = -1;
                expect_gemv(prec, array, &a, BAD, "batch < 0");
                a = gemv_valid(trans), a.lda = a.m - 1;
                expect_gemv(prec, array, &a, BAD, "lda < m");
                a = gemv_valid(trans), a.lda = a.m;
                expect_gemv(prec, array, &a, NOINIT, "lda = m");
                a = gemv_valid(trans), a.m = 0, a.lda = 0;
                expect_gemv(prec, array, &a, BAD, "lda 0 < max(1, m) with m 0");
                a = gemv_valid(trans), a.m = 0, a.lda = 1;
                expect_gemv(prec, array, &a, NOINIT, "m 0, lda 1");
                a = gemv_valid(trans), a.lda = -4;
                expect_gemv(prec, array, &a, BAD, "lda < 0");
                a = gemv_valid(trans), a.incx = 0;
                expect_gemv(prec, array, &a, BAD, "incx 0");
                a = gemv_valid(trans), a.incy = 0;
                expect_gemv(prec, array, &a, BAD, "incy 0");
                a = gemv_valid(trans), a.incx = 0, a.batch = 0;
                expect_gemv(prec, array, &a, BAD, "incx 0 with batch 0");
                a = gemv_valid(trans), a.incy = 0, a.m = 0, a.lda = 1;
                expect_gemv(prec, array, &a, BAD, "incy 0 with m 0");

                a = gemv_valid(trans), a.null_a = 1;
                expect_gemv(prec, array, &a, BAD, "A NULL");
                a = gemv_valid(trans), a.null_x = 1;
                expect_gemv(prec, array, &a, BAD, "x NULL");
                a = gemv_valid(trans), a.null_y = 1;
                expect_gemv(prec, array, &a, BAD, "y NULL");
                a = gemv_valid(trans), a.null_a = a.null_x = a.null_y = 1, a.batch = 0;
                expect_gemv(prec, array, &a, NOINIT, "NULL pointers with batch 0");
                a = gemv_valid(trans), a.null_a = a.null_x = a.null_y = 1, a.m = 0, a.lda = 1;
                expect_gemv(prec, array, &a, NOINIT, "NULL pointers with m 0");
                a = gemv_valid(trans), a.null_a = a.null_x = a.null_y = 1, a.n = 0;
                expect_gemv(prec, array, &a, NOINIT, "NULL pointers with n 0");
                a = gemv_valid(trans), a.m = 0, a.n = 0, a.lda = 1, a.batch = 0;
                expect_gemv(prec, array, &a, NOINIT, "m = n = batch = 0");

                if (!array) {
                    a = gemv_valid(trans), a.stride_a = -1;
                    expect_gemv(prec, array, &a, BAD, "strideA < 0");
                    a = gemv_valid(trans), a.stride_x = -1;
                    expect_gemv(prec, array, &a, BAD, "stridex < 0");
                    a = gemv_valid(trans), a.stride_y = -1;
                    expect_gemv(prec, array, &a, BAD, "stridey < 0");
                    a = gemv_valid(trans), a.stride_y = -1, a.batch = 1;
                    expect_gemv(prec, array, &a, BAD, "stridey < 0 with batch 1");
                    a = gemv_valid(trans), a.stride_a = 0, a.stride_x = 0;
                    expect_gemv(prec, array, &a, NOINIT, "strideA = stridex = 0 (shared inputs)");
                    a = gemv_valid(trans), a.stride_a = 1, a.stride_x = 1;
                    expect_gemv(prec, array, &a, NOINIT, "overlapping input strides (only read)");
                    a = gemv_valid(trans), a.stride_y = min_stride(gemv_ylen(&a), a.incy);
                    expect_gemv(prec, array, &a, NOINIT, "stridey = 1 + (len - 1) |incy|");
                    a.stride_y -= 1;
                    expect_gemv(prec, array, &a, BAD, "stridey = (len - 1) |incy| (overlapping y)");
                    a.batch = 2;
                    expect_gemv(prec, array, &a, BAD, "overlapping y with batch 2");
                    a = gemv_valid(trans), a.stride_y = 1, a.incy = -a.batch;
                    expect_gemv(prec, array, &a, NOINIT, "interleaved y (stride 1, |incy| = batch)");
                    a.incy = a.batch - 1;
                    expect_gemv(prec, array, &a, BAD, "interleaved y sharing elements (|incy| < batch)");
                    a = gemv_valid(trans), a.stride_y = min_stride(gemv_ylen(&a), a.incy) - 1;
                    a.batch = 1;
                    expect_gemv(prec, array, &a, NOINIT, "small stridey with batch 1");
                    a.stride_y = 0;
                    expect_gemv(prec, array, &a, NOINIT, "stridey 0 with batch 1");
                    a = gemv_valid(trans), a.incy = 1, a.stride_y = gemv_ylen(&a) - 1;
                    expect_gemv(prec, array, &a, BAD, "stridey < len with incy 1");
                    a.stride_y += 1;
                    expect_gemv(prec, array, &a, NOINIT, "stridey = len with incy 1");
                    /* the other dimension must not be what counts: y has m (N) or n (T) elements */
                    a = gemv_valid(trans), a.incy = 1, a.m = trans ? 9 : 4, a.n = trans ? 4 : 9, a.lda = 9,
                    a.stride_a = 81, a.stride_y = 4;
                    expect_gemv(prec, array, &a, NOINIT, "stridey = y length (the smaller dimension)");
                    a.stride_y = 3;
                    expect_gemv(prec, array, &a, BAD, "stridey = y length - 1");
                }
            }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* trsv */

typedef struct trsv_args {
    int uplo, trans, diag, n;
    int64_t lda, incx, batch, stride_a, stride_x;
    int null_a, null_x;
} trsv_args;

static shoal_status call_trsv(char prec, int array, const trsv_args *a)
{
    const shoal_handle h = NULL;
    const shoal_fill_mode u = (shoal_fill_mode)a->uplo;
    const shoal_operation t = (shoal_operation)a->trans;
    const shoal_diag g = (shoal_diag)a->diag;
    if (prec == 'd') {
        if (array)
            return shoal_dtrsv_batched(h, u, t, g, a->n, a->null_a ? NULL : fdp, a->lda, a->null_x ? NULL : fdw,
                                       a->incx, a->batch);
        return shoal_dtrsv_strided_batched(h, u, t, g, a->n, a->null_a ? NULL : fd, a->lda, a->stride_a,
                                           a->null_x ? NULL : fd, a->incx, a->stride_x, a->batch);
    }
    if (array)
        return shoal_strsv_batched(h, u, t, g, a->n, a->null_a ? NULL : fsp, a->lda, a->null_x ? NULL : fsw, a->incx,
                                   a->batch);
    return shoal_strsv_strided_batched(h, u, t, g, a->n, a->null_a ? NULL : fs, a->lda, a->stride_a,
                                       a->null_x ? NULL : fs, a->incx, a->stride_x, a->batch);
}

static trsv_args trsv_valid(int variant)
{
    trsv_args a;
    memset(&a, 0, sizeof a);
    a.uplo = variant >> 1;
    a.trans = variant & 1;
    a.diag = variant == 1 || variant == 2;
    a.n = 5;
    a.lda = 6;
    a.incx = -2;
    a.batch = 3;
    a.stride_a = a.lda * a.n;
    a.stride_x = min_stride(a.n, a.incx);
    return a;
}

static void expect_trsv(char prec, int array, const trsv_args *a, shoal_status want, const char *what)
{
    const shoal_status got = call_trsv(prec, array, a);
    if (got != want) {
        char buf[256];
        snprintf(buf, sizeof buf, "%ctrsv%s uplo %d trans %d diag %d %s", prec, array ? "_batched" : "_strided_batched",
                 a->uplo, a->trans, a->diag, what);
        note_failure(buf, got, want);
    }
}

static void case_trsv(void)
{
    const shoal_status BAD = SHOAL_STATUS_INVALID_VALUE, NOINIT = SHOAL_STATUS_NOT_INITIALIZED;
    for (int pi = 0; pi < 2; ++pi) {
        const char prec = pi ? 'd' : 's';
        for (int array = 0; array < 2; ++array)
            for (int v = 0; v < 4; ++v) {
                trsv_args a = trsv_valid(v);
                expect_trsv(prec, array, &a, NOINIT, "valid call");
                a.n = 1024, a.lda = 1030, a.incx = 1, a.stride_a = 1030 * 1024, a.stride_x = 1024;
                expect_trsv(prec, array, &a, NOINIT, "n 1024 (valid arguments)");
                a = trsv_valid(v), a.diag = !a.diag;
                expect_trsv(prec, array, &a, NOINIT, "the other diag");

                a = trsv_valid(v), a.uplo = 5;
                expect_trsv(prec, array, &a, BAD, "bad uplo 5");
                a = trsv_valid(v), a.uplo = -1;
                expect_trsv(prec, array, &a, BAD, "bad uplo -1");
                a = trsv_valid(v), a.trans = 3;
                expect_trsv(prec, array, &a, BAD, "bad trans 3");
                a = trsv_valid(v), a.trans = SHOAL_OP_C;
                expect_trsv(prec, array, &a, NOINIT, "trans SHOAL_OP_C (T in s and d)");
                a = trsv_valid(v), a.diag = 3;
                expect_trsv(prec, array, &a, BAD, "bad diag 3");
                a = trsv_valid(v), a.diag = -1;
                expect_trsv(prec, array, &a, BAD, "bad diag -1");
                a = trsv_valid(v), a.diag = 2, a.batch = 0;
                expect_trsv(prec, array, &a, BAD, "bad diag with batch 0");
                a = trsv_valid(v), a.n = -1;
                expect_trsv(prec, array, &a, BAD, "n < 0");
                a = trsv_valid(v), a.batch = -1;
                expect_trsv(prec, array, &a, BAD, "batch < 0");
                a = trsv_valid(v), a.lda = a.n - 1;
                expect_trsv(prec, array, &a, BAD, "lda < n");
                a = trsv_valid(v), a.lda = a.n;
                expect_trsv(prec, array, &a, NOINIT, "lda = n");
                a = trsv_valid(v), a.n = 0, a.lda = 0;
                expect_trsv(prec, array, &a, BAD, "lda 0 < max(1, n) with n 0");
                a = trsv_valid(v), a.incx = 0;
                expect_trsv(prec, array, &a, BAD, "incx 0");
                a = trsv_valid(v), a.incx = 0, a.batch = 0;
                expect_trsv(prec, array, &a, BAD, "incx 0 with batch 0");
                a = trsv_valid(v), a.null_a = 1;
                expect_trsv(prec, array, &a, BAD, "A NULL");
                a = trsv_valid(v), a.null_x = 1;
                expect_trsv(prec, array, &a, BAD, "x NULL");
                a = trsv_valid(v), a.null_a = a.null_x = 1, a.batch = 0;
                expect_trsv(prec, array, &a, NOINIT, "NULL pointers with batch 0");
                a = trsv_valid(v), a.null_a = a.null_x = 1, a.n = 0, a.lda = 1;
                expect_trsv(prec, array, &a, NOINIT, "NULL pointers with n 0");

                if (!array) {
                    a = trsv_valid(v), a.stride_a = -1;
                    expect_trsv(prec, array, &a, BAD, "strideA < 0");
                    a = trsv_valid(v), a.stride_a = 0;
                    expect_trsv(prec, array, &a, NOINIT, "strideA 0 (a shared matrix: only read)");
                    a = trsv_valid(v), a.stride_x = -1;
                    expect_trsv(prec, array, &a, BAD, "stridex < 0");
                    a = trsv_valid(v), a.stride_x = -1, a.batch = 1;
                    expect_trsv(prec, array, &a, BAD, "stridex < 0 with batch 1");
                    a = trsv_valid(v), a.stride_x = min_stride(a.n, a.incx) - 1;
                    expect_trsv(prec, array, &a, BAD, "stridex too small (overlapping x)");
                    a.batch = 2;
                    expect_trsv(prec, array, &a, BAD, "overlapping x with batch 2");
                    a = trsv_valid(v), a.stride_x = 1, a.incx = a.batch;
                    expect_trsv(prec, array, &a, NOINIT, "interleaved x (stride 1, incx = batch)");
                    a.incx = -(a.batch - 1);
                    expect_trsv(prec, array, &a, BAD, "interleaved x sharing elements (|incx| < batch)");
                    a = trsv_valid(v), a.stride_x = min_stride(a.n, a.incx) - 1;
                    a.batch = 1;
                    expect_trsv(prec, array, &a, NOINIT, "small stridex with batch 1");
                    a.stride_x = 0;
                    expect_trsv(prec, array, &a, NOINIT, "stridex 0 with batch 1");
                    a = trsv_valid(v), a.incx = 1, a.stride_x = a.n - 1;
                    expect_trsv(prec, array, &a, BAD, "stridex < n with incx 1");
                    a.stride_x = a.n;
                    expect_trsv(prec, array, &a, NOINIT, "stridex = n with incx 1");
                }
            }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* gemv_vbatched */

typedef struct vgemv_args {
    int trans, max_m, max_n;
    double alpha, beta;
    int64_t batch;
    int null_m, null_n, null_a, null_lda, null_x, null_incx, null_y, null_incy;
} vgemv_args;

static shoal_status call_vgemv(char prec, const vgemv_args *a)
{
    const shoal_handle h = NULL;
    const shoal_operation t = (shoal_operation)a->trans;
    const int *m = a->null_m ? NULL : fi, *n = a->null_n ? NULL : fi, *lda = a->null_lda ? NULL : fi;
    const int *incx = a->null_incx ? NULL : fi, *incy = a->null_incy ? NULL : fi;
    if (prec == 'd')
        return shoal_dgemv_vbatched(h, t, m, n, a->max_m, a->max_n, a->alpha, a->null_a ? NULL : fdp, lda,
                                    a->null_x ? NULL : fdp, incx, a->beta, a->null_y ? NULL : fdw, incy, a->batch);
    return shoal_sgemv_vbatched(h, t, m, n, a->max_m, a->max_n, (float)a->alpha, a->null_a ? NULL : fsp, lda,
                                a->null_x ? NULL : fsp, incx, (float)a->beta, a->null_y ? NULL : fsw, incy, a->batch);
}

static vgemv_args vgemv_valid(int trans)
{
    vgemv_args a;
    memset(&a, 0, sizeof a);
    a.trans = trans;
    a.max_m = 40;
    a.max_n = 7;
    a.alpha = 2.0;
    a.beta = -1.0;
    a.batch = 5;
    return a;
}

static void expect_vgemv(char prec, const vgemv_args *a, shoal_status want, const char *what)
{
    const shoal_status got = call_vgemv(prec, a);
    if (got != want) {
        char buf[256];
        snprintf(buf, sizeof buf, "%cgemv_vbatched op %d %s", prec, a->trans, what);
        note_failure(buf, got, want);
    }
}

static void case_vgemv(void)
{
    const shoal_status BAD = SHOAL_STATUS_INVALID_VALUE, NOINIT = SHOAL_STATUS_NOT_INITIALIZED;
    static const char *const array_names[8] = {"m", "n", "A", "lda", "x", "incx", "y", "incy"};
    for (int pi = 0; pi < 2; ++pi) {
        const char prec = pi ? 'd' : 's';
        for (int trans = 0; trans < 2; ++trans) {
            vgemv_args a = vgemv_valid(trans);
            expect_vgemv(prec, &a, NOINIT, "valid call");
            a.max_m = 5000, a.max_n = 3000;
            expect_vgemv(prec, &a, NOINIT, "large maxima (valid arguments)");
            a = vgemv_valid(trans), a.alpha = 0, a.beta = 1;
            expect_vgemv(prec, &a, NOINIT, "alpha 0, beta 1");
            a = vgemv_valid(trans), a.trans = 3;
            expect_vgemv(prec, &a, BAD, "bad trans 3");
            a = vgemv_valid(trans), a.trans = -1;
            expect_vgemv(prec, &a, BAD, "bad trans -1");
            a = vgemv_valid(trans), a.trans = 3, a.batch = 0;
            expect_vgemv(prec, &a, BAD, "bad trans with batch 0");
            a = vgemv_valid(trans), a.trans = SHOAL_OP_C;
            expect_vgemv(prec, &a, NOINIT, "trans SHOAL_OP_C (T in s and d)");
            a = vgemv_valid(trans), a.max_m = -1;
            expect_vgemv(prec, &a, BAD, "max_m < 0");
            a = vgemv_valid(trans), a.max_n = -1;
            expect_vgemv(prec, &a, BAD, "max_n < 0");
            a = vgemv_valid(trans), a.batch = -1;
            expect_vgemv(prec, &a, BAD, "batch < 0");
            for (int k = 0; k < 8; ++k) {
                char what[64];
                a = vgemv_valid(trans);
                int *flags[8] = {&a.null_m, &a.null_n, &a.null_a, &a.null_lda,
                                 &a.null_x, &a.null_incx, &a.null_y, &a.null_incy};
                *flags[k] = 1;
                snprintf(what, sizeof what, "%s NULL", array_names[k]);
                expect_vgemv(prec, &a, BAD, what);
            }
            a = vgemv_valid(trans);
            a.null_m = a.null_n = a.null_a = a.null_lda = a.null_x = a.null_incx = a.null_y = a.null_incy = 1;
            a.batch = 0;
            expect_vgemv(prec, &a, NOINIT, "NULL arrays with batch 0");
            a.batch = 5, a.max_m = 0;
            expect_vgemv(prec, &a, NOINIT, "NULL arrays with max_m 0");
            a.max_m = 40, a.max_n = 0;
            expect_vgemv(prec, &a, NOINIT, "NULL arrays with max_n 0");
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* shoal_imax_device */

static void case_imax(void)
{
    const shoal_status BAD = SHOAL_STATUS_INVALID_VALUE, NOINIT = SHOAL_STATUS_NOT_INITIALIZED;
    int result = -77;
    shoal_status st;
    if ((st = shoal_imax_device(NULL, fi, 8, &result)) != NOINIT) note_failure("imax valid call", st, NOINIT);
    if ((st = shoal_imax_device(NULL, fi, 0, &result)) != NOINIT) note_failure("imax count 0", st, NOINIT);
    if ((st = shoal_imax_device(NULL, NULL, 0, &result)) != NOINIT)
        note_failure("imax count 0, values NULL", st, NOINIT);
    if ((st = shoal_imax_device(NULL, fi, 8, NULL)) != BAD) note_failure("imax result NULL", st, BAD);
    if ((st = shoal_imax_device(NULL, fi, 0, NULL)) != BAD) note_failure("imax result NULL, count 0", st, BAD);
    if ((st = shoal_imax_device(NULL, fi, -1, &result)) != BAD) note_failure("imax count < 0", st, BAD);
    if ((st = shoal_imax_device(NULL, NULL, 8, &result)) != BAD) note_failure("imax values NULL, count 8", st, BAD);
    if (result != -77 && !g_fail) {
        snprintf(g_why, sizeof g_why, "imax wrote *result (%d) on a failed call", result);
        g_fail = 1;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* shoal_blas2_kernel_name */

static void case_kernel_name(void)
{
    const shoal_status BAD = SHOAL_STATUS_INVALID_VALUE, NOINIT = SHOAL_STATUS_NOT_INITIALIZED;
    const char *name = NULL;
    static const struct { const char *r, *v; int m, n; } good[] = {
        {"gemv", "n", 4, 4},       {"gemv", "t", 100, 3},     {"trsv", "ln", 8, 8},         {"trsv", "lt", 8, 8},
        {"trsv", "un", 1024, 1024}, {"trsv", "ut", 1, 1},      {"gemv_vbatched", "n", 512, 7}, {"gemv_vbatched", "t", 1, 1}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i)
        for (int pi = 0; pi < 2; ++pi)
            for (int pa = 0; pa < 2; ++pa) {
                const shoal_status st =
                    shoal_blas2_kernel_name(NULL, good[i].r, pi ? 'd' : 's', pa, good[i].v, good[i].m, good[i].n, &name);
                if (st != NOINIT) {
                    char buf[128];
                    snprintf(buf, sizeof buf, "valid query %s/%s with NULL handle", good[i].r, good[i].v);
                    note_failure(buf, st, NOINIT);
                }
            }
    /* gemv, trsv and gemv_vbatched serve c and z too (their variants as in s and d; op C is the t
     * variant) */
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i)
        for (int pi = 0; pi < 2; ++pi) {
            const shoal_status st =
                shoal_blas2_kernel_name(NULL, good[i].r, pi ? 'z' : 'c', 0, good[i].v, good[i].m, good[i].n, &name);
            if (st != NOINIT) {
                char buf[128];
                snprintf(buf, sizeof buf, "valid complex query %s/%s with NULL handle", good[i].r, good[i].v);
                note_failure(buf, st, NOINIT);
            }
        }
    /* precisions no search space lists, upper case included */
    static const struct { const char *r; char p; const char *v; } bad[] = {
        {"nosuch", 'd', "n"}, {NULL, 'd', "n"},     {"getrf", 'd', "n"},  {"gemm", 's', "n"},
        {"gemv_vbatched", 'h', "n"}, {"gemv", 'S', "n"}, {"gemv_vbatched", 'C', "t"}, {"gemv", 'd', "x"},
        {"gemv", 'd', "ln"},  {"gemv", 'd', ""},    {"gemv", 'd', NULL},  {"gemv", 'd', "nt"},
        {"trsv", 's', "n"},   {"trsv", 's', "lx"},  {"trsv", 's', "ln "}, {"trsv", 'd', NULL},
        {"gemv_vbatched", 'd', "ln"}, {"gemv_vbatched", 's', ""}, {"GEMV", 'd', "n"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const shoal_status st = shoal_blas2_kernel_name(NULL, bad[i].r, bad[i].p, 0, bad[i].v, 4, 4, &name);
        if (st != BAD) {
            char buf[128];
            snprintf(buf, sizeof buf, "bad query %zu (%s, '%c', %s)", i, bad[i].r ? bad[i].r : "NULL", bad[i].p,
                     bad[i].v ? bad[i].v : "NULL");
            note_failure(buf, st, BAD);
        }
    }
    const shoal_status st = shoal_blas2_kernel_name(NULL, "gemv", 'd', 0, "n", 4, 4, NULL);
    if (st != BAD) note_failure("NULL name pointer", st, BAD);
}

/* ------------------------------------------------------------------------------------------ */

static const struct {
    const char *name;
    void (*fn)(void);
} g_cases[] = {
    {"blas2_args_gemv", case_gemv},
    {"blas2_args_trsv", case_trsv},
    {"blas2_args_gemv_vbatched", case_vgemv},
    {"blas2_args_imax_device", case_imax},
    {"blas2_kernel_name_args", case_kernel_name},
};
#define N_CASES ((int)(sizeof g_cases / sizeof g_cases[0]))

int main(int argc, char **argv)
{
    const char *only = NULL;
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (int i = 0; i < N_CASES; ++i) printf("%s\n", g_cases[i].name);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--case")) only = argv[2];
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--list | --case NAME]\n", argv[0]);
        return 2;
    }
    int failed = 0, ran = 0;
    for (int i = 0; i < N_CASES; ++i) {
        if (only && strcmp(only, g_cases[i].name)) continue;
        g_fail = 0;
        g_why[0] = '\0';
        g_cases[i].fn();
        ++ran;
        if (g_fail) printf("FAILED %s: %s\n", g_cases[i].name, g_why), ++failed;
        else printf("ok %s\n", g_cases[i].name);
    }
    if (only && !ran) {
        fprintf(stderr, "unknown case '%s'\n", only);
        return 2;
    }
    return failed ? 1 : 0;
}
