/* The trsm, syrk and herk oracles (oracle/blas3.c), ormqr and orgqr's (oracle/house.c) and
 * gebrd's (oracle/bidiag.c) on the CPU: each check accepts solutions and
 * products computed here in single and in double precision (its bound holds for the data its
 * generator makes), and rejects a perturbed element, a non-finite one, a changed input, a
 * touched other triangle and solutions that read what must not be read.
 * Usage: test_oracle [--list | --case NAME]; prints "ok NAME" / "FAILED NAME". */
#include <math.h>
#include <stdlib.h>

#include "../../oracle/oracle.h"
#include "host_cases.h"
#include "ref_larfg.h"

#define EPS_S (1.0 / 16777216.0)          /* 2^-24 */
#define EPS_D (1.0 / 9007199254740992.0)  /* 2^-53 */

/* Rounds to single precision when single is set: every operation below goes through it, so the
 * single-precision results are what float arithmetic gives (double has room for exact rounding of
 * float +, -, *, /). */
static double rnd(double x, int single) { return single ? (double)(float)x : x; }

/* ---- trsm ---------------------------------------------------------------------------------- */

typedef struct {
    int m, n, side, upper, trans, unit;
} trsm_case;

typedef struct {
    oracle_problem p;
    double *A, *B, *X, *Aout;
    int t;
} trsm_data;

/* The problem of a case (dims, options, alpha = -1.25, the operands' shapes); returns the order
 * of the triangle. */
static int trsm_shape(oracle_problem *p, trsm_case c)
{
    const int t = c.side ? c.n : c.m;
    p->dims[0] = c.m;
    p->dims[1] = c.n;
    p->opts[0] = c.side;
    p->opts[1] = c.upper;
    p->opts[2] = c.trans;
    p->opts[3] = c.unit;
    p->alpha = -1.25;
    p->rows[0] = p->cols[0] = t;
    p->rows[1] = c.m;
    p->cols[1] = c.n;
    return t;
}

static trsm_data trsm_make(trsm_case c, unsigned long long seed, int single)
{
    trsm_data d;
    memset(&d, 0, sizeof d);
    d.t = trsm_shape(&d.p, c);
    d.A = malloc(sizeof(double) * d.t * d.t);
    d.Aout = malloc(sizeof(double) * d.t * d.t);
    d.B = malloc(sizeof(double) * c.m * c.n);
    d.X = malloc(sizeof(double) * c.m * c.n);
    double *in[ORACLE_MAX_OPERANDS] = {d.A, d.B, 0, 0};
    oracle_find("trsm")->generate(&d.p, seed, in);
    if (single) { /* the caller of a single-precision check passes float data converted to double */
        for (int e = 0; e < d.t * d.t; ++e) d.A[e] = rnd(d.A[e], 1);
        for (int e = 0; e < c.m * c.n; ++e) d.B[e] = rnd(d.B[e], 1);
    }
    memcpy(d.Aout, d.A, sizeof(double) * d.t * d.t);
    d.p.in[0] = d.A;
    d.p.in[1] = d.B;
    d.p.out[0] = d.Aout;
    d.p.out[1] = d.X;
    return d;
}

static void trsm_free(trsm_data *d)
{
    free(d->A);
    free(d->Aout);
    free(d->B);
    free(d->X);
}

/* How a solver reads A: as BLAS says (HONEST), or wrongly: the mirror image of the other
 * triangle (OTHER, what mixing up uplo reads), or the stored diagonal of a unit triangle (DIAG). */
enum { HONEST, OTHER, DIAG };

/* op(A)(r, c) as the solver sees it (the solve reads only op(A)'s triangle). */
static double opa(const trsm_data *d, int r, int c, int how)
{
    const int trans = d->p.opts[2], unit = d->p.opts[3];
    const int ar = trans ? c : r, ac = trans ? r : c;
    if (ar == ac) return unit && how != DIAG ? 1.0 : d->A[ar + ac * d->t];
    return how == OTHER ? d->A[ac + ar * d->t] : d->A[ar + ac * d->t];
}

/* X = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right) by substitution, in single or double:
 * the vectors are the columns (left) or rows (right) of B, the matrix op(A) (left) or op(A)^T. */
static void trsm_solve(trsm_data *d, int single, int how)
{
    const int m = d->p.dims[0], n = d->p.dims[1], side = d->p.opts[0], t = d->t;
    const int nvec = side ? m : n;
    /* op(A) (or its transpose) lower: forward; else backward */
    const int lower = (d->p.opts[1] == 0) != (d->p.opts[2] != side);
    for (int v = 0; v < nvec; ++v) {
        double x[1024];
        for (int i = 0; i < t; ++i) x[i] = rnd(d->p.alpha * d->B[side ? v + i * m : i + v * m], single);
        for (int s = 0; s < t; ++s) {
            const int i = lower ? s : t - 1 - s;
            double acc = x[i];
            for (int u = 0; u < s; ++u) {
                const int k = lower ? u : t - 1 - u;
                const double a = side ? opa(d, k, i, how) : opa(d, i, k, how);
                acc = rnd(acc - rnd(a * x[k], single), single);
            }
            x[i] = rnd(acc / opa(d, i, i, how), single);
        }
        for (int i = 0; i < t; ++i) d->X[side ? v + i * m : i + v * m] = x[i];
    }
}

static const trsm_case trsm_cases[] = {
    {1, 1, 0, 0, 0, 0}, {3, 5, 0, 0, 0, 0}, {6, 2, 1, 0, 0, 0}, {17, 9, 0, 0, 0, 0},
    {9, 17, 0, 0, 0, 0}, {32, 32, 0, 0, 0, 0}, {64, 7, 0, 0, 0, 0}, {5, 64, 1, 0, 0, 0},
};
#define N_TRSM_CASES (int)(sizeof trsm_cases / sizeof trsm_cases[0])

/* Every shape above with every (side, uplo, trans, diag): fn(case, seed). */
static void trsm_each(void (*fn)(trsm_case, unsigned long long))
{
    for (int s = 0; s < N_TRSM_CASES; ++s)
        for (int o = 0; o < 16; ++o) {
            trsm_case c = trsm_cases[s];
            c.side = o & 1;
            c.upper = (o >> 1) & 1;
            c.trans = (o >> 2) & 1;
            c.unit = (o >> 3) & 1;
            /* keep the shape's t: swap m and n for side right */
            if (c.side != trsm_cases[s].side) {
                const int tmp = c.m;
                c.m = c.n;
                c.n = tmp;
            }
            fn(c, 1000u * (unsigned)s + (unsigned)o);
        }
}

static double trsm_err(trsm_data *d, double eps) { return oracle_find("trsm")->check(&d->p, eps); }

static void accepts_one(trsm_case c, unsigned long long seed)
{
    for (int single = 0; single < 2; ++single) {
        trsm_data d = trsm_make(c, seed, single);
        trsm_solve(&d, single, HONEST);
        const double err = trsm_err(&d, single ? EPS_S : EPS_D);
        if (!(err < ORACLE_ERROR_LIMIT))
            printf("  m %d n %d side %d upper %d trans %d unit %d %s: error %g\n", c.m, c.n, c.side, c.upper,
                   c.trans, c.unit, single ? "s" : "d", err);
        CHECK(err < ORACLE_ERROR_LIMIT);
        trsm_free(&d);
    }
}
static void trsm_accepts_solutions(void) { trsm_each(accepts_one); }

