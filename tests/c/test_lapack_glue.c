/* The factorizations' generated entry points behave as the hand-written ones did, on the CPU.
 *
 * Linked with (tests/test_lapack_glue.py builds it, no library and no GPU):
 *  - the new entry points, generated/lapack_entry.c as the generator emits it from
 *    spec/routines/<r>.toml (abi = "lapack"), calling shoal_lapack_run;
 *  - the old ones, runtime/lapack_api.c of revision 492fe43 (tests/c/golden/), cut to its entry
 *    points and compiled with every public name renamed shoal_ -> old_, its static run()
 *    renamed old_lapack_run.
 * Both runs are mocks here that record the handle, routine, precision, variant and the whole
 * shoal_lapack_params they were given. Over a seeded random grid of valid and invalid
 * arguments (negative, zero and boundary sizes, leading dimensions around their bound, NULL
 * operands, negative, zero, exact and overlapping strides, batch -1..3 and 2^33, nrhs 0,
 * options out of range, NULL and non-NULL handles) every call is made both ways and compared:
 * the status returned, whether run was reached, and what it received, byte for byte.
 *
 * Usage: test_lapack_glue [cases per routine, precision and form] [seed]
 * Prints one line per routine and form, then "N cases, R reached run, B rejected, M mismatches". */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "glue_common.h"
#include "lapack_run.h"

#define LIST(X)                                                                                                   \
    X(getrf) X(getrs) X(gesv) X(getri) X(getri_fused) X(potrf) X(potrs) X(posv) X(geqrf)
#define FORMS(X, r) X(s##r##_batched) X(d##r##_batched) X(s##r##_strided_batched) X(d##r##_strided_batched)
#define DECLARE_OLD(f) extern __typeof__(shoal_##f) old_##f;
#define DECLARE_FORMS(r) FORMS(DECLARE_OLD, r)
LIST(DECLARE_FORMS)

shoal_status old_lapack_run(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p);

/* ---- the mock run: what the dispatch would have been given ---- */

typedef struct record {
    int calls;
    shoal_handle handle;
    int routine;
    char prec;
    int variant;
    shoal_lapack_params p;
} record;
static record rec;

static shoal_status record_call(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p)
{
    ++rec.calls;
    rec.handle = handle;
    rec.routine = routine;
    rec.prec = prec;
    rec.variant = variant;
    memcpy(&rec.p, p, sizeof *p);
    return handle ? SHOAL_STATUS_SUCCESS : SHOAL_STATUS_NOT_INITIALIZED;
}
shoal_status shoal_lapack_run(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p)
{
    return record_call(handle, routine, prec, variant, p);
}
shoal_status old_lapack_run(shoal_handle handle, int routine, char prec, int variant, shoal_lapack_params *p)
{
    return record_call(handle, routine, prec, variant, p);
}

/* ---- one call, old or new ---- */

enum routine { GETRF, GETRS, GESV, GETRI, GETRI_FUSED, POTRF, POTRS, POSV, GEQRF, N_ROUTINES };
enum { NULL_A = 1, NULL_B = 2, NULL_PIV = 4, NULL_INFO = 8, NULL_TAU = 16 };

typedef struct args {
    shoal_handle h;
    int op, m, n, nrhs;
    int64_t lda, ldb, batch, sa, sb, sp;   /* sp: strideP, or strideTau for geqrf */
    unsigned nulls;
} args;

/* distinct addresses per operand, so that a swapped operand shows in the record; never read */
static char store_a[8], store_b[8], store_t[8], store_ctx[8];
static int store_piv[2], store_info[2];
static void *arr_a[1], *arr_b[1], *arr_t[1];

