/* The recursive drivers' arithmetic on the CPU (no GPU): runtime/drivers/trsm_recursive.c and
 * syrk_recursive.c linked against host versions of their steps (strided operands in host
 * memory: the leaf TRSM/SYRK calls and the dispatched GEMM done by plain loops), judged by the
 * same oracles as the GPU (oracle/blas3.c). The sub-matrix steps are the real ones
 * (runtime/drivers/driver_steps.c, whose strided path touches no device). What this proves: the split points, the sub-matrix
 * offsets, the GEMM operands, transpositions and scalars of every option combination, the
 * order of the steps, alpha = 0, and leaves of every size. What it cannot: the kernels.
 *
 *   test_drivers_host            every case; last line "N passed, M failed" */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_steps.h"
#include "host_driver_gemm.h"
#include "host_block_pointers.h"
#include "oracle.h"

/* ---- host versions of the leaf and GEMM steps (strided operands, host pointers) ---- */

int shoal_spec_elem_bytes(char prec) { return prec == 's' ? 4 : prec == 'd' ? 8 : prec == 'z' ? 16 : 0; }
/* z stands for the complex precisions here (host double complex; the driver does not look at
 * the element type beyond its size and complexness) */
int shoal_spec_is_complex(char prec) { return prec == 'c' || prec == 'z'; }
/* no real vector operands among the routines here */
int shoal_spec_operand_elem_bytes(const shoal_spec_call *c, int o) { (void)o; return shoal_spec_elem_bytes(c->prec); }

static int leaf_calls, leaf_max;

/* The leaf kernels: TRSM (routine 1), SYRK (routine 0) and HERK (routine 2, z) in double, as the
 * kernels define them. */
