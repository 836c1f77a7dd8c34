/* C API tests that need no GPU: status strings and argument checking.
 *
 * shoal.h promises that invalid arguments are reported (SHOAL_STATUS_INVALID_VALUE) before the
 * handle is looked at, so every check here runs with a NULL handle: an invalid call must answer
 * INVALID_VALUE, and the same call with valid arguments must get as far as the handle check and
 * answer NOT_INITIALIZED. Pointers passed here are host addresses that the library must never
 * dereference (it returns before touching anything).
 *
 * Usage: test_api_args            run every case
 *        test_api_args --list     print the case names, one a line
 *        test_api_args --case N   run case N only
 * Output: "ok NAME" or "FAILED NAME: why" per case; exit status 1 if any case failed.
 */
#include "shoal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Failure bookkeeping: a case keeps running after a failed check and reports the first few. */

static int g_failures;
static char g_msg[2048];

static void fail(const char *fmt, ...)
{
    size_t used = strlen(g_msg);
    if (g_failures < 6 && used + 4 < sizeof g_msg) {
        va_list ap;
        va_start(ap, fmt);
        if (used)
            used += (size_t)snprintf(g_msg + used, sizeof g_msg - used, "; ");
        vsnprintf(g_msg + used, sizeof g_msg - used, fmt, ap);
        va_end(ap);
    }
    ++g_failures;
}

static const char *status_name(shoal_status s)
{
    switch (s) {
    case SHOAL_STATUS_SUCCESS: return "SUCCESS";
    case SHOAL_STATUS_NOT_INITIALIZED: return "NOT_INITIALIZED";
    case SHOAL_STATUS_INVALID_VALUE: return "INVALID_VALUE";
    case SHOAL_STATUS_NOT_SUPPORTED: return "NOT_SUPPORTED";
    case SHOAL_STATUS_ALLOC_FAILED: return "ALLOC_FAILED";
    case SHOAL_STATUS_NO_DEVICE: return "NO_DEVICE";
    case SHOAL_STATUS_CUDA_ERROR: return "CUDA_ERROR";
    case SHOAL_STATUS_VENDOR_ERROR: return "VENDOR_ERROR";
    }
    return "(unknown status)";
}

#define EXPECT_STATUS(expr, want, ...)                                                        \
    do {                                                                                      \
        shoal_status got_ = (expr);                                                           \
        if (got_ != (want)) {                                                                 \
            char what_[512];                                                                  \
            snprintf(what_, sizeof what_, __VA_ARGS__);                                       \
            fail("%s: got %s, want %s", what_, status_name(got_), status_name(want));         \
        }                                                                                     \
    } while (0)

/* ------------------------------------------------------------------------------------------ */
/* A generic GEMM call, so that every check runs on all four entry points. */

enum entry { S_BATCHED, D_BATCHED, S_STRIDED, D_STRIDED, N_ENTRIES };
static const char *const entry_names[N_ENTRIES] = {"sgemm_batched", "dgemm_batched",
                                                   "sgemm_strided", "dgemm_strided"};

typedef struct call {
    enum entry entry;
    int ta, tb; /* raw ints so that invalid values can be passed */
    int m, n, k;
    int64_t lda, ldb, ldc;
    int64_t sa, sb, sc;
    int64_t batch;
    int null_a, null_b, null_c;
} call;

/* Never dereferenced by a conforming library (it returns before touching memory). */
static float fake_s[4];
static double fake_d[4];
static const float *fake_sp[4];
static const double *fake_dp[4];
static float *fake_spw[4];
static double *fake_dpw[4];

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int64_t req_lda(int ta, int m, int k) { return max64(1, ta == SHOAL_OP_N ? m : k); }
static int64_t req_ldb(int tb, int k, int n) { return max64(1, tb == SHOAL_OP_N ? k : n); }
static int64_t req_ldc(int m) { return max64(1, m); }
static int64_t cols_a(int ta, int m, int k) { return ta == SHOAL_OP_N ? k : m; }
static int64_t cols_b(int tb, int k, int n) { return tb == SHOAL_OP_N ? n : k; }

