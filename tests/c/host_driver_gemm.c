/* tests/c/host_driver_gemm.h */
#include "host_driver_gemm.h"

int host_gemm_calls;

/* Problem b's matrix: its pointer (arrays) or the strided position. */
static char *matrix(const shoal_spec_call *c, const shoal_operand *op, long long b)
{
    return op->array ? (char *)op->array[b] : (char *)op->ptr + b * op->stride * shoal_spec_elem_bytes(c->prec);
}

double host_get(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j)
{
    const long long at = i + j * op->ld;
    return c->prec == 's' ? ((const float *)matrix(c, op, b))[at] : ((const double *)matrix(c, op, b))[at];
}

void host_put(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j, double v)
{
    const long long at = i + j * op->ld;
    if (c->prec == 's') ((float *)matrix(c, op, b))[at] = (float)v;
    else ((double *)matrix(c, op, b))[at] = v;
}

shoal_status shoal_driver_gemm(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m, int n,
                               int k, double alpha, shoal_operand A, shoal_operand B, double beta,
                               shoal_operand C)
{
    (void)ctx;
    ++host_gemm_calls;
    for (long long b = 0; b < c->p.batch; ++b)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double s = 0.0;
                if (alpha != 0.0)
                    for (int l = 0; l < k; ++l)
                        s += (ta ? host_get(c, &A, b, l, i) : host_get(c, &A, b, i, l)) * (tb ? host_get(c, &B, b, j, l) : host_get(c, &B, b, l, j));
                host_put(c, &C, b, i, j, alpha * s + (beta == 0.0 ? 0.0 : beta * host_get(c, &C, b, i, j)));
            }
    return SHOAL_STATUS_SUCCESS;
}

double complex host_zget(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j)
{
    return ((const double complex *)matrix(c, op, b))[i + j * op->ld];
}

void host_zput(const shoal_spec_call *c, const shoal_operand *op, long long b, long long i, long long j, double complex v)
{
    ((double complex *)matrix(c, op, b))[i + j * op->ld] = v;
}

/* op(X)(i, l) of a GEMM operand: N, T or C (2, the conjugate transpose) */
static double complex zop(const shoal_spec_call *c, const shoal_operand *X, long long b, int t, int i, int l)
{
    if (t == 0) return host_zget(c, X, b, i, l);
    return t == 2 ? conj(host_zget(c, X, b, l, i)) : host_zget(c, X, b, l, i);
}

/* The complex GEMM step (cuBLAS's in the library) on the host. */
shoal_status shoal_driver_gemm_complex(struct shoal_context *ctx, const shoal_spec_call *c, int ta, int tb, int m,
                                       int n, int k, shoal_driver_scalar alpha, shoal_operand A, shoal_operand B,
                                       shoal_driver_scalar beta, shoal_operand C)
{
    (void)ctx;
    ++host_gemm_calls;
    const double complex al = alpha.re + I * alpha.im, be = beta.re + I * beta.im;
    for (long long b = 0; b < c->p.batch; ++b)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double complex s = 0.0;
                for (int l = 0; l < k; ++l) s += zop(c, &A, b, ta, i, l) * zop(c, &B, b, tb, l, j);
                host_zput(c, &C, b, i, j, al * s + (be == 0.0 ? 0.0 : be * host_zget(c, &C, b, i, j)));
            }
    return SHOAL_STATUS_SUCCESS;
}

