/* The factorization references and residual checks on the CPU.
 *
 * --record: prints one line per recorded quantity, "KEY VALUE", for a fixed set of sizes, seeds
 * and variants: the matrices the specs' generators make and the host references' outputs (an
 * FNV-1a hash of their bytes: bitwise), and the residuals of the tuner's checks and of the
 * benchmark's checks on float-rounded host factors (C99 hex floats). tests/test_lapack_oracle.py
 * compares it with tests/c/golden/lapack_oracle_record.txt, recorded from the references before
 * they moved into oracle/ (tuner/host_lu.c, tuner/host_chol_qr.c, bench/lapack_check.c).
 *
 * The cases check mathematical properties that the references cannot meet by construction: P A =
 * L U (rebuilt here from explicit L, U and the row swaps), L unit lower with |L| <= 1, Q^T Q = I
 * and Q R = A with R upper, F F^T = A with a positive diagonal, each to a small multiple of eps;
 * and that every residual accepts the references' results and rejects perturbed ones.
 *
 * Usage: test_lapack_oracle --record | --list | --case NAME (no argument: every case) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_math.h"
#include "host_cases.h"
#include "lapack_spec.h"

/* ---- the API under test (at the recording, tuner/host_lu.h, tuner/host_chol_qr.h and
 * bench/lapack_check.h under the names hl_*, hcq_* and lc_*) ---------------------------------- */
#include "lapack_check.h"
#include "lapack_ref.h"

#define ref_uniform_lu oracle_uniform_float
#define ref_permutation oracle_permutation
static void ref_spd(unsigned long long seed, int n, int up, double *A)
{
    uint64_t r = seed ^ 0x9e3779b97f4a7c15ull; /* tuner/spec_chol_qr.c's stream of a seed */
    oracle_spd(&r, n, up, A);
}
#define REF_GETF2 oracle_getf2
#define REF_LU_PRODUCT oracle_lu_product
#define REF_LASWP oracle_laswp
#define REF_POTF2(A, n, up) oracle_potf2(n, up, A, n)
#define REF_CHOL_PRODUCT(F, n, up, M) oracle_chol_product(n, up, F, n, M)
#define REF_SYM_FROM_TRI(A, n, up, S) oracle_sym_from_tri(n, up, A, n, S)
#define REF_GEQR2(A, m, n, tau, alpha) oracle_geqr2(m, n, A, m, tau, alpha)
#define REF_FORM_Q(A, tau, m, n, Q) oracle_form_q(m, n, A, m, tau, Q)
#define BENCH_GETRF(m, n, A, LU, ipiv, eps) oracle_getrf_residual(m, n, A, m, LU, m, ipiv, eps)
#define BENCH_INVERSE(n, A, C, eps) oracle_inverse_residual(n, A, n, C, n, eps)
#define BENCH_POTRF(up, n, A, F, eps) oracle_potrf_residual(up, n, A, n, F, n, eps)
#define BENCH_GEQRF(m, n, A, QR, tau, eps) oracle_geqrf_residual(m, n, A, m, QR, m, tau, eps)
#define BENCH_SOLVE(n, nrhs, A, B, X, eps) oracle_solve_residual(0, n, nrhs, A, n, B, n, X, n, eps)
/* ---------------------------------------------------------------------------------------------- */

extern const lapack_spec lapack_spec_getrf, lapack_spec_getrs, lapack_spec_gesv, lapack_spec_getri,
    lapack_spec_getri_fused, lapack_spec_potrf, lapack_spec_potrs, lapack_spec_posv, lapack_spec_geqrf;

#define EPS_S (1.0 / 16777216.0) /* 2^-24: the residuals are of float-rounded factors */
#define ORACLE_LIMIT 30.0        /* LAPACK_ERROR_LIMIT */

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
    free(LU), free(ipiv);
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
    lapack_spec_getrf.generate(m, n, 0, 0, 0, seed, A, NULL, NULL);
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
    free(A), free(LU), free(P), free(ipiv);
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
    lapack_spec_getrs.generate(n, n, nrhs, variant, 0, seed, A, B, ipiv);
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
    lapack_spec_gesv.generate(n, n, nrhs, 0, 0, seed, A, B, NULL);
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
    lapack_spec_getri.generate(n, n, 0, 0, 0, seed, A, NULL, ipiv);
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
    lapack_spec_getri_fused.generate(n, n, 0, 0, 0, seed, A, NULL, NULL);
    put_hash("A", A, nn * sizeof *A);
    lu_solve(0, n, n, A, I, X);
    round_all(X, nn);
    {
        lapack_problem p = {.m = n, .n = n, .A0 = A, .A = A, .B = X};
        put_res("tuner", "getri_fused", lapack_spec_getri_fused.check(&p, EPS_S));
        put_res("bench", "inverse", BENCH_INVERSE(n, A, X, EPS_S));
    }

