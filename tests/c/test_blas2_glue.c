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
#include <string.h>

#include "blas2_run.h"
#include "glue_common.h"

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
    const shoal_operation t = glue_op(old, a->trans);
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

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* 1 + (len - 1) * |inc|: the span of a vector, the least stride that keeps written ones apart */
static int64_t span(int64_t len, int64_t inc) { return len > 0 ? 1 + (len - 1) * abs64(inc) : 0; }

/* Half the calls: every argument from the whole grid; the other half: a valid call, then in
 * half of those one argument from the whole grid (each rule's boundary, one at a time). */
static args any_args(enum routine r);
static args valid_args(enum routine r);
static void random_args(const glue_unit *u, void *out)
{
    const enum routine r = (enum routine)u->routine;
    args *const result = out;
    const args any = any_args(r);
    if (glue_next() & 1) {
        *result = any;
        return;
    }
    args a = valid_args(r);
    if (glue_next() & 1) {
        *result = a;
        return;
    }
    switch (glue_next() % 15) {
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
    default: a.nulls = 1u << (glue_next() % 8); break;
    }
    *result = a;
}

static args valid_args(enum routine r)
{
    args a;
    a.h = glue_next() & 1 ? (shoal_handle)store_ctx : NULL;
    a.trans = (int)(glue_next() & 1);
    a.uplo = (int)(glue_next() & 1);
    a.diag = (int)(glue_next() & 1);
    a.m = (int)PICK(1, 2, 3, 5, 32, 33);
    a.n = (int)PICK(1, 2, 3, 5, 32, 33);
    static const double scalars[] = {0.0, 1.0, -1.0, 0.5, NAN};
    a.alpha = scalars[glue_next() % 5];
    a.beta = scalars[glue_next() % 5];
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
    a.h = glue_next() & 1 ? (shoal_handle)store_ctx : NULL;
    a.trans = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2, 3);
    a.uplo = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2);
    a.diag = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2);
    a.m = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33, 300);
    a.n = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33, 300);
    static const double scalars[] = {0.0, 1.0, -1.0, 0.5, NAN};
    a.alpha = scalars[glue_next() % 5];
    a.beta = scalars[glue_next() % 5];
    const int64_t rows = r == TRSV ? a.n : a.m;
    a.lda = PICK(0, 1, 40, rows - 1, rows, rows + 1, (int64_t)1 << 32);
    a.incx = PICK(-3, -1, 0, 1, 1, 2, (int64_t)1 << 33);
    a.incy = PICK(-3, -1, 0, 1, 1, 2, (int64_t)1 << 33);
    a.batch = PICK(-1, 0, 1, 2, 2, 3, (int64_t)1 << 33);
    /* strides: negative, zero, one, exact, one short (overlap) and large; x and y by the
     * length each has with either trans */
    const int64_t xlen = r == TRSV ? a.n : (glue_next() & 1 ? a.n : a.m), ylen = glue_next() & 1 ? a.m : a.n;
    a.sa = PICK(-1, 0, 1, a.lda * a.n, a.lda * a.n - 1, (int64_t)1 << 40);
    a.sx = PICK(-1, 0, 1, span(xlen, a.incx), span(xlen, a.incx) - 1, span(xlen, a.incx) + 3, (int64_t)1 << 40);
    a.sy = PICK(-1, 0, 1, span(ylen, a.incy), span(ylen, a.incy) - 1, span(ylen, a.incy) + 3, (int64_t)1 << 40);
    a.nulls = glue_next() % 2 ? 0 : (unsigned)(glue_next() % 256) & (unsigned)(glue_next() % 256);
    return a;
}

static void print_args(const void *args_)
{
    const args *a = args_;
    printf("  handle %s trans %d uplo %d diag %d m %d n %d alpha %g beta %g lda %" PRId64 " incx %" PRId64
           " incy %" PRId64 " batch %" PRId64 " strideA %" PRId64 " stridex %" PRId64 " stridey %" PRId64
           " nulls %#x\n",
           a->h ? "set" : "NULL", a->trans, a->uplo, a->diag, a->m, a->n, a->alpha, a->beta, a->lda, a->incx,
           a->incy, a->batch, a->sa, a->sx, a->sy, a->nulls);
}

/* Which part of the records of two reached runs differs, or NULL. */
static const char *differs(const void *x_, const void *y_)
{
    const record *x = x_, *y = y_;
    if (x->ctx != y->ctx) return "context";
    if (x->routine != y->routine) return "routine";
    if (x->prec != y->prec) return "precision";
    if (x->variant != y->variant) return "variant";
    if (memcmp(&x->p, &y->p, sizeof x->p)) return "shoal_blas2_params";
    return NULL;
}

static shoal_status call_unit(int old, const glue_unit *u, char prec, const void *a)
{
    return call(old, (enum routine)u->routine, prec, u->array, a);
}

static void tally(const glue_unit *u, shoal_status s, const void *rec_, glue_counts *c)
{
    (void)u;
    if (((const record *)rec_)->calls) ++c->reached;
    else if (s == SHOAL_STATUS_INVALID_VALUE) ++c->rejected;
    else if (s == SHOAL_STATUS_SUCCESS) ++c->quick;
}

static void report(const glue_unit *u, const glue_counts *c)
{
    printf("%s: %ld reached run, %ld quick returns, %ld rejected\n", u->name, c->reached, c->quick, c->rejected);
}

static const glue_unit units[] = {{"gemv_batched", GEMV, 1}, {"gemv_strided_batched", GEMV, 0},
                                  {"trsv_batched", TRSV, 1}, {"trsv_strided_batched", TRSV, 0},
                                  {"gemv_vbatched", GEMV_V, 1}};

int main(int argc, char **argv)
{
    static args a;
    const glue_test t = {units, (int)(sizeof units / sizeof units[0]), &a, &rec, sizeof rec, random_args,
                         call_unit, differs, print_args, tally, report};
    return glue_main(&t, argc, argv);
}
