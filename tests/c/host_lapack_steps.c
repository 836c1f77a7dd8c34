/* The shared host pieces of the blocked drivers' host tests (tests/c/host_lapack_steps.h). */
#include "host_lapack_steps.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lapack_ref.h" /* oracle_form_q, oracle_zform_q: the host ORMQR's Q */

/* ---- the precisions, on host memory ---- */

int shoal_spec_elem_bytes(char prec) { return prec == 's' ? 4 : prec == 'd' || prec == 'c' ? 8 : 16; }
int shoal_spec_is_complex(char prec) { return prec == 'c' || prec == 'z'; }

zval host_get(char prec, const void *m, long long at)
{
    switch (prec) {
    case 's': return ((const float *)m)[at];
    case 'd': return ((const double *)m)[at];
    case 'c': return ((const float complex *)m)[at];
    default: return ((const double complex *)m)[at];
    }
}

void host_put(char prec, void *m, long long at, zval v)
{
    switch (prec) {
    case 's': ((float *)m)[at] = (float)creal(v); break;
    case 'd': ((double *)m)[at] = creal(v); break;
    case 'c': ((float complex *)m)[at] = (float complex)v; break;
    default: ((double complex *)m)[at] = v;
    }
}

double host_eps(char prec) { return prec == 's' || prec == 'c' ? FLT_EPSILON / 2 : DBL_EPSILON / 2; }

double host_abs1(zval v) { return fabs(creal(v)) + fabs(cimag(v)); }

void *host_problem(char prec, const shoal_operand *op, long long b)
{
    return op->array ? op->array[b] : (char *)op->ptr + b * op->stride * shoal_spec_elem_bytes(prec);
}

/* ---- the spec steps: TRSM, SYRK / HERK, ORMQR ---- */

int host_spec_calls[HOST_N_SPEC], host_gemm_calls, host_trsm_unit_calls;

int shoal_spec_routine_id(const char *name)
{
    return !strcmp(name, "trsm")    ? HOST_TRSM
           : !strcmp(name, "syrk")  ? HOST_SYRK
           : !strcmp(name, "herk")  ? HOST_HERK
           : !strcmp(name, "ormqr") ? HOST_ORMQR
           : !strcmp(name, "orgqr") ? HOST_ORGQR
                                    : -1;
}

/* op(A)(i, j) of a triangle stored in uplo: 0 outside it (never read there) */
static zval tri(char prec, const void *a, long long ld, int upper, int op, int i, int j)
{
    const int r = op ? j : i, c = op ? i : j;
    if (upper ? r > c : r < c) return 0.0;
    const zval v = host_get(prec, a, r + c * ld);
    return op == 2 ? conj(v) : v;
}

/* B = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right); opts: side, uplo, op, diag (1: unit, the
 * diagonal of A taken as ones and never read) */
static void host_trsm(const shoal_spec_call *c, long long b)
{
    const char prec = c->prec;
    const int left = c->p.opts[0] == 0, upper = c->p.opts[1], op = c->p.opts[2], unit = c->p.opts[3];
    const int m = c->p.dims[0], n = c->p.dims[1], t = left ? m : n;
    const void *a = host_problem(prec, &c->p.op[0], b);
    void *x = host_problem(prec, &c->p.op[1], b);
    const long long lda = c->p.op[0].ld, ldb = c->p.op[1].ld;
    /* M y = rhs with M = op(A) (left, a column of B) or op(A)^T (right, a row of B) */
    const int m_lower = left ? (upper == (op != 0)) : (upper == (op == 0));
    for (int v = 0; v < (left ? n : m); ++v) {
        zval y[1024];
        for (int i = 0; i < t; ++i) y[i] = host_get(prec, x, left ? i + (long long)v * ldb : v + (long long)i * ldb);
        for (int s = 0; s < t; ++s) {
            const int i = m_lower ? s : t - 1 - s;
            zval acc = y[i];
            for (int s2 = 0; s2 < s; ++s2) {
                const int j = m_lower ? s2 : t - 1 - s2;
                acc -= (left ? tri(prec, a, lda, upper, op, i, j) : tri(prec, a, lda, upper, op, j, i)) * y[j];
            }
            y[i] = unit ? acc * c->p.alpha : acc * c->p.alpha / tri(prec, a, lda, upper, op, i, i);
        }
        for (int i = 0; i < t; ++i) host_put(prec, x, left ? i + (long long)v * ldb : v + (long long)i * ldb, y[i]);
    }
}