done:
    free(A), free(B), free(X), free(M), free(I), free(LU), free(ipiv), free(ipiv2);
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
    lapack_spec_potrf.generate(n, n, 0, up, 0, seed, A, NULL, NULL);
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
    lapack_spec_posv.generate(n, n, nrhs, up, 0, seed, A, B, NULL);
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
    lapack_spec_potrs.generate(n, n, nrhs, up, 0, seed, A, B, NULL);
    put_hash("A", A, nn * sizeof *A);
    put_hash("B", B, nb * sizeof *B);
    REF_CHOL_PRODUCT(A, n, up, M);
    lu_solve(0, n, nrhs, M, B, X);
    round_all(X, nb);
    {
        lapack_problem p = {.m = n, .n = n, .nrhs = nrhs, .variant = up, .A0 = A, .B0 = B, .A = A, .B = X};
        put_res("tuner", "potrs", lapack_spec_potrs.check(&p, EPS_S));
    }
    free(A), free(F), free(S), free(B), free(X), free(M);
}

/* ---- QR ------------------------------------------------------------------------------------- */

static void record_geqrf(int m, int n, unsigned long long seed)
{
    const size_t mn = (size_t)m * n;
    const int k = m < n ? m : n;
    double *A = xcalloc(mn, sizeof *A), *QR = xcalloc(mn, sizeof *QR), *Q = xcalloc((size_t)m * m, sizeof *Q);
    double *tau = xcalloc((size_t)k, sizeof *tau), *alpha = xcalloc((size_t)k, sizeof *alpha);
    snprintf(g_key, sizeof g_key, "geqrf:m=%d:n=%d:s=%llx", m, n, seed);
    lapack_spec_geqrf.generate(m, n, 0, 0, 0, seed, A, NULL, NULL);
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
    free(A), free(QR), free(Q), free(tau), free(alpha);
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

/* ---- properties ---------------------------------------------------------------------------- */

#define EPS_D (1.0 / 9007199254740992.0) /* 2^-53 */
#define TOL 64.0                         /* a small multiple of n eps */
#define ACCEPT 10.0                      /* a correct result: well under ORACLE_LIMIT */

/* max |X - Y| over an m x n packed pair */
static double max_diff(int m, int n, const double *X, const double *Y)
{
    double w = 0.0;
    for (size_t i = 0; i < (size_t)m * n; ++i)
        if (!(fabs(X[i] - Y[i]) <= w)) w = fabs(X[i] - Y[i]);
    return w;
}

/* fn on every seed and every shape: the square sizes, then the rectangular ones. */
static void each_shape(void (*fn)(int m, int n, uint64_t seed))
{
    for (int s = 0; s < N_SEEDS; ++s) {
        for (int t = 0; t < N_SIZES; ++t) fn(SIZES[t], SIZES[t], SEEDS[s]);
        for (int t = 0; t < N_RECT; ++t) fn(RECT[t][0], RECT[t][1], SEEDS[s]);
    }
}

static void lu_properties_one(int m, int n, uint64_t seed)
{
    const int k = m < n ? m : n;
    const size_t mn = (size_t)m * n;
    double *A = xcalloc(mn, sizeof *A), *LU = xcalloc(mn, sizeof *LU), *PA = xcalloc(mn, sizeof *PA);
    double *L = xcalloc((size_t)m * k, sizeof *L), *U = xcalloc((size_t)k * n, sizeof *U);
    double *P = xcalloc(mn, sizeof *P);
    int *ipiv = xcalloc((size_t)k, sizeof *ipiv);
    uint64_t st = seed;
    oracle_lu_random(&st, m, n, A);
    memcpy(LU, A, mn * sizeof *A);
    CHECK(oracle_getf2(m, n, LU, m, ipiv) == 0);
    for (int j = 0; j < k; ++j) CHECK(ipiv[j] >= j + 1 && ipiv[j] <= m);
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < m; ++i) {
            L[i + (size_t)j * m] = i == j ? 1.0 : i > j ? LU[i + (size_t)j * m] : 0.0;
            if (i > j) CHECK(fabs(L[i + (size_t)j * m]) <= 1.0); /* partial pivoting */
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < k; ++i) U[i + (size_t)j * k] = i <= j ? LU[i + (size_t)j * m] : 0.0;
    oracle_matmul(0, m, n, k, L, m, U, k, P, m); /* L U */
    memcpy(PA, A, mn * sizeof *A);
    oracle_laswp(n, PA, m, k, ipiv, 1); /* P^T A */
    CHECK(max_diff(m, n, PA, P) <= TOL * n * EPS_D);
    const double r = oracle_getrf_residual(m, n, A, m, LU, m, ipiv, EPS_D);
    CHECK(r <= 2.0);
    oracle_lu_product(m, n, LU, m, ipiv, P, m);
    CHECK(max_diff(m, n, A, P) <= TOL * n * EPS_D);
    /* rejects: a perturbed factor, a pivot out of range, a NaN */
    LU[mn - 1] += 1e-6;
    CHECK(oracle_getrf_residual(m, n, A, m, LU, m, ipiv, EPS_D) > ORACLE_LIMIT);
    LU[mn - 1] = NAN;
    CHECK(isinf(oracle_getrf_residual(m, n, A, m, LU, m, ipiv, EPS_D)));
    ipiv[k - 1] = m + 1;
    CHECK(isinf(oracle_getrf_residual(m, n, A, m, A, m, ipiv, EPS_D)));
    free(A), free(LU), free(PA), free(L), free(U), free(P), free(ipiv);
}

