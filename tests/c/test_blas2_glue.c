/* The level-2 generated entry points behave as the hand-written ones did, on the CPU.
 *
 * Linked with (tests/test_blas2_glue.py builds it, no library and no GPU):
 *  - the new entry points, generated/blas2_entry.c as the generator emits it from
 *    spec/routines/{gemv,trsv,gemv_vbatched}.toml (abi = "blas2"), calling shoal_blas2_run;
 *  - the old ones, runtime/blas2_api.c of revision 492fe43 (tests/c/golden/), cut to the
 *    entry points of gemv, trsv and gemv_vbatched and compiled with every public name renamed
 *    shoal_ -> old_, its static run() renamed old_blas2_run.
 * Both runs are mocks here that record the context, routine, precision, variant and the whole
 * shoal_blas2_params they were given; shoal_context_get is a mock too (a handle is its own
 * context, NULL stays NULL), so the handle check and the BLAS quick return, which both versions
 * make before the dispatch, are compared as well. Over a seeded random grid of valid and
 * invalid arguments (negative, zero and boundary sizes, leading dimensions around their bound,
 * zero, negative and large increments, NULL operands and per-problem arrays, negative, zero,
 * exact and overlapping strides, alpha and beta 0, 1, -1, 0.5 and NaN, batch -1..3 and 2^33,
 * options out of range, NULL and non-NULL handles) every call is made both ways and compared:
 * the status returned, whether run was reached, and what it received, byte for byte.
 *
 * Usage: test_blas2_glue [cases per routine, precision and form] [seed]
 * Prints one line per routine and form, then "N cases, R reached run, B rejected, M mismatches". */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas2_run.h"

#define ENTRY_POINTS(X)                                                                                           \
    X(sgemv_batched) X(dgemv_batched) X(sgemv_strided_batched) X(dgemv_strided_batched) X(strsv_batched)          \
    X(dtrsv_batched) X(strsv_strided_batched) X(dtrsv_strided_batched) X(sgemv_vbatched) X(dgemv_vbatched)
#define DECLARE_OLD(f) extern __typeof__(shoal_##f) old_##f;
ENTRY_POINTS(DECLARE_OLD)

shoal_status old_blas2_run(struct shoal_context *ctx, int routine, char prec, int variant, shoal_blas2_params *p);

/* ---- the mocks: the handle's context and what the dispatch would have been given ---- */

struct shoal_context *shoal_context_get(shoal_handle h) { return h; }

typedef struct record {
    int calls;
    struct shoal_context *ctx;
    int routine;
    char prec;
    int variant;
    shoal_blas2_params p;
} record;
static record rec;

static shoal_status record_call(struct shoal_context *ctx, int routine, char prec, int variant, shoal_blas2_params *p)
{
    ++rec.calls;
    rec.ctx = ctx;
    rec.routine = routine;
    rec.prec = prec;
    rec.variant = variant;
    memcpy(&rec.p, p, sizeof *p);
    return SHOAL_STATUS_CUDA_ERROR; /* unlike any status the checks give */
}
shoal_status shoal_blas2_run(struct shoal_context *ctx, int routine, char prec, int variant, shoal_blas2_params *p)
{
    return record_call(ctx, routine, prec, variant, p);
}
shoal_status old_blas2_run(struct shoal_context *ctx, int routine, char prec, int variant, shoal_blas2_params *p)
{
    return record_call(ctx, routine, prec, variant, p);
}

/* ---- one call, old or new ---- */

enum routine { GEMV, TRSV, GEMV_V, N_ROUTINES };
static const char *const names[N_ROUTINES] = {"gemv", "trsv", "gemv_vbatched"};
enum { NULL_A = 1, NULL_X = 2, NULL_Y = 4, NULL_MV = 8, NULL_NV = 16, NULL_LDAV = 32, NULL_INCXV = 64, NULL_INCYV = 128 };

typedef struct args {
    shoal_handle h;
    int trans, uplo, diag;
    int m, n;                            /* vbatched: max_m, max_n */
    double alpha, beta;
    int64_t lda, incx, incy, batch, sa, sx, sy;
    unsigned nulls;
} args;

/* distinct addresses per operand, so that a swapped operand shows in the record; never read */
static char store_a[8], store_x[8], store_y[8], store_ctx[8];
static void *arr_a[1], *arr_x[1], *arr_y[1];
static int store_mv[1], store_nv[1], store_ldav[1], store_incxv[1], store_incyv[1];