/* SYRK (trans 1 = T) and HERK (trans 1 = C) on the stored triangle of C */
static void host_rank_k(const shoal_spec_call *c, long long b)
{
    const char prec = c->prec;
    const int upper = c->p.opts[0], trans = c->p.opts[1], n = c->p.dims[0], k = c->p.dims[1];
    const int herm = c->routine == HOST_HERK;
    const void *a = host_problem(prec, &c->p.op[0], b);
    void *cc = host_problem(prec, &c->p.op[1], b);
    const long long lda = c->p.op[0].ld, ldc = c->p.op[1].ld;
    for (int j = 0; j < n; ++j)
        for (int i = upper ? 0 : j; upper ? i <= j : i < n; ++i) {
            zval s = 0.0;
            for (int l = 0; l < k; ++l) {
                const zval x = trans ? host_get(prec, a, l + i * lda) : host_get(prec, a, i + l * lda);
                const zval y = trans ? host_get(prec, a, l + j * lda) : host_get(prec, a, j + l * lda);
                s += herm ? (trans ? conj(x) * y : x * conj(y)) : x * y;
            }
            zval v = c->p.alpha * s + c->p.beta * host_get(prec, cc, i + (long long)j * ldc);
            if (herm && i == j) v = creal(v);
            host_put(prec, cc, i + (long long)j * ldc, v);
        }
}

/* Q (q x q, w doubles an element) = H_0 ... H_{k-1} formed in double by the oracle
 * (oracle_form_q / oracle_zform_q) from the k reflectors below a's diagonal (lda) and t; V and
 * tau: q x k and k elements of scratch, zeroed by the caller. */
static void form_q(char prec, const void *a, long long lda, const void *t, int q, int k, double *V, double *tau,
                   double *Q)
{
    const int w = shoal_spec_is_complex(prec) ? 2 : 1;
    for (int j = 0; j < k; ++j) {
        const zval tj = host_get(prec, t, j);
        tau[w * j] = creal(tj);
        if (w == 2) tau[w * j + 1] = cimag(tj);
        for (int i = j + 1; i < q; ++i) {
            const zval v = host_get(prec, a, i + j * lda);
            V[w * (i + (size_t)j * q)] = creal(v);
            if (w == 2) V[w * (i + (size_t)j * q) + 1] = cimag(v);
        }
    }
    (w == 2 ? oracle_zform_q : oracle_form_q)(q, k, V, q, tau, Q);
}

/* A <- the first n columns of Q = H_0 ... H_{k-1} (m >= n >= k), from the reflectors below A's
 * diagonal and tau (form_q) */
static void host_orgqr(const shoal_spec_call *c, long long b)
{
    const char prec = c->prec;
    const int m = c->p.dims[0], n = c->p.dims[1], k = c->p.dims[2], w = shoal_spec_is_complex(prec) ? 2 : 1;
    void *a = host_problem(prec, &c->p.op[0], b);
    const void *t = host_problem(prec, &c->p.op[1], b);
    const long long lda = c->p.op[0].ld;
    double *V = calloc((size_t)w * m * (k > 0 ? k : 1), sizeof *V), *tau = calloc((size_t)w * (k > 0 ? k : 1), sizeof *tau);
    double *Q = malloc(sizeof *Q * w * (size_t)m * m);
    if (!V || !tau || !Q) {
        host_verdict(0, "orgqr: host memory");
        free(V), free(tau), free(Q);
        return;
    }
    form_q(prec, a, lda, t, m, k, V, tau, Q);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            host_put(prec, a, i + j * lda,
                     Q[w * (i + (size_t)j * m)] + (w == 2 ? I * Q[w * (i + (size_t)j * m) + 1] : 0.0));
    free(V), free(tau), free(Q);
}

