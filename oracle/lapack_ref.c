/* Host references of the factorizations and their input generators; see lapack_ref.h. */
#include "lapack_ref.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- random inputs ------------------------------------------------------------------------- */

double oracle_uniform_float(uint64_t *state)
{
    /* 23 random bits: k / 2^22 - 1 with k in [0, 2^23], and 0 mapped away */
    for (;;) {
        const uint64_t k = oracle_splitmix64(state) >> 41; /* 23 bits */
        const double x = (double)k / 4194304.0 - 1.0;
        if (x != 0.0) return x;
    }
}

void oracle_permutation(uint64_t *state, int n, int *perm)
{
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        const int j = (int)(oracle_splitmix64(state) % (uint64_t)(i + 1));
        const int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

void oracle_lu_random(uint64_t *state, int m, int n, double *A)
{
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) A[i + (size_t)c * m] = oracle_uniform_float(state);
}

void oracle_lu_conditioned(uint64_t *state, int n, double *A)
{
    oracle_lu_random(state, n, n, A);
    int *perm = malloc((size_t)(n > 0 ? n : 1) * sizeof *perm);
    if (!perm) return;
    oracle_permutation(state, n, perm);
    const double shift = oracle_round_float(1.5 * sqrt((double)n) + 1.0);
    for (int c = 0; c < n; ++c) {
        double *a = &A[perm[c] + (size_t)c * n];
        *a = oracle_round_float(*a + (*a < 0 ? -shift : shift));
    }
    free(perm);
}

void oracle_lu_factors(uint64_t *state, int n, double *A, int *ipiv)
{
    oracle_lu_conditioned(state, n, A);
    oracle_getf2(n, n, A, n, ipiv);
    for (size_t i = 0; i < (size_t)n * n; ++i) A[i] = oracle_round_float(A[i]);
}

void oracle_fill_float(uint64_t *state, size_t count, double *x)
{
    for (size_t i = 0; i < count; ++i) x[i] = oracle_round_float(oracle_uniform(state));
}

void oracle_spd(uint64_t *state, int n, int up, double *A)
{
    oracle_fill_float(state, (size_t)n * n, A);
    /* symmetric off-diagonal part in the stored triangle, dominant diagonal */
    for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int c = 0; c < n; ++c) {
            if (c == i) continue;
            const int rr = i > c ? i : c, cc = i > c ? c : i;
            sum += fabs(A[oracle_fidx(n, up, rr, cc)]);
        }
        A[i + (size_t)i * n] = oracle_round_float(sum + 1.0 + 0.5 * oracle_uniform(state));
    }
}


/* ---- complex inputs (c, z): (re, im) pairs, both parts drawn like the real entries ------- */

void oracle_zlu_random(uint64_t *state, int m, int n, double *A)
{
    oracle_lu_random(state, 2 * m, n, A); /* 2 m n float-exact values in the real generator's order */
}

void oracle_zlu_conditioned(uint64_t *state, int n, double *A)
{
    oracle_zlu_random(state, n, n, A);
    int *perm = malloc((size_t)(n > 0 ? n : 1) * sizeof *perm);
    if (!perm) return;
    oracle_permutation(state, n, perm);
    /* the complex random part's spectral norm is about sqrt(2) times the real one's */
    const double shift = oracle_round_float(1.5 * sqrt(2.0 * n) + 1.0);
    for (int c = 0; c < n; ++c) {
        double *a = &A[2 * (perm[c] + (size_t)c * n)];
        a[0] = oracle_round_float(a[0] + (a[0] < 0 ? -shift : shift));
    }
    free(perm);
}

void oracle_zlu_factors(uint64_t *state, int n, double *A, int *ipiv)
{
    oracle_zlu_conditioned(state, n, A);
    oracle_zgetf2(n, n, A, n, ipiv);
    for (size_t i = 0; i < 2 * (size_t)n * n; ++i) A[i] = oracle_round_float(A[i]);
}