static shoal_status call(int old, enum routine r, char prec, int array, const args *a)
{
    void *A = a->nulls & NULL_A ? NULL : store_a, *X = a->nulls & NULL_X ? NULL : store_x;
    void *Y = a->nulls & NULL_Y ? NULL : store_y;
    void *const *Ap = a->nulls & NULL_A ? NULL : arr_a, *const *Xp = a->nulls & NULL_X ? NULL : arr_x;
    void *const *Yp = a->nulls & NULL_Y ? NULL : arr_y;
    const int *mv = a->nulls & NULL_MV ? NULL : store_mv, *nv = a->nulls & NULL_NV ? NULL : store_nv;
    const int *ldav = a->nulls & NULL_LDAV ? NULL : store_ldav;
    const int *incxv = a->nulls & NULL_INCXV ? NULL : store_incxv, *incyv = a->nulls & NULL_INCYV ? NULL : store_incyv;
    const shoal_operation t = (shoal_operation)a->trans;
    const shoal_fill_mode u = (shoal_fill_mode)a->uplo;
    const shoal_diag d = (shoal_diag)a->diag;
    const shoal_handle h = a->h;
#define F(f) (old ? old_##f : shoal_##f)
#define BODY(p, E)                                                                                                 \
    switch (r) {                                                                                                   \
    case GEMV:                                                                                                     \
        return array ? F(p##gemv_batched)(h, t, a->m, a->n, (E)a->alpha, (const E *const *)Ap, a->lda,             \
                                          (const E *const *)Xp, a->incx, (E)a->beta, (E *const *)Yp, a->incy,      \
                                          a->batch)                                                                \
                     : F(p##gemv_strided_batched)(h, t, a->m, a->n, (E)a->alpha, (const E *)A, a->lda, a->sa,      \
                                                  (const E *)X, a->incx, a->sx, (E)a->beta, (E *)Y, a->incy,       \
                                                  a->sy, a->batch);                                                \
    case TRSV:                                                                                                     \
        return array ? F(p##trsv_batched)(h, u, t, d, a->n, (const E *const *)Ap, a->lda, (E *const *)Xp, a->incx, \
                                          a->batch)                                                                \
                     : F(p##trsv_strided_batched)(h, u, t, d, a->n, (const E *)A, a->lda, a->sa, (E *)X, a->incx,  \
                                                  a->sx, a->batch);                                                \
    case GEMV_V:                                                                                                   \
        return F(p##gemv_vbatched)(h, t, mv, nv, a->m, a->n, (E)a->alpha, (const E *const *)Ap, ldav,              \
                                   (const E *const *)Xp, incxv, (E)a->beta, (E *const *)Yp, incyv, a->batch);      \
    default: break;                                                                                                \
    }
    if (prec == 'd') { BODY(d, double) }
    else { BODY(s, float) }
#undef BODY
#undef F
    return (shoal_status)-1;
}

/* ---- the grid ---- */

static uint64_t state;
static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}
#define PICK(...) pick((const int64_t[]){__VA_ARGS__}, sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))
static int64_t pick(const int64_t *v, size_t n) { return v[next() % n]; }

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* 1 + (len - 1) * |inc|: the span of a vector, the least stride that keeps written ones apart */
static int64_t span(int64_t len, int64_t inc) { return len > 0 ? 1 + (len - 1) * abs64(inc) : 0; }

/* Half the calls: every argument from the whole grid; the other half: a valid call, then in
 * half of those one argument from the whole grid (each rule's boundary, one at a time). */
static args any_args(enum routine r);
static args valid_args(enum routine r);
static args random_args(enum routine r)
{
    const args any = any_args(r);
    if (next() & 1) return any;
    args a = valid_args(r);
    if (next() & 1) return a;
    switch (next() % 15) {
    case 0: a.h = any.h; break;
    case 1: a.trans = any.trans; break;
    case 2: a.uplo = any.uplo; break;
    case 3: a.diag = any.diag; break;
    case 4: a.m = any.m; break;
    case 5: a.n = any.n; break;
    case 6: a.alpha = any.alpha; a.beta = any.beta; break;
    case 7: a.lda = any.lda; break;
    case 8: a.incx = any.incx; break;
    case 9: a.incy = any.incy; break;
    case 10: a.batch = any.batch; break;
    case 11: a.sa = any.sa; break;
    case 12: a.sx = any.sx; break;
    case 13: a.sy = any.sy; break;
    default: a.nulls = 1u << (next() % 8); break;
    }
    return a;
}

static args valid_args(enum routine r)
{
    args a;
    a.h = next() & 1 ? (shoal_handle)store_ctx : NULL;
    a.trans = (int)(next() & 1);
    a.uplo = (int)(next() & 1);
    a.diag = (int)(next() & 1);
    a.m = (int)PICK(1, 2, 3, 5, 32, 33);
    a.n = (int)PICK(1, 2, 3, 5, 32, 33);
    static const double scalars[] = {0.0, 1.0, -1.0, 0.5, NAN};
    a.alpha = scalars[next() % 5];
    a.beta = scalars[next() % 5];
    const int64_t rows = r == TRSV ? a.n : a.m;
    a.lda = PICK(rows, rows + 1, 40);
    a.incx = PICK(-3, -1, 1, 1, 2);
    a.incy = PICK(-3, -1, 1, 1, 2);
    a.batch = PICK(1, 2, 3);
    const int64_t xlen = r == TRSV ? a.n : (a.trans ? a.m : a.n), ylen = a.trans ? a.n : a.m;
    a.sa = PICK(0, a.lda * a.n, a.lda * a.n + 5);
    a.sx = PICK(span(xlen, a.incx), span(xlen, a.incx) + 3);
    a.sy = PICK(span(ylen, a.incy), span(ylen, a.incy) + 3);
    a.nulls = 0;
    return a;
}

