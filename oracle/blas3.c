/* Oracles of the level-3 BLAS spec routines: trsm, syrk and herk (oracle/oracle.h).
 *
 * trsm: dims {m, n}, opts {side, uplo, trans, diag}, operands A (t x t, t = m for side left,
 *       n for right), B (m x n, overwritten by X).
 * syrk: dims {n, k}, opts {uplo, trans}, operands A (n x k for trans N, k x n for T), C (n x n).
 * herk: as syrk, complex only, trans 1 meaning C (op(A) = A^H), alpha and beta real.
 * Operands are packed column-major, ld = rows[o]; complex problems (is_complex: trsm in c and z)
 * hold (re, im) pairs, read here as double complex. */
#include "oracle.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where the generators put what must not be read (the other triangle, a unit diagonal): large,
 * so that a kernel which reads it is far off, yet finite in single precision. */
static double garbage(uint64_t *s) { return 1.0e6 * (2.0 + oracle_uniform(s)); }

static int same_bits(const double *a, const double *b, long long count)
{
    return memcmp(a, b, (size_t)count * sizeof(double)) == 0;
}

/* ---- trsm ---------------------------------------------------------------------------------- */

enum { TRSM_SIDE, TRSM_UPLO, TRSM_TRANS, TRSM_DIAG };

/* The referenced triangle of A as the solve sees it: the other triangle reads as 0, a unit
 * diagonal as 1. */
static double tri_at(const double *A, int lda, int r, int c, int upper, int unit)
{
    if (r == c) return unit ? 1.0 : A[r + (long long)c * lda];
    if (upper ? r > c : r < c) return 0.0;
    return A[r + (long long)c * lda];
}

/* Complex problems: the same construction with both parts random. Off the diagonal re and im
 * uniform [-1, 1) / t (|a| < sqrt(2) / t), the diagonal's real part 2 .. 2.5 with a random sign and
 * its imaginary part uniform [-1, 1) (|d| >= 2: still dominant), garbage in both parts where the
 * solve must not read, B with both parts uniform. */
static void trsm_generate_complex(const oracle_problem *sh, unsigned long long seed, double *const in[])
{
    uint64_t s = seed;
    const int t = sh->rows[0], upper = sh->opts[TRSM_UPLO], unit = sh->opts[TRSM_DIAG];
    double *A = in[0], *B = in[1];
    for (int c = 0; c < t; ++c)
        for (int r = 0; r < t; ++r) {
            double *v = A + 2 * (r + (long long)c * t);
            if (r == c && !unit) {
                const double u = oracle_uniform(&s);
                v[0] = (u < 0 ? -1.0 : 1.0) * (2.0 + 0.25 * (1.0 + oracle_uniform(&s)));
                v[1] = oracle_uniform(&s);
            } else if (r != c && (upper ? r < c : r > c)) {
                v[0] = oracle_uniform(&s) / t;
                v[1] = oracle_uniform(&s) / t;
            } else {
                v[0] = garbage(&s);
                v[1] = garbage(&s);
            }
        }
    const long long nb = 2LL * sh->rows[1] * sh->cols[1];
    for (long long e = 0; e < nb; ++e) B[e] = oracle_uniform(&s);
}

/* A: the stored triangle off-diagonal uniform [-1, 1) / t, the diagonal 1.5 .. 2.5 with a random
 * sign (dominant: the solve is well conditioned in single precision), the other triangle (and a
 * unit diagonal) garbage. B uniform. */
static void trsm_generate(const oracle_problem *sh, unsigned long long seed, double *const in[])
{
    if (sh->is_complex) {
        trsm_generate_complex(sh, seed, in);
        return;
    }
    uint64_t s = seed;
    const int t = sh->rows[0], upper = sh->opts[TRSM_UPLO], unit = sh->opts[TRSM_DIAG];
    double *A = in[0], *B = in[1];
    for (int c = 0; c < t; ++c)
        for (int r = 0; r < t; ++r) {
            double v;
            if (r == c) {
                const double u = oracle_uniform(&s);
                v = unit ? garbage(&s) : (u < 0 ? -1.0 : 1.0) * (2.0 + 0.5 * oracle_uniform(&s));
            } else if (upper ? r < c : r > c) {
                v = oracle_uniform(&s) / t;
            } else {
                v = garbage(&s);
            }
            A[r + (long long)c * t] = v;
        }
    const long long nb = (long long)sh->rows[1] * sh->cols[1];
    for (long long e = 0; e < nb; ++e) B[e] = oracle_uniform(&s);
}