/* A valid call: minimal leading dimensions, strides that keep the matrices apart. */
static call valid_call(enum entry e, int ta, int tb, int m, int n, int k, int64_t batch)
{
    call c;
    memset(&c, 0, sizeof c);
    c.entry = e;
    c.ta = ta;
    c.tb = tb;
    c.m = m;
    c.n = n;
    c.k = k;
    c.lda = req_lda(ta, m, k);
    c.ldb = req_ldb(tb, k, n);
    c.ldc = req_ldc(m);
    c.sa = c.lda * cols_a(ta, m, k);
    c.sb = c.ldb * cols_b(tb, k, n);
    c.sc = c.ldc * n;
    c.batch = batch;
    return c;
}

static void describe(const call *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "%s(ta=%d tb=%d m=%d n=%d k=%d lda=%lld ldb=%lld ldc=%lld sa=%lld sb=%lld sc=%lld "
             "batch=%lld A=%s B=%s C=%s)",
             entry_names[c->entry], c->ta, c->tb, c->m, c->n, c->k, (long long)c->lda,
             (long long)c->ldb, (long long)c->ldc, (long long)c->sa, (long long)c->sb,
             (long long)c->sc, (long long)c->batch, c->null_a ? "NULL" : "p",
             c->null_b ? "NULL" : "p", c->null_c ? "NULL" : "p");
}

static shoal_status do_call(const call *c)
{
    shoal_handle h = NULL;
    shoal_operation ta = (shoal_operation)c->ta, tb = (shoal_operation)c->tb;
    switch (c->entry) {
    case S_BATCHED:
        return shoal_sgemm_batched(h, ta, tb, c->m, c->n, c->k, 1.0f,
                                   c->null_a ? NULL : (const float *const *)fake_sp, c->lda,
                                   c->null_b ? NULL : (const float *const *)fake_sp, c->ldb, 0.5f,
                                   c->null_c ? NULL : (float *const *)fake_spw, c->ldc, c->batch);
    case D_BATCHED:
        return shoal_dgemm_batched(h, ta, tb, c->m, c->n, c->k, 1.0,
                                   c->null_a ? NULL : (const double *const *)fake_dp, c->lda,
                                   c->null_b ? NULL : (const double *const *)fake_dp, c->ldb, 0.5,
                                   c->null_c ? NULL : (double *const *)fake_dpw, c->ldc, c->batch);
    case S_STRIDED:
        return shoal_sgemm_strided_batched(h, ta, tb, c->m, c->n, c->k, 1.0f,
                                           c->null_a ? NULL : fake_s, c->lda, c->sa,
                                           c->null_b ? NULL : fake_s, c->ldb, c->sb, 0.5f,
                                           c->null_c ? NULL : fake_s, c->ldc, c->sc, c->batch);
    case D_STRIDED:
    default:
        return shoal_dgemm_strided_batched(h, ta, tb, c->m, c->n, c->k, 1.0,
                                           c->null_a ? NULL : fake_d, c->lda, c->sa,
                                           c->null_b ? NULL : fake_d, c->ldb, c->sb, 0.5,
                                           c->null_c ? NULL : fake_d, c->ldc, c->sc, c->batch);
    }
}

static void expect(const call *c, shoal_status want)
{
    char buf[400];
    describe(c, buf, sizeof buf);
    EXPECT_STATUS(do_call(c), want, "%s", buf);
}

static const int trans_pairs[4][2] = {{SHOAL_OP_N, SHOAL_OP_N}, {SHOAL_OP_N, SHOAL_OP_T},
                                      {SHOAL_OP_T, SHOAL_OP_N}, {SHOAL_OP_T, SHOAL_OP_T}};

/* Shapes where m, n and k differ, so that a check of the wrong dimension is caught. */
static const int shapes[][3] = {{5, 4, 3}, {3, 5, 7}, {7, 3, 5}, {1, 1, 1}, {16, 2, 9}};
#define N_SHAPES ((int)(sizeof shapes / sizeof shapes[0]))

/* ------------------------------------------------------------------------------------------ */
/* Per-entry-point checks. */