/* C = op(Q) C (side 0, C m x n, Q of order m) or C op(Q) (side 1, order n), op 0 N, 1 T, 2 C;
 * Q = H_0 ... H_{k-1} formed in double by the oracle (oracle_form_q / oracle_zform_q: LAPACK's
 * reflectors below A's diagonal, v(j) = 1 implied, H_j = I - tau_j v_j v_j^H) from the
 * reflectors alone (A's diagonal and above never read) */
static void host_ormqr(const shoal_spec_call *c, long long b)
{
    const char prec = c->prec;
    const int m = c->p.dims[0], n = c->p.dims[1], k = c->p.dims[2], side = c->p.opts[0], op = c->p.opts[1];
    const int q = side ? n : m, w = shoal_spec_is_complex(prec) ? 2 : 1;
    const void *a = host_problem(prec, &c->p.op[0], b), *t = host_problem(prec, &c->p.op[1], b);
    void *x = host_problem(prec, &c->p.op[2], b);
    const long long lda = c->p.op[0].ld, ldc = c->p.op[2].ld;
    double *V = calloc((size_t)w * q * k, sizeof *V), *tau = calloc((size_t)w * k, sizeof *tau);
    double *Q = malloc(sizeof *Q * w * (size_t)q * q);
    zval *Y = malloc(sizeof *Y * (size_t)m * n);
    if (!V || !tau || !Q || !Y) {
        host_verdict(0, "ormqr: host memory");
        free(V), free(tau), free(Q), free(Y);
        return;
    }
    form_q(prec, a, lda, t, q, k, V, tau, Q);
    /* op(Q)(i, j) */
#define OPQ(i, j)                                                                                                    \
    (op == 0 ? Q[w * ((i) + (size_t)(j) * q)] + (w == 2 ? I * Q[w * ((i) + (size_t)(j) * q) + 1] : 0.0)             \
             : Q[w * ((j) + (size_t)(i) * q)] + (w == 2 ? (op == 2 ? -I : I) * Q[w * ((j) + (size_t)(i) * q) + 1] : 0.0))
    for (int col = 0; col < n; ++col)
        for (int r = 0; r < m; ++r) {
            zval s = 0.0;
            for (int l = 0; l < q; ++l)
                s += side ? host_get(prec, x, r + l * ldc) * OPQ(l, col) : OPQ(r, l) * host_get(prec, x, l + col * ldc);
            Y[r + (size_t)col * m] = s;
        }
#undef OPQ
    for (int col = 0; col < n; ++col)
        for (int r = 0; r < m; ++r) host_put(prec, x, r + col * ldc, Y[r + (size_t)col * m]);
    free(V), free(tau), free(Q), free(Y);
}

static const char *form(const shoal_operand *o) { return o->array ? "pointer arrays" : "strided"; }

