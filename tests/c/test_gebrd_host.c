/* The blocked bidiagonal reduction's driver on the CPU (no GPU): runtime/drivers/gebrd_labrd.c
 * linked against host versions of its steps (compiled with a small SHOAL_SOLVER_WS_BYTES, so
 * that a call runs in chunks of one to a few problems): the xLABRD panel and the restore as host
 * twins of runtime/drivers/gebrd_labrd.cu (the same steps, in the same order, serially), the
 * GEMMs of tests/c/host_driver_gemm.c, the real sub-matrix and pointer-array steps
 * (driver_steps.c, tests/c/host_block_pointers.c). Judged by the GPU's oracle (oracle/bidiag.c:
 * A = Q B P^H, orthogonality, LAPACK's tau conventions, B in A's places). What this proves: the
 * panels' order and offsets, the GEMM operands, transpositions and signs, the last panel, the
 * restore of U's 1, the chunks and the workspace layout, zlabrd's conjugations (z), zero and
 * rank-deficient matrices. What it cannot: the kernel itself (its GPU cases do).
 *
 *   test_gebrd_host            every case; last line "N passed, M failed" */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gebrd_labrd.h"
#include "host_block_pointers.h"
#include "host_driver_gemm.h"
#include "oracle.h"
#include "ref_larfg.h"

typedef double complex Z;

int shoal_spec_elem_bytes(char prec) { return prec == 's' ? 4 : prec == 'd' ? 8 : prec == 'z' ? 16 : 0; }
int shoal_spec_is_complex(char prec) { return prec == 'z'; }
/* d and e (operands 1, 2) are real: double in d and in z */
int shoal_spec_operand_elem_bytes(const shoal_spec_call *c, int o)
{
    return o == 1 || o == 2 ? 8 : shoal_spec_elem_bytes(c->prec);
}

shoal_status shoal_driver_gebrd_labrd(struct shoal_context *ctx, const shoal_spec_call *c, int nb);

/* ---- host twins of the panel and restore kernels ('d' and 'z') ---- */

static int labrd_calls, restore_calls;

static void *at(const shoal_operand *o, long long b, int elem)
{
    return o->array ? o->array[b] : (char *)o->ptr + b * o->stride * elem;
}

static Z el(char prec, const void *p, long long k) { return prec == 'z' ? ((const Z *)p)[k] : ((const double *)p)[k]; }

static void set_el(char prec, void *p, long long k, Z v)
{
    if (prec == 'z') ((Z *)p)[k] = v;
    else ((double *)p)[k] = creal(v);
}

/* larfg on head[0] (alpha) and head[inc], ... (x, len entries) in place: x becomes the vector's
 * tail; returns tau, beta into *beta (the kernel's larfg scales the norm; the same reflector) */
static Z reflector(Z *head, int inc, int len, double *beta)
{
    Z alpha = *head;
    const Z tau = ref_larfg(&alpha, len > 0 ? head + inc : head, len, inc);
    *beta = creal(alpha);
    return tau;
}