shoal_status shoal_spec_run_kernel(struct shoal_context *ctx, const shoal_spec_call *c)
{
    (void)ctx;
    ++leaf_calls;
    const shoal_operand *A = &c->p.op[0], *X = &c->p.op[1];
    if (c->routine == 2) {
        /* C = alpha op(A) op(A)^H + beta C on the triangle, op(A) = A or A^H (trans 1), alpha and
         * beta real, the diagonal real (its input's imaginary part not read) */
        const int upper = c->p.opts[0], trans = c->p.opts[1], n = c->p.dims[0], k = c->p.dims[1];
        if (n > leaf_max) leaf_max = n;
        for (long long b = 0; b < c->p.batch; ++b)
            for (int j = 0; j < n; ++j)
                for (int i = upper ? 0 : j; upper ? i <= j : i < n; ++i) {
                    double complex s = 0.0;
                    if (c->p.alpha != 0.0)
                        for (int l = 0; l < k; ++l) {
                            const double complex x = trans ? conj(host_zget(c, A, b, l, i)) : host_zget(c, A, b, i, l);
                            const double complex y = trans ? conj(host_zget(c, A, b, l, j)) : host_zget(c, A, b, j, l);
                            s += x * conj(y);
                        }
                    double complex cin = c->p.beta == 0.0 ? 0.0 : host_zget(c, X, b, i, j);
                    if (i == j) cin = creal(cin);
                    double complex v = c->p.alpha * s + c->p.beta * cin;
                    if (i == j) v = creal(v);
                    host_zput(c, X, b, i, j, v);
                }
        return SHOAL_STATUS_SUCCESS;
    }
    if (c->routine == 1 && c->prec == 'z') {
        /* complex: left op(A) x = alpha b; right x^T op(A) = alpha b^T, i.e. M x = alpha b with
         * M(i, j) = op(A)(j, i); op(A) = A, A^T or A^H */
        const int left = c->p.opts[0] == 0, upper = c->p.opts[1], trans = c->p.opts[2], unit = c->p.opts[3];
        const int m = c->p.dims[0], n = c->p.dims[1], t = left ? m : n, r = left ? n : m;
        const double complex alpha = c->p.alpha + I * c->p.alpha_im;
        if (t > leaf_max) leaf_max = t;
        double complex *x = malloc(sizeof(double complex) * (size_t)t);
        const int tr = (trans != 0) ^ !left, lower = (upper == 0) == (tr == 0);
        for (long long b = 0; b < c->p.batch; ++b)
            for (int v = 0; v < r; ++v) {
                for (int i = 0; i < t; ++i) x[i] = alpha * (left ? host_zget(c, X, b, i, v) : host_zget(c, X, b, v, i));
                if (alpha != 0.0)
                    for (int s = 0; s < t; ++s) {
                        const int i = lower ? s : t - 1 - s;
                        for (int q = 0; q < s; ++q) {
                            const int j = lower ? q : t - 1 - q;
                            const double complex a = tr ? host_zget(c, A, b, j, i) : host_zget(c, A, b, i, j);
                            x[i] -= (trans == 2 ? conj(a) : a) * x[j];
                        }
                        if (!unit) x[i] /= trans == 2 ? conj(host_zget(c, A, b, i, i)) : host_zget(c, A, b, i, i);
                    }
                for (int i = 0; i < t; ++i) {
                    if (left) host_zput(c, X, b, i, v, x[i]);
                    else host_zput(c, X, b, v, i, x[i]);
                }
            }
        free(x);
        return SHOAL_STATUS_SUCCESS;
    }
    if (c->routine == 1) {
        const int left = c->p.opts[0] == 0, upper = c->p.opts[1], trans = c->p.opts[2], unit = c->p.opts[3];
        const int m = c->p.dims[0], n = c->p.dims[1], t = left ? m : n, r = left ? n : m;
        if (t > leaf_max) leaf_max = t;
        double *x = malloc(sizeof(double) * (size_t)t);
        for (long long b = 0; b < c->p.batch; ++b)
            for (int v = 0; v < r; ++v) {
                /* op'(A) x = alpha b with op' = op (left) or op^T (right, on the rows of B) */
                const int tr = trans ^ !left, lower = (upper == 0) == (tr == 0);
                for (int i = 0; i < t; ++i) x[i] = c->p.alpha * (left ? host_get(c, X, b, i, v) : host_get(c, X, b, v, i));
                if (c->p.alpha != 0.0)
                    for (int s = 0; s < t; ++s) {
                        const int i = lower ? s : t - 1 - s;
                        for (int q = 0; q < s; ++q) {
                            const int j = lower ? q : t - 1 - q;
                            x[i] -= (tr ? host_get(c, A, b, j, i) : host_get(c, A, b, i, j)) * x[j];
                        }
                        if (!unit) x[i] /= host_get(c, A, b, i, i);
                    }
                for (int i = 0; i < t; ++i) {
                    if (left) host_put(c, X, b, i, v, x[i]);
                    else host_put(c, X, b, v, i, x[i]);
                }
            }
        free(x);
        return SHOAL_STATUS_SUCCESS;
    }
    const int upper = c->p.opts[0], trans = c->p.opts[1], n = c->p.dims[0], k = c->p.dims[1];
    if (n > leaf_max) leaf_max = n;
    for (long long b = 0; b < c->p.batch; ++b)
        for (int j = 0; j < n; ++j)
            for (int i = upper ? 0 : j; upper ? i <= j : i < n; ++i) {
                double s = 0.0;
                if (c->p.alpha != 0.0)
                    for (int l = 0; l < k; ++l)
                        s += (trans ? host_get(c, A, b, l, i) : host_get(c, A, b, i, l)) * (trans ? host_get(c, A, b, l, j) : host_get(c, A, b, j, l));
                host_put(c, X, b, i, j, c->p.alpha * s + (c->p.beta == 0.0 ? 0.0 : c->p.beta * host_get(c, X, b, i, j)));
            }
    return SHOAL_STATUS_SUCCESS;
}