static int cfinite(double complex z) { return isfinite(creal(z)) && isfinite(cimag(z)); }

static double complex ctri_at(const double complex *A, int lda, int r, int c, int upper, int unit)
{
    if (r == c) return unit ? 1.0 : A[r + (long long)c * lda];
    if (upper ? r > c : r < c) return 0.0;
    return A[r + (long long)c * lda];
}

/* trsm_check in complex arithmetic: op(A) = A, A^T or A^H (trans 0, 1, 2), the same normalized
 * backward error with |z|^2 = re^2 + im^2 in the Frobenius norms and |alpha| the modulus. */
static double trsm_check_complex(const oracle_problem *p, double eps)
{
    const int m = p->dims[0], n = p->dims[1];
    const int side = p->opts[TRSM_SIDE], upper = p->opts[TRSM_UPLO], trans = p->opts[TRSM_TRANS],
              unit = p->opts[TRSM_DIAG];
    const int t = side ? n : m, lda = p->rows[0], ldb = p->rows[1];
    const double complex *A = (const double complex *)p->in[0], *B = (const double complex *)p->in[1],
                         *X = (const double complex *)p->out[1];
    const double complex alpha = CMPLX(p->alpha, p->alpha_im);
    if (m < 1 || n < 1) return 0.0;
    if (p->out[0] && !same_bits(p->out[0], p->in[0], 2LL * lda * p->cols[0])) return INFINITY;

    int finite = cfinite(alpha);
    double na = 0.0, nb = 0.0, nx = 0.0;
    for (int c = 0; c < t; ++c)
        for (int r = 0; r < t; ++r) {
            const double complex a = ctri_at(A, lda, r, c, upper, unit);
            finite = finite && cfinite(a);
            na += creal(a) * creal(a) + cimag(a) * cimag(a);
        }
    int x_finite = 1, x_zero = 1;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) {
            const double complex b = B[r + (long long)c * ldb], x = X[r + (long long)c * ldb];
            finite = finite && cfinite(b);
            x_finite = x_finite && cfinite(x);
            x_zero = x_zero && creal(x) == 0.0 && cimag(x) == 0.0;
            nb += creal(b) * creal(b) + cimag(b) * cimag(b);
            nx += creal(x) * creal(x) + cimag(x) * cimag(x);
        }
    if (creal(alpha) == 0.0 && cimag(alpha) == 0.0) return x_zero ? 0.0 : INFINITY;
    if (!finite) return 0.0;
    if (!x_finite) return INFINITY;

    double nr = 0.0;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) {
            double complex s = 0.0;
            for (int l = 0; l < t; ++l) {
                const int ar = side ? l : r, ac = side ? c : l;
                double complex a = trans ? ctri_at(A, lda, ac, ar, upper, unit) : ctri_at(A, lda, ar, ac, upper, unit);
                if (trans == 2) a = conj(a);
                const double complex x = side ? X[r + (long long)l * ldb] : X[l + (long long)c * ldb];
                s += a * x;
            }
            const double complex res = s - alpha * B[r + (long long)c * ldb];
            nr += creal(res) * creal(res) + cimag(res) * cimag(res);
        }
    if (nr == 0.0) return 0.0;
    return sqrt(nr) / ((sqrt(na) * sqrt(nx) + cabs(alpha) * sqrt(nb)) * t * eps);
}

/* ||op(A) X - alpha B||_F / ((||A||_F ||X||_F + |alpha| ||B||_F) t eps) (side right:
 * X op(A)), with ||A|| over the referenced triangle (a unit diagonal counting as ones): the
 * normwise backward error of the solve, which substitution keeps below a small multiple of 1.
 * alpha == 0: X must be exactly 0 (BLAS sets B = 0). INFINITY: A changed, or a non-finite X from
 * finite inputs. With non-finite inputs there is nothing to check (0). */