/* One element of X off by 10% of X's largest element. (The check is normwise: an error that
 * small against the whole solution is what it can be sure to catch at every size here.) */
static void rejects_perturbed_one(trsm_case c, unsigned long long seed)
{
    trsm_data d = trsm_make(c, seed, 1);
    trsm_solve(&d, 1, HONEST);
    double big = 0.0;
    for (int e = 0; e < c.m * c.n; ++e) big = fmax(big, fabs(d.X[e]));
    d.X[(c.m * c.n) / 2] += 0.1 * big;
    const double err = trsm_err(&d, EPS_S);
    if (!(err > ORACLE_ERROR_LIMIT))
        printf("  m %d n %d side %d upper %d trans %d unit %d: error %g\n", c.m, c.n, c.side, c.upper, c.trans,
               c.unit, err);
    CHECK(err > ORACLE_ERROR_LIMIT);
    trsm_free(&d);
}
static void trsm_rejects_perturbed(void) { trsm_each(rejects_perturbed_one); }

/* A solver that reads the other triangle, or the diagonal of a unit triangle, gets the
 * generator's garbage. */
static void rejects_unreferenced_one(trsm_case c, unsigned long long seed)
{
    for (int how = OTHER; how <= DIAG; ++how) {
        trsm_data d = trsm_make(c, seed, 1);
        if ((how == OTHER && d.t > 1) || (how == DIAG && c.unit)) {
            trsm_solve(&d, 1, how);
            const double err = trsm_err(&d, EPS_S);
            if (!(err > ORACLE_ERROR_LIMIT))
                printf("  m %d n %d side %d upper %d trans %d unit %d how %d: error %g\n", c.m, c.n, c.side, c.upper,
                       c.trans, c.unit, how, err);
            CHECK(err > ORACLE_ERROR_LIMIT);
        }
        trsm_free(&d);
    }
}
static void trsm_rejects_reading_unreferenced(void) { trsm_each(rejects_unreferenced_one); }

static void trsm_rejects_non_finite_and_changed_a(void)
{
    const trsm_case c = {7, 5, 0, 1, 1, 0};
    trsm_data d = trsm_make(c, 7, 0);
    trsm_solve(&d, 0, HONEST);
    CHECK(trsm_err(&d, EPS_D) < ORACLE_ERROR_LIMIT);
    const double keep = d.X[3];
    d.X[3] = NAN;
    CHECK(trsm_err(&d, EPS_D) == INFINITY);
    d.X[3] = INFINITY;
    CHECK(trsm_err(&d, EPS_D) == INFINITY);
    d.X[3] = keep;
    /* even a garbage element of A (never read) must not be written */
    d.Aout[d.t * d.t - 1 - 1] += 1.0; /* (t - 2, t - 1): the stored upper triangle */
    CHECK(trsm_err(&d, EPS_D) == INFINITY);
    memcpy(d.Aout, d.A, sizeof(double) * d.t * d.t);
    d.Aout[1] = -d.Aout[1]; /* (1, 0): the other (lower) triangle */
    CHECK(trsm_err(&d, EPS_D) == INFINITY);
    memcpy(d.Aout, d.A, sizeof(double) * d.t * d.t);
    CHECK(trsm_err(&d, EPS_D) < ORACLE_ERROR_LIMIT);
    trsm_free(&d);
}

static void trsm_alpha_zero_wants_zeros(void)
{
    const trsm_case c = {4, 6, 1, 0, 0, 1};
    trsm_data d = trsm_make(c, 11, 0);
    d.p.alpha = 0.0;
    memset(d.X, 0, sizeof(double) * c.m * c.n);
    CHECK(trsm_err(&d, EPS_D) == 0.0);
    d.X[5] = 1e-300;
    CHECK(trsm_err(&d, EPS_D) == INFINITY);
    trsm_free(&d);
}

/* The generator: seeds give different data, the stored triangle is dominant, B is not zero. */
static void trsm_generator_shapes_the_data(void)
{
    const trsm_case c = {12, 3, 0, 0, 0, 0};
    trsm_data a = trsm_make(c, 1, 0), b = trsm_make(c, 2, 0);
    CHECK(memcmp(a.A, b.A, sizeof(double) * 144) != 0);
    CHECK(memcmp(a.B, b.B, sizeof(double) * 36) != 0);
    int nonzero = 0;
    for (int i = 0; i < 12; ++i) {
        double off = 0.0;
        for (int k = 0; k < i; ++k) off += fabs(a.A[i + k * 12]);
        CHECK(fabs(a.A[i + i * 12]) >= 1.5 && fabs(a.A[i + i * 12]) <= 2.5 && off < 1.0);
        if (i < 11) CHECK(fabs(a.A[i + 11 * 12]) >= 1e6); /* (i, 11): the other triangle */
    }
    for (int e = 0; e < 36; ++e) nonzero += a.B[e] != 0.0 && fabs(a.B[e]) <= 1.0;
    CHECK(nonzero == 36);
    trsm_free(&a);
    trsm_free(&b);
}

/* ---- syrk ---------------------------------------------------------------------------------- */

/* A rank-k update's problem (syrk, herk): dims {n, k}, opts {uplo, trans}, A n x k (k x n for
 * trans), C n x n, both stored without padding. */
static void rank_k_shape(oracle_problem *p, int n, int k, int upper, int trans, double alpha, double beta)
{
    p->dims[0] = n;
    p->dims[1] = k;
    p->opts[0] = upper;
    p->opts[1] = trans;
    p->alpha = alpha;
    p->beta = beta;
    p->rows[0] = trans ? k : n;
    p->cols[0] = trans ? n : k;
    p->rows[1] = p->cols[1] = n;
}

typedef struct {
    oracle_problem p;
    double *A, *Aout, *C, *Cout;
    int n, k;
} syrk_data;

static syrk_data syrk_make(int n, int k, int upper, int trans, double alpha, double beta,
                           unsigned long long seed, int single)
{
    syrk_data d;
    memset(&d, 0, sizeof d);
    d.n = n;
    d.k = k;
    rank_k_shape(&d.p, n, k, upper, trans, alpha, beta);
    const int na = n * k > 0 ? n * k : 1;
    d.A = malloc(sizeof(double) * na);
    d.Aout = malloc(sizeof(double) * na);
    d.C = malloc(sizeof(double) * n * n);
    d.Cout = malloc(sizeof(double) * n * n);
    double *in[ORACLE_MAX_OPERANDS] = {d.A, d.C, 0, 0};
    oracle_find("syrk")->generate(&d.p, seed, in);
    if (single) {
        for (int e = 0; e < n * k; ++e) d.A[e] = rnd(d.A[e], 1);
        for (int e = 0; e < n * n; ++e) d.C[e] = rnd(d.C[e], 1);
    }
    memcpy(d.Aout, d.A, sizeof(double) * na);
    memcpy(d.Cout, d.C, sizeof(double) * n * n);
    d.p.in[0] = d.A;
    d.p.in[1] = d.C;
    d.p.out[0] = d.Aout;
    d.p.out[1] = d.Cout;
    return d;
}

static void syrk_free(syrk_data *d)
{
    free(d->A);
    free(d->Aout);
    free(d->C);
    free(d->Cout);
}

/* The stored triangle of Cout = alpha op(A) op(A)^T + beta C, in single or double, with BLAS's
 * skips (no product for alpha == 0 or k == 0, C not read for beta == 0). */
