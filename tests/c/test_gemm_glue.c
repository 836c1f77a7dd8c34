/* GEMM's generated entry points behave as the hand-written ones did, on the CPU.
 *
 * Linked with (tests/test_gemm_glue.py builds it, no library and no GPU):
 *  - the new entry points, generated/gemm_entry.c as the generator emits it from
 *    spec/routines/{gemm,gemm_vbatched}.toml (abi = "gemm"), calling shoal_gemm_run and
 *    shoal_gemm_vbatched_run;
 *  - the old ones, runtime/gemm_api.c and the gemm_vbatched part of runtime/blas2_api.c of
 *    revision 492fe43 (tests/c/golden/), cut to their entry points and compiled with every
 *    public name renamed shoal_ -> old_, their static runs renamed old_gemm_run and
 *    old_gemm_vbatched_run.
 * The runs are mocks here that record the handle, precision, options or variant and the whole
 * shoal_gemm_params or shoal_gemm_vparams they were given. Over a seeded random grid of valid
 * and invalid arguments (negative, zero and boundary sizes, leading dimensions around their
 * bounds, NULL operands and per-problem arrays, negative, zero, exact and overlapping strides,
 * alpha and beta 0, 1, -1, 0.5 and NaN, batch -1..3 and 2^33, options out of range, NULL and
 * non-NULL handles) every call is made both ways and compared: the status returned, whether a
 * run was reached, and what it received, byte for byte.
 * The complex vbatched entry points (shoal_{c,z}gemm_vbatched, the unit "gemm_vbatched_cx": c in
 * the s pass, z in the d pass) had no hand-written form; their model is the real one of the same
 * width (old_{s,d}gemm_vbatched on the real parts, op C given as T) plus what complex adds, put
 * into its record: the precision, the imaginary parts of alpha and beta and the conj bits
 * (bit 0: transa is C, bit 1: transb), the variant that of the t kernels. Their ops are drawn
 * with C as often as T.
 *
 * Usage: test_gemm_glue [cases per routine, precision and form] [seed]
 * Prints one line per routine and form, then "N cases, R reached run, B rejected, M mismatches". */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gemm_run.h"
#include "glue_common.h"

#define ENTRY_POINTS(X)                                                                                           \
    X(sgemm_batched) X(dgemm_batched) X(sgemm_strided_batched) X(dgemm_strided_batched) X(sgemm_vbatched)         \
    X(dgemm_vbatched)
#define DECLARE_OLD(f) extern __typeof__(shoal_##f) old_##f;
ENTRY_POINTS(DECLARE_OLD)

shoal_status old_gemm_run(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb, shoal_gemm_params *p);
shoal_status old_gemm_vbatched_run(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p);

/* ---- the mock runs: what the dispatch would have been given ---- */

typedef struct record {
    int calls;
    int which; /* 1: the fixed-size run, 2: the vbatched run */
    shoal_handle handle;
    char prec;
    int ta, tb, variant;
    shoal_gemm_params p;
    shoal_gemm_vparams vp;
} record;
static record rec;

/* a NULL handle answers as the real runs do; else a status unlike any the checks give */
static shoal_status answer(shoal_handle h) { return h ? SHOAL_STATUS_CUDA_ERROR : SHOAL_STATUS_NOT_INITIALIZED; }

static shoal_status record_fixed(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb,
                                 shoal_gemm_params *p)
{
    ++rec.calls;
    rec.which = 1;
    rec.handle = handle;
    rec.prec = prec;
    rec.ta = (int)ta;
    rec.tb = (int)tb;
    memcpy(&rec.p, p, sizeof *p);
    return answer(handle);
}
static shoal_status record_v(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p)
{
    ++rec.calls;
    rec.which = 2;
    rec.handle = handle;
    rec.prec = prec;
    rec.variant = variant;
    memcpy(&rec.vp, p, sizeof *p);
    return answer(handle);
}
shoal_status shoal_gemm_run(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb, shoal_gemm_params *p)
{
    return record_fixed(handle, prec, ta, tb, p);
}
shoal_status old_gemm_run(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb, shoal_gemm_params *p)
{
    return record_fixed(handle, prec, ta, tb, p);
}
shoal_status shoal_gemm_vbatched_run(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p)
{
    return record_v(handle, prec, variant, p);
}
shoal_status old_gemm_vbatched_run(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p)
{
    return record_v(handle, prec, variant, p);
}

/* ---- one call, old or new ---- */

