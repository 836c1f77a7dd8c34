/* The factorization references and residual checks on the CPU.
 *
 * --record: prints one line per recorded quantity, "KEY VALUE", for a fixed set of sizes, seeds
 * and variants: the matrices the specs' generators make and the host references' outputs (an
 * FNV-1a hash of their bytes: bitwise), and the residuals of the tuner's checks and of the
 * benchmark's checks on float-rounded host factors (C99 hex floats). tests/test_lapack_oracle.py
 * compares it with tests/c/golden/lapack_oracle_record.txt, recorded from the references before
 * they moved into oracle/ (tuner/host_lu.c, tuner/host_chol_qr.c, bench/lapack_check.c).
 *
 * Usage: test_lapack_oracle --record */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_math.h"
#include "lapack_spec.h"

/* ---- the API under test ----------------------------------------------------------------------- */
#include "host_chol_qr.h"
#include "host_lu.h"
#include "lapack_check.h"

static double ref_uniform_lu(uint64_t *s)
{
    hl_rng r = {*s};
    const double x = hl_uniform(&r);
    *s = r.state;
    return x;
}
static void ref_permutation(uint64_t *s, int n, int *perm)
{
    hl_rng r = {*s};
    hl_permutation(&r, n, perm);
    *s = r.state;
}
static void ref_spd(unsigned long long seed, int n, int up, double *A)
{
    hcq_rng r;
    hcq_rng_seed(&r, seed);
    hcq_spd(A, n, up, &r);
}
#define REF_GETF2 hl_getf2
#define REF_LU_PRODUCT hl_lu_product
#define REF_LASWP hl_laswp
#define REF_POTF2 hcq_potrf
#define REF_CHOL_PRODUCT hcq_fft
#define REF_SYM_FROM_TRI hcq_sym_from_tri
#define REF_GEQR2 hcq_geqr2
#define REF_FORM_Q hcq_form_q
#define BENCH_GETRF(m, n, A, LU, ipiv, eps) lc_getrf_residual(m, n, A, m, LU, m, ipiv, eps)
#define BENCH_INVERSE(n, A, C, eps) lc_inverse_residual(n, A, n, C, n, eps)
#define BENCH_POTRF(up, n, A, F, eps) lc_potrf_residual(up, n, A, n, F, n, eps)
#define BENCH_GEQRF(m, n, A, QR, tau, eps) lc_geqrf_residual(m, n, A, m, QR, m, tau, eps)
#define BENCH_SOLVE(n, nrhs, A, B, X, eps) lc_solve_residual(n, nrhs, A, n, B, n, X, n, eps)
/* ---------------------------------------------------------------------------------------------- */

extern const lapack_spec lapack_spec_getrf, lapack_spec_getrs, lapack_spec_gesv, lapack_spec_getri,
    lapack_spec_getri_fused, lapack_spec_potrf, lapack_spec_potrs, lapack_spec_posv, lapack_spec_geqrf;

#define EPS_S (1.0 / 16777216.0) /* 2^-24: the residuals are of float-rounded factors */

static const int SIZES[] = {1, 2, 3, 7, 16, 31, 32};
#define N_SIZES (int)(sizeof SIZES / sizeof SIZES[0])
static const int RECT[][2] = {{3, 7}, {7, 3}, {16, 31}, {31, 16}, {1, 32}, {32, 1}, {2, 1}, {1, 2}};
#define N_RECT (int)(sizeof RECT / sizeof RECT[0])
static const unsigned long long SEEDS[] = {1ull, 42ull, 0xdeadbeefcafeull};
#define N_SEEDS (int)(sizeof SEEDS / sizeof SEEDS[0])

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (!p) abort();
    return p;
}

static uint64_t fnv(const void *data, size_t bytes)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static char g_key[160];
static void put_hash(const char *what, const void *data, size_t bytes)
{
    printf("hash:%s:%s %016llx\n", what, g_key, (unsigned long long)fnv(data, bytes));
}
static void put_res(const char *who, const char *what, double r) { printf("%s:%s:%s %a\n", who, what, g_key, r); }