static args any_args(enum routine r)
{
    args a;
    a.h = next() & 1 ? (shoal_handle)store_ctx : NULL;
    a.trans = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2);
    a.uplo = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2);
    a.diag = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2);
    a.m = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33, 300);
    a.n = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33, 300);
    static const double scalars[] = {0.0, 1.0, -1.0, 0.5, NAN};
    a.alpha = scalars[next() % 5];
    a.beta = scalars[next() % 5];
    const int64_t rows = r == TRSV ? a.n : a.m;
    a.lda = PICK(0, 1, 40, rows - 1, rows, rows + 1, (int64_t)1 << 32);
    a.incx = PICK(-3, -1, 0, 1, 1, 2, (int64_t)1 << 33);
    a.incy = PICK(-3, -1, 0, 1, 1, 2, (int64_t)1 << 33);
    a.batch = PICK(-1, 0, 1, 2, 2, 3, (int64_t)1 << 33);
    /* strides: negative, zero, one, exact, one short (overlap) and large; x and y by the
     * length each has with either trans */
    const int64_t xlen = r == TRSV ? a.n : (next() & 1 ? a.n : a.m), ylen = next() & 1 ? a.m : a.n;
    a.sa = PICK(-1, 0, 1, a.lda * a.n, a.lda * a.n - 1, (int64_t)1 << 40);
    a.sx = PICK(-1, 0, 1, span(xlen, a.incx), span(xlen, a.incx) - 1, span(xlen, a.incx) + 3, (int64_t)1 << 40);
    a.sy = PICK(-1, 0, 1, span(ylen, a.incy), span(ylen, a.incy) - 1, span(ylen, a.incy) + 3, (int64_t)1 << 40);
    a.nulls = next() % 2 ? 0 : (unsigned)(next() % 256) & (unsigned)(next() % 256);
    return a;
}

static void print_args(const args *a)
{
    printf("  handle %s trans %d uplo %d diag %d m %d n %d alpha %g beta %g lda %" PRId64 " incx %" PRId64
           " incy %" PRId64 " batch %" PRId64 " strideA %" PRId64 " stridex %" PRId64 " stridey %" PRId64
           " nulls %#x\n",
           a->h ? "set" : "NULL", a->trans, a->uplo, a->diag, a->m, a->n, a->alpha, a->beta, a->lda, a->incx,
           a->incy, a->batch, a->sa, a->sx, a->sy, a->nulls);
}

/* Which part of the record differs, or NULL. */
static const char *differs(const record *x, const record *y)
{
    if (x->calls != y->calls) return "whether run was reached";
    if (!x->calls) return NULL;
    if (x->ctx != y->ctx) return "context";
    if (x->routine != y->routine) return "routine";
    if (x->prec != y->prec) return "precision";
    if (x->variant != y->variant) return "variant";
    if (memcmp(&x->p, &y->p, sizeof x->p)) return "shoal_blas2_params";
    return NULL;
}

int main(int argc, char **argv)
{
    const long per = argc > 1 ? atol(argv[1]) : 20000;
    state = argc > 2 ? strtoull(argv[2], NULL, 10) : 0x5eed5eedULL;
    if (state == 0) state = 1;
    long cases = 0, reached = 0, rejected = 0, mismatches = 0;
    for (int r = 0; r < N_ROUTINES; ++r)
        for (int array = 1; array >= (r == GEMV_V ? 1 : 0); --array) {
            long form_reached = 0, form_rejected = 0, form_quick = 0;
            for (int pi = 0; pi < 2; ++pi) {
                const char prec = "sd"[pi];
                for (long i = 0; i < per; ++i) {
                    const args a = random_args((enum routine)r);
                    memset(&rec, 0, sizeof rec);
                    const shoal_status s_old = call(1, (enum routine)r, prec, array, &a);
                    const record r_old = rec;
                    memset(&rec, 0, sizeof rec);
                    const shoal_status s_new = call(0, (enum routine)r, prec, array, &a);
                    const record r_new = rec;
                    ++cases;
                    const char *what = s_old != s_new ? "status" : differs(&r_old, &r_new);
                    if (what) {
                        if (++mismatches <= 10) {
                            printf("MISMATCH %c%s%s: %s (status old %d, new %d)\n", prec, names[r],
                                   r == GEMV_V ? "" : array ? "_batched" : "_strided_batched", what, (int)s_old,
                                   (int)s_new);
                            print_args(&a);
                        }
                        continue;
                    }
                    if (r_new.calls) ++form_reached;
                    else if (s_new == SHOAL_STATUS_INVALID_VALUE) ++form_rejected;
                    else if (s_new == SHOAL_STATUS_SUCCESS) ++form_quick;
                }
            }
            printf("%s%s: %ld reached run, %ld quick returns, %ld rejected\n", names[r],
                   r == GEMV_V ? "" : array ? "_batched" : "_strided_batched", form_reached, form_quick,
                   form_rejected);
            reached += form_reached;
            rejected += form_rejected;
        }
    printf("%ld cases, %ld reached run, %ld rejected, %ld mismatches\n", cases, reached, rejected, mismatches);
    return mismatches != 0;
}