cudaError_t shoal_gebrd_labrd(char prec, const shoal_gebrd_labrd_args *a, cudaStream_t stream)
{
    (void)stream;
    ++labrd_calls;
    const int M = a->m - a->i, N = a->n - a->i, nb = a->nb, elem = shoal_spec_elem_bytes(prec), k = M < N ? M : N;
    const int upper = a->m >= a->n;
    if (k < 1 || nb < 1 || nb > k) return cudaErrorInvalidValue;
    Z *S = malloc(sizeof(Z) * (size_t)M * N), *t1 = malloc(sizeof(Z) * (size_t)(nb + 1)),
      *t2 = malloc(sizeof(Z) * (size_t)(nb + 1));
    for (long long b = 0; b < a->batch; ++b) {
        char *A = (char *)at(&a->A, b, elem) + (a->i + (long long)a->i * a->A.ld) * elem;
        double *d = (double *)at(&a->d, b, 8) + a->i, *e = (double *)at(&a->e, b, 8) + a->i;
        char *tq = (char *)at(&a->tauq, b, elem) + (long long)a->i * elem;
        char *tp = (char *)at(&a->taup, b, elem) + (long long)a->i * elem;
        char *Xw = (char *)a->X + b * M * nb * elem, *Yw = (char *)a->Y + b * N * nb * elem;
#define SS(r, c) S[(r) + (long long)(c) * M]
#define XX(r, c) el(prec, Xw, (r) + (long long)(c) * M)
#define YY(r, c) el(prec, Yw, (r) + (long long)(c) * N)
        for (int c = 0; c < N; ++c)
            for (int r = 0; r < M; ++r) SS(r, c) = el(prec, A, r + c * a->A.ld);
        for (int j = 0; j < nb && !upper; ++j) { /* m < n: zlabrd's second branch */
            for (int c = j; c < N; ++c) {
                Z w = conj(SS(j, c));
                for (int l = 0; l < j; ++l) w -= YY(c, l) * conj(SS(j, l)) + conj(SS(l, c)) * conj(XX(j, l));
                SS(j, c) = w;
            }
            double betap;
            const Z taup = reflector(&SS(j, j), M, N - j - 1, &betap);
            d[j] = betap;
            set_el(prec, tp, j, taup);
            if (j + 1 >= M) {
                for (int c = j; c < N; ++c) SS(j, c) = conj(SS(j, c));
                set_el(prec, tq, j, 0.0);
                continue;
            }
            SS(j, j) = 1.0;
            for (int r = j + 1; r < M; ++r) {
                Z x = 0.0;
                for (int c = j; c < N; ++c) x += SS(r, c) * SS(j, c);
                set_el(prec, Xw, r + (long long)j * M, x);
            }
            for (int l = 0; l < j; ++l) {
                t1[l] = t2[l] = 0.0;
                for (int c = j; c < N; ++c) {
                    t1[l] += conj(YY(c, l)) * SS(j, c);
                    t2[l] += SS(l, c) * SS(j, c);
                }
            }
            for (int r = j + 1; r < M; ++r) {
                Z x = XX(r, j);
                for (int l = 0; l < j; ++l) x -= SS(r, l) * t1[l] + XX(r, l) * t2[l];
                set_el(prec, Xw, r + (long long)j * M, taup * x);
            }
            for (int c = j + 1; c < N; ++c) SS(j, c) = conj(SS(j, c));
            for (int r = j + 1; r < M; ++r) {
                Z s2 = SS(r, j);
                for (int l = 0; l < j; ++l) s2 -= SS(r, l) * conj(YY(j, l));
                for (int l = 0; l <= j; ++l) s2 -= XX(r, l) * SS(l, j);
                SS(r, j) = s2;
            }
            double beta;
            const Z tau = reflector(&SS(j + 1, j), 1, M - j - 2, &beta);
            e[j] = beta;
            set_el(prec, tq, j, tau);
            SS(j + 1, j) = 1.0;
            for (int c = j + 1; c < N; ++c) {
                Z y = 0.0;
                for (int r = j + 1; r < M; ++r) y += conj(SS(r, c)) * SS(r, j);
                set_el(prec, Yw, c + (long long)j * N, y);
            }
            for (int l = 0; l <= j; ++l) {
                t1[l] = t2[l] = 0.0;
                for (int r = j + 1; r < M; ++r) {
                    if (l < j) t1[l] += conj(SS(r, l)) * SS(r, j);
                    t2[l] += conj(XX(r, l)) * SS(r, j);
                }
            }
            for (int c = j + 1; c < N; ++c) {
                Z y = YY(c, j);
                for (int l = 0; l < j; ++l) y -= YY(c, l) * t1[l];
                for (int l = 0; l <= j; ++l) y -= conj(SS(l, c)) * t2[l];
                set_el(prec, Yw, c + (long long)j * N, tau * y);
            }
        }
        for (int j = 0; j < nb && upper; ++j) { /* m >= n: zlabrd's first branch */
            for (int r = j; r < M && j > 0; ++r) {
                Z s = SS(r, j);
                for (int l = 0; l < j; ++l) s -= SS(r, l) * conj(YY(j, l)) + XX(r, l) * SS(l, j);
                SS(r, j) = s;
            }
            double beta;
            const Z tau = reflector(&SS(j, j), 1, M - j - 1, &beta);
            d[j] = beta;
            set_el(prec, tq, j, tau);
            SS(j, j) = 1.0;
            if (j + 1 >= N) {
                set_el(prec, tp, j, 0.0);
                continue;
            }
            for (int c = j + 1; c < N; ++c) {
                Z s = 0.0;
                for (int r = j; r < M; ++r) s += conj(SS(r, c)) * SS(r, j);
                set_el(prec, Yw, c + (long long)j * N, s);
            }
            for (int l = 0; l < j; ++l) {
                t1[l] = t2[l] = 0.0;
                for (int r = j; r < M; ++r) {
                    t1[l] += conj(SS(r, l)) * SS(r, j);
                    t2[l] += conj(XX(r, l)) * SS(r, j);
                }
            }
            for (int c = j + 1; c < N; ++c) {
                Z y = YY(c, j);
                for (int l = 0; l < j; ++l) y -= YY(c, l) * t1[l] + conj(SS(l, c)) * t2[l];
                set_el(prec, Yw, c + (long long)j * N, tau * y);
            }
            for (int c = j + 1; c < N; ++c) {
                Z w = conj(SS(j, c));
                for (int l = 0; l <= j; ++l) w -= YY(c, l) * conj(SS(j, l));
                for (int l = 0; l < j; ++l) w -= conj(SS(l, c)) * conj(XX(j, l));
                SS(j, c) = w;
            }
            double betap;
            const Z taup = reflector(&SS(j, j + 1), M, N - j - 2, &betap);
            e[j] = betap;
            set_el(prec, tp, j, taup);
            SS(j, j + 1) = 1.0;
            for (int r = j + 1; r < M; ++r) {
                Z s = 0.0;
                for (int c = j + 1; c < N; ++c) s += SS(r, c) * SS(j, c);
                set_el(prec, Xw, r + (long long)j * M, s);
            }
            for (int l = 0; l <= j; ++l) {
                t1[l] = 0.0;
                for (int c = j + 1; c < N; ++c) t1[l] += conj(YY(c, l)) * SS(j, c);
            }
            for (int l = 0; l < j; ++l) {
                t2[l] = 0.0;
                for (int c = j + 1; c < N; ++c) t2[l] += SS(l, c) * SS(j, c);
            }
            for (int r = j + 1; r < M; ++r) {
                Z x = XX(r, j);
                for (int l = 0; l <= j; ++l) x -= SS(r, l) * t1[l];
                for (int l = 0; l < j; ++l) x -= XX(r, l) * t2[l];
                set_el(prec, Xw, r + (long long)j * M, taup * x);
            }
            for (int c = j + 2; c < N; ++c) SS(j, c) = conj(SS(j, c));
        }
        for (int j = 0; j < nb; ++j) {
            SS(j, j) = d[j];
            if (j + 1 < nb) {
                if (upper) SS(j, j + 1) = e[j];
                else SS(j + 1, j) = e[j];
            }
        }
        for (int c = 0; c < N; ++c)
            for (int r = 0; r < M; ++r) set_el(prec, A, r + c * a->A.ld, SS(r, c));
#undef SS
#undef XX
#undef YY
    }
    free(S), free(t1), free(t2);
    return cudaSuccess;
}