static void round_all(double *x, size_t count)
{
    for (size_t i = 0; i < count; ++i) x[i] = oracle_round_float(x[i]);
}

/* X = inv(op(M)) B for the n x n matrix M through the host LU (op = transpose when trans). */
static void lu_solve(int trans, int n, int nrhs, const double *M, const double *B, double *X)
{
    double *LU = xcalloc((size_t)n * n, sizeof *LU);
    int *ipiv = xcalloc((size_t)n, sizeof *ipiv);
    memcpy(LU, M, sizeof(double) * (size_t)n * n);
    memcpy(X, B, sizeof(double) * (size_t)n * nrhs);
    (void)REF_GETF2(n, n, LU, n, ipiv);
    for (int j = 0; j < nrhs; ++j) {
        double *x = X + (size_t)j * n;
        if (!trans) {
            REF_LASWP(1, x, n, n, ipiv, 1);
            for (int i = 0; i < n; ++i)
                for (int k = 0; k < i; ++k) x[i] -= LU[i + (size_t)k * n] * x[k];
            for (int i = n - 1; i >= 0; --i) {
                for (int k = i + 1; k < n; ++k) x[i] -= LU[i + (size_t)k * n] * x[k];
                x[i] /= LU[i + (size_t)i * n];
            }
        } else { /* U^T L^T P^T x = b */
            for (int i = 0; i < n; ++i) {
                for (int k = 0; k < i; ++k) x[i] -= LU[k + (size_t)i * n] * x[k];
                x[i] /= LU[i + (size_t)i * n];
            }
            for (int i = n - 1; i >= 0; --i)
                for (int k = i + 1; k < n; ++k) x[i] -= LU[k + (size_t)i * n] * x[k];
            REF_LASWP(1, x, n, n, ipiv, 0);
        }
    }
    free(LU);
    free(ipiv);
}

static void identity(int n, double *I)
{
    memset(I, 0, sizeof(double) * (size_t)n * n);
    for (int i = 0; i < n; ++i) I[i + (size_t)i * n] = 1.0;
}

/* ---- the random streams --------------------------------------------------------------------- */

static void record_streams(void)
{
    for (int s = 0; s < N_SEEDS; ++s) {
        snprintf(g_key, sizeof g_key, "s=%llx", SEEDS[s]);
        uint64_t st = SEEDS[s];
        double u[97];
        for (int i = 0; i < 97; ++i) u[i] = ref_uniform_lu(&st);
        put_hash("uniform_lu", u, sizeof u);
        for (int n = 1; n <= 32; n += 31) {
            int perm[32];
            ref_permutation(&st, n, perm);
            put_hash(n == 1 ? "permutation1" : "permutation32", perm, sizeof(int) * (size_t)n);
        }
        st = SEEDS[s];
        for (int i = 0; i < 97; ++i) u[i] = oracle_uniform(&st);
        put_hash("uniform", u, sizeof u);
    }
}

/* ---- LU family ------------------------------------------------------------------------------ */