enum form { ARRAY, STRIDED, VBATCHED, VBATCHED_CX, N_FORMS };
enum { NULL_A = 1, NULL_B = 2, NULL_C = 4, NULL_MV = 8, NULL_NV = 16, NULL_KV = 32, NULL_LDAV = 64, NULL_LDBV = 128,
       NULL_LDCV = 256 };

typedef struct args {
    shoal_handle h;
    int ta, tb;
    int m, n, k;                          /* vbatched: the maxima */
    double alpha, beta;
    double alpha_im, beta_im;             /* VBATCHED_CX only */
    int64_t lda, ldb, ldc, batch, sa, sb, sc;
    unsigned nulls;
} args;

/* distinct addresses per operand, so that a swapped operand shows in the record; never read */
static char store_a[8], store_b[8], store_c[8], store_ctx[8];
static void *arr_a[1], *arr_b[1], *arr_c[1];
static int store_mv[1], store_nv[1], store_kv[1], store_ldav[1], store_ldbv[1], store_ldcv[1];

/* VBATCHED_CX: new, shoal_{c,z}gemm_vbatched (prec s: c, d: z); old, the model of the header
 * comment. */
static shoal_status call_cx(int old, char prec, const args *a, shoal_operation ta, shoal_operation tb, const int *mv,
                            const int *nv, const int *kv, void *const *Ap, void *const *Bp, void *const *Cp,
                            const int *ldav, const int *ldbv, const int *ldcv)
{
    const shoal_handle h = a->h;
    if (old) {
        const shoal_status st =
            prec == 'd'
                ? old_dgemm_vbatched(h, ta, tb, mv, nv, kv, a->m, a->n, a->k, a->alpha, (const double *const *)Ap,
                                     ldav, (const double *const *)Bp, ldbv, a->beta, (double *const *)Cp, ldcv, a->batch)
                : old_sgemm_vbatched(h, ta, tb, mv, nv, kv, a->m, a->n, a->k, (float)a->alpha,
                                     (const float *const *)Ap, ldav, (const float *const *)Bp, ldbv, (float)a->beta,
                                     (float *const *)Cp, ldcv, a->batch);
        if (rec.calls) {
            rec.prec = prec == 'd' ? 'z' : 'c';
            rec.vp.alpha[1] = prec == 'd' ? a->alpha_im : (float)a->alpha_im;
            rec.vp.beta[1] = prec == 'd' ? a->beta_im : (float)a->beta_im;
            rec.vp.conj = (a->ta == SHOAL_OP_C) | (a->tb == SHOAL_OP_C) << 1;
        }
        return st;
    }
    if (prec == 'd') {
        const shoal_complex_double al = {a->alpha, a->alpha_im}, be = {a->beta, a->beta_im};
        return shoal_zgemm_vbatched(h, ta, tb, mv, nv, kv, a->m, a->n, a->k, al,
                                    (const shoal_complex_double *const *)Ap, ldav,
                                    (const shoal_complex_double *const *)Bp, ldbv, be,
                                    (shoal_complex_double *const *)Cp, ldcv, a->batch);
    }
    const shoal_complex_float al = {(float)a->alpha, (float)a->alpha_im}, be = {(float)a->beta, (float)a->beta_im};
    return shoal_cgemm_vbatched(h, ta, tb, mv, nv, kv, a->m, a->n, a->k, al, (const shoal_complex_float *const *)Ap,
                                ldav, (const shoal_complex_float *const *)Bp, ldbv, be,
                                (shoal_complex_float *const *)Cp, ldcv, a->batch);
}