static void syrk_compute(syrk_data *d, int single)
{
    const int n = d->n, k = d->k, upper = d->p.opts[0], trans = d->p.opts[1];
    const int lda = d->p.rows[0];
    for (int j = 0; j < n; ++j)
        for (int i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i) {
            double acc = 0.0;
            for (int l = 0; l < k; ++l) {
                const double ai = trans ? d->A[l + i * lda] : d->A[i + l * lda];
                const double aj = trans ? d->A[l + j * lda] : d->A[j + l * lda];
                acc = rnd(acc + rnd(ai * aj, single), single);
            }
            const double ab = d->p.alpha != 0.0 && k > 0 ? rnd(d->p.alpha * acc, single) : 0.0;
            d->Cout[i + j * n] = d->p.beta == 0.0 ? ab : rnd(ab + rnd(d->p.beta * d->C[i + j * n], single), single);
        }
}

static double syrk_err(syrk_data *d, double eps) { return oracle_find("syrk")->check(&d->p, eps); }

static const int syrk_shapes[][2] = {{1, 1}, {5, 3}, {8, 0}, {3, 40}, {17, 33}, {32, 32}, {64, 16}};
static const double syrk_scalars[][2] = {{1.0, 0.0}, {-0.5, 1.5}, {0.0, 2.0}, {1.25, 1.0}, {0.0, 0.0}};
#define N_SYRK_SHAPES (int)(sizeof syrk_shapes / sizeof syrk_shapes[0])
#define N_SYRK_SCALARS (int)(sizeof syrk_scalars / sizeof syrk_scalars[0])

/* Every shape, (uplo, trans) and (alpha, beta): fn(data maker arguments). */
static void syrk_each(void (*fn)(int n, int k, int upper, int trans, double alpha, double beta,
                                 unsigned long long seed))
{
    for (int s = 0; s < N_SYRK_SHAPES; ++s)
        for (int o = 0; o < 4; ++o)
            for (int a = 0; a < N_SYRK_SCALARS; ++a)
                fn(syrk_shapes[s][0], syrk_shapes[s][1], o & 1, o >> 1, syrk_scalars[a][0], syrk_scalars[a][1],
                   100u * (unsigned)s + 10u * (unsigned)o + (unsigned)a);
}

static void syrk_accepts_one(int n, int k, int upper, int trans, double alpha, double beta, unsigned long long seed)
{
    for (int single = 0; single < 2; ++single) {
        syrk_data d = syrk_make(n, k, upper, trans, alpha, beta, seed, single);
        syrk_compute(&d, single);
        const double err = syrk_err(&d, single ? EPS_S : EPS_D);
        if (!(err < ORACLE_ERROR_LIMIT))
            printf("  n %d k %d upper %d trans %d alpha %g beta %g %s: error %g\n", n, k, upper, trans, alpha, beta,
                   single ? "s" : "d", err);
        CHECK(err < ORACLE_ERROR_LIMIT);
        syrk_free(&d);
    }
}
static void syrk_accepts_products(void) { syrk_each(syrk_accepts_one); }

/* One stored element off by 1% (of its value, at least 0.01): rejected. */
static void syrk_rejects_one(int n, int k, int upper, int trans, double alpha, double beta, unsigned long long seed)
{
    syrk_data d = syrk_make(n, k, upper, trans, alpha, beta, seed, 1);
    syrk_compute(&d, 1);
    const int i = upper ? 0 : n - 1, j = upper ? n - 1 : 0; /* in the stored triangle */
    d.Cout[i + j * n] += 1e-2 * fmax(fabs(d.Cout[i + j * n]), 1.0);
    const double err = syrk_err(&d, EPS_S);
    if (!(err > ORACLE_ERROR_LIMIT))
        printf("  n %d k %d upper %d trans %d alpha %g beta %g: error %g\n", n, k, upper, trans, alpha, beta, err);
    CHECK(err > ORACLE_ERROR_LIMIT);
    syrk_free(&d);
}
static void syrk_rejects_perturbed(void) { syrk_each(syrk_rejects_one); }

/* Any change of the other triangle, even to an equal-valued bit pattern (-0 for 0), or of A. */
static void syrk_rejects_touched_other_triangle_and_a(void)
{
    for (int upper = 0; upper < 2; ++upper) {
        syrk_data d = syrk_make(6, 4, upper, 0, 1.0, 0.5, 3, 0);
        syrk_compute(&d, 0);
        CHECK(syrk_err(&d, EPS_D) < ORACLE_ERROR_LIMIT);
        const int other = upper ? 5 : 5 * 6; /* (5, 0) or (0, 5) */
        const double keep = d.Cout[other];
        d.Cout[other] = keep * (1.0 + 1e-15);
        CHECK(syrk_err(&d, EPS_D) == INFINITY);
        d.C[other] = 0.0;
        d.Cout[other] = -0.0;
        CHECK(syrk_err(&d, EPS_D) == INFINITY);
        d.Cout[other] = 0.0;
        CHECK(syrk_err(&d, EPS_D) < ORACLE_ERROR_LIMIT);
        d.Aout[2] += 1.0;
        CHECK(syrk_err(&d, EPS_D) == INFINITY);
        syrk_free(&d);
    }
}

/* beta == 0: a NaN in C's input must not show (BLAS does not read C); a NaN output is wrong. */
static void syrk_beta_zero_ignores_c_and_rejects_nan(void)
{
    syrk_data d = syrk_make(5, 7, 1, 1, 0.75, 0.0, 9, 0);
    for (int e = 0; e < 25; ++e) d.C[e] = NAN;
    memcpy(d.Cout, d.C, sizeof(double) * 25);
    syrk_compute(&d, 0);
    CHECK(syrk_err(&d, EPS_D) < ORACLE_ERROR_LIMIT);
    d.Cout[2 + 3 * 5] = NAN; /* (2, 3): stored (upper) */
    CHECK(syrk_err(&d, EPS_D) == INFINITY);
    syrk_free(&d);
}

/* ---- complex trsm (c, z: is_complex, (re, im) pairs) --------------------------------------- */

#include <complex.h>

typedef double complex zc;

/* Rounds both parts to single precision when single is set. */
static zc zrnd(zc x, int single) { return single ? (double)(float)creal(x) + I * (double)(float)cimag(x) : x; }

/* The complex operands as a check reads them: A (na elements) and the second input B (nb),
 * both rounded to single precision when single is set, A's output copy made, and the problem's
 * in / out pointers bound (in: A, B; out: Aout, Bout). */
static void zbind(oracle_problem *p, zc *A, zc *Aout, int na, zc *B, zc *Bout, int nb, int single)
{
    for (int e = 0; e < na; ++e) A[e] = zrnd(A[e], single);
    for (int e = 0; e < nb; ++e) B[e] = zrnd(B[e], single);
    if (na > 0) memcpy(Aout, A, sizeof(zc) * na);
    p->in[0] = (const double *)A;
    p->in[1] = (const double *)B;
    p->out[0] = (const double *)Aout;
    p->out[1] = (const double *)Bout;
}

typedef struct {
    oracle_problem p;
    zc *A, *B, *X, *Aout;
    int t;
} ztrsm_data;