static void check_negative_dims(enum entry e)
{
    for (int t = 0; t < 4; ++t) {
        int ta = trans_pairs[t][0], tb = trans_pairs[t][1];
        call c = valid_call(e, ta, tb, 5, 4, 3, 2);
        c.m = -1;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, ta, tb, 5, 4, 3, 2);
        c.n = -1;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, ta, tb, 5, 4, 3, 2);
        c.k = -1;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, ta, tb, 5, 4, 3, 2);
        c.batch = -1;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, ta, tb, 5, 4, 3, 2);
        c.m = INT_MIN;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, ta, tb, 5, 4, 3, 2);
        c.batch = INT64_MIN;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        /* A negative size is invalid even where another size makes the call empty. */
        c = valid_call(e, ta, tb, 0, 4, 3, 2);
        c.k = -2;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, ta, tb, 5, 4, 3, 0);
        c.n = -3;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
    }
}

static void check_bad_trans(enum entry e)
{
    static const int bad[] = {7, -1, 3, 'N', 'T', 'C'}; /* 2 is SHOAL_OP_C */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        call c = valid_call(e, SHOAL_OP_N, SHOAL_OP_N, 5, 4, 3, 2);
        c.ta = bad[i];
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, SHOAL_OP_N, SHOAL_OP_N, 5, 4, 3, 2);
        c.tb = bad[i];
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
        c = valid_call(e, SHOAL_OP_T, SHOAL_OP_T, 5, 4, 3, 2);
        c.ta = bad[i];
        c.tb = bad[i];
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
    }
    /* SHOAL_OP_C is T in s and d: valid with T's leading dimensions (3, where N would need 5),
     * rejected one short of them */
    call c = valid_call(e, SHOAL_OP_T, SHOAL_OP_T, 5, 4, 3, 2);
    c.ta = SHOAL_OP_C;
    c.tb = SHOAL_OP_C;
    expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
    c.lda -= 1;
    expect(&c, SHOAL_STATUS_INVALID_VALUE);
}

/* which: 0 lda, 1 ldb, 2 ldc. For every transpose pair and shape: required - 1 is rejected,
 * required and required + 1 are accepted. Strides follow the leading dimension so that only the
 * leading dimension can be wrong. */
static void check_ld(enum entry e, int which)
{
    for (int t = 0; t < 4; ++t) {
        int ta = trans_pairs[t][0], tb = trans_pairs[t][1];
        for (int s = 0; s < N_SHAPES; ++s) {
            int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            for (int delta = -1; delta <= 1; ++delta) {
                call c = valid_call(e, ta, tb, m, n, k, 3);
                if (which == 0) {
                    c.lda += delta;
                    c.sa = c.lda * cols_a(ta, m, k);
                } else if (which == 1) {
                    c.ldb += delta;
                    c.sb = c.ldb * cols_b(tb, k, n);
                } else {
                    c.ldc += delta;
                    c.sc = (c.ldc > 0 ? c.ldc : 1) * n;
                }
                expect(&c, delta < 0 ? SHOAL_STATUS_INVALID_VALUE : SHOAL_STATUS_NOT_INITIALIZED);
            }
        }
        /* max(1, ...): a leading dimension of 0 is invalid even for an empty dimension. */
        {
            call c = valid_call(e, ta, tb, 0, 0, 0, 3); /* every required ld is max(1, 0) */
            if (which == 0)
                c.lda = 0;
            else if (which == 1)
                c.ldb = 0;
            else
                c.ldc = 0;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
        }
        /* Negative leading dimensions. */
        {
            call c = valid_call(e, ta, tb, 5, 4, 3, 2);
            if (which == 0)
                c.lda = -5;
            else if (which == 1)
                c.ldb = -5;
            else
                c.ldc = -5;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
        }
    }
}