static shoal_status call(int old, enum form f, char prec, const args *a)
{
#define PTR(bit, p) (a->nulls & (bit) ? NULL : (p))
    void *A = PTR(NULL_A, store_a), *B = PTR(NULL_B, store_b), *C = PTR(NULL_C, store_c);
    void *const *Ap = PTR(NULL_A, arr_a), *const *Bp = PTR(NULL_B, arr_b), *const *Cp = PTR(NULL_C, arr_c);
    const int *mv = PTR(NULL_MV, store_mv), *nv = PTR(NULL_NV, store_nv), *kv = PTR(NULL_KV, store_kv);
    const int *ldav = PTR(NULL_LDAV, store_ldav), *ldbv = PTR(NULL_LDBV, store_ldbv);
    const int *ldcv = PTR(NULL_LDCV, store_ldcv);
#undef PTR
    const shoal_operation ta = glue_op(old, a->ta), tb = glue_op(old, a->tb);
    const shoal_handle h = a->h;
#define F(fn) (old ? old_##fn : shoal_##fn)
#define BODY(p, E)                                                                                                 \
    switch (f) {                                                                                                   \
    case ARRAY:                                                                                                    \
        return F(p##gemm_batched)(h, ta, tb, a->m, a->n, a->k, (E)a->alpha, (const E *const *)Ap, a->lda,          \
                                  (const E *const *)Bp, a->ldb, (E)a->beta, (E *const *)Cp, a->ldc, a->batch);     \
    case STRIDED:                                                                                                  \
        return F(p##gemm_strided_batched)(h, ta, tb, a->m, a->n, a->k, (E)a->alpha, (const E *)A, a->lda, a->sa,   \
                                          (const E *)B, a->ldb, a->sb, (E)a->beta, (E *)C, a->ldc, a->sc,          \
                                          a->batch);                                                               \
    case VBATCHED:                                                                                                 \
        return F(p##gemm_vbatched)(h, ta, tb, mv, nv, kv, a->m, a->n, a->k, (E)a->alpha, (const E *const *)Ap,     \
                                   ldav, (const E *const *)Bp, ldbv, (E)a->beta, (E *const *)Cp, ldcv, a->batch);  \
    default: break;                                                                                                \
    }
    if (f == VBATCHED_CX) return call_cx(old, prec, a, ta, tb, mv, nv, kv, Ap, Bp, Cp, ldav, ldbv, ldcv);
    if (prec == 'd') { BODY(d, double) }
    else { BODY(s, float) }
#undef BODY
#undef F
    return (shoal_status)-1;
}

/* ---- the grid ---- */

static const double scalars[] = {0.0, 1.0, -1.0, 0.5, NAN};

static args any_args(void)
{
    args a;
    a.h = glue_next() & 1 ? (shoal_handle)store_ctx : NULL;
    a.ta = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2, 3);
    a.tb = (int)PICK(0, 1, 0, 1, 0, 1, -1, 2, 3);
    a.m = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33, 300);
    a.n = (int)PICK(-1, 0, 1, 2, 3, 5, 32, 33, 300);
    a.k = (int)PICK(-1, 0, 0, 1, 2, 3, 5, 33);
    a.alpha = scalars[glue_next() % 5];
    a.beta = scalars[glue_next() % 5];
    a.alpha_im = scalars[glue_next() % 5];
    a.beta_im = scalars[glue_next() % 5];
    const int64_t ra = a.ta ? a.k : a.m, rb = a.tb ? a.n : a.k;
    a.lda = PICK(0, 1, 40, ra - 1, ra, ra + 1, a.m, a.k, (int64_t)1 << 32);
    a.ldb = PICK(0, 1, 40, rb - 1, rb, rb + 1, a.n, a.k, (int64_t)1 << 32);
    a.ldc = PICK(0, 1, 40, a.m - 1, a.m, a.m + 1, (int64_t)1 << 32);
    a.batch = PICK(-1, 0, 1, 2, 2, 3, (int64_t)1 << 33);
    a.sa = PICK(-1, 0, 1, a.lda * a.k, a.lda * a.m, (int64_t)1 << 40);
    a.sb = PICK(-1, 0, 1, a.ldb * a.n, a.ldb * a.k, (int64_t)1 << 40);
    a.sc = PICK(-1, 0, 1, a.ldc * a.n, a.ldc * a.n - 1, a.ldc * a.n + 7, (int64_t)1 << 40);
    a.nulls = glue_next() % 2 ? 0 : (unsigned)(glue_next() % 512) & (unsigned)(glue_next() % 512);
    return a;
}

static args valid_args(void)
{
    args a;
    a.h = glue_next() & 1 ? (shoal_handle)store_ctx : NULL;
    a.ta = (int)(glue_next() & 1);
    a.tb = (int)(glue_next() & 1);
    a.m = (int)PICK(1, 2, 3, 5, 32, 33);
    a.n = (int)PICK(1, 2, 3, 5, 32, 33);
    a.k = (int)PICK(1, 2, 3, 5, 33);
    a.alpha = scalars[glue_next() % 5];
    a.beta = scalars[glue_next() % 5];
    a.alpha_im = scalars[glue_next() % 5];
    a.beta_im = scalars[glue_next() % 5];
    const int64_t ra = a.ta ? a.k : a.m, rb = a.tb ? a.n : a.k;
    a.lda = PICK(ra, ra + 1, 40);
    a.ldb = PICK(rb, rb + 1, 40);
    a.ldc = PICK(a.m, a.m + 1, 40);
    a.batch = PICK(1, 2, 3);
    a.sa = PICK(0, a.lda * 40, a.lda * 40 + 5);
    a.sb = PICK(0, a.ldb * 40, a.ldb * 40 + 5);
    a.sc = PICK(a.ldc * a.n, a.ldc * a.n + 3);
    a.nulls = 0;
    return a;
}