static void lu_properties(void) { each_shape(lu_properties_one); }

static void solve_and_inverse_properties(void)
{
    for (int s = 0; s < N_SEEDS; ++s)
        for (int t = 0; t < N_SIZES; ++t)
            for (int trans = 0; trans < 2; ++trans) {
                const int n = SIZES[t], nrhs = 3;
                const size_t nn = (size_t)n * n;
                double *A = xcalloc(nn, sizeof *A), *B = xcalloc((size_t)n * nrhs, sizeof *B);
                double *X = xcalloc(nn + (size_t)n * nrhs, sizeof *X), *I = xcalloc(nn, sizeof *I);
                uint64_t st = SEEDS[s];
                oracle_lu_conditioned(&st, n, A);
                oracle_lu_random(&st, n, nrhs, B);
                lu_solve(trans, n, nrhs, A, B, X);
                CHECK(oracle_solve_residual(trans, n, nrhs, A, n, B, n, X, n, EPS_D) <= ACCEPT);
                X[n * nrhs - 1] *= 1.0 + 1e-6;
                CHECK(oracle_solve_residual(trans, n, nrhs, A, n, B, n, X, n, EPS_D) > ORACLE_LIMIT);
                X[0] = NAN;
                CHECK(isinf(oracle_solve_residual(trans, n, nrhs, A, n, B, n, X, n, EPS_D)));
                identity(n, I);
                lu_solve(0, n, n, A, I, X);
                CHECK(oracle_inverse_residual(n, A, n, X, n, EPS_D) <= ACCEPT);
                X[nn - 1] *= 1.0 + 1e-6;
                CHECK(oracle_inverse_residual(n, A, n, X, n, EPS_D) > ORACLE_LIMIT);
                free(A), free(B), free(X), free(I);
            }
}

static void cholesky_properties(void)
{
    for (int s = 0; s < N_SEEDS; ++s)
        for (int t = 0; t < N_SIZES; ++t)
            for (int up = 0; up < 2; ++up) {
                const int n = SIZES[t];
                const size_t nn = (size_t)n * n;
                double *A = xcalloc(nn, sizeof *A), *F = xcalloc(nn, sizeof *F), *S = xcalloc(nn, sizeof *S);
                double *L = xcalloc(nn, sizeof *L), *M = xcalloc(nn, sizeof *M);
                uint64_t st = SEEDS[s];
                oracle_spd(&st, n, up, A);
                memcpy(F, A, nn * sizeof *A);
                CHECK(oracle_potf2(n, up, F, n) == 0);
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) {
                        if (!oracle_in_tri(up, i, j)) CHECK(F[i + (size_t)j * n] == A[i + (size_t)j * n]);
                        /* explicit L from the lower view */
                        L[i + (size_t)j * n] = i >= j ? F[oracle_fidx(n, up, i, j)] : 0.0;
                    }
                for (int j = 0; j < n; ++j) CHECK(L[j + (size_t)j * n] > 0.0);
                double *Lt = xcalloc(nn, sizeof *Lt);
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) Lt[i + (size_t)j * n] = L[j + (size_t)i * n];
                oracle_matmul(0, n, n, n, L, n, Lt, n, M, n); /* L L^T */
                free(Lt);
                oracle_sym_from_tri(n, up, A, n, S);
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) CHECK(S[i + (size_t)j * n] == S[j + (size_t)i * n]);
                CHECK(max_diff(n, n, S, M) <= TOL * n * EPS_D * oracle_max_abs(n, n, S, n));
                CHECK(oracle_potrf_residual(up, n, A, n, F, n, EPS_D) <= ACCEPT);
                F[oracle_fidx(n, up, n - 1, 0)] += 1e-6;
                CHECK(oracle_potrf_residual(up, n, A, n, F, n, EPS_D) > ORACLE_LIMIT);
                F[0] = -F[0]; /* a negative diagonal: not LAPACK's factor */
                CHECK(isinf(oracle_potrf_residual(up, n, A, n, F, n, EPS_D)));
                free(A), free(F), free(S), free(L), free(M);
            }
}