static ztrsm_data ztrsm_make(trsm_case c, unsigned long long seed, int single)
{
    ztrsm_data d;
    memset(&d, 0, sizeof d);
    d.t = trsm_shape(&d.p, c);
    d.p.alpha_im = 0.75;
    d.p.is_complex = 1;
    d.A = malloc(sizeof(zc) * d.t * d.t);
    d.Aout = malloc(sizeof(zc) * d.t * d.t);
    d.B = malloc(sizeof(zc) * c.m * c.n);
    d.X = malloc(sizeof(zc) * c.m * c.n);
    double *in[ORACLE_MAX_OPERANDS] = {(double *)d.A, (double *)d.B, 0, 0};
    oracle_find("trsm")->generate(&d.p, seed, in);
    zbind(&d.p, d.A, d.Aout, d.t * d.t, d.B, d.X, c.m * c.n, single);
    return d;
}

static void ztrsm_free(ztrsm_data *d)
{
    free(d->A);
    free(d->Aout);
    free(d->B);
    free(d->X);
}

/* op(A)(r, c) of the referenced triangle; how = 1 conjugates where trans is T instead of C (a
 * kernel that forgot, or misapplied, the conjugation). */
static zc zopa(const ztrsm_data *d, int r, int c, int how)
{
    const int upper = d->p.opts[1], trans = d->p.opts[2], unit = d->p.opts[3], t = d->t;
    const int rr = trans ? c : r, cc = trans ? r : c;
    zc a;
    if (rr == cc) a = unit ? 1.0 : d->A[rr + cc * t];
    else if (upper ? rr > cc : rr < cc) a = 0.0;
    else a = d->A[rr + cc * t];
    const int conjugate = trans == 2 ? !how : (trans == 1 && how);
    return conjugate ? conj(a) : a;
}

/* X by substitution in the precision's arithmetic (single: every operation rounded), op(A)
 * dense: side left op(A) X = alpha B, right X op(A) = alpha B. */
static void ztrsm_solve(ztrsm_data *d, int single, int how)
{
    const int m = d->p.dims[0], n = d->p.dims[1], side = d->p.opts[0], t = d->t;
    const zc alpha = zrnd(d->p.alpha + I * d->p.alpha_im, single);
    const int r_count = side ? m : n;
    /* lower op(A) (forward) or upper (backward), as op(A) stands */
    const int lower_op = (d->p.opts[1] == 0) == (d->p.opts[2] == 0);
    for (int v = 0; v < r_count; ++v)
        for (int q = 0; q < t; ++q) {
            /* left: rows of op(A) in solve order; right: columns (X op(A): x^T op(A) = b^T) */
            const int fwd = side ? !lower_op : lower_op;
            const int i = fwd ? q : t - 1 - q;
            zc s = zrnd(alpha * (side ? d->B[v + i * m] : d->B[i + v * m]), single);
            for (int l = 0; l < t; ++l) {
                if (fwd ? l >= i : l <= i) continue;
                const zc a = side ? zopa(d, l, i, how) : zopa(d, i, l, how);
                const zc x = side ? d->X[v + l * m] : d->X[l + v * m];
                s = zrnd(s - zrnd(a * x, single), single);
            }
            const zc x = zrnd(s / (side ? zopa(d, i, i, how) : zopa(d, i, i, how)), single);
            if (side) d->X[v + i * m] = x;
            else d->X[i + v * m] = x;
        }
}

static const trsm_case ztrsm_cases[] = {
    {1, 1, 0, 0, 0, 0}, {5, 3, 0, 0, 2, 0}, {5, 3, 0, 1, 2, 1}, {4, 6, 1, 0, 2, 0}, {4, 6, 1, 1, 2, 1},
    {9, 7, 0, 1, 1, 0}, {6, 9, 1, 0, 1, 1}, {7, 2, 0, 0, 0, 1}, {3, 8, 1, 1, 0, 0}, {17, 5, 1, 1, 2, 0},
};
#define N_ZTRSM_CASES (int)(sizeof ztrsm_cases / sizeof ztrsm_cases[0])

static void ztrsm_accepts_solutions(void)
{
    for (int k = 0; k < N_ZTRSM_CASES; ++k)
        for (int single = 0; single < 2; ++single) {
            ztrsm_data d = ztrsm_make(ztrsm_cases[k], 11 + k, single);
            ztrsm_solve(&d, single, 0);
            const double err = oracle_find("trsm")->check(&d.p, single ? EPS_S : EPS_D);
            if (!(err < ORACLE_ERROR_LIMIT)) printf("  case %d single %d: err %g\n", k, single, err);
            CHECK(err < ORACLE_ERROR_LIMIT);
            ztrsm_free(&d);
        }
}

/* a perturbed element, a solution of the wrong conjugation (trans T or C confused), a NaN in an
 * imaginary part only, a changed A: each refused */
static void ztrsm_rejects_wrong(void)
{
    for (int k = 0; k < N_ZTRSM_CASES; ++k) {
        const trsm_case c = ztrsm_cases[k];
        ztrsm_data d = ztrsm_make(c, 23 + k, 1);
        ztrsm_solve(&d, 1, 0);
        d.X[(c.m * c.n) / 2] += 1e-3 * I;
        CHECK(oracle_find("trsm")->check(&d.p, EPS_S) > ORACLE_ERROR_LIMIT);
        if (c.trans) {
            ztrsm_solve(&d, 1, 1);
            CHECK(oracle_find("trsm")->check(&d.p, EPS_S) > ORACLE_ERROR_LIMIT);
        }
        ztrsm_solve(&d, 1, 0);
        d.X[0] = creal(d.X[0]) + I * NAN;
        CHECK(oracle_find("trsm")->check(&d.p, EPS_S) == INFINITY);
        ztrsm_solve(&d, 1, 0);
        d.Aout[0] += 1e-9 * I;
        CHECK(oracle_find("trsm")->check(&d.p, EPS_S) == INFINITY);
        ztrsm_free(&d);
    }
}

/* the generator: both parts random, the unreferenced parts garbage, the diagonal dominant */
static void ztrsm_generator_shapes_the_data(void)
{
    const trsm_case c = {6, 4, 0, 1, 2, 0};
    ztrsm_data d = ztrsm_make(c, 5, 0);
    int im_nonzero = 0;
    for (int e = 0; e < c.m * c.n; ++e) im_nonzero += cimag(d.B[e]) != 0.0;
    CHECK(im_nonzero > 0);
    for (int i = 0; i < d.t; ++i) CHECK(cabs(d.A[i + i * d.t]) >= 2.0);
    CHECK(cabs(d.A[5 + 0 * d.t]) > 1e5); /* lower part of an upper triangle: garbage */
    /* alpha purely imaginary is not zero: a solution is wanted */
    d.p.alpha = 0.0;
    ztrsm_solve(&d, 0, 0);
    CHECK(oracle_find("trsm")->check(&d.p, EPS_D) < ORACLE_ERROR_LIMIT);
    /* alpha 0 (both parts): zeros wanted */
    d.p.alpha_im = 0.0;
    for (int e = 0; e < c.m * c.n; ++e) d.X[e] = 0.0;
    CHECK(oracle_find("trsm")->check(&d.p, EPS_D) == 0.0);
    d.X[1] = 1e-30 * I;
    CHECK(oracle_find("trsm")->check(&d.p, EPS_D) == INFINITY);
    ztrsm_free(&d);
}

/* ---- herk (c, z) -------------------------------------------------------------------------- */

typedef struct {
    oracle_problem p;
    zc *A, *Aout, *C, *Cout;
    int n, k;
} herk_data;