static double trsm_check(const oracle_problem *p, double eps)
{
    if (p->is_complex) return trsm_check_complex(p, eps);
    const int m = p->dims[0], n = p->dims[1];
    const int side = p->opts[TRSM_SIDE], upper = p->opts[TRSM_UPLO], trans = p->opts[TRSM_TRANS],
              unit = p->opts[TRSM_DIAG];
    const int t = side ? n : m, lda = p->rows[0], ldb = p->rows[1];
    const double *A = p->in[0], *B = p->in[1], *X = p->out[1];
    const double alpha = p->alpha;
    if (m < 1 || n < 1) return 0.0;
    if (p->out[0] && !same_bits(p->out[0], A, (long long)lda * p->cols[0])) return INFINITY;

    int finite = isfinite(alpha);
    double na = 0.0, nb = 0.0, nx = 0.0;
    for (int c = 0; c < t; ++c)
        for (int r = 0; r < t; ++r) {
            const double a = tri_at(A, lda, r, c, upper, unit);
            finite = finite && isfinite(a);
            na += a * a;
        }
    int x_finite = 1, x_zero = 1;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) {
            const double b = B[r + (long long)c * ldb], x = X[r + (long long)c * ldb];
            finite = finite && isfinite(b);
            x_finite = x_finite && isfinite(x);
            x_zero = x_zero && x == 0.0;
            nb += b * b;
            nx += x * x;
        }
    if (alpha == 0.0) return x_zero ? 0.0 : INFINITY;
    if (!finite) return 0.0;
    if (!x_finite) return INFINITY;

    double nr = 0.0;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) {
            double s = 0.0;
            for (int l = 0; l < t; ++l) {
                /* left: (op(A) X)(r, c) = sum_l op(A)(r, l) X(l, c); right: sum_l X(r, l) op(A)(l, c) */
                const int ar = side ? l : r, ac = side ? c : l;
                const double a = trans ? tri_at(A, lda, ac, ar, upper, unit) : tri_at(A, lda, ar, ac, upper, unit);
                const double x = side ? X[r + (long long)l * ldb] : X[l + (long long)c * ldb];
                s += a * x;
            }
            const double res = s - alpha * B[r + (long long)c * ldb];
            nr += res * res;
        }
    if (nr == 0.0) return 0.0;
    return sqrt(nr) / ((sqrt(na) * sqrt(nx) + fabs(alpha) * sqrt(nb)) * t * eps);
}

const oracle oracle_trsm = {"trsm", trsm_generate, trsm_check};

/* ---- rank-k checks (syrk, herk) -------------------------------------------------------------- */

/* Whether the triangle of C that is not stored (below the diagonal for upper, above for lower)
 * came out bitwise as it went in; words: doubles per element (2 for complex). */
static int other_triangle_kept(int n, int upper, int ldc, const double *Cout, const double *Cin, int words)
{
    for (int j = 0; j < n; ++j)
        for (int i = upper ? j + 1 : 0; i < (upper ? n : j); ++i) {
            const long long ij = (i + (long long)j * ldc) * words;
            if (!same_bits(Cout + ij, Cin + ij, words)) return 0;
        }
    return 1;
}

/* One stored element's error in units of its componentwise bound (k + 2 roundings): 0 when
 * exact; INFINITY when it is off where the bound is 0. */
static double element_error(double diff, double bound, int k, double eps)
{
    if (diff == 0.0) return 0.0;
    return bound == 0.0 ? INFINITY : diff / (bound * (k + 2) * eps);
}

/* The buffers of op(A)'s gathered rows: n rows of `per` arrays of k doubles, and a finiteness
 * flag per row. The element loops then stream two rows (op N read A across columns, a cache
 * line per element: at n = k = 1024 the check of one problem took seconds, a tuning task each).
 * 0: out of memory, nothing allocated. */
static int rows_alloc(int n, int k, int per, double **rows, unsigned char **finite)
{
    *rows = malloc(sizeof **rows * (size_t)per * (size_t)n * (size_t)k);
    *finite = malloc((size_t)n);
    if (*rows && *finite) return 1;
    free(*rows);
    free(*finite);
    *rows = NULL;
    *finite = NULL;
    return 0;
}

/* ---- syrk ---------------------------------------------------------------------------------- */

enum { SYRK_UPLO, SYRK_TRANS };

static void syrk_generate(const oracle_problem *sh, unsigned long long seed, double *const in[])
{
    uint64_t s = seed;
    for (int o = 0; o < 2; ++o) {
        const long long count = (long long)sh->rows[o] * sh->cols[o];
        for (long long e = 0; e < count; ++e) in[o][e] = oracle_uniform(&s);
    }
}

/* Elementwise against the reference computed in double on the stored triangle:
 *     max |C_out(i, j) - c(i, j)| / (b(i, j) (k + 2) eps),
 *     c = alpha sum_l op(A)(i, l) op(A)(j, l) + beta C_in(i, j),
 *     b = |alpha| sum_l |op(A)(i, l) op(A)(j, l)| + |beta| |C_in(i, j)|,
 * the componentwise bound of a dot product of length k followed by the scaling and the sum, so
 * every element is held to its own bound however small it is (a norm of the whole C would hide a
 * wrong small element). Terms that BLAS does not evaluate are left out: the product when
 * alpha == 0 or k == 0 (A not read), the C_in term when beta == 0 (C not read: a NaN there must
 * not show). An element with b = 0 must be exact. INFINITY: A changed, an element of the other
 * triangle changed (bitwise), or a non-finite element where its inputs are finite. */