cudaError_t shoal_gebrd_restore(char prec, shoal_operand A, shoal_operand e, int upper, int nb, int end,
                                long long batch, cudaStream_t stream)
{
    (void)stream;
    ++restore_calls;
    const int elem = shoal_spec_elem_bytes(prec);
    for (long long b = 0; b < batch; ++b)
        for (long long j = nb - 1; j < end; j += nb)
            set_el(prec, at(&A, b, elem), upper ? j + (j + 1) * A.ld : j + 1 + j * A.ld, ((double *)at(&e, b, 8))[j]);
    return cudaSuccess;
}

/* ---- cases ---- */

static int passed, failed;

enum { FILL_RANDOM, FILL_ZERO, FILL_RANKDEF };

/* One driver call on `batch` problems of the oracle's making (or zero / rank-deficient ones),
 * lda = m + 3, judged by the oracle. */
static void run(char prec, int mode, int m, int n, int nb, int batch, int fill)
{
    static struct shoal_context ctx; /* its workspaces only */
    if (!ctx.ws_ptrs) ctx.ws_ptrs = calloc((size_t)SHOAL_WS_OPERANDS * SHOAL_WS_POINTERS, sizeof(void *));
    if (!ctx.solver_ws) ctx.solver_ws = malloc(SHOAL_SOLVER_WS_BYTES);
    const int w = prec == 'z' ? 2 : 1, k = m < n ? m : n, elem = shoal_spec_elem_bytes(prec);
    const long long lda = m + 3;
    const long long rows[5] = {lda, k, k > 1 ? k - 1 : 1, k, k}, cols[5] = {n, 1, 1, 1, 1};
    shoal_spec_call c;
    memset(&c, 0, sizeof c);
    c.prec = prec;
    c.mode = mode;
    c.p.dims[0] = m;
    c.p.dims[1] = n;
    c.p.batch = batch;
    void *mem[5], **ptrs[5];
    for (int o = 0; o < 5; ++o) {
        const long long st = rows[o] * cols[o];
        const int oe = o == 1 || o == 2 ? 8 : elem;
        mem[o] = calloc((size_t)(st * batch + 1), (size_t)oe);
        ptrs[o] = malloc(sizeof(void *) * (size_t)batch);
        c.p.op[o].ld = o == 0 ? lda : 1;
        c.p.op[o].stride = st;
        c.p.op[o].ptr = mem[o];
        if (mode == SHOAL_MODE_ARRAY) { /* problems in reverse order, so an ignored array shows */
            for (int b = 0; b < batch; ++b) ptrs[o][b] = (char *)mem[o] + (size_t)((batch - 1 - b) * st * oe);
            c.p.op[o].array = ptrs[o];
            c.p.op[o].ptr = NULL;
            c.p.op[o].stride = 0;
        }
    }
    const oracle *orc = oracle_find("gebrd");
    oracle_problem shape;
    memset(&shape, 0, sizeof shape);
    shape.dims[0] = m;
    shape.dims[1] = n;
    shape.is_complex = w == 2;
    double *in[5], *out[5];
    for (int o = 0; o < 5; ++o) {
        in[o] = calloc((size_t)(w * m * n + 2), sizeof(double));
        out[o] = calloc((size_t)(w * m * n + 2), sizeof(double));
    }
    double **A0 = malloc(sizeof(double *) * (size_t)batch);
    for (int b = 0; b < batch; ++b) {
        orc->generate(&shape, 4321u + 97u * (unsigned)b + (unsigned)m, in);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double *x = in[0] + w * (i + j * m);
                if (fill == FILL_ZERO) x[0] = x[w - 1] = 0.0;
                if (fill == FILL_RANKDEF && j >= (n + 1) / 2) memcpy(x, in[0] + w * (i + (j % ((n + 1) / 2)) * m), sizeof(double) * (size_t)w);
                if (w == 2) host_zput(&c, &c.p.op[0], b, i, j, CMPLX(x[0], x[1]));
                else host_put(&c, &c.p.op[0], b, i, j, x[0]);
            }
        A0[b] = malloc(sizeof(double) * (size_t)(w * m * n + 1));
        memcpy(A0[b], in[0], sizeof(double) * (size_t)(w * m * n));
    }
    labrd_calls = restore_calls = host_gemm_calls = 0;
    const shoal_status st = shoal_driver_gebrd_labrd(&ctx, &c, nb);
    const double eps = ldexp(1.0, -53);
    double worst = 0.0;
    for (int b = 0; b < batch; ++b) {
        oracle_problem p = shape;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double *x = out[0] + w * (i + j * m);
                if (w == 2) {
                    const Z z = host_zget(&c, &c.p.op[0], b, i, j);
                    x[0] = creal(z);
                    x[1] = cimag(z);
                } else {
                    x[0] = host_get(&c, &c.p.op[0], b, i, j);
                }
            }
        for (int o = 1; o < 5; ++o) {
            const int oe = o == 1 || o == 2 ? 8 : elem;
            const char *v = (const char *)at(&c.p.op[o], b, oe);
            for (long long i = 0; i < rows[o]; ++i) {
                if (o <= 2) { /* d and e: a double an element in every precision */
                    out[o][i] = ((const double *)v)[i];
                    continue;
                }
                const Z z = el(prec, v, i);
                out[o][w * i] = creal(z);
                if (w == 2) out[o][w * i + 1] = cimag(z);
            }
        }
        p.in[0] = A0[b];
        for (int o = 0; o < 5; ++o) p.out[o] = out[o];
        const double err = orc->check(&p, eps);
        if (!(err <= worst)) worst = err;
    }
    /* panels: ceil(min(m, n) / nb) launches a chunk, two GEMMs for each but the last */
    const int panels = (k + nb - 1) / nb;
    const int ok = st == SHOAL_STATUS_SUCCESS && worst <= ORACLE_ERROR_LIMIT && labrd_calls >= panels &&
                   labrd_calls % panels == 0 && host_gemm_calls == 2 * (panels - 1) * (labrd_calls / panels);
    if (ok) ++passed;
    else ++failed;
    printf("%s %cgebrd %s %s %d x %d nb %d batch %d: error %.3g eps, %d panels, %d GEMMs, %d restores\n",
           ok ? "ok    " : "FAILED", prec, mode == SHOAL_MODE_ARRAY ? "array" : "strided",
           fill == FILL_ZERO ? "zero" : fill == FILL_RANKDEF ? "rankdef" : "random", m, n, nb, batch, worst, labrd_calls,
           host_gemm_calls, restore_calls);
    for (int o = 0; o < 5; ++o) free(mem[o]), free(ptrs[o]), free(in[o]), free(out[o]);
    for (int b = 0; b < batch; ++b) free(A0[b]);
    free(A0);
}

int main(void)
{
    const int shapes[][2] = {{1, 1}, {5, 3}, {9, 9}, {20, 17}, {33, 20}, {40, 40}, {70, 65}, {97, 70},
                             {1, 4}, {3, 5}, {17, 20}, {20, 33}, {39, 40}, {65, 70}, {70, 97}};
    const int nbs[] = {1, 3, 8, 16};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (size_t i = 0; i < sizeof nbs / sizeof nbs[0]; ++i)
            for (int mode = 0; mode < 2; ++mode) {
                run('d', mode, shapes[s][0], shapes[s][1], nbs[i], 5, FILL_RANDOM);
                run('z', mode, shapes[s][0], shapes[s][1], nbs[i], 5, FILL_RANDOM);
            }
    for (int mode = 0; mode < 2; ++mode)
        for (int fill = FILL_ZERO; fill <= FILL_RANKDEF; ++fill) {
            run('d', mode, 40, 33, 8, 3, fill);
            run('z', mode, 40, 33, 8, 3, fill);
            run('d', mode, 17, 17, 3, 3, fill);
            run('z', mode, 33, 40, 8, 3, fill);
            run('d', mode, 20, 31, 3, 3, fill);
        }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