static void check_null_pointers(enum entry e)
{
    for (int t = 0; t < 4; ++t) {
        int ta = trans_pairs[t][0], tb = trans_pairs[t][1];
        for (int which = 0; which < 3; ++which) {
            call c = valid_call(e, ta, tb, 5, 4, 3, 2);
            c.null_a = which == 0;
            c.null_b = which == 1;
            c.null_c = which == 2;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            c.batch = 1;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
        }
        call c = valid_call(e, ta, tb, 5, 4, 3, 7);
        c.null_a = c.null_b = c.null_c = 1;
        expect(&c, SHOAL_STATUS_INVALID_VALUE);
    }
}

/* Valid calls, including edge values, must pass the argument checks. */
static void check_valid_null_handle(enum entry e)
{
    for (int t = 0; t < 4; ++t) {
        int ta = trans_pairs[t][0], tb = trans_pairs[t][1];
        for (int s = 0; s < N_SHAPES; ++s) {
            call c = valid_call(e, ta, tb, shapes[s][0], shapes[s][1], shapes[s][2], 5);
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            c.batch = 1;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
        }
        /* k == 0: C = beta C; the A and B leading dimensions still follow max(1, ...). */
        call c = valid_call(e, ta, tb, 6, 5, 0, 4);
        expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
        /* Leading dimensions much larger than needed. */
        c = valid_call(e, ta, tb, 4, 3, 2, 4);
        c.lda = 1000;
        c.ldb = 1001;
        c.ldc = 1002;
        c.sa = 1000 * 8;
        c.sb = 1001 * 8;
        c.sc = 1002 * 3;
        expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
        /* 64-bit batch counts are accepted. */
        c = valid_call(e, ta, tb, 2, 2, 2, (int64_t)1 << 40);
        expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
        c = valid_call(e, ta, tb, 2, 2, 2, (int64_t)INT32_MAX + 1);
        expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
    }
}

/* No work (m, n or batch == 0): valid arguments even with NULL pointers (NULL is only invalid
 * "with nonzero work"), so the handle check, which precedes the no-work return, answers. */
static void check_zero_work_null(enum entry e)
{
    for (int t = 0; t < 4; ++t) {
        int ta = trans_pairs[t][0], tb = trans_pairs[t][1];
        for (int z = 0; z < 4; ++z) {
            call c = valid_call(e, ta, tb, z == 0 || z == 3 ? 0 : 4, z == 1 || z == 3 ? 0 : 4,
                                z == 3 ? 0 : 3, z == 2 || z == 3 ? 0 : 4);
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            c.null_a = c.null_b = c.null_c = 1;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
        }
    }
}