/* Half the calls: every argument from the whole grid; the other half: a valid call, then in
 * half of those one argument from the whole grid (each rule's boundary, one at a time). */
static args grid_args(void)
{
    const args any = any_args();
    if (glue_next() & 1) return any;
    args a = valid_args();
    if (glue_next() & 1) return a;
    switch (glue_next() % 16) {
    case 0: a.h = any.h; break;
    case 1: a.ta = any.ta; break;
    case 2: a.tb = any.tb; break;
    case 3: a.m = any.m; break;
    case 4: a.n = any.n; break;
    case 5: a.k = any.k; break;
    case 6: a.alpha = any.alpha; a.beta = any.beta; a.alpha_im = any.alpha_im; a.beta_im = any.beta_im; break;
    case 7: a.lda = any.lda; break;
    case 8: a.ldb = any.ldb; break;
    case 9: a.ldc = any.ldc; break;
    case 10: a.batch = any.batch; break;
    case 11: a.sa = any.sa; break;
    case 12: a.sb = any.sb; break;
    case 13: a.sc = any.sc; break;
    case 14: a.k = 0; a.nulls = glue_next() & 1 ? NULL_A : NULL_B; break; /* A, B unused with k == 0 */
    default: a.nulls = 1u << (glue_next() % 9); break;
    }
    return a;
}

static void print_args(const void *args_)
{
    const args *a = args_;
    printf("  handle %s transa %d transb %d m %d n %d k %d alpha %g%+gi beta %g%+gi lda %" PRId64 " ldb %" PRId64
           " ldc %" PRId64 " batch %" PRId64 " strideA %" PRId64 " strideB %" PRId64 " strideC %" PRId64
           " nulls %#x\n",
           a->h ? "set" : "NULL", a->ta, a->tb, a->m, a->n, a->k, a->alpha, a->alpha_im, a->beta, a->beta_im, a->lda,
           a->ldb, a->ldc,
           a->batch, a->sa, a->sb, a->sc, a->nulls);
}

/* Which part of the records of two reached runs differs, or NULL. */
static const char *differs(const void *x_, const void *y_)
{
    const record *x = x_, *y = y_;
    if (x->which != y->which) return "which run";
    if (x->handle != y->handle) return "handle";
    if (x->prec != y->prec) return "precision";
    if (x->ta != y->ta || x->tb != y->tb) return "options";
    if (x->variant != y->variant) return "variant";
    if (memcmp(&x->p, &y->p, sizeof x->p)) return "shoal_gemm_params";
    if (memcmp(&x->vp, &y->vp, sizeof x->vp)) return "shoal_gemm_vparams";
    return NULL;
}

static void random_args(const glue_unit *u, void *out)
{
    args *a = out;
    *a = grid_args();
    if (u->routine == VBATCHED_CX) { /* op C as often as op T */
        if (a->ta == SHOAL_OP_T && glue_next() & 1) a->ta = SHOAL_OP_C;
        if (a->tb == SHOAL_OP_T && glue_next() & 1) a->tb = SHOAL_OP_C;
    }
}

/* a unit's routine is the form here: one routine, three forms (and the complex vbatched) */
static shoal_status call_unit(int old, const glue_unit *u, char prec, const void *a)
{
    return call(old, (enum form)u->routine, prec, a);
}

static void tally(const glue_unit *u, shoal_status s, const void *rec_, glue_counts *c)
{
    (void)u;
    if (((const record *)rec_)->calls) ++c->reached;
    else if (s == SHOAL_STATUS_INVALID_VALUE) ++c->rejected;
}

static void report(const glue_unit *u, const glue_counts *c)
{
    printf("%s: %ld reached run, %ld rejected\n", u->name, c->reached, c->rejected);
}

static const glue_unit units[] = {{"gemm_batched", ARRAY, 1}, {"gemm_strided_batched", STRIDED, 0},
                                  {"gemm_vbatched", VBATCHED, 1}, {"gemm_vbatched_cx", VBATCHED_CX, 1}};

int main(int argc, char **argv)
{
    static args a;
    const glue_test t = {units, (int)(sizeof units / sizeof units[0]), &a, &rec, sizeof rec, random_args,
                         call_unit, differs, print_args, tally, report};
    return glue_main(&t, argc, argv);
}