static shoal_status call(int old, enum routine r, char prec, int array, const args *a)
{
    void *A = a->nulls & NULL_A ? NULL : store_a, *B = a->nulls & NULL_B ? NULL : store_b;
    void *T = a->nulls & NULL_TAU ? NULL : store_t;
    void *const *Ap = a->nulls & NULL_A ? NULL : arr_a, *const *Bp = a->nulls & NULL_B ? NULL : arr_b;
    void *const *Tp = a->nulls & NULL_TAU ? NULL : arr_t;
    int *P = a->nulls & NULL_PIV ? NULL : store_piv, *I = a->nulls & NULL_INFO ? NULL : store_info;
    const shoal_operation t = glue_op(old, a->op); /* getrs's trans */
    const shoal_fill_mode u = (shoal_fill_mode)a->op;
    const shoal_handle h = a->h;
#define F(f) (old ? old_##f : shoal_##f)
#define BODY(p, E)                                                                                                 \
    switch (r) {                                                                                                   \
    case GETRF:                                                                                                    \
        return array ? F(p##getrf_batched)(h, a->m, a->n, (E *const *)Ap, a->lda, P, I, a->batch)                  \
                     : F(p##getrf_strided_batched)(h, a->m, a->n, (E *)A, a->lda, a->sa, P, a->sp, I, a->batch);   \
    case GETRS:                                                                                                    \
        return array ? F(p##getrs_batched)(h, t, a->n, a->nrhs, (const E *const *)Ap, a->lda, P, (E *const *)Bp,   \
                                           a->ldb, a->batch)                                                       \
                     : F(p##getrs_strided_batched)(h, t, a->n, a->nrhs, (const E *)A, a->lda, a->sa, P, a->sp,     \
                                                   (E *)B, a->ldb, a->sb, a->batch);                               \
    case GESV:                                                                                                     \
        return array ? F(p##gesv_batched)(h, a->n, a->nrhs, (E *const *)Ap, a->lda, P, (E *const *)Bp, a->ldb, I, \
                                          a->batch)                                                                \
                     : F(p##gesv_strided_batched)(h, a->n, a->nrhs, (E *)A, a->lda, a->sa, P, a->sp, (E *)B,       \
                                                  a->ldb, a->sb, I, a->batch);                                     \
    case GETRI:                                                                                                    \
        return array ? F(p##getri_batched)(h, a->n, (const E *const *)Ap, a->lda, P, (E *const *)Bp, a->ldb, I,    \
                                           a->batch)                                                               \
                     : F(p##getri_strided_batched)(h, a->n, (const E *)A, a->lda, a->sa, P, a->sp, (E *)B, a->ldb, \
                                                   a->sb, I, a->batch);                                            \
    case GETRI_FUSED:                                                                                              \
        return array ? F(p##getri_fused_batched)(h, a->n, (const E *const *)Ap, a->lda, (E *const *)Bp, a->ldb, I, \
                                                 a->batch)                                                         \
                     : F(p##getri_fused_strided_batched)(h, a->n, (const E *)A, a->lda, a->sa, (E *)B, a->ldb,     \
                                                         a->sb, I, a->batch);                                      \
    case POTRF:                                                                                                    \
        return array ? F(p##potrf_batched)(h, u, a->n, (E *const *)Ap, a->lda, I, a->batch)                        \
                     : F(p##potrf_strided_batched)(h, u, a->n, (E *)A, a->lda, a->sa, I, a->batch);                \
    case POTRS:                                                                                                    \
        return array ? F(p##potrs_batched)(h, u, a->n, a->nrhs, (const E *const *)Ap, a->lda, (E *const *)Bp,      \
                                           a->ldb, a->batch)                                                       \
                     : F(p##potrs_strided_batched)(h, u, a->n, a->nrhs, (const E *)A, a->lda, a->sa, (E *)B,       \
                                                   a->ldb, a->sb, a->batch);                                       \
    case POSV:                                                                                                     \
        return array ? F(p##posv_batched)(h, u, a->n, a->nrhs, (E *const *)Ap, a->lda, (E *const *)Bp, a->ldb, I,  \
                                          a->batch)                                                                \
                     : F(p##posv_strided_batched)(h, u, a->n, a->nrhs, (E *)A, a->lda, a->sa, (E *)B, a->ldb,      \
                                                  a->sb, I, a->batch);                                             \
    case GEQRF:                                                                                                    \
        return array ? F(p##geqrf_batched)(h, a->m, a->n, (E *const *)Ap, a->lda, (E *const *)Tp, a->batch)        \
                     : F(p##geqrf_strided_batched)(h, a->m, a->n, (E *)A, a->lda, a->sa, (E *)T, a->sp, a->batch); \
    default: break;                                                                                                \
    }
    if (prec == 'd') { BODY(d, double) }
    else { BODY(s, float) }
#undef BODY
#undef F
    return (shoal_status)-1;
}

/* ---- the grid ---- */

static int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }

static void random_args(const glue_unit *u, void *out)
{
    (void)u;
    args a;
    a.h = glue_next() & 1 ? (shoal_handle)store_ctx : NULL;
    a.op = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2, 3);
    a.m = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33);
    a.n = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33);
    a.nrhs = (int)PICK(-1, 0, 0, 1, 2, 4, 33);
    /* leading dimensions around the bounds of A (m or n rows) and B (n rows) */
    a.lda = PICK(0, 1, 40, a.m - 1, a.m, a.m + 1, a.n - 1, a.n, a.n + 1);
    a.ldb = PICK(0, 1, 40, a.n - 1, a.n, a.n + 1, a.m);
    a.batch = PICK(-1, 0, 1, 2, 2, 3, (int64_t)1 << 33);
    /* strides: absent, negative, zero, exact, one short (overlap) and large */
    const int64_t mn = imin(a.m, a.n);
    a.sa = PICK(-1, 0, 1, a.lda * a.n, a.lda * a.n - 1, a.lda * a.n + 7, (int64_t)1 << 40);
    a.sb = PICK(-1, 0, 1, a.ldb * a.nrhs, a.ldb * a.nrhs - 1, a.ldb * a.n, a.ldb * a.n - 1, (int64_t)1 << 40);
    a.sp = PICK(-1, 0, 1, mn, mn - 1, a.n, a.n - 1, a.m, 64);
    a.nulls = glue_next() % 2 ? 0 : (unsigned)(glue_next() % 32) & (unsigned)(glue_next() % 32);
    *(args *)out = a;
}

static void print_args(const void *args_)
{
    const args *a = args_;
    printf("  handle %s op %d m %d n %d nrhs %d lda %" PRId64 " ldb %" PRId64 " batch %" PRId64 " strideA %" PRId64
           " strideB %" PRId64 " strideP %" PRId64 " nulls %#x\n",
           a->h ? "set" : "NULL", a->op, a->m, a->n, a->nrhs, a->lda, a->ldb, a->batch, a->sa, a->sb, a->sp, a->nulls);
}

/* Which part of the records of two reached runs differs, or NULL. */
static const char *differs(const void *x_, const void *y_)
{
    const record *x = x_, *y = y_;
    if (x->handle != y->handle) return "handle";
    if (x->routine != y->routine) return "routine";
    if (x->prec != y->prec) return "precision";
    if (x->variant != y->variant) return "variant";
    if (memcmp(&x->p, &y->p, sizeof x->p)) return "shoal_lapack_params";
    return NULL;
}

static shoal_status call_unit(int old, const glue_unit *u, char prec, const void *a)
{
    return call(old, (enum routine)u->routine, prec, u->array, a);
}

static void tally(const glue_unit *u, shoal_status s, const void *rec_, glue_counts *c)
{
    const record *r = rec_;
    if (r->calls) {
        ++c->reached;
        c->routed += r->routine != u->routine;
    } else if (s == SHOAL_STATUS_INVALID_VALUE) {
        ++c->rejected;
    }
}

static void report(const glue_unit *u, const glue_counts *c)
{
    printf("%s: %ld reached run (%ld routed to another routine), %ld rejected\n", u->name, c->reached, c->routed,
           c->rejected);
}

#define UNITS(r, R) {#r "_batched", R, 1}, {#r "_strided_batched", R, 0},
static const glue_unit units[] = {UNITS(getrf, GETRF) UNITS(getrs, GETRS) UNITS(gesv, GESV) UNITS(getri, GETRI)
                                      UNITS(getri_fused, GETRI_FUSED) UNITS(potrf, POTRF) UNITS(potrs, POTRS)
                                          UNITS(posv, POSV) UNITS(geqrf, GEQRF)};

int main(int argc, char **argv)
{
    static args a;
    const glue_test t = {units, (int)(sizeof units / sizeof units[0]), &a, &rec, sizeof rec, random_args,
                         call_unit, differs, print_args, tally, report};
    return glue_main(&t, argc, argv);
}