shoal_status shoal_driver_trsm_recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf);
shoal_status shoal_driver_syrk_recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf);
shoal_status shoal_driver_herk_recursive(struct shoal_context *ctx, const shoal_spec_call *c, int leaf);

/* ---- cases ---- */

static int passed, failed;
static double g_alpha_im; /* the imaginary part of alpha in the complex runs ('z') */

/* One driver call on `batch` problems of the oracle's making, judged by the oracle. */
static void run(int routine, char prec, int mode, const int *opts, const int *dims, double alpha, double beta, int leaf)
{
    static struct shoal_context ctx; /* only its workspace is used */
    if (!ctx.ws_ptrs) ctx.ws_ptrs = calloc((size_t)SHOAL_WS_OPERANDS * SHOAL_WS_POINTERS, sizeof(void *));
    static const char *const names[] = {"syrk", "trsm", "herk"};
    const oracle *orc = oracle_find(names[routine]);
    const int n_opts = routine == 1 ? 4 : 2, batch = 3;
    oracle_problem shape;
    memset(&shape, 0, sizeof shape);
    memcpy(shape.dims, dims, sizeof shape.dims);
    memcpy(shape.opts, opts, sizeof(int) * (size_t)n_opts);
    shape.alpha = alpha;
    shape.beta = beta;
    const int w = prec == 'z' ? 2 : 1; /* doubles per element */
    shape.is_complex = w == 2;
    shape.alpha_im = w == 2 && routine != 2 ? g_alpha_im : 0.0; /* HERK's alpha is real */
    if (routine == 1) {
        const int t = opts[0] == 0 ? dims[0] : dims[1];
        shape.rows[0] = shape.cols[0] = t;
        shape.rows[1] = dims[0];
        shape.cols[1] = dims[1];
    } else {
        shape.rows[0] = opts[1] ? dims[1] : dims[0];
        shape.cols[0] = opts[1] ? dims[0] : dims[1];
        shape.rows[1] = shape.cols[1] = dims[0];
    }
    const int ld_pad = 2;
    shoal_spec_call c;
    memset(&c, 0, sizeof c);
    c.routine = routine;
    c.prec = prec;
    c.mode = mode;
    memcpy(c.p.dims, dims, sizeof c.p.dims);
    memcpy(c.p.opts, opts, sizeof(int) * (size_t)n_opts);
    c.p.alpha = alpha;
    c.p.beta = beta;
    c.p.alpha_im = shape.alpha_im;
    c.p.batch = batch;
    const size_t elem = (size_t)shoal_spec_elem_bytes(prec);
    double *in[2][3], *packed_out[2][3];
    void *dev[2], *ptrs[2][3];
    for (int o = 0; o < 2; ++o) {
        const long long ld = shape.rows[o] + ld_pad, st = ld * shape.cols[o];
        c.p.op[o].ld = ld;
        c.p.op[o].stride = st;
        dev[o] = calloc((size_t)(st * batch + 1), elem);
        c.p.op[o].ptr = dev[o];
        if (mode == SHOAL_MODE_ARRAY) { /* problems in reverse order, so an ignored array shows */
            for (int b = 0; b < batch; ++b) ptrs[o][b] = (char *)dev[o] + (size_t)((batch - 1 - b) * st) * elem;
            c.p.op[o].array = ptrs[o];
            c.p.op[o].ptr = NULL;
            c.p.op[o].stride = 0;
        }
        for (int b = 0; b < batch; ++b) {
            in[o][b] = malloc(sizeof(double) * (size_t)(w * shape.rows[o] * shape.cols[o] + 1));
            packed_out[o][b] = malloc(sizeof(double) * (size_t)(w * shape.rows[o] * shape.cols[o] + 1));
        }
    }
    for (int b = 0; b < batch; ++b) {
        double *ins[ORACLE_MAX_OPERANDS] = {in[0][b], in[1][b]};
        orc->generate(&shape, 1234u + 77u * (unsigned)b, ins);
        for (int o = 0; o < 2; ++o)
            for (int j = 0; j < shape.cols[o]; ++j)
                for (int i = 0; i < shape.rows[o]; ++i) {
                    const double *e = in[o][b] + w * (i + j * shape.rows[o]);
                    if (w == 2) host_zput(&c, &c.p.op[o], b, i, j, e[0] + I * e[1]);
                    else host_put(&c, &c.p.op[o], b, i, j, e[0]);
                }
    }
    /* what a lower precision makes of the inputs is the input the check must see */
    for (int o = 0; o < 2; ++o)
        for (int b = 0; b < batch; ++b)
            for (int j = 0; j < shape.cols[o]; ++j)
                for (int i = 0; i < shape.rows[o]; ++i)
                    if (w == 1) in[o][b][i + j * shape.rows[o]] = host_get(&c, &c.p.op[o], b, i, j);
    host_gemm_calls = leaf_calls = leaf_max = host_block_pointer_launches = 0;
    const shoal_status st = routine == 1   ? shoal_driver_trsm_recursive(&ctx, &c, leaf)
                            : routine == 2 ? shoal_driver_herk_recursive(&ctx, &c, leaf)
                                           : shoal_driver_syrk_recursive(&ctx, &c, leaf);
    double worst = 0.0;
    const double eps = prec == 's' ? ldexp(1.0, -24) : ldexp(1.0, -53);
    for (int b = 0; b < batch; ++b) {
        oracle_problem p = shape;
        for (int o = 0; o < 2; ++o) {
            for (int j = 0; j < shape.cols[o]; ++j)
                for (int i = 0; i < shape.rows[o]; ++i) {
                    double *e = packed_out[o][b] + w * (i + j * shape.rows[o]);
                    if (w == 2) {
                        const double complex z = host_zget(&c, &c.p.op[o], b, i, j);
                        e[0] = creal(z);
                        e[1] = cimag(z);
                    } else {
                        e[0] = host_get(&c, &c.p.op[o], b, i, j);
                    }
                }
            p.in[o] = in[o][b];
            p.out[o] = packed_out[o][b];
        }
        const double e = orc->check(&p, eps);
        if (!(e <= worst)) worst = e;
    }
    /* SYRK: one batched step per level (two with a partial group) and per leaf size */
    int levels = 0;
    for (long long h = leaf; h < dims[0]; h *= 2) ++levels;
    const int steps_ok = routine == 1 ? mode == SHOAL_MODE_ARRAY || host_block_pointer_launches == 0 /* strided TRSM moves pointers */
                                      : host_gemm_calls <= 2 * levels && leaf_calls <= 2;
    const int ok = st == SHOAL_STATUS_SUCCESS && worst <= ORACLE_ERROR_LIMIT && leaf_max <= leaf && steps_ok &&
                   (alpha == 0.0 && shape.alpha_im == 0.0 && routine == 1 ? host_gemm_calls == 0 : 1);
    if (ok) ++passed;
    else ++failed;
    printf("%s %c%s %s opts", ok ? "ok    " : "FAILED", prec, names[routine],
           mode == SHOAL_MODE_ARRAY ? "array" : "strided");
    for (int i = 0; i < n_opts; ++i) printf(" %d", opts[i]);
    printf(" dims %d %d alpha %g beta %g leaf %d: error %.3g eps, %d leaves (largest %d), %d GEMMs\n", dims[0], dims[1],
           alpha, beta, leaf, worst, leaf_calls, leaf_max, host_gemm_calls);
    for (int o = 0; o < 2; ++o) {
        free(dev[o]);
        for (int b = 0; b < batch; ++b) {
            free(in[o][b]);
            free(packed_out[o][b]);
        }
    }
}