static void check_strides(enum entry e)
{
    for (int t = 0; t < 4; ++t) {
        int ta = trans_pairs[t][0], tb = trans_pairs[t][1];
        for (int s = 0; s < N_SHAPES; ++s) {
            int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            call c = valid_call(e, ta, tb, m, n, k, 3);
            c.sa = -1;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            c = valid_call(e, ta, tb, m, n, k, 3);
            c.sb = -1;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            c = valid_call(e, ta, tb, m, n, k, 3);
            c.sc = -1;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            c = valid_call(e, ta, tb, m, n, k, 1);
            c.sc = INT64_MIN;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            /* C_i must not overlap when batch > 1 ... */
            c = valid_call(e, ta, tb, m, n, k, 2);
            c.sc = c.ldc * n - 1;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            c.sc = 0;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            c.sc = c.ldc * n;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            /* ... which is judged with ldc, not m. */
            c = valid_call(e, ta, tb, m, n, k, 2);
            c.ldc = m + 4;
            c.sc = (int64_t)m * n;
            expect(&c, SHOAL_STATUS_INVALID_VALUE);
            c.sc = c.ldc * n;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            /* ... but any stride is fine for one matrix. */
            c = valid_call(e, ta, tb, m, n, k, 1);
            c.sc = 0;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            c.sc = 1;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            /* A and B may be shared by the whole batch (stride 0) or overlap. */
            c = valid_call(e, ta, tb, m, n, k, 4);
            c.sa = 0;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            c.sb = 0;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
            c.sa = 1;
            c.sb = 1;
            expect(&c, SHOAL_STATUS_NOT_INITIALIZED);
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Cases that are not per entry point. */

static const shoal_status all_statuses[] = {
    SHOAL_STATUS_SUCCESS,      SHOAL_STATUS_NOT_INITIALIZED, SHOAL_STATUS_INVALID_VALUE,
    SHOAL_STATUS_NOT_SUPPORTED, SHOAL_STATUS_ALLOC_FAILED,   SHOAL_STATUS_NO_DEVICE,
    SHOAL_STATUS_CUDA_ERROR,   SHOAL_STATUS_VENDOR_ERROR};
#define N_STATUSES ((int)(sizeof all_statuses / sizeof all_statuses[0]))

static void case_status_strings(void)
{
    const char *s[N_STATUSES];
    for (int i = 0; i < N_STATUSES; ++i) {
        s[i] = shoal_status_string(all_statuses[i]);
        if (!s[i]) {
            fail("status %d: NULL string", (int)all_statuses[i]);
            continue;
        }
        if (!s[i][0])
            fail("status %d: empty string", (int)all_statuses[i]);
        /* shoal.h: "SHOAL_STATUS_INVALID_VALUE: ..." */
        char prefix[64];
        snprintf(prefix, sizeof prefix, "SHOAL_STATUS_%s", status_name(all_statuses[i]));
        if (strncmp(s[i], prefix, strlen(prefix)) != 0)
            fail("status %d: \"%s\" does not start with %s", (int)all_statuses[i], s[i], prefix);
    }
    for (int i = 0; i < N_STATUSES; ++i)
        for (int j = i + 1; j < N_STATUSES; ++j)
            if (s[i] && s[j] && strcmp(s[i], s[j]) == 0)
                fail("statuses %d and %d share the string \"%s\"", i, j, s[i]);
}

static void case_status_unknown(void)
{
    static const int unknown[] = {8, 99, -1, 1000000, INT_MIN, INT_MAX};
    for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; ++u) {
        const char *s = shoal_status_string((shoal_status)unknown[u]);
        if (!s) {
            fail("unknown status %d: NULL string", unknown[u]);
            continue;
        }
        if (!s[0])
            fail("unknown status %d: empty string", unknown[u]);
        for (int i = 0; i < N_STATUSES; ++i) {
            const char *k = shoal_status_string(all_statuses[i]);
            if (k && strcmp(s, k) == 0)
                fail("unknown status %d reads as known status %d (\"%s\")", unknown[u], i, s);
        }
    }
}

static void case_create_null(void)
{
    EXPECT_STATUS(shoal_create(NULL), SHOAL_STATUS_INVALID_VALUE, "shoal_create(NULL)");
}

/* Without a usable driver or device, shoal_create's failure must name the CUDA error behind it
 * (where there is a GPU, the message must be empty after the successful create). */
static void case_create_error_string(void)
{
    shoal_handle h = NULL;
    shoal_status st = shoal_create(&h);
    const char *why = shoal_create_error_string();
    if (!why) {
        fail("shoal_create_error_string() is NULL");
        return;
    }
    printf("# shoal_create: %s; shoal_create_error_string: \"%s\"\n", status_name(st), why);
    if (st == SHOAL_STATUS_SUCCESS) {
        if (why[0]) fail("after a successful shoal_create the message is \"%s\", not empty", why);
        shoal_destroy(h);
    } else {
        if (!why[0]) fail("shoal_create returned %s with an empty message", status_name(st));
        if (strncmp(why, "cuda", 4) != 0 && strncmp(why, "cublas", 6) != 0 && strncmp(why, "cusolver", 8) != 0)
            fail("\"%s\" does not name the CUDA call that failed", why);
        if (st == SHOAL_STATUS_NO_DEVICE && !strstr(why, "cudaError") && !strstr(why, "0 devices"))
            fail("NO_DEVICE: \"%s\" names no cudaError_t", why);
    }
    EXPECT_STATUS(shoal_create(NULL), SHOAL_STATUS_INVALID_VALUE, "shoal_create(NULL)");
    if (!shoal_create_error_string()[0]) fail("shoal_create(NULL) left no message");
}

static void case_version(void)
{
    int v = -1;
    EXPECT_STATUS(shoal_get_version(&v), SHOAL_STATUS_SUCCESS, "shoal_get_version(&v)");
    if (v != SHOAL_VERSION_MAJOR * 10000 + SHOAL_VERSION_MINOR * 100 + SHOAL_VERSION_PATCH)
        fail("shoal_get_version gives %d, the header says %d.%d.%d", v, SHOAL_VERSION_MAJOR,
             SHOAL_VERSION_MINOR, SHOAL_VERSION_PATCH);
    EXPECT_STATUS(shoal_get_version(NULL), SHOAL_STATUS_INVALID_VALUE, "shoal_get_version(NULL)");
}

static void case_handle_null(void)
{
    cudaStream_t stream = (cudaStream_t)0;
    const char *dev = "untouched";
    int level = -7;
    EXPECT_STATUS(shoal_destroy(NULL), SHOAL_STATUS_NOT_INITIALIZED, "shoal_destroy(NULL)");
    EXPECT_STATUS(shoal_set_stream(NULL, (cudaStream_t)0), SHOAL_STATUS_NOT_INITIALIZED,
                  "shoal_set_stream(NULL, 0)");
    EXPECT_STATUS(shoal_get_stream(NULL, &stream), SHOAL_STATUS_NOT_INITIALIZED,
                  "shoal_get_stream(NULL, &s)");
    EXPECT_STATUS(shoal_set_vendor_dispatch(NULL, 0), SHOAL_STATUS_NOT_INITIALIZED,
                  "shoal_set_vendor_dispatch(NULL, 0)");
    EXPECT_STATUS(shoal_set_vendor_dispatch(NULL, 1), SHOAL_STATUS_NOT_INITIALIZED,
                  "shoal_set_vendor_dispatch(NULL, 1)");
    EXPECT_STATUS(shoal_get_dispatch_info(NULL, &dev, &level), SHOAL_STATUS_NOT_INITIALIZED,
                  "shoal_get_dispatch_info(NULL, &dev, &level)");
    /* Both output pointers may be NULL (shoal.h), so this is valid arguments, NULL handle. */
    EXPECT_STATUS(shoal_get_dispatch_info(NULL, NULL, NULL), SHOAL_STATUS_NOT_INITIALIZED,
                  "shoal_get_dispatch_info(NULL, NULL, NULL)");
}

static void case_kernel_name_args(void)
{
    const char *name = NULL;
    for (int pa = 0; pa < 2; ++pa)
        for (int t = 0; t < 4; ++t) {
            shoal_operation ta = (shoal_operation)trans_pairs[t][0];
            shoal_operation tb = (shoal_operation)trans_pairs[t][1];
            EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 's', pa, ta, tb, 4, 4, 4, &name),
                          SHOAL_STATUS_NOT_INITIALIZED, "kernel_name(NULL, 's', %d, %d, %d, 4,4,4)",
                          pa, ta, tb);
            EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 'd', pa, ta, tb, 16, 1, 0, &name),
                          SHOAL_STATUS_NOT_INITIALIZED,
                          "kernel_name(NULL, 'd', %d, %d, %d, 16,1,0)", pa, ta, tb);
            EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 'x', pa, ta, tb, 4, 4, 4, &name),
                          SHOAL_STATUS_INVALID_VALUE, "kernel_name(precision 'x')");
            EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 's', pa, ta, tb, -1, 4, 4, &name),
                          SHOAL_STATUS_INVALID_VALUE, "kernel_name(m = -1)");
            EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 'd', pa, ta, tb, 4, -1, 4, &name),
                          SHOAL_STATUS_INVALID_VALUE, "kernel_name(n = -1)");
            EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 'd', pa, ta, tb, 4, 4, -1, &name),
                          SHOAL_STATUS_INVALID_VALUE, "kernel_name(k = -1)");
            EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 's', pa, ta, tb, 4, 4, 4, NULL),
                          SHOAL_STATUS_INVALID_VALUE, "kernel_name(name = NULL)");
        }
    EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 's', 0, (shoal_operation)7, SHOAL_OP_N, 4, 4, 4,
                                         &name),
                  SHOAL_STATUS_INVALID_VALUE, "kernel_name(transa = 7)");
    EXPECT_STATUS(shoal_gemm_kernel_name(NULL, 's', 0, SHOAL_OP_N, (shoal_operation)7, 4, 4, 4,
                                         &name),
                  SHOAL_STATUS_INVALID_VALUE, "kernel_name(transb = 7)");
}