static void qr_properties_one(int m, int n, uint64_t seed)
{
    const int k = m < n ? m : n;
    const size_t mn = (size_t)m * n;
    double *A = xcalloc(mn, sizeof *A), *QR = xcalloc(mn, sizeof *QR), *R = xcalloc(mn, sizeof *R);
    double *Q = xcalloc((size_t)m * m, sizeof *Q), *QtQ = xcalloc((size_t)m * m, sizeof *QtQ);
    double *I = xcalloc((size_t)m * m, sizeof *I), *P = xcalloc(mn, sizeof *P);
    double *tau = xcalloc((size_t)k, sizeof *tau);
    uint64_t st = seed;
    oracle_fill_float(&st, mn, A);
    memcpy(QR, A, mn * sizeof *A);
    oracle_geqr2(m, n, QR, m, tau, NULL);
    for (int j = 0; j < k; ++j) CHECK(tau[j] == 0.0 || (tau[j] >= 1.0 && tau[j] <= 2.0));
    oracle_form_q(m, n, QR, m, tau, Q);
    oracle_matmul(1, m, m, m, Q, m, Q, m, QtQ, m);
    identity(m, I);
    CHECK(max_diff(m, m, QtQ, I) <= TOL * m * EPS_D);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) R[i + (size_t)j * m] = i <= j ? QR[i + (size_t)j * m] : 0.0;
    oracle_matmul(0, m, n, m, Q, m, R, m, P, m);
    CHECK(max_diff(m, n, A, P) <= TOL * (m > n ? m : n) * EPS_D);
    CHECK(oracle_geqrf_residual(m, n, A, m, QR, m, tau, EPS_D) <= ACCEPT);
    CHECK(oracle_orthogonality_residual(m, n, QR, m, tau, EPS_D) <= ACCEPT);
    QR[0] += 1e-6;
    CHECK(oracle_geqrf_residual(m, n, A, m, QR, m, tau, EPS_D) > ORACLE_LIMIT);
    if (tau[0] != 0.0) {
        tau[0] *= 1.0 + 1e-6; /* Q no longer orthogonal */
        CHECK(oracle_orthogonality_residual(m, n, QR, m, tau, EPS_D) > ORACLE_LIMIT);
    }
    QR[mn - 1] = NAN;
    CHECK(isinf(oracle_geqrf_residual(m, n, A, m, QR, m, tau, EPS_D)));
    free(A), free(QR), free(R), free(Q), free(QtQ), free(I), free(P), free(tau);
}

static void qr_properties(void) { each_shape(qr_properties_one); }

static void random_inputs(void)
{
    for (int s = 0; s < N_SEEDS; ++s) {
        uint64_t st = SEEDS[s];
        for (int i = 0; i < 1000; ++i) {
            const double x = oracle_uniform_float(&st);
            CHECK(x != 0.0 && x >= -1.0 && x <= 1.0 && x == oracle_round_float(x));
        }
        int perm[32], seen[32] = {0};
        oracle_permutation(&st, 32, perm);
        for (int i = 0; i < 32; ++i)
            if (perm[i] >= 0 && perm[i] < 32) seen[perm[i]]++;
        for (int i = 0; i < 32; ++i) CHECK(seen[i] == 1);
        double A[32 * 32];
        oracle_lu_conditioned(&st, 32, A);
        for (int i = 0; i < 32 * 32; ++i) CHECK(A[i] == oracle_round_float(A[i]));
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--record") == 0) {
        record();
        return 0;
    }
#define CASE(fn) {#fn, fn}
    static const test_case cases[] = {
        CASE(lu_properties),
        CASE(solve_and_inverse_properties),
        CASE(cholesky_properties),
        CASE(qr_properties),
        CASE(random_inputs),
    };
    return host_cases_main(cases, (int)(sizeof cases / sizeof cases[0]), argc, argv);
}