static void record_getrf(int m, int n, unsigned long long seed)
{
    const size_t mn = (size_t)m * n;
    const int k = m < n ? m : n;
    double *A = xcalloc(mn, sizeof *A), *LU = xcalloc(mn, sizeof *LU), *P = xcalloc(mn, sizeof *P);
    int *ipiv = xcalloc((size_t)k, sizeof *ipiv);
    snprintf(g_key, sizeof g_key, "getrf:m=%d:n=%d:s=%llx", m, n, seed);
    lapack_spec_getrf.generate(m, n, 0, 0, seed, A, NULL, NULL);
    put_hash("A", A, mn * sizeof *A);
    memcpy(LU, A, mn * sizeof *A);
    const int info = REF_GETF2(m, n, LU, m, ipiv);
    put_hash("LU", LU, mn * sizeof *LU);
    put_hash("ipiv", ipiv, (size_t)k * sizeof *ipiv);
    printf("info:%s %d\n", g_key, info);
    REF_LU_PRODUCT(m, n, LU, m, ipiv, P, m);
    put_hash("PLU", P, mn * sizeof *P);
    memcpy(P, A, mn * sizeof *A);
    REF_LASWP(n, P, m, k, ipiv, 1);
    put_hash("laswp_fwd", P, mn * sizeof *P);
    REF_LASWP(n, P, m, k, ipiv, 0);
    put_hash("laswp_back", P, mn * sizeof *P);
    round_all(LU, mn);
    lapack_problem p = {.m = m, .n = n, .A0 = A, .A = LU, .ipiv = ipiv, .info = info};
    put_res("tuner", "getrf", lapack_spec_getrf.check(&p, EPS_S));
    put_res("bench", "getrf", BENCH_GETRF(m, n, A, LU, ipiv, EPS_S));
    free(A);
    free(LU);
    free(P);
    free(ipiv);
}

static void record_lu_square(int n, int nrhs, int variant, unsigned long long seed)
{
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *A = xcalloc(nn, sizeof *A), *B = xcalloc(nb, sizeof *B), *X = xcalloc(nn > nb ? nn : nb, sizeof *X);
    double *M = xcalloc(nn, sizeof *M), *I = xcalloc(nn, sizeof *I), *LU = xcalloc(nn, sizeof *LU);
    int *ipiv = xcalloc((size_t)n, sizeof *ipiv), *ipiv2 = xcalloc((size_t)n, sizeof *ipiv2);
    identity(n, I);

    /* getrs: genuine factors and right-hand sides */
    snprintf(g_key, sizeof g_key, "getrs:n=%d:k=%d:v=%d:s=%llx", n, nrhs, variant, seed);
    lapack_spec_getrs.generate(n, n, nrhs, variant, seed, A, B, ipiv);
    put_hash("A", A, nn * sizeof *A);
    put_hash("B", B, nb * sizeof *B);
    put_hash("ipiv", ipiv, (size_t)n * sizeof *ipiv);
    REF_LU_PRODUCT(n, n, A, n, ipiv, M, n);
    lu_solve(variant, n, nrhs, M, B, X);
    round_all(X, nb);
    {
        lapack_problem p = {.m = n, .n = n, .nrhs = nrhs, .variant = variant, .A0 = A, .B0 = B, .ipiv0 = ipiv,
                            .A = A, .B = X};
        put_res("tuner", "getrs", lapack_spec_getrs.check(&p, EPS_S));
        if (!variant) put_res("bench", "solve", BENCH_SOLVE(n, nrhs, M, B, X, EPS_S));
    }
    if (variant) goto done;

    /* gesv: the factors and the solution */
    snprintf(g_key, sizeof g_key, "gesv:n=%d:k=%d:s=%llx", n, nrhs, seed);
    lapack_spec_gesv.generate(n, n, nrhs, 0, seed, A, B, NULL);
    put_hash("A", A, nn * sizeof *A);
    put_hash("B", B, nb * sizeof *B);
    memcpy(LU, A, nn * sizeof *A);
    const int info = REF_GETF2(n, n, LU, n, ipiv2);
    round_all(LU, nn);
    lu_solve(0, n, nrhs, A, B, X);
    round_all(X, nb);
    {
        lapack_problem p = {.m = n, .n = n, .nrhs = nrhs, .A0 = A, .B0 = B, .A = LU, .B = X, .ipiv = ipiv2,
                            .info = info};
        put_res("tuner", "gesv", lapack_spec_gesv.check(&p, EPS_S));
        put_res("bench", "solve", BENCH_SOLVE(n, nrhs, A, B, X, EPS_S));
        put_res("bench", "getrf", BENCH_GETRF(n, n, A, LU, ipiv2, EPS_S));
    }
    if (nrhs != 1) goto done;

    /* getri: the inverse of the factors' product */
    snprintf(g_key, sizeof g_key, "getri:n=%d:s=%llx", n, seed);
    lapack_spec_getri.generate(n, n, 0, 0, seed, A, NULL, ipiv);
    put_hash("A", A, nn * sizeof *A);
    put_hash("ipiv", ipiv, (size_t)n * sizeof *ipiv);
    REF_LU_PRODUCT(n, n, A, n, ipiv, M, n);
    lu_solve(0, n, n, M, I, X);
    round_all(X, nn);
    {
        lapack_problem p = {.m = n, .n = n, .A0 = A, .ipiv0 = ipiv, .A = A, .B = X};
        put_res("tuner", "getri", lapack_spec_getri.check(&p, EPS_S));
        put_res("bench", "inverse", BENCH_INVERSE(n, M, X, EPS_S));
    }

    /* getri_fused: a conditioned matrix and its inverse */
    snprintf(g_key, sizeof g_key, "getri_fused:n=%d:s=%llx", n, seed);
    lapack_spec_getri_fused.generate(n, n, 0, 0, seed, A, NULL, NULL);
    put_hash("A", A, nn * sizeof *A);
    lu_solve(0, n, n, A, I, X);
    round_all(X, nn);
    {
        lapack_problem p = {.m = n, .n = n, .A0 = A, .A = A, .B = X};
        put_res("tuner", "getri_fused", lapack_spec_getri_fused.check(&p, EPS_S));
        put_res("bench", "inverse", BENCH_INVERSE(n, A, X, EPS_S));
    }

done:
    free(A);
    free(B);
    free(X);
    free(M);
    free(I);
    free(LU);
    free(ipiv);
    free(ipiv2);
}