int main(void)
{
    const int trsm_dims[][2] = {{33, 5}, {70, 9}, {130, 3}, {8, 40}, {100, 100}};
    const int leaves[] = {8, 16, 32};
    for (int code = 0; code < 16; ++code) {
        const int opts[4] = {code & 1, (code >> 1) & 1, (code >> 2) & 1, (code >> 3) & 1};
        for (size_t d = 0; d < sizeof trsm_dims / sizeof trsm_dims[0]; ++d)
            for (size_t l = 0; l < sizeof leaves / sizeof leaves[0]; ++l) {
                int dims[4] = {trsm_dims[d][0], trsm_dims[d][1], 0, 0};
                if (opts[0]) { /* side right: the triangle is n */
                    dims[0] = trsm_dims[d][1];
                    dims[1] = trsm_dims[d][0];
                }
                run(1, l == 0 ? 's' : 'd', (int)(d & 1), opts, dims, 1.5, 0.0, leaves[l]);
            }
        const int dims[4] = {opts[0] ? 4 : 50, opts[0] ? 50 : 4, 0, 0};
        run(1, 'd', SHOAL_MODE_STRIDED, opts, dims, 0.0, 0.0, 16);
    }
    /* complex (z on the host): trans N, T and C, complex alpha, alpha purely imaginary, alpha 0 */
    for (int code = 0; code < 24; ++code) {
        const int opts[4] = {code & 1, (code >> 1) & 1, (code >> 2) % 3, (code / 12) & 1};
        for (size_t d = 0; d < sizeof trsm_dims / sizeof trsm_dims[0]; ++d) {
            int dims[4] = {trsm_dims[d][opts[0]], trsm_dims[d][!opts[0]], 0, 0};
            g_alpha_im = 0.75;
            run(1, 'z', (int)(d & 1), opts, dims, d == 2 ? 0.0 : 1.5, 0.0, leaves[d % 3]);
        }
        const int dims[4] = {opts[0] ? 4 : 50, opts[0] ? 50 : 4, 0, 0};
        g_alpha_im = 0.0;
        run(1, 'z', SHOAL_MODE_ARRAY, opts, dims, 0.0, 0.0, 16);
    }
    const int syrk_dims[][2] = {{33, 7}, {70, 70}, {130, 5}, {64, 0}, {128, 9}, {97, 3}};
    for (int code = 0; code < 4; ++code) {
        const int opts[2] = {code & 1, (code >> 1) & 1};
        for (size_t d = 0; d < sizeof syrk_dims / sizeof syrk_dims[0]; ++d)
            for (size_t l = 0; l < sizeof leaves / sizeof leaves[0]; ++l) {
                const int dims[4] = {syrk_dims[d][0], syrk_dims[d][1], 0, 0};
                for (int mode = 0; mode < 2; ++mode)
                    run(0, l == 1 ? 's' : 'd', mode, opts, dims, 1.5, l == 2 ? 0.0 : 0.5, leaves[l]);
            }
        const int dims[4] = {50, 6, 0, 0};
        run(0, 'd', SHOAL_MODE_ARRAY, opts, dims, 0.0, 0.5, 16);
    }
    /* HERK (z): the off-diagonal blocks by complex GEMM with op C, the diagonal left real */
    for (int code = 0; code < 4; ++code) {
        const int opts[2] = {code & 1, (code >> 1) & 1};
        for (size_t d = 0; d < sizeof syrk_dims / sizeof syrk_dims[0]; ++d)
            for (int mode = 0; mode < 2; ++mode) {
                const int dims[4] = {syrk_dims[d][0], syrk_dims[d][1], 0, 0};
                run(2, 'z', mode, opts, dims, 1.5, d == 1 ? 0.0 : 0.5, leaves[d % 3]);
            }
        const int dims[4] = {50, 6, 0, 0};
        run(2, 'z', SHOAL_MODE_STRIDED, opts, dims, 0.0, 0.5, 16);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
