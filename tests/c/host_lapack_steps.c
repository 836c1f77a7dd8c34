/* The shared host pieces of the blocked drivers' host tests (tests/c/host_lapack_steps.h). */
#include "host_lapack_steps.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* ---- the spec steps: TRSM, SYRK / HERK ---- */

int host_spec_calls[HOST_N_SPEC], host_gemm_calls, host_trsm_unit_calls;

int shoal_spec_routine_id(const char *name)
{
    return !strcmp(name, "trsm") ? HOST_TRSM : !strcmp(name, "syrk") ? HOST_SYRK : !strcmp(name, "herk") ? HOST_HERK : -1;
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

shoal_status shoal_spec_run(shoal_handle handle, const shoal_spec_call *c)
{
    (void)handle;
    if (c->routine < 0 || c->routine > HOST_HERK) return SHOAL_STATUS_INVALID_VALUE;
    if ((c->routine == HOST_SYRK) == (shoal_spec_is_complex(c->prec) != 0) && c->routine != HOST_TRSM)
        return SHOAL_STATUS_INVALID_VALUE; /* SYRK in s, d; HERK in c, z */
    if ((c->mode == SHOAL_MODE_ARRAY) != (c->p.op[0].array != NULL) || !c->p.op[0].array != !c->p.op[1].array)
        return SHOAL_STATUS_INVALID_VALUE; /* one form for all operands */
    if (c->routine == HOST_TRSM && (c->p.dims[0] > 1024 || c->p.dims[1] > 1024 || c->p.opts[3] < 0 || c->p.opts[3] > 1))
        return SHOAL_STATUS_INVALID_VALUE;
    ++host_spec_calls[c->routine];
    if (c->routine == HOST_TRSM && c->p.opts[3]) ++host_trsm_unit_calls;
    for (long long b = 0; b < c->p.batch; ++b) (c->routine == HOST_TRSM ? host_trsm : host_rank_k)(c, b);
    return SHOAL_STATUS_SUCCESS;
}

/* ---- the GEMM step: C -= A B ---- */

shoal_status shoal_lapack_step_gemm(struct shoal_context *ctx, char prec, long long batch, int m, int n, int k,
                                    shoal_operand A, shoal_operand B, shoal_operand C)
{
    (void)ctx;
    if (m <= 0 || n <= 0 || k <= 0) return SHOAL_STATUS_SUCCESS;
    if (!A.array != !B.array || !A.array != !C.array) return SHOAL_STATUS_INVALID_VALUE; /* one form */
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