void oracle_hpd(uint64_t *state, int n, int up, double *A)
{
    oracle_fill_float(state, 2 * (size_t)n * n, A);
    for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int c = 0; c < n; ++c) {
            if (c == i) continue;
            const int rr = i > c ? i : c, cc = i > c ? c : i;
            const double *a = &A[2 * oracle_fidx(n, up, rr, cc)];
            sum += hypot(a[0], a[1]);
        }
        double *d = &A[2 * (i + (size_t)i * n)];
        d[0] = oracle_round_float(sum + 1.0 + 0.5 * oracle_uniform(state));
        /* the stray imaginary part: as large as the diagonal, never 0 */
        d[1] = oracle_round_float((n + 1.0) * oracle_uniform_float(state));
    }
}

/* ---- element arithmetic over w doubles per element (1: real, 2: (re, im)) ------------------
 * One implementation of each reference serves both: with w = 1 every branch below computes the
 * expression the real references always computed, bit for bit (tests/test_lapack_oracle.py
 * holds their outputs to the golden record's hashes); with w = 2 LAPACK's complex routine. */

typedef struct cnum {
    double re, im;
} cnum;

static cnum get(const double *X, size_t i, int w) { return w == 1 ? (cnum){X[i], 0.0} : (cnum){X[2 * i], X[2 * i + 1]}; }

static void put(double *X, size_t i, int w, cnum v)
{
    X[w * i] = v.re;
    if (w == 2) X[2 * i + 1] = v.im;
}

static cnum conjw(cnum a, int w) { return w == 1 ? a : (cnum){a.re, -a.im}; }
static int is_zero(cnum a) { return a.re == 0.0 && a.im == 0.0; }
static double absw(cnum a, int w) { return w == 1 ? fabs(a.re) : hypot(a.re, a.im); }