/* ---- Cholesky ------------------------------------------------------------------------------- */

static void record_chol(int n, int nrhs, int up, unsigned long long seed)
{
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *A = xcalloc(nn, sizeof *A), *F = xcalloc(nn, sizeof *F), *S = xcalloc(nn, sizeof *S);
    double *B = xcalloc(nb, sizeof *B), *X = xcalloc(nb, sizeof *X), *M = xcalloc(nn, sizeof *M);

    if (nrhs != 1) goto solves;
    snprintf(g_key, sizeof g_key, "spd:n=%d:up=%d:s=%llx", n, up, seed);
    ref_spd(seed, n, up, A);
    put_hash("A", A, nn * sizeof *A);
    REF_SYM_FROM_TRI(A, n, up, S);
    put_hash("S", S, nn * sizeof *S);

    snprintf(g_key, sizeof g_key, "potrf:n=%d:v=%d:s=%llx", n, up, seed);
    lapack_spec_potrf.generate(n, n, 0, up, seed, A, NULL, NULL);
    put_hash("A", A, nn * sizeof *A);
    memcpy(F, A, nn * sizeof *A);
    const int info = REF_POTF2(F, n, up);
    printf("info:%s %d\n", g_key, info);
    put_hash("F", F, nn * sizeof *F);
    REF_CHOL_PRODUCT(F, n, up, M);
    put_hash("FFt", M, nn * sizeof *M);
    round_all(F, nn);
    {
        lapack_problem p = {.m = n, .n = n, .variant = up, .A0 = A, .A = F, .info = info};
        put_res("tuner", "potrf", lapack_spec_potrf.check(&p, EPS_S));
        REF_SYM_FROM_TRI(A, n, up, S);
        put_res("bench", "potrf", BENCH_POTRF(up, n, S, F, EPS_S));
    }

solves:
    snprintf(g_key, sizeof g_key, "posv:n=%d:k=%d:v=%d:s=%llx", n, nrhs, up, seed);
    lapack_spec_posv.generate(n, n, nrhs, up, seed, A, B, NULL);
    put_hash("A", A, nn * sizeof *A);
    put_hash("B", B, nb * sizeof *B);
    memcpy(F, A, nn * sizeof *A);
    (void)REF_POTF2(F, n, up);
    round_all(F, nn);
    REF_SYM_FROM_TRI(A, n, up, S);
    lu_solve(0, n, nrhs, S, B, X);
    round_all(X, nb);
    {
        lapack_problem p = {.m = n, .n = n, .nrhs = nrhs, .variant = up, .A0 = A, .B0 = B, .A = F, .B = X};
        put_res("tuner", "posv", lapack_spec_posv.check(&p, EPS_S));
        put_res("bench", "solve", BENCH_SOLVE(n, nrhs, S, B, X, EPS_S));
    }

    snprintf(g_key, sizeof g_key, "potrs:n=%d:k=%d:v=%d:s=%llx", n, nrhs, up, seed);
    lapack_spec_potrs.generate(n, n, nrhs, up, seed, A, B, NULL);
    put_hash("A", A, nn * sizeof *A);
    put_hash("B", B, nb * sizeof *B);
    REF_CHOL_PRODUCT(A, n, up, M);
    lu_solve(0, n, nrhs, M, B, X);
    round_all(X, nb);
    {
        lapack_problem p = {.m = n, .n = n, .nrhs = nrhs, .variant = up, .A0 = A, .B0 = B, .A = A, .B = X};
        put_res("tuner", "potrs", lapack_spec_potrs.check(&p, EPS_S));
    }
    free(A);
    free(F);
    free(S);
    free(B);
    free(X);
    free(M);
}