/* C's diagonal comes from the generator with imaginary parts (they must not be read). */
static herk_data herk_make(int n, int k, int upper, int trans, double alpha, double beta, unsigned long long seed,
                           int single)
{
    herk_data d;
    memset(&d, 0, sizeof d);
    d.n = n;
    d.k = k;
    rank_k_shape(&d.p, n, k, upper, trans, alpha, beta);
    d.p.is_complex = 1;
    const int na = n * k > 0 ? n * k : 1;
    d.A = malloc(sizeof(zc) * na);
    d.Aout = malloc(sizeof(zc) * na);
    d.C = malloc(sizeof(zc) * n * n);
    d.Cout = malloc(sizeof(zc) * n * n);
    double *in[ORACLE_MAX_OPERANDS] = {(double *)d.A, (double *)d.C, 0, 0};
    oracle_find("herk")->generate(&d.p, seed, in);
    zbind(&d.p, d.A, d.Aout, n * k, d.C, d.Cout, n * n, single);
    memcpy(d.Cout, d.C, sizeof(zc) * n * n);
    return d;
}

static void herk_free(herk_data *d)
{
    free(d->A);
    free(d->Aout);
    free(d->C);
    free(d->Cout);
}

/* The stored triangle of Cout = alpha op(A) op(A)^H + beta C (op(A) = A, or A^H for trans 1), in
 * single or double, the diagonal real (C's imaginary part there not read); how = 1 forgets the
 * conjugation of the second factor (op(A) op(A)^T: what a kernel with a lost conj computes). */
static void herk_compute(herk_data *d, int single, int how)
{
    const int n = d->n, k = d->k, upper = d->p.opts[0], trans = d->p.opts[1];
    const int lda = d->p.rows[0];
    /* no product and beta == 1: BLAS returns at once, C as it was (its diagonal too) */
    if (!(d->p.alpha != 0.0 && k > 0) && d->p.beta == 1.0) {
        memcpy(d->Cout, d->C, sizeof(zc) * n * n);
        return;
    }
    for (int j = 0; j < n; ++j)
        for (int i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i) {
            zc acc = 0.0;
            for (int l = 0; l < k; ++l) {
                const zc x = trans ? conj(d->A[l + i * lda]) : d->A[i + l * lda];
                const zc y = trans ? conj(d->A[l + j * lda]) : d->A[j + l * lda];
                acc = zrnd(acc + zrnd(x * (how ? y : conj(y)), single), single);
            }
            const zc ab = d->p.alpha != 0.0 && k > 0 ? zrnd(d->p.alpha * acc, single) : 0.0;
            const zc c = i == j ? (zc)creal(d->C[i + j * n]) : d->C[i + j * n];
            zc out = d->p.beta == 0.0 ? ab : zrnd(ab + zrnd(d->p.beta * c, single), single);
            if (i == j) out = creal(out);
            d->Cout[i + j * n] = out;
        }
}

static double herk_err(herk_data *d, double eps) { return oracle_find("herk")->check(&d->p, eps); }

static const int herk_shapes[][2] = {{1, 1}, {5, 3}, {8, 0}, {3, 40}, {17, 33}, {40, 24}};
static const double herk_scalars[][2] = {{1.0, 0.0}, {-0.5, 1.5}, {0.0, 2.0}, {1.25, 1.0}};
#define N_HERK_SHAPES (int)(sizeof herk_shapes / sizeof herk_shapes[0])
#define N_HERK_SCALARS (int)(sizeof herk_scalars / sizeof herk_scalars[0])

/* every shape, (uplo, trans) and (alpha, beta), in single and double: accepted; a lost
 * conjugation (where k > 0 and alpha != 0 make a product) and an element off by 1% of its
 * magnitude (at least 0.01) in its imaginary part: refused */
static void herk_accepts_products_and_refuses_wrong_ones(void)
{
    for (int s = 0; s < N_HERK_SHAPES; ++s)
        for (int o = 0; o < 4; ++o)
            for (int a = 0; a < N_HERK_SCALARS; ++a)
                for (int single = 0; single < 2; ++single) {
                    const int n = herk_shapes[s][0], k = herk_shapes[s][1];
                    const double alpha = herk_scalars[a][0], beta = herk_scalars[a][1];
                    herk_data d = herk_make(n, k, o & 1, o >> 1, alpha, beta, 50u * (unsigned)s + 7u * (unsigned)o + (unsigned)a, single);
                    const double eps = single ? EPS_S : EPS_D;
                    herk_compute(&d, single, 0);
                    const double err = herk_err(&d, eps);
                    if (!(err < ORACLE_ERROR_LIMIT))
                        printf("  n %d k %d opts %d alpha %g beta %g %s: error %g\n", n, k, o, alpha, beta,
                               single ? "c" : "z", err);
                    CHECK(err < ORACLE_ERROR_LIMIT);
                    if (k > 0 && alpha != 0.0 && n > 1) {
                        herk_compute(&d, single, 1);
                        CHECK(herk_err(&d, eps) > ORACLE_ERROR_LIMIT);
                        herk_compute(&d, single, 0);
                    }
                    const int i = o & 1 ? 0 : n - 1, j = o & 1 ? n - 1 : 0; /* stored */
                    if (i != j) {
                        d.Cout[i + j * n] += 1e-2 * fmax(cabs(d.Cout[i + j * n]), 1.0) * I;
                        CHECK(herk_err(&d, eps) > ORACLE_ERROR_LIMIT);
                    }
                    herk_free(&d);
                }
}

/* The diagonal: an imaginary part in the output is refused (however small), a NaN in the input's
 * imaginary part is not read; the other triangle touched, A changed, a NaN in an imaginary part
 * of the output: refused. alpha == 0 with beta == 1 leaves C bitwise, diagonal included. */
static void herk_diagonal_other_triangle_and_quick_return(void)
{
    for (int upper = 0; upper < 2; ++upper) {
        herk_data d = herk_make(6, 4, upper, upper, 1.0, 0.5, 3, 0);
        d.C[2 + 2 * 6] = creal(d.C[2 + 2 * 6]) + I * NAN;
        herk_compute(&d, 0, 0);
        CHECK(herk_err(&d, EPS_D) < ORACLE_ERROR_LIMIT);
        d.Cout[3 + 3 * 6] += 1e-300 * I;
        CHECK(herk_err(&d, EPS_D) == INFINITY);
        herk_compute(&d, 0, 0);
        const int other = upper ? 5 : 5 * 6; /* (5, 0) or (0, 5) */
        d.Cout[other] += 1e-12;
        CHECK(herk_err(&d, EPS_D) == INFINITY);
        herk_compute(&d, 0, 0);
        d.Cout[other] = d.C[other];
        d.Cout[1 + 4 * 6 - (upper ? 0 : 3 * 6 - 3)] = 0.25 + I * NAN; /* (1, 4) or (4, 1): stored */
        CHECK(herk_err(&d, EPS_D) == INFINITY);
        herk_compute(&d, 0, 0);
        d.Aout[2] += 1e-9 * I;
        CHECK(herk_err(&d, EPS_D) == INFINITY);
        herk_free(&d);
    }
    herk_data d = herk_make(5, 3, 1, 0, 0.0, 1.0, 4, 0);
    CHECK(herk_err(&d, EPS_D) == 0.0); /* C as it was, bitwise */
    d.Cout[0] = creal(d.Cout[0]);      /* its diagonal's imaginary part dropped: a change */
    CHECK(herk_err(&d, EPS_D) == INFINITY);
    herk_free(&d);
}

/* ---- ormqr and orgqr (oracle/house.c) ------------------------------------------------------ */