static double syrk_check(const oracle_problem *p, double eps)
{
    const int n = p->dims[0], k = p->dims[1];
    const int upper = p->opts[SYRK_UPLO], trans = p->opts[SYRK_TRANS];
    const int lda = p->rows[0], ldc = p->rows[1];
    const double *A = p->in[0], *Cin = p->in[1], *Cout = p->out[1];
    const double alpha = p->alpha, beta = p->beta;
    const int use_a = alpha != 0.0 && k > 0, use_c = beta != 0.0;
    if (n < 1) return 0.0;
    if (p->out[0] && !same_bits(p->out[0], A, (long long)lda * p->cols[0])) return INFINITY;
    if (!other_triangle_kept(n, upper, ldc, Cout, Cin, 1)) return INFINITY;
    double *rows = NULL;
    unsigned char *row_finite = NULL;
    if (use_a) {
        if (!rows_alloc(n, k, 1, &rows, &row_finite)) return INFINITY;
        for (int i = 0; i < n; ++i) {
            int fin = 1;
            for (int l = 0; l < k; ++l) {
                const double a = trans ? A[l + (long long)i * lda] : A[i + (long long)l * lda];
                rows[(size_t)i * (size_t)k + (size_t)l] = a;
                fin = fin && isfinite(a);
            }
            row_finite[i] = (unsigned char)fin;
        }
    }

    double worst = 0.0;
    for (int j = 0; j < n; ++j)
        for (int i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i) {
            const long long ij = i + (long long)j * ldc;
            double dot = 0.0, mag = 0.0;
            int finite = isfinite(alpha) && isfinite(beta);
            if (use_a) {
                const double *ai = rows + (size_t)i * (size_t)k, *aj = rows + (size_t)j * (size_t)k;
                /* four partial sums: independent chains (the reference is held to a bound of
                 * k + 2 roundings, whatever the order of its sums) */
                double d[4] = {0.0, 0.0, 0.0, 0.0}, m[4] = {0.0, 0.0, 0.0, 0.0};
                int l = 0;
                for (; l + 4 <= k; l += 4)
                    for (int u = 0; u < 4; ++u) {
                        const double t = ai[l + u] * aj[l + u];
                        d[u] += t;
                        m[u] += fabs(t);
                    }
                for (; l < k; ++l) {
                    const double t = ai[l] * aj[l];
                    d[0] += t;
                    m[0] += fabs(t);
                }
                dot = (d[0] + d[1]) + (d[2] + d[3]);
                mag = (m[0] + m[1]) + (m[2] + m[3]);
                finite = finite && row_finite[i] && row_finite[j];
            }
            double ref = use_a ? alpha * dot : 0.0, bound = use_a ? fabs(alpha) * mag : 0.0;
            if (use_c) {
                finite = finite && isfinite(Cin[ij]);
                ref += beta * Cin[ij];
                bound += fabs(beta) * fabs(Cin[ij]);
            }
            if (!finite) continue;
            const double err = isfinite(Cout[ij]) ? element_error(fabs(Cout[ij] - ref), bound, k, eps) : INFINITY;
            if (err > worst) worst = err;
            if (worst == INFINITY) goto done;
        }
done:
    free(rows);
    free(row_finite);
    return worst;
}

const oracle oracle_syrk = {"syrk", syrk_generate, syrk_check};

/* ---- herk (c, z) ---------------------------------------------------------------------------- */

enum { HERK_UPLO, HERK_TRANS };

static void herk_generate(const oracle_problem *sh, unsigned long long seed, double *const in[])
{
    uint64_t s = seed;
    for (int o = 0; o < 2; ++o) {
        const long long count = 2LL * sh->rows[o] * sh->cols[o];
        for (long long e = 0; e < count; ++e) in[o][e] = oracle_uniform(&s);
    }
}

/* syrk_check's elementwise test in complex arithmetic, for C = alpha op(A) op(A)^H + beta C
 * (op(A) = A, or A^H for trans 1), alpha and beta real:
 *     max |C_out(i, j) - c(i, j)| / (b(i, j) (k + 2) eps),
 *     c = alpha sum_l op(A)(i, l) conj(op(A)(j, l)) + beta C_in(i, j),
 *     b = |alpha| sum_l |op(A)(i, l)| |op(A)(j, l)| + |beta| |C_in(i, j)|,
 * with C_in's diagonal taken as real (its imaginary part is not read: a NaN there must not show)
 * and C_out's diagonal exactly real. Nothing changes C when alpha == 0 or k == 0 with beta == 1:
 * then C must be bitwise as it was, its diagonal's imaginary parts included. INFINITY: A changed,
 * the other triangle changed (bitwise), a non-finite element from finite inputs, a diagonal
 * element with an imaginary part. */