shoal_status shoal_spec_run(shoal_handle handle, const shoal_spec_call *c)
{
    static const char *const names[HOST_N_SPEC] = {"trsm", "syrk", "herk", "ormqr", "orgqr"};
    (void)handle;
    if (c->routine < 0 || c->routine >= HOST_N_SPEC) return SHOAL_STATUS_INVALID_VALUE;
    if ((c->routine == HOST_SYRK || c->routine == HOST_HERK) &&
        (c->routine == HOST_SYRK) == (shoal_spec_is_complex(c->prec) != 0))
        return SHOAL_STATUS_INVALID_VALUE; /* SYRK in s, d; HERK in c, z */
    /* one form for all operands: A's and the matrix it works on (TRSM's B, SYRK / HERK's and
     * ORMQR's C; ORMQR's and ORGQR's tau vector may be either), and the mode A's */
    const shoal_operand *a = &c->p.op[0];
    const shoal_operand *other = c->routine == HOST_ORGQR ? a : &c->p.op[c->routine == HOST_ORMQR ? 2 : 1];
    if ((c->mode == SHOAL_MODE_ARRAY) != (a->array != NULL) || !a->array != !other->array) {
        host_verdict(0, "%s %c: operand A %s beside %s %s (mode %s): the dispatched routine takes one form for all "
                        "operands", names[c->routine], c->prec, form(a), c->routine == HOST_TRSM ? "B" : "C", form(other),
                     c->mode == SHOAL_MODE_ARRAY ? "array" : "strided");
        return SHOAL_STATUS_INVALID_VALUE;
    }
    if (c->routine == HOST_TRSM && (c->p.dims[0] > 1024 || c->p.dims[1] > 1024 || c->p.opts[3] < 0 || c->p.opts[3] > 1))
        return SHOAL_STATUS_INVALID_VALUE;
    if (c->routine == HOST_ORMQR) {
        const int q = c->p.opts[0] ? c->p.dims[1] : c->p.dims[0];
        if (c->p.opts[0] < 0 || c->p.opts[0] > 1 || c->p.opts[1] < 0 || c->p.opts[1] > 2 || q > 1024 ||
            c->p.dims[2] < 0 || c->p.dims[2] > q)
            return SHOAL_STATUS_INVALID_VALUE;
        if (c->p.dims[0] == 0 || c->p.dims[1] == 0 || c->p.dims[2] == 0) return SHOAL_STATUS_SUCCESS; /* quick return */
    }
    if (c->routine == HOST_ORGQR) { /* the spec's rules: m >= n >= k, m up to 1024 */
        const int m = c->p.dims[0], n = c->p.dims[1], k = c->p.dims[2];
        if (n < 0 || k < 0 || n > m || k > n || m > 1024) return SHOAL_STATUS_INVALID_VALUE;
        if (n == 0) return SHOAL_STATUS_SUCCESS; /* quick return */
    }
    ++host_spec_calls[c->routine];
    if (c->routine == HOST_TRSM && c->p.opts[3]) ++host_trsm_unit_calls;
    void (*const step)(const shoal_spec_call *, long long) =
        c->routine == HOST_TRSM    ? host_trsm
        : c->routine == HOST_ORMQR ? host_ormqr
        : c->routine == HOST_ORGQR ? host_orgqr
                                   : host_rank_k;
    for (long long b = 0; b < c->p.batch; ++b) step(c, b);
    return SHOAL_STATUS_SUCCESS;
}

/* ---- the GEMM step: C -= A B ---- */

shoal_status shoal_lapack_step_gemm(struct shoal_context *ctx, char prec, long long batch, int m, int n, int k,
                                    shoal_operand A, shoal_operand B, shoal_operand C)
{
    (void)ctx;
    if (m <= 0 || n <= 0 || k <= 0) return SHOAL_STATUS_SUCCESS;
    if (!A.array != !B.array || !A.array != !C.array) { /* one form */
        host_verdict(0, "gemm step %c: A %s, B %s, C %s: the dispatched GEMM takes one form for all operands", prec,
                     form(&A), form(&B), form(&C));
        return SHOAL_STATUS_INVALID_VALUE;
    }
    ++host_gemm_calls;
    for (long long b = 0; b < batch; ++b) {
        const void *a = host_problem(prec, &A, b), *bb = host_problem(prec, &B, b);
        void *c = host_problem(prec, &C, b);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                zval s = 0.0;
                for (int l = 0; l < k; ++l) s += host_get(prec, a, i + l * A.ld) * host_get(prec, bb, l + j * B.ld);
                host_put(prec, c, i + j * C.ld, host_get(prec, c, i + j * C.ld) - s);
            }
    }
    return SHOAL_STATUS_SUCCESS;
}

/* ---- the workspace, the generator, the verdicts ---- */

void host_context(struct shoal_context *ctx)
{
    static void *slots[(SHOAL_WS_LAPACK_SLOTS + 1) * SHOAL_WS_POINTERS];
    ctx->lapack_ptrs = slots;
    ctx->step_info = (int *)(slots + SHOAL_WS_LAPACK_SLOTS * SHOAL_WS_POINTERS);
}

unsigned long long host_seed = 12345;

double host_uniform(void)
{
    host_seed = host_seed * 6364136223846793005ull + 1442695040888963407ull;
    const double u = (double)(host_seed >> 11) / (double)(1ull << 53);
    return u == 0.5 ? 0.25 : 2.0 * u - 1.0;
}

static int passed, failed;

void host_verdict(int ok, const char *fmt, ...)
{
    if (ok) {
        ++passed;
        return;
    }
    ++failed;
    va_list ap;
    va_start(ap, fmt);
    printf("FAILED ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

int host_report(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