/* Q = H_0 ... H_{k-1} accumulated explicitly (q x q, from the generator's A and tau, reflector j
 * in column j of the q-row A): an algorithm of its own, not the oracle's reflector by reflector
 * application. Real data have imaginary parts 0. */
static void house_q(int q, int k, int cx, const double *A, const double *tau, zc *Q)
{
    const int w = cx ? 2 : 1;
    for (int c = 0; c < q; ++c)
        for (int r = 0; r < q; ++r) Q[r + c * q] = r == c;
    for (int j = 0; j < k; ++j) { /* Q <- Q H_j = Q - (Q v) tau v^H */
        zc v[1024];
        for (int i = 0; i < q; ++i)
            v[i] = i < j ? 0.0 : i == j ? 1.0 : A[w * (i + j * q)] + (cx ? I * A[w * (i + j * q) + 1] : 0.0);
        const zc t = tau[w * j] + (cx ? I * tau[w * j + 1] : 0.0);
        for (int r = 0; r < q; ++r) {
            zc d = 0.0;
            for (int i = j; i < q; ++i) d += Q[r + i * q] * v[i];
            for (int i = j; i < q; ++i) Q[r + i * q] -= d * t * conj(v[i]);
        }
    }
}

typedef struct {
    oracle_problem p;
    double *A, *tau, *C, *out;
} ormqr_data;

static ormqr_data ormqr_make(int m, int n, int k, int side, int trans, int cx, unsigned long long seed)
{
    ormqr_data d;
    memset(&d, 0, sizeof d);
    const int q = side ? n : m, w = cx ? 2 : 1;
    d.p.dims[0] = m, d.p.dims[1] = n, d.p.dims[2] = k;
    d.p.opts[0] = side, d.p.opts[1] = trans;
    d.p.is_complex = cx;
    d.p.rows[0] = q, d.p.cols[0] = k, d.p.rows[1] = k, d.p.cols[1] = 1, d.p.rows[2] = m, d.p.cols[2] = n;
    d.A = malloc(sizeof(double) * w * q * k + 8);
    d.tau = malloc(sizeof(double) * w * k + 8);
    d.C = malloc(sizeof(double) * w * m * n);
    d.out = malloc(sizeof(double) * w * m * n);
    double *in[ORACLE_MAX_OPERANDS] = {d.A, d.tau, d.C, 0};
    oracle_find("ormqr")->generate(&d.p, seed, in);
    d.p.in[0] = d.p.out[0] = d.A;
    d.p.in[1] = d.p.out[1] = d.tau;
    d.p.in[2] = d.C;
    d.p.out[2] = d.out;
    return d;
}

static void ormqr_free(ormqr_data *d)
{
    free(d->A), free(d->tau), free(d->C), free(d->out);
}

/* out = op(Q) C or C op(Q) through the explicit Q */
static void ormqr_compute(ormqr_data *d)
{
    const int m = d->p.dims[0], n = d->p.dims[1], k = d->p.dims[2], side = d->p.opts[0], trans = d->p.opts[1];
    const int cx = d->p.is_complex, w = cx ? 2 : 1, q = side ? n : m;
    zc *Q = malloc(sizeof(zc) * q * q);
    house_q(q, k, cx, d->A, d->tau, Q);
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) {
            zc s = 0.0;
            for (int l = 0; l < q; ++l) {
                /* op(Q)(a, b) */
                const int a = side ? l : r, b = side ? c : l;
                zc qe = trans ? Q[b + a * q] : Q[a + b * q];
                if (trans == 2 || (trans == 1 && !cx)) qe = conj(qe);
                const int ci = side ? r + l * m : l + c * m;
                s += qe * (d->C[w * ci] + (cx ? I * d->C[w * ci + 1] : 0.0));
            }
            d->out[w * (r + c * m)] = creal(s);
            if (cx) d->out[w * (r + c * m) + 1] = cimag(s);
        }
    free(Q);
}

static const int house_shapes[][3] = {{1, 1, 1}, {5, 3, 3}, {7, 4, 2}, {3, 9, 3}, {17, 17, 17}, {40, 6, 13}};

/* Every shape, side, trans (N, T; C in complex) and kind: the explicit product passes, one
 * element off by 1e-9 of the norm does not, nor A or tau changed, nor a NaN in the result. */
static void ormqr_accepts_products_and_refuses_wrong_ones(void)
{
    for (int s = 0; s < (int)(sizeof house_shapes / sizeof house_shapes[0]); ++s)
        for (int cx = 0; cx < 2; ++cx)
            for (int side = 0; side < 2; ++side)
                for (int trans = 0; trans < 2 + cx; ++trans) {
                    const int m = house_shapes[s][side ? 1 : 0], n = house_shapes[s][side ? 0 : 1];
                    const int k = house_shapes[s][2] <= (side ? n : m) ? house_shapes[s][2] : (side ? n : m);
                    ormqr_data d = ormqr_make(m, n, k, side, trans, cx, 17u * (unsigned)s + 3u * (unsigned)trans + (unsigned)side);
                    ormqr_compute(&d);
                    const oracle *o = oracle_find("ormqr");
                    const double err = o->check(&d.p, EPS_D);
                    if (!(err < ORACLE_ERROR_LIMIT))
                        printf("  m %d n %d k %d side %d trans %d cx %d: error %g\n", m, n, k, side, trans, cx, err);
                    CHECK(err < ORACLE_ERROR_LIMIT);
                    const int e = (m * n) / 2, w = cx ? 2 : 1;
                    const double keep = d.out[w * e];
                    d.out[w * e] += 1e-9 * sqrt((double)m * n);
                    CHECK(o->check(&d.p, EPS_D) > ORACLE_ERROR_LIMIT);
                    d.out[w * e] = NAN;
                    CHECK(o->check(&d.p, EPS_D) == INFINITY);
                    d.out[w * e] = keep;
                    double *A2 = malloc(sizeof(double) * w * d.p.rows[0] * k);
                    memcpy(A2, d.A, sizeof(double) * w * d.p.rows[0] * k);
                    A2[0] += 1.0;
                    d.p.out[0] = A2;
                    CHECK(o->check(&d.p, EPS_D) == INFINITY);
                    free(A2);
                    ormqr_free(&d);
                }
}

/* The generator: every fifth tau 0, the others those of unitary reflectors (|1 - tau|... via
 * Q's orthonormality: Q^H Q = I), and a NaN on A's diagonal (R's place) ignored by the check. */
static void ormqr_generator_and_unread_diagonal(void)
{
    for (int cx = 0; cx < 2; ++cx) {
        ormqr_data d = ormqr_make(12, 5, 9, 0, 0, cx, 5);
        const int w = cx ? 2 : 1;
        CHECK(d.tau[w * 3] == 0.0 && d.tau[w * 8] == 0.0 && d.tau[0] != 0.0);
        zc *Q = malloc(sizeof(zc) * 144);
        house_q(12, 9, cx, d.A, d.tau, Q);
        double off = 0.0;
        for (int a = 0; a < 12; ++a)
            for (int b = 0; b < 12; ++b) {
                zc g = a == b ? -1.0 : 0.0;
                for (int i = 0; i < 12; ++i) g += conj(Q[i + a * 12]) * Q[i + b * 12];
                off = fmax(off, cabs(g));
            }
        CHECK(off < 1e-13);
        free(Q);
        ormqr_compute(&d);
        d.A[w * (4 + 4 * 12)] = NAN; /* the diagonal of column 4 */
        CHECK(oracle_find("ormqr")->check(&d.p, EPS_D) < ORACLE_ERROR_LIMIT);
        ormqr_free(&d);
    }
}