static cnum mul(cnum a, cnum b, int w)
{
    if (w == 1) return (cnum){a.re * b.re, 0.0};
    return (cnum){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/* a / b: Smith's division (no overflow of |b|^2), as LAPACK's zladiv avoids it */
static cnum divw(cnum a, cnum b, int w)
{
    if (w == 1) return (cnum){a.re / b.re, 0.0};
    if (fabs(b.re) >= fabs(b.im)) {
        const double r = b.im / b.re, d = b.re + b.im * r;
        return (cnum){(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    const double r = b.re / b.im, d = b.im + b.re * r;
    return (cnum){(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}

/* ---- LU with partial pivoting -------------------------------------------------------------- */

static int getf2_w(int w, int m, int n, double *A, int lda, int *ipiv)
{
    const int mn = m < n ? m : n;
    const double sfmin = DBL_MIN;
    int info = 0;
    for (int j = 0; j < mn; ++j) {
        /* i?amax: the first largest |re| + |im|; NaN never compares larger */
        int jp = j;
        cnum a = get(A, j + (size_t)j * lda, w);
        double best = fabs(a.re) + fabs(a.im);
        for (int i = j + 1; i < m; ++i) {
            a = get(A, i + (size_t)j * lda, w);
            const double v = fabs(a.re) + fabs(a.im);
            if (v > best) {
                best = v;
                jp = i;
            }
        }
        if (ipiv) ipiv[j] = jp + 1;
        const cnum p = get(A, jp + (size_t)j * lda, w);
        if (!is_zero(p)) {
            if (jp != j)
                for (int c = 0; c < n; ++c) {
                    const cnum t = get(A, j + (size_t)c * lda, w);
                    put(A, j + (size_t)c * lda, w, get(A, jp + (size_t)c * lda, w));
                    put(A, jp + (size_t)c * lda, w, t);
                }
            if (absw(p, w) >= sfmin) {
                const cnum r = divw((cnum){1.0, 0.0}, p, w);
                for (int i = j + 1; i < m; ++i)
                    put(A, i + (size_t)j * lda, w, mul(get(A, i + (size_t)j * lda, w), r, w));
            } else {
                for (int i = j + 1; i < m; ++i)
                    put(A, i + (size_t)j * lda, w, divw(get(A, i + (size_t)j * lda, w), p, w));
            }
        } else if (info == 0) {
            info = j + 1;
        }
        for (int c = j + 1; c < n; ++c) {
            const cnum u = get(A, j + (size_t)c * lda, w);
            for (int i = j + 1; i < m; ++i) {
                const cnum l = get(A, i + (size_t)j * lda, w);
                cnum x = get(A, i + (size_t)c * lda, w);
                if (w == 1) {
                    x.re = fma(-l.re, u.re, x.re);
                } else { /* x - l u, each part by fma */
                    x = (cnum){fma(-l.re, u.re, fma(l.im, u.im, x.re)), fma(-l.re, u.im, fma(-l.im, u.re, x.im))};
                }
                put(A, i + (size_t)c * lda, w, x);
            }
        }
    }
    return info;
}

int oracle_getf2(int m, int n, double *A, int lda, int *ipiv) { return getf2_w(1, m, n, A, lda, ipiv); }
int oracle_zgetf2(int m, int n, double *A, int lda, int *ipiv) { return getf2_w(2, m, n, A, lda, ipiv); }

/* Swaps rows a and b of the n columns of X (w doubles per element). */
static void swap_rows(int w, int n, double *X, int ldx, int a, int b)
{
    for (int c = 0; c < n; ++c)
        for (int e = 0; e < w; ++e) {
            double *x = &X[w * (a + (size_t)c * ldx) + e], *y = &X[w * (b + (size_t)c * ldx) + e];
            const double t = *x;
            *x = *y;
            *y = t;
        }
}

static void laswp_w(int w, int n, double *X, int ldx, int k, const int *ipiv, int forward)
{
    for (int s = 0; s < k; ++s) {
        const int i = forward ? s : k - 1 - s;
        const int p = ipiv[i] - 1;
        if (p == i || p < 0) continue;
        swap_rows(w, n, X, ldx, i, p);
    }
}

void oracle_laswp(int n, double *X, int ldx, int k, const int *ipiv, int forward)
{
    laswp_w(1, n, X, ldx, k, ipiv, forward);
}
void oracle_zlaswp(int n, double *X, int ldx, int k, const int *ipiv, int forward)
{
    laswp_w(2, n, X, ldx, k, ipiv, forward);
}

static void lu_product_w(int w, int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda)
{
    const int mn = m < n ? m : n;
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < m; ++i) {
            /* (L U)(i, c) = sum_{k <= min(i, c), k < mn} L(i, k) U(k, c), L(i, i) = 1 */
            const int kmax = (i < c ? i : c) < mn - 1 ? (i < c ? i : c) : mn - 1;
            cnum s = {0.0, 0.0};
            for (int k = 0; k <= kmax; ++k) {
                const cnum l = k == i ? (cnum){1.0, 0.0} : get(LU, i + (size_t)k * ldlu, w);
                const cnum t = mul(l, get(LU, k + (size_t)c * ldlu, w), w);
                s.re += t.re;
                s.im += t.im;
            }
            put(A, i + (size_t)c * lda, w, s);
        }
    /* P (L U): the interchanges in reverse order, entries out of range ignored */
    for (int s = mn - 1; s >= 0; --s) {
        const int p = ipiv[s] - 1;
        if (p == s || p < 0 || p >= m) continue;
        swap_rows(w, n, A, lda, s, p);
    }
}

void oracle_lu_product(int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda)
{
    lu_product_w(1, m, n, LU, ldlu, ipiv, A, lda);
}
void oracle_zlu_product(int m, int n, const double *LU, int ldlu, const int *ipiv, double *A, int lda)
{
    lu_product_w(2, m, n, LU, ldlu, ipiv, A, lda);
}

/* ---- Cholesky ------------------------------------------------------------------------------ */

/* F(r, c), r >= c, of the lower view: the element of the stored triangle, conjugated where it
 * is the upper one (U = L^H holds conj(L(r, c)) at (c, r)); put_f stores L(r, c) there. */
static cnum get_f(const double *A, int ld, int up, int r, int c, int w)
{
    const cnum a = get(A, oracle_fidx(ld, up, r, c), w);
    return up ? conjw(a, w) : a;
}
static void put_f(double *A, int ld, int up, int r, int c, int w, cnum v)
{
    put(A, oracle_fidx(ld, up, r, c), w, up ? conjw(v, w) : v);
}

static void herm_from_tri_w(int w, int n, int up, const double *A, int lda, double *S)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int r = i > j ? i : j, c = i > j ? j : i;
            cnum v = get_f(A, lda, up, r, c, w);
            if (i < j) v = conjw(v, w);
            if (i == j) v.im = 0.0; /* the diagonal's imaginary part is not referenced */
            put(S, i + (size_t)j * n, w, v);
        }
}

void oracle_sym_from_tri(int n, int up, const double *A, int lda, double *S)
{
    herm_from_tri_w(1, n, up, A, lda, S);
}
void oracle_herm_from_tri(int n, int up, const double *A, int lda, double *S)
{
    herm_from_tri_w(2, n, up, A, lda, S);
}

static int potf2_w(int w, int n, int up, double *A, int lda)
{
    for (int j = 0; j < n; ++j) {
        double d = get(A, oracle_fidx(lda, up, j, j), w).re;
        for (int k = 0; k < j; ++k) {
            const cnum l = get_f(A, lda, up, j, k, w);
            if (w == 1)
                d -= l.re * l.re;
            else
                d -= l.re * l.re + l.im * l.im;
        }
        if (!(d > 0.0)) {
            put(A, oracle_fidx(lda, up, j, j), w, (cnum){d, 0.0});
            return j + 1;
        }
        d = sqrt(d);
        put(A, oracle_fidx(lda, up, j, j), w, (cnum){d, 0.0});
        for (int i = j + 1; i < n; ++i) {
            cnum s = get_f(A, lda, up, i, j, w);
            for (int k = 0; k < j; ++k) {
                /* s -= L(i, k) conj(L(j, k)) */
                const cnum t = mul(get_f(A, lda, up, i, k, w), conjw(get_f(A, lda, up, j, k, w), w), w);
                s.re -= t.re;
                s.im -= t.im;
            }
            put_f(A, lda, up, i, j, w, (cnum){s.re / d, s.im / d});
        }
    }
    return 0;
}

int oracle_potf2(int n, int up, double *A, int lda) { return potf2_w(1, n, up, A, lda); }
int oracle_zpotf2(int n, int up, double *A, int lda) { return potf2_w(2, n, up, A, lda); }

static void chol_product_w(int w, int n, int up, const double *F, int ldf, double *M)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int kmax = i < j ? i : j;
            cnum s = {0.0, 0.0};
            for (int k = 0; k <= kmax; ++k) {
                const cnum t = mul(get_f(F, ldf, up, i, k, w), conjw(get_f(F, ldf, up, j, k, w), w), w);
                s.re += t.re;
                s.im += t.im;
            }
            put(M, i + (size_t)j * n, w, s);
        }
}

void oracle_chol_product(int n, int up, const double *F, int ldf, double *M) { chol_product_w(1, n, up, F, ldf, M); }
void oracle_zchol_product(int n, int up, const double *F, int ldf, double *M) { chol_product_w(2, n, up, F, ldf, M); }

/* ---- Householder QR ------------------------------------------------------------------------ */

/* LAPACK's dlapy2 (sqrt(x^2 + y^2) without needless overflow) and dnrm2, simply scaled
 * (dznrm2 is dnrm2 over the real and imaginary parts). */
static double lapy2(double x, double y)
{
    const double a = fabs(x), b = fabs(y);
    const double w = a > b ? a : b, z = a > b ? b : a;
    if (z == 0.0 || w > 1.79e308) return w;
    return w * sqrt(1.0 + (z / w) * (z / w));
}

static double nrm2(const double *x, int len)
{
    double scale = 0.0, ssq = 1.0;
    for (int i = 0; i < len; ++i) {
        if (x[i] != 0.0) {
            const double a = fabs(x[i]);
            if (scale < a) {
                ssq = 1.0 + ssq * (scale / a) * (scale / a);
                scale = a;
            } else {
                ssq += (a / scale) * (a / scale);
            }
        }
    }
    return scale * sqrt(ssq);
}

/* y(0:len) -= t v (v^H y) with v(0) = 1 and v(1:len) = v[1..len-1]: one reflector I - t v v^H
 * applied to one column. */
static void reflect(int w, const double *v, cnum t, int len, double *y)
{
    cnum s = get(y, 0, w);
    for (int i = 1; i < len; ++i) {
        const cnum p = mul(conjw(get(v, i, w), w), get(y, i, w), w);
        s.re += p.re;
        s.im += p.im;
    }
    s = mul(s, t, w);
    cnum y0 = get(y, 0, w);
    y0.re -= s.re;
    y0.im -= s.im;
    put(y, 0, w, y0);
    for (int i = 1; i < len; ++i) {
        const cnum p = mul(s, get(v, i, w), w);
        cnum yi = get(y, i, w);
        yi.re -= p.re;
        yi.im -= p.im;
        put(y, i, w, yi);
    }
}

static void geqr2_w(int w, int m, int n, double *A, int lda, double *tau, double *alpha)
{
    const int k = m < n ? m : n;
    for (int j = 0; j < k; ++j) {
        double *col = A + w * (j + (size_t)j * lda); /* alpha, then x */
        const int len = m - j;
        const cnum a = get(col, 0, w);
        if (alpha) put(alpha, j, w, a);
        const double xnorm = len > 1 ? nrm2(col + w, w * (len - 1)) : 0.0;
        if (xnorm == 0.0 && a.im == 0.0) {
            put(tau, j, w, (cnum){0.0, 0.0});
            continue; /* H = I */
        }
        /* zlarfg: beta = -sign(re alpha) ||(alpha, x)||, real; tau = (beta - alpha) / beta;
         * v = x / (alpha - beta) */
        const double beta = -copysign(lapy2(w == 1 ? a.re : lapy2(a.re, a.im), xnorm), a.re);
        const cnum t = {(beta - a.re) / beta, -a.im / beta};
        const cnum sc = divw((cnum){1.0, 0.0}, (cnum){a.re - beta, a.im}, w);
        for (int i = 1; i < len; ++i) put(col, i, w, mul(get(col, i, w), sc, w));
        put(col, 0, w, (cnum){beta, 0.0});
        put(tau, j, w, t);
        /* apply H^H = I - conj(t) v v^H to A(j:m, j+1:n) */
        for (int c = j + 1; c < n; ++c) reflect(w, col, conjw(t, w), len, A + w * (j + (size_t)c * lda));
    }
}

void oracle_geqr2(int m, int n, double *A, int lda, double *tau, double *alpha)
{
    geqr2_w(1, m, n, A, lda, tau, alpha);
}
void oracle_zgeqr2(int m, int n, double *A, int lda, double *tau, double *alpha)
{
    geqr2_w(2, m, n, A, lda, tau, alpha);
}

/* C (m x ncols, leading dimension ldc) = Q C, Q = H(0) (H(1) (... H(k-1) C)): 4 m ncols k flops,
 * where forming Q would take 4 m^2 k and using it m^2 ncols more */
static void apply_q_w(int w, int m, int n, const double *A, int lda, const double *tau, int ncols, double *C,
                      size_t ldc)
{
    const int k = m < n ? m : n;
    for (int j = k - 1; j >= 0; --j)
        for (int c = 0; c < ncols; ++c)
            reflect(w, A + w * (j + (size_t)j * lda), get(tau, j, w), m - j, C + w * (j + (size_t)c * ldc));
}

void oracle_apply_q(int m, int n, const double *A, int lda, const double *tau, int ncols, double *C, size_t ldc)
{
    apply_q_w(1, m, n, A, lda, tau, ncols, C, ldc);
}
void oracle_zapply_q(int m, int n, const double *A, int lda, const double *tau, int ncols, double *C, size_t ldc)
{
    apply_q_w(2, m, n, A, lda, tau, ncols, C, ldc);
}

static void form_q_w(int w, int m, int n, const double *A, int lda, const double *tau, double *Q)
{
    memset(Q, 0, sizeof(double) * w * (size_t)m * (size_t)m);
    for (int i = 0; i < m; ++i) Q[w * (i + (size_t)i * m)] = 1.0;
    apply_q_w(w, m, n, A, lda, tau, m, Q, (size_t)m);
}

void oracle_form_q(int m, int n, const double *A, int lda, const double *tau, double *Q)
{
    form_q_w(1, m, n, A, lda, tau, Q);
}
void oracle_zform_q(int m, int n, const double *A, int lda, const double *tau, double *Q)
{
    form_q_w(2, m, n, A, lda, tau, Q);
}