/* ------------------------------------------------------------------------------------------ */
/* The case table. Per-entry-point cases are generated from (entry, check). */

enum check_kind {
    CK_NEG, CK_TRANS, CK_LDA, CK_LDB, CK_LDC, CK_NULL, CK_VALID, CK_ZERO, CK_STRIDES, N_CK
};
static const char *const check_names[N_CK] = {
    "negative_dims", "bad_trans",         "lda",            "ldb",    "ldc",
    "null_pointers", "valid_null_handle", "zero_work_null", "strides"};

typedef struct test_case {
    char name[64];
    void (*plain)(void);
    int entry, check; /* used when plain == NULL */
} test_case;

static test_case cases[64];
static int n_cases;

static void add_plain(const char *name, void (*fn)(void))
{
    snprintf(cases[n_cases].name, sizeof cases[n_cases].name, "%s", name);
    cases[n_cases].plain = fn;
    ++n_cases;
}

static void build_cases(void)
{
    add_plain("status_strings", case_status_strings);
    add_plain("status_unknown", case_status_unknown);
    add_plain("create_null", case_create_null);
    add_plain("create_error_string", case_create_error_string);
    add_plain("version", case_version);
    add_plain("handle_null", case_handle_null);
    add_plain("kernel_name_args", case_kernel_name_args);
    for (int e = 0; e < N_ENTRIES; ++e)
        for (int c = 0; c < N_CK; ++c) {
            if (c == CK_STRIDES && (e == S_BATCHED || e == D_BATCHED))
                continue;
            test_case *t = &cases[n_cases++];
            snprintf(t->name, sizeof t->name, "%s_%s", entry_names[e], check_names[c]);
            t->plain = NULL;
            t->entry = e;
            t->check = c;
        }
}