/* orgqr: Q's first n columns (explicit) pass; a perturbed or non-orthonormal one does not */
static void orgqr_accepts_q_and_refuses_wrong_ones(void)
{
    static const int shapes[][3] = {{1, 1, 1}, {1, 1, 0}, {6, 4, 4}, {9, 9, 5}, {33, 7, 7}, {20, 20, 20}};
    for (int s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); ++s)
        for (int cx = 0; cx < 2; ++cx) {
            const int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2], w = cx ? 2 : 1;
            oracle_problem p;
            memset(&p, 0, sizeof p);
            p.dims[0] = m, p.dims[1] = n, p.dims[2] = k;
            p.is_complex = cx;
            p.rows[0] = m, p.cols[0] = n, p.rows[1] = k, p.cols[1] = 1;
            double *A = malloc(sizeof(double) * w * m * n), *tau = malloc(sizeof(double) * w * k + 8);
            double *Qo = malloc(sizeof(double) * w * m * n);
            double *in[ORACLE_MAX_OPERANDS] = {A, tau, 0, 0};
            oracle_find("orgqr")->generate(&p, 40u + (unsigned)s, in);
            zc *Q = malloc(sizeof(zc) * m * m);
            house_q(m, k, cx, A, tau, Q);
            for (int e = 0; e < m * n; ++e) {
                Qo[w * e] = creal(Q[e]);
                if (cx) Qo[w * e + 1] = cimag(Q[e]);
            }
            p.in[0] = A, p.out[0] = Qo, p.in[1] = p.out[1] = tau;
            const oracle *o = oracle_find("orgqr");
            const double err = o->check(&p, EPS_D);
            if (!(err < ORACLE_ERROR_LIMIT)) printf("  m %d n %d k %d cx %d: error %g\n", m, n, k, cx, err);
            CHECK(err < ORACLE_ERROR_LIMIT);
            Qo[0] += 1e-9;
            CHECK(o->check(&p, EPS_D) > ORACLE_ERROR_LIMIT);
            Qo[0] = NAN;
            CHECK(o->check(&p, EPS_D) == INFINITY);
            free(A), free(tau), free(Qo), free(Q);
        }
}

/* ---- gebrd (oracle/bidiag.c) --------------------------------------------------------------- */

/* The reference: LAPACK's unblocked xGEBD2 in double complex (real data: imaginary parts 0),
 * written from LAPACK's conventions, not from the oracle. single rounds the working matrix and
 * every output to float after each step, as float storage between the steps would. */

/* W(r0:m-1, c0:n-1) <- (I - t v v^H) W(r0:m-1, c0:n-1), v(0) = 1, v(1:) = W(r0+1:m-1, vc) */
static void ref_left(zc *W, int m, int n, int r0, int c0, int vc, zc t)
{
    for (int c = c0; c < n; ++c) {
        zc s = W[r0 + c * m];
        for (int r = r0 + 1; r < m; ++r) s += conj(W[r + vc * m]) * W[r + c * m];
        W[r0 + c * m] -= t * s;
        for (int r = r0 + 1; r < m; ++r) W[r + c * m] -= t * W[r + vc * m] * s;
    }
}

/* W(r0:m-1, c0:n-1) <- W(r0:m-1, c0:n-1) (I - t u u^H), u(0) = 1, u(1:) = W(ur, c0+1:n-1) */
static void ref_right(zc *W, int m, int n, int r0, int c0, int ur, zc t)
{
    for (int r = r0; r < m; ++r) {
        zc s = W[r + c0 * m];
        for (int c = c0 + 1; c < n; ++c) s += W[r + c * m] * W[ur + c * m];
        s *= t;
        W[r + c0 * m] -= s;
        for (int c = c0 + 1; c < n; ++c) W[r + c * m] -= s * conj(W[ur + c * m]);
    }
}

static void conj_row(zc *W, int m, int row, int c0, int n)
{
    for (int c = c0; c < n; ++c) W[row + c * m] = conj(W[row + c * m]);
}

/* xGEBD2 on W (m x n): W's output, d, e (real), tauq, taup */
static void ref_gebd2(zc *W, int m, int n, double *d, double *e, zc *tauq, zc *taup, int single)
{
    const int k = m < n ? m : n;
    for (int i = 0; i < k; ++i) {
        zc alpha;
        if (m >= n) {
            /* H(i) annihilates W(i+1:m-1, i); H(i)^H from the left */
            alpha = W[i + i * m];
            tauq[i] = ref_larfg(&alpha, &W[i + 1 + i * m], m - i - 1, 1);
            d[i] = creal(alpha);
            ref_left(W, m, n, i, i + 1, i, conj(tauq[i]));
            W[i + i * m] = d[i];
            if (i < n - 1) {
                /* G(i) annihilates row i right of i + 1: conjugated around larfg as zgebd2 does */
                conj_row(W, m, i, i + 1, n);
                alpha = W[i + (i + 1) * m];
                taup[i] = ref_larfg(&alpha, &W[i + (i + 2) * m], n - i - 2, m);
                e[i] = creal(alpha);
                ref_right(W, m, n, i + 1, i + 1, i, taup[i]);
                conj_row(W, m, i, i + 2, n);
                W[i + (i + 1) * m] = e[i];
            } else {
                taup[i] = 0.0;
            }
        } else {
            conj_row(W, m, i, i, n);
            alpha = W[i + i * m];
            taup[i] = ref_larfg(&alpha, &W[i + (i + 1) * m], n - i - 1, m);
            d[i] = creal(alpha);
            ref_right(W, m, n, i + 1, i, i, taup[i]);
            conj_row(W, m, i, i + 1, n);
            W[i + i * m] = d[i];
            if (i < m - 1) {
                alpha = W[i + 1 + i * m];
                tauq[i] = ref_larfg(&alpha, &W[i + 2 + i * m], m - i - 2, 1);
                e[i] = creal(alpha);
                ref_left(W, m, n, i + 1, i + 1, i, conj(tauq[i]));
                W[i + 1 + i * m] = e[i];
            } else {
                tauq[i] = 0.0;
            }
        }
        for (int x = 0; x < m * n; ++x) W[x] = zrnd(W[x], single);
        tauq[i] = zrnd(tauq[i], single);
        taup[i] = zrnd(taup[i], single);
        d[i] = rnd(d[i], single);
        if (i + 1 < k) e[i] = rnd(e[i], single);
    }
}

typedef struct {
    oracle_problem p;
    double *in[5], *out[5];
    int m, n, k, cx;
} gebrd_data;

/* A problem of the oracle's layout (A m x n, d k, e max(k - 1, 0) real, tauq and taup k of the
 * element type), its input from the generator (rounded to float for s and c) and its output the
 * reference's */