static double herk_check(const oracle_problem *p, double eps)
{
    const int n = p->dims[0], k = p->dims[1];
    const int upper = p->opts[HERK_UPLO], trans = p->opts[HERK_TRANS];
    const int lda = p->rows[0], ldc = p->rows[1];
    const double complex *A = (const double complex *)p->in[0], *Cin = (const double complex *)p->in[1],
                         *Cout = (const double complex *)p->out[1];
    const double alpha = p->alpha, beta = p->beta;
    const int use_a = alpha != 0.0 && k > 0, use_c = beta != 0.0;
    if (n < 1) return 0.0;
    if (p->out[0] && !same_bits(p->out[0], p->in[0], 2LL * lda * p->cols[0])) return INFINITY;
    if (!use_a && beta == 1.0)
        return same_bits(p->out[1], p->in[1], 2LL * ldc * p->cols[1]) ? 0.0 : INFINITY;
    if (!other_triangle_kept(n, upper, ldc, p->out[1], p->in[1], 2)) return INFINITY;
    /* op(A)'s rows gathered (real parts, imaginary parts, magnitudes), so that the element loop
     * streams two rows in real arithmetic: with C99's complex product (NaN recovery, __muldc3)
     * and cabs per term, the check took about 50 s a tuning task at n = 512..1024 (H100 host,
     * 2026-11-27) */
    double *rows = NULL;
    unsigned char *row_finite = NULL;
    const size_t nk = (size_t)n * (size_t)k;
    if (use_a) {
        if (!rows_alloc(n, k, 3, &rows, &row_finite)) return INFINITY;
        for (int i = 0; i < n; ++i) {
            int fin = 1;
            for (int l = 0; l < k; ++l) {
                const double complex a = trans ? conj(A[l + (long long)i * lda]) : A[i + (long long)l * lda];
                const size_t e = (size_t)i * (size_t)k + (size_t)l;
                rows[e] = creal(a);
                rows[nk + e] = cimag(a);
                rows[2 * nk + e] = cabs(a);
                fin = fin && cfinite(a);
            }
            row_finite[i] = (unsigned char)fin;
        }
    }
    double worst = 0.0;
    for (int j = 0; j < n; ++j)
        for (int i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i) {
            const long long ij = i + (long long)j * ldc;
            double complex dot = 0.0;
            double mag = 0.0;
            int finite = isfinite(alpha) && isfinite(beta);
            if (use_a) {
                /* x conj(y) = (xr yr + xi yi) + i (xi yr - xr yi), x = op(A)(i, :), y = op(A)(j, :) */
                const double *xr = rows + (size_t)i * (size_t)k, *xi = xr + nk, *xm = xi + nk;
                const double *yr = rows + (size_t)j * (size_t)k, *yi = yr + nk, *ym = yi + nk;
                double re = 0.0, im = 0.0;
                for (int l = 0; l < k; ++l) {
                    re += xr[l] * yr[l] + xi[l] * yi[l];
                    im += xi[l] * yr[l] - xr[l] * yi[l];
                    mag += xm[l] * ym[l];
                }
                dot = CMPLX(re, im);
                finite = finite && row_finite[i] && row_finite[j];
            }
            double complex ref = use_a ? alpha * dot : 0.0;
            double bound = use_a ? fabs(alpha) * mag : 0.0;
            if (use_c) {
                const double complex c = i == j ? CMPLX(creal(Cin[ij]), 0.0) : Cin[ij];
                finite = finite && cfinite(c);
                ref += beta * c;
                bound += fabs(beta) * cabs(c);
            }
            if (i == j) ref = CMPLX(creal(ref), 0.0);
            if (!finite) continue;
            const double complex out = Cout[ij];
            const double err = !cfinite(out) || (i == j && cimag(out) != 0.0) ? INFINITY
                                                                              : element_error(cabs(out - ref), bound, k, eps);
            if (err > worst) worst = err;
            if (worst == INFINITY) goto done;
        }
done:
    free(rows);
    free(row_finite);
    return worst;
}

const oracle oracle_herk = {"herk", herk_generate, herk_check};