static int run_case(const test_case *t)
{
    g_failures = 0;
    g_msg[0] = '\0';
    if (t->plain) {
        t->plain();
    } else {
        enum entry e = (enum entry)t->entry;
        switch ((enum check_kind)t->check) {
        case CK_NEG: check_negative_dims(e); break;
        case CK_TRANS: check_bad_trans(e); break;
        case CK_LDA: check_ld(e, 0); break;
        case CK_LDB: check_ld(e, 1); break;
        case CK_LDC: check_ld(e, 2); break;
        case CK_NULL: check_null_pointers(e); break;
        case CK_VALID: check_valid_null_handle(e); break;
        case CK_ZERO: check_zero_work_null(e); break;
        case CK_STRIDES: check_strides(e); break;
        case N_CK: break;
        }
    }
    if (g_failures) {
        printf("FAILED %s: %d check(s) failed: %s%s\n", t->name, g_failures, g_msg,
               g_failures > 6 ? "; ..." : "");
    } else {
        printf("ok %s\n", t->name);
    }
    fflush(stdout);
    return g_failures != 0;
}

static void usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--list | --case NAME]\n", argv0);
}

int main(int argc, char **argv)
{
    build_cases();
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < n_cases; ++i)
            printf("%s\n", cases[i].name);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--case") == 0) {
        for (int i = 0; i < n_cases; ++i)
            if (strcmp(cases[i].name, argv[2]) == 0)
                return run_case(&cases[i]);
        fprintf(stderr, "unknown case '%s' (see --list)\n", argv[2]);
        return 2;
    }
    if (argc != 1) {
        usage(argv[0]);
        return 2;
    }
    int failed = 0;
    for (int i = 0; i < n_cases; ++i)
        failed += run_case(&cases[i]);
    printf("%d of %d cases failed\n", failed, n_cases);
    return failed ? 1 : 0;
}