/* ---- QR ------------------------------------------------------------------------------------- */

static void record_geqrf(int m, int n, unsigned long long seed)
{
    const size_t mn = (size_t)m * n;
    const int k = m < n ? m : n;
    double *A = xcalloc(mn, sizeof *A), *QR = xcalloc(mn, sizeof *QR), *Q = xcalloc((size_t)m * m, sizeof *Q);
    double *tau = xcalloc((size_t)k, sizeof *tau), *alpha = xcalloc((size_t)k, sizeof *alpha);
    snprintf(g_key, sizeof g_key, "geqrf:m=%d:n=%d:s=%llx", m, n, seed);
    lapack_spec_geqrf.generate(m, n, 0, 0, seed, A, NULL, NULL);
    put_hash("A", A, mn * sizeof *A);
    memcpy(QR, A, mn * sizeof *A);
    REF_GEQR2(QR, m, n, tau, alpha);
    put_hash("QR", QR, mn * sizeof *QR);
    put_hash("tau", tau, (size_t)k * sizeof *tau);
    put_hash("alpha", alpha, (size_t)k * sizeof *alpha);
    REF_FORM_Q(QR, tau, m, n, Q);
    put_hash("Q", Q, (size_t)m * m * sizeof *Q);
    round_all(QR, mn);
    round_all(tau, (size_t)k);
    lapack_problem p = {.m = m, .n = n, .A0 = A, .A = QR, .tau = tau};
    put_res("tuner", "geqrf", lapack_spec_geqrf.check(&p, EPS_S));
    put_res("bench", "geqrf", BENCH_GEQRF(m, n, A, QR, tau, EPS_S));
    free(A);
    free(QR);
    free(Q);
    free(tau);
    free(alpha);
}

static void record(void)
{
    record_streams();
    for (int s = 0; s < N_SEEDS; ++s) {
        for (int i = 0; i < N_SIZES; ++i) {
            const int n = SIZES[i];
            record_getrf(n, n, SEEDS[s]);
            record_geqrf(n, n, SEEDS[s]);
            for (int nrhs = 1; nrhs <= 3; nrhs += 2)
                for (int v = 0; v < 2; ++v) {
                    record_lu_square(n, nrhs, v, SEEDS[s]);
                    record_chol(n, nrhs, v, SEEDS[s]);
                }
        }
        for (int i = 0; i < N_RECT; ++i) {
            record_getrf(RECT[i][0], RECT[i][1], SEEDS[s]);
            record_geqrf(RECT[i][0], RECT[i][1], SEEDS[s]);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--record") == 0) {
        record();
        return 0;
    }
    fprintf(stderr, "usage: %s --record\n", argv[0]);
    return 2;
}