static gebrd_data gebrd_make(int m, int n, int cx, int single, unsigned long long seed)
{
    gebrd_data g;
    memset(&g, 0, sizeof g);
    const int k = m < n ? m : n, w = cx ? 2 : 1;
    g.m = m, g.n = n, g.k = k, g.cx = cx;
    g.p.dims[0] = m, g.p.dims[1] = n;
    g.p.is_complex = cx;
    const int rows[5] = {m, k, k > 1 ? k - 1 : 0, k, k}, per[5] = {w, 1, 1, w, w};
    for (int o = 0; o < 5; ++o) {
        g.p.rows[o] = rows[o];
        g.p.cols[o] = o == 0 ? n : 1;
        const size_t bytes = sizeof(double) * (size_t)per[o] * rows[o] * g.p.cols[o] + 8;
        g.in[o] = malloc(bytes), g.out[o] = malloc(bytes);
    }
    oracle_find("gebrd")->generate(&g.p, seed, g.in);
    for (int o = 0; o < 5; ++o) {
        for (int x = 0; x < per[o] * rows[o] * g.p.cols[o]; ++x) g.in[o][x] = rnd(g.in[o][x], single);
        g.p.in[o] = g.in[o], g.p.out[o] = g.out[o];
    }
    zc *W = malloc(sizeof(zc) * m * n), *tq = malloc(sizeof(zc) * k), *tp = malloc(sizeof(zc) * k);
    for (int x = 0; x < m * n; ++x) W[x] = g.in[0][w * x] + (cx ? I * g.in[0][w * x + 1] : 0.0);
    ref_gebd2(W, m, n, g.out[1], g.out[2], tq, tp, single);
    for (int x = 0; x < m * n; ++x) {
        g.out[0][w * x] = creal(W[x]);
        if (cx) g.out[0][w * x + 1] = cimag(W[x]);
    }
    for (int i = 0; i < k; ++i) {
        g.out[3][w * i] = creal(tq[i]), g.out[4][w * i] = creal(tp[i]);
        if (cx) g.out[3][w * i + 1] = cimag(tq[i]), g.out[4][w * i + 1] = cimag(tp[i]);
    }
    free(W), free(tq), free(tp);
    return g;
}

static void gebrd_free(gebrd_data *g)
{
    for (int o = 0; o < 5; ++o) free(g->in[o]), free(g->out[o]);
}

static double gebrd_err(const gebrd_data *g, double eps) { return oracle_find("gebrd")->check(&g->p, eps); }

/* err passes no bound: a number above the limit, INFINITY or NaN */
static int refused(double err) { return !(err <= ORACLE_ERROR_LIMIT); }

/* s, d, c, z at every shape: the reference passes; each of these refused, alone: d[0] off by
 * 1e-3 ||A||, one stored reflector element changed, the tau LAPACK zeroes nonzero (0.5: outside
 * larfg's range too; 1.5: inside it, so that only the exact-zero rule catches it), a NaN in e,
 * re(tauq(0)) = 3, and (c, z) the stored row of a G reflector not conjugated. */
static void gebrd_accepts_lapack_and_refuses_wrong_ones(void)
{
    static const int shapes[][2] = {{1, 1}, {3, 3}, {5, 2}, {2, 5}, {8, 8}, {17, 9}, {9, 17}, {32, 32}};
    const char *precs = "sdcz";
    for (int pr = 0; pr < 4; ++pr) {
        const int single = pr % 2 == 0, cx = pr >= 2, w = cx ? 2 : 1;
        const double eps = single ? EPS_S : EPS_D;
        for (int s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); ++s) {
            const int m = shapes[s][0], n = shapes[s][1];
            gebrd_data g = gebrd_make(m, n, cx, single, 90u + 10u * (unsigned)s + (unsigned)pr);
            const int k = g.k;
            const double err = gebrd_err(&g, eps);
            if (!(err <= ORACLE_ERROR_LIMIT)) printf("  %c m %d n %d: error %g\n", precs[pr], m, n, err);
            CHECK(err <= ORACLE_ERROR_LIMIT);

            double na = 0.0;
            for (int x = 0; x < w * m * n; ++x) na += g.in[0][x] * g.in[0][x];
            const double keep_d = g.out[1][0];
            g.out[1][0] += 1e-3 * sqrt(na);
            CHECK(refused(gebrd_err(&g, eps)));
            g.out[1][0] = keep_d;

            /* a reflector element: of H(0) (m > 1, m >= n) or of G(0) (n > 1, m < n) */
            const int el = m >= n ? (m > 1 ? m - 1 : -1) : (n - 1) * m;
            if (el >= 0) {
                const double keep = g.out[0][w * el];
                g.out[0][w * el] += 1e-3;
                CHECK(refused(gebrd_err(&g, eps)));
                g.out[0][w * el] = keep;
            }

            double *zero_tau = m >= n ? g.out[4] : g.out[3]; /* taup(k-1) or tauq(k-1) */
            for (int t = 0; t < 2; ++t) {
                zero_tau[w * (k - 1)] = t ? 1.5 : 0.5;
                const double e = gebrd_err(&g, eps);
                CHECK(refused(e) && !isfinite(e));
                zero_tau[w * (k - 1)] = 0.0;
            }

            if (k > 1) {
                const double keep = g.out[2][0];
                g.out[2][0] = NAN;
                const double e = gebrd_err(&g, eps);
                CHECK(refused(e) && !isfinite(e));
                g.out[2][0] = keep;
            }

            const double keep_t = g.out[3][0];
            g.out[3][0] = 3.0;
            const double e3 = gebrd_err(&g, eps);
            CHECK(refused(e3) && !isfinite(e3));
            g.out[3][0] = keep_t;

            /* A's diagonal one ulp off d: the residual cannot see it, the in-place rule must */
            {
                const double keep = g.out[0][0];
                g.out[0][0] = nextafter(keep, INFINITY);
                const double e = gebrd_err(&g, eps);
                CHECK(refused(e) && !isfinite(e));
                g.out[0][0] = keep;
            }

            /* the row of G(0) as the reflector's vector itself, not its conjugate (zlacgv lost) */
            const int c0 = m >= n ? 2 : 1;
            if (cx && n > c0) {
                for (int c = c0; c < n; ++c) g.out[0][2 * (c * m) + 1] = -g.out[0][2 * (c * m) + 1];
                CHECK(refused(gebrd_err(&g, eps)));
                for (int c = c0; c < n; ++c) g.out[0][2 * (c * m) + 1] = -g.out[0][2 * (c * m) + 1];
            }
            CHECK(gebrd_err(&g, eps) == err); /* every change undone */
            gebrd_free(&g);
        }
    }
}

#define CASE(fn) {#fn, fn}
static const test_case cases[] = {
    CASE(trsm_accepts_solutions),
    CASE(trsm_rejects_perturbed),
    CASE(trsm_rejects_reading_unreferenced),
    CASE(trsm_rejects_non_finite_and_changed_a),
    CASE(trsm_alpha_zero_wants_zeros),
    CASE(trsm_generator_shapes_the_data),
    CASE(ztrsm_accepts_solutions),
    CASE(ztrsm_rejects_wrong),
    CASE(ztrsm_generator_shapes_the_data),
    CASE(syrk_accepts_products),
    CASE(syrk_rejects_perturbed),
    CASE(syrk_rejects_touched_other_triangle_and_a),
    CASE(syrk_beta_zero_ignores_c_and_rejects_nan),
    CASE(herk_accepts_products_and_refuses_wrong_ones),
    CASE(herk_diagonal_other_triangle_and_quick_return),
    CASE(ormqr_accepts_products_and_refuses_wrong_ones),
    CASE(ormqr_generator_and_unread_diagonal),
    CASE(orgqr_accepts_q_and_refuses_wrong_ones),
    CASE(gebrd_accepts_lapack_and_refuses_wrong_ones),
};

int main(int argc, char **argv)
{
    if (!oracle_find("trsm") || !oracle_find("syrk") || oracle_find("nosuch")) {
        printf("FAILED oracle_find\n");
        return 1;
    }
    return host_cases_main(cases, (int)(sizeof cases / sizeof cases[0]), argc, argv);
}
