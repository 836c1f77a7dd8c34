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
 * The complex (c, z) references get the same properties (P A = L U with izamax's |re| + |im|
 * pivots, Q^H Q = I with zgeqr2's reflectors and a real R diagonal, L L^H = A with the diagonal's
 * imaginary part not read and a real factor diagonal, solves with op N, T and C), known results
 * (a 2 x 2 LU, a pivot that |re| + |im| and the modulus choose differently, Householder vectors
 * in closed form) and the specs' complex checks (accepting float-rounded host results, rejecting
 * an imaginary part on a factor's diagonal, op T's solution judged as op C's).
 *
 * Usage: test_lapack_oracle --record | --list | --case NAME (no argument: every case) */
#include <complex.h>
#undef I /* a matrix of the record code is named I */
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

/* ---- complex (c, z) ------------------------------------------------------------------------- */

/* The oracle's complex arrays are (re, im) pairs of doubles: C99's double complex layout. */
typedef double complex cplx;
#define CI _Complex_I /* complex.h's I: the record code above names a matrix I */
#define CX(p) ((cplx *)(p))
#define CCX(p) ((const cplx *)(p))

static double cdiff(int count, const double *X, const double *Y)
{
    double w = 0.0;
    for (int i = 0; i < count; ++i) {
        const double d = cabs(CCX(X)[i] - CCX(Y)[i]);
        if (!(d <= w)) w = d;
    }
    return w;
}

/* X = inv(op(A)) B (op 0 N, 1 T, 2 C) through the host zgetf2 of the n x n complex A. */
static void zlu_solve(int op, int n, int nrhs, const double *A, const double *B, double *X)
{
    double *LUd = xcalloc(2 * (size_t)n * n, sizeof(double));
    int *ipiv = xcalloc((size_t)n, sizeof *ipiv);
    memcpy(LUd, A, sizeof(double) * 2 * (size_t)n * n);
    memcpy(X, B, sizeof(double) * 2 * (size_t)n * nrhs);
    (void)oracle_zgetf2(n, n, LUd, n, ipiv);
    const cplx *LU = CCX(LUd);
    /* op(A)(i, k) of the factors: L and U themselves, transposed, or conjugate-transposed */
#define OPF(i, k) (op == 0 ? LU[(i) + (size_t)(k) * n] : op == 1 ? LU[(k) + (size_t)(i) * n] : conj(LU[(k) + (size_t)(i) * n]))
    for (int j = 0; j < nrhs; ++j) {
        cplx *x = CX(X) + (size_t)j * n;
        if (op == 0) { /* L U x = P^T b */
            oracle_zlaswp(1, (double *)x, n, n, ipiv, 1);
            for (int i = 0; i < n; ++i)
                for (int k = 0; k < i; ++k) x[i] -= OPF(i, k) * x[k];
            for (int i = n - 1; i >= 0; --i) {
                for (int k = i + 1; k < n; ++k) x[i] -= OPF(i, k) * x[k];
                x[i] /= OPF(i, i);
            }
        } else { /* op(U) op(L) P^T x = b: op(U) is lower, op(L) unit upper */
            for (int i = 0; i < n; ++i) {
                for (int k = 0; k < i; ++k) x[i] -= OPF(i, k) * x[k];
                x[i] /= OPF(i, i);
            }
            for (int i = n - 1; i >= 0; --i)
                for (int k = i + 1; k < n; ++k) x[i] -= OPF(i, k) * x[k];
            oracle_zlaswp(1, (double *)x, n, n, ipiv, 0);
        }
    }
#undef OPF
    free(LUd), free(ipiv);
}

/* A 2 x 2 LU by hand, and izamax's measure: |re| + |im| picks 0.9 + 0.9i (1.8) over 1.5, which the
 * modulus (1.27 < 1.5) would not. */
static void complex_lu_known(void)
{
    /* A = [1+i 2; 3 4i] (column-major): |1+i|_1 = 2 < 3, so row 2 is the pivot;
     * l = (1+i)/3, U(2,2) = 2 - l 4i = 10/3 - 4i/3 */
    double A[8] = {1, 1, 3, 0, 2, 0, 0, 4};
    int ipiv[2] = {0, 0};
    CHECK(oracle_zgetf2(2, 2, A, 2, ipiv) == 0);
    CHECK(ipiv[0] == 2 && ipiv[1] == 2);
    const cplx want[4] = {3, (1 + CI) / 3.0, 4 * CI, 10.0 / 3.0 - 4.0 * CI / 3.0};
    for (int i = 0; i < 4; ++i) CHECK(cabs(CX(A)[i] - want[i]) <= 4 * EPS_D);
    double B[4] = {1.5, 0, 0.9, 0.9};
    CHECK(oracle_zgetf2(2, 1, B, 2, ipiv) == 0);
    CHECK(ipiv[0] == 2);
    CHECK(cabs(CX(B)[1] - 1.5 / (0.9 + 0.9 * CI)) <= 4 * EPS_D);
    /* an exactly zero pivot is both parts zero: a column (0, i 1e-300) is not singular */
    double Z[4] = {0, 0, 0, 1e-300};
    CHECK(oracle_zgetf2(2, 1, Z, 2, ipiv) == 0 && ipiv[0] == 2);
    double S[4] = {0, 0, 0, 0};
    CHECK(oracle_zgetf2(2, 1, S, 2, ipiv) == 1);
}

static void complex_lu_properties_one(int m, int n, uint64_t seed)
{
    const int k = m < n ? m : n;
    const size_t mn = (size_t)m * n;
    double *A = xcalloc(2 * mn, sizeof *A), *LU = xcalloc(2 * mn, sizeof *LU), *PA = xcalloc(2 * mn, sizeof *PA);
    double *L = xcalloc(2 * (size_t)m * k, sizeof *L), *U = xcalloc(2 * (size_t)k * n, sizeof *U);
    double *P = xcalloc(2 * mn, sizeof *P);
    int *ipiv = xcalloc((size_t)k, sizeof *ipiv);
    uint64_t st = seed;
    oracle_zlu_random(&st, m, n, A);
    for (size_t i = 0; i < mn; ++i) CHECK(cimag(CX(A)[i]) != 0.0);
    memcpy(LU, A, 2 * mn * sizeof *A);
    CHECK(oracle_zgetf2(m, n, LU, m, ipiv) == 0);
    for (int j = 0; j < k; ++j) CHECK(ipiv[j] >= j + 1 && ipiv[j] <= m);
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < m; ++i) {
            const cplx l = CX(LU)[i + (size_t)j * m];
            CX(L)[i + (size_t)j * m] = i == j ? 1.0 : i > j ? l : 0.0;
            /* |l|_1 <= 1 after |re| + |im| pivoting: |l| <= sqrt(2) */
            if (i > j) CHECK(cabs(l) <= sqrt(2.0) * (1.0 + 4 * EPS_D));
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < k; ++i) CX(U)[i + (size_t)j * k] = i <= j ? CX(LU)[i + (size_t)j * m] : 0.0;
    oracle_zmatmul(0, m, n, k, L, m, U, k, P, m); /* L U */
    memcpy(PA, A, 2 * mn * sizeof *A);
    oracle_zlaswp(n, PA, m, k, ipiv, 1); /* P^T A */
    CHECK(cdiff((int)mn, PA, P) <= TOL * n * EPS_D);
    CHECK(oracle_zgetrf_residual(m, n, A, m, LU, m, ipiv, EPS_D) <= 2.0);
    oracle_zlu_product(m, n, LU, m, ipiv, P, m);
    CHECK(cdiff((int)mn, A, P) <= TOL * n * EPS_D);
    /* rejects: a perturbed imaginary part, the factors conjugated, a pivot out of range, a NaN */
    LU[2 * mn - 1] += 1e-6;
    CHECK(oracle_zgetrf_residual(m, n, A, m, LU, m, ipiv, EPS_D) > ORACLE_LIMIT);
    LU[2 * mn - 1] -= 1e-6;
    for (size_t i = 0; i < mn; ++i) LU[2 * i + 1] = -LU[2 * i + 1];
    CHECK(oracle_zgetrf_residual(m, n, A, m, LU, m, ipiv, EPS_D) > ORACLE_LIMIT);
    LU[2 * mn - 1] = NAN;
    CHECK(isinf(oracle_zgetrf_residual(m, n, A, m, LU, m, ipiv, EPS_D)));
    ipiv[k - 1] = m + 1;
    CHECK(isinf(oracle_zgetrf_residual(m, n, A, m, A, m, ipiv, EPS_D)));
    free(A), free(LU), free(PA), free(L), free(U), free(P), free(ipiv);
}

static void complex_lu_properties(void) { each_shape(complex_lu_properties_one); }

static void complex_solve_and_inverse_properties(void)
{
    for (int s = 0; s < N_SEEDS; ++s)
        for (int t = 0; t < N_SIZES; ++t)
            for (int op = 0; op < 3; ++op) {
                const int n = SIZES[t], nrhs = 3;
                const size_t nn = (size_t)n * n;
                double *A = xcalloc(2 * nn, sizeof *A), *B = xcalloc(2 * (size_t)n * nrhs, sizeof *B);
                double *X = xcalloc(2 * (nn + (size_t)n * nrhs), sizeof *X), *Id = xcalloc(2 * nn, sizeof *Id);
                uint64_t st = SEEDS[s];
                oracle_zlu_conditioned(&st, n, A);
                oracle_zlu_random(&st, n, nrhs, B);
                zlu_solve(op, n, nrhs, A, B, X);
                CHECK(oracle_zsolve_residual(op, n, nrhs, A, n, B, n, X, n, EPS_D) <= ACCEPT);
                /* the solution of another op is not this op's (n > 1: A^T, A^H and A differ) */
                if (n > 1) CHECK(oracle_zsolve_residual((op + 1) % 3, n, nrhs, A, n, B, n, X, n, EPS_D) > ORACLE_LIMIT);
                X[2 * n * nrhs - 1] += 1e-6 * (1.0 + fabs(X[2 * n * nrhs - 1]));
                CHECK(oracle_zsolve_residual(op, n, nrhs, A, n, B, n, X, n, EPS_D) > ORACLE_LIMIT);
                X[1] = NAN;
                CHECK(isinf(oracle_zsolve_residual(op, n, nrhs, A, n, B, n, X, n, EPS_D)));
                for (int i = 0; i < n; ++i) CX(Id)[i + (size_t)i * n] = 1.0;
                zlu_solve(0, n, n, A, Id, X);
                CHECK(oracle_zinverse_residual(n, A, n, X, n, EPS_D) <= ACCEPT);
                X[2 * nn - 1] += 1e-6 * (1.0 + fabs(X[2 * nn - 1]));
                CHECK(oracle_zinverse_residual(n, A, n, X, n, EPS_D) > ORACLE_LIMIT);
                free(A), free(B), free(X), free(Id);
            }
}

static void complex_cholesky_properties(void)
{
    for (int s = 0; s < N_SEEDS; ++s)
        for (int t = 0; t < N_SIZES; ++t)
            for (int up = 0; up < 2; ++up) {
                const int n = SIZES[t];
                const size_t nn = (size_t)n * n;
                double *A = xcalloc(2 * nn, sizeof *A), *F = xcalloc(2 * nn, sizeof *F), *S = xcalloc(2 * nn, sizeof *S);
                double *L = xcalloc(2 * nn, sizeof *L), *M = xcalloc(2 * nn, sizeof *M), *F2 = xcalloc(2 * nn, sizeof *F2);
                uint64_t st = SEEDS[s];
                oracle_hpd(&st, n, up, A);
                for (int j = 0; j < n; ++j) CHECK(cimag(CX(A)[j + (size_t)j * n]) != 0.0); /* the stray part */
                memcpy(F, A, 2 * nn * sizeof *A);
                CHECK(oracle_zpotf2(n, up, F, n) == 0);
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) {
                        if (!oracle_in_tri(up, i, j)) CHECK(CX(F)[i + (size_t)j * n] == CX(A)[i + (size_t)j * n]);
                        /* explicit L: the lower view, conjugated from an upper U = L^H */
                        const cplx f = CX(F)[oracle_fidx(n, up, i, j)];
                        CX(L)[i + (size_t)j * n] = i >= j ? (up ? conj(f) : f) : 0.0;
                    }
                for (int j = 0; j < n; ++j)
                    CHECK(creal(CX(L)[j + (size_t)j * n]) > 0.0 && cimag(CX(F)[j + (size_t)j * n]) == 0.0);
                oracle_zmatmul(0, n, n, n, L, n, L, n, M, n); /* scratch: overwritten below */
                /* L L^H: op C on the second factor, through (L^H)^T = conj(L) */
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) {
                        cplx acc = 0.0;
                        for (int l = 0; l < n; ++l) acc += CX(L)[i + (size_t)l * n] * conj(CX(L)[j + (size_t)l * n]);
                        CX(M)[i + (size_t)j * n] = acc;
                    }
                oracle_herm_from_tri(n, up, A, n, S);
                for (int j = 0; j < n; ++j) {
                    CHECK(cimag(CX(S)[j + (size_t)j * n]) == 0.0); /* the stray part dropped */
                    for (int i = 0; i < n; ++i) CHECK(CX(S)[i + (size_t)j * n] == conj(CX(S)[j + (size_t)i * n]));
                }
                CHECK(cdiff((int)nn, S, M) <= TOL * n * EPS_D * oracle_zmax_abs(n, n, S, n));
                CHECK(oracle_zpotrf_residual(up, n, A, n, F, n, EPS_D) <= ACCEPT);
                /* the diagonal's imaginary part is not read: another value, even NaN, changes nothing */
                memcpy(F2, A, 2 * nn * sizeof *A);
                for (int j = 0; j < n; ++j) F2[2 * (j + (size_t)j * n) + 1] = j % 2 ? NAN : -7.0;
                CHECK(oracle_zpotrf_residual(up, n, F2, n, F, n, EPS_D) <= ACCEPT);
                CHECK(oracle_zpotf2(n, up, F2, n) == 0);
                CHECK(memcmp(F, F2, 2 * nn * sizeof *F) == 0);
                /* rejects: a perturbed imaginary part, an imaginary part on the factor's diagonal */
                if (n > 1) {
                    F[2 * oracle_fidx(n, up, n - 1, 0) + 1] += 1e-6;
                    CHECK(oracle_zpotrf_residual(up, n, A, n, F, n, EPS_D) > ORACLE_LIMIT);
                    F[2 * oracle_fidx(n, up, n - 1, 0) + 1] -= 1e-6;
                }
                F[1] = 1e-300;
                CHECK(isinf(oracle_zpotrf_residual(up, n, A, n, F, n, EPS_D)));
                free(A), free(F), free(S), free(L), free(M), free(F2);
            }
}

/* Householder vectors in closed form (zlarfg): alpha = 3 + 4i with x = 0 still needs a reflector
 * (beta = -5, tau = 1.6 + 0.8i), a real R(0, 0); (1, i): beta = -sqrt(2), tau = 1 + 1/sqrt(2),
 * v = i / (1 + sqrt(2)). */
static void complex_householder_known(void)
{
    double a[4] = {3, 4, 0, 0}, tau[2], alpha[2];
    oracle_zgeqr2(2, 1, a, 2, tau, alpha);
    CHECK(a[0] == -5.0 && a[1] == 0.0);
    CHECK(cabs(CX(tau)[0] - (1.6 + 0.8 * CI)) <= 4 * EPS_D);
    CHECK(CX(alpha)[0] == 3.0 + 4.0 * CI);
    double one[2] = {3, 4};
    oracle_zgeqr2(1, 1, one, 1, tau, NULL); /* x empty: not the identity, alpha is complex */
    CHECK(one[0] == -5.0 && one[1] == 0.0 && cabs(CX(tau)[0] - (1.6 + 0.8 * CI)) <= 4 * EPS_D);
    double real[2] = {3, 0};
    oracle_zgeqr2(1, 1, real, 1, tau, NULL); /* x empty and alpha real: H = I */
    CHECK(real[0] == 3.0 && tau[0] == 0.0 && tau[1] == 0.0);
    double b[4] = {1, 0, 0, 1};
    oracle_zgeqr2(2, 1, b, 2, tau, NULL);
    const double r2 = sqrt(2.0);
    CHECK(fabs(b[0] + r2) <= 4 * EPS_D && b[1] == 0.0);
    CHECK(cabs(CX(tau)[0] - (1.0 + 1.0 / r2)) <= 4 * EPS_D);
    CHECK(cabs(CX(b)[1] - CI / (1.0 + r2)) <= 4 * EPS_D);
    /* Q = I - tau v v^H maps (1, i) to (beta, 0): Q^H a = R */
    double Q[8], Qa[4], a0[4] = {1, 0, 0, 1};
    oracle_zform_q(2, 1, b, 2, tau, Q);
    oracle_zmatmul(2, 2, 1, 2, Q, 2, a0, 2, Qa, 2);
    CHECK(cabs(CX(Qa)[0] + r2) <= 4 * EPS_D && cabs(CX(Qa)[1]) <= 4 * EPS_D);
}

static void complex_qr_properties_one(int m, int n, uint64_t seed)
{
    const int k = m < n ? m : n;
    const size_t mn = (size_t)m * n, mm = (size_t)m * m;
    double *A = xcalloc(2 * mn, sizeof *A), *QR = xcalloc(2 * mn, sizeof *QR), *R = xcalloc(2 * mn, sizeof *R);
    double *Q = xcalloc(2 * mm, sizeof *Q), *QhQ = xcalloc(2 * mm, sizeof *QhQ), *Id = xcalloc(2 * mm, sizeof *Id);
    double *P = xcalloc(2 * mn, sizeof *P), *tau = xcalloc(2 * (size_t)k, sizeof *tau);
    uint64_t st = seed;
    oracle_fill_float(&st, 2 * mn, A);
    memcpy(QR, A, 2 * mn * sizeof *A);
    oracle_zgeqr2(m, n, QR, m, tau, NULL);
    for (int j = 0; j < k; ++j) {
        const cplx t = CX(tau)[j];
        CHECK(t == 0.0 || (creal(t) >= 1.0 && creal(t) <= 2.0 && cabs(t - 1.0) <= 1.0 + 4 * EPS_D));
        CHECK(cimag(CX(QR)[j + (size_t)j * m]) == 0.0); /* beta is real */
    }
    oracle_zform_q(m, n, QR, m, tau, Q);
    oracle_zmatmul(2, m, m, m, Q, m, Q, m, QhQ, m);
    for (int i = 0; i < m; ++i) CX(Id)[i + (size_t)i * m] = 1.0;
    CHECK(cdiff((int)mm, QhQ, Id) <= TOL * m * EPS_D);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) CX(R)[i + (size_t)j * m] = i <= j ? CX(QR)[i + (size_t)j * m] : 0.0;
    oracle_zmatmul(0, m, n, m, Q, m, R, m, P, m);
    CHECK(cdiff((int)mn, A, P) <= TOL * (m > n ? m : n) * EPS_D * 2.0);
    CHECK(oracle_zgeqrf_residual(m, n, A, m, QR, m, tau, EPS_D) <= ACCEPT);
    CHECK(oracle_zorthogonality_residual(m, n, QR, m, tau, EPS_D) <= ACCEPT);
    /* conj(tau) is the wrong convention (Q^H for Q): rejected where some tau is complex */
    double *tc = xcalloc(2 * (size_t)k, sizeof *tc);
    int complex_tau = 0;
    for (int j = 0; j < k; ++j) {
        CX(tc)[j] = conj(CX(tau)[j]);
        complex_tau = complex_tau || fabs(cimag(CX(tau)[j])) > 1e-3;
    }
    if (complex_tau && n > 1) CHECK(oracle_zgeqrf_residual(m, n, A, m, QR, m, tc, EPS_D) > ORACLE_LIMIT);
    free(tc);
    QR[1] += 1e-6;
    CHECK(oracle_zgeqrf_residual(m, n, A, m, QR, m, tau, EPS_D) > ORACLE_LIMIT);
    if (CX(tau)[0] != 0.0) {
        tau[1] += 1e-6; /* Q no longer unitary */
        CHECK(oracle_zorthogonality_residual(m, n, QR, m, tau, EPS_D) > ORACLE_LIMIT);
    }
    QR[2 * mn - 1] = NAN;
    CHECK(isinf(oracle_zgeqrf_residual(m, n, A, m, QR, m, tau, EPS_D)));
    free(A), free(QR), free(R), free(Q), free(QhQ), free(Id), free(P), free(tau);
}

static void complex_qr_properties(void) { each_shape(complex_qr_properties_one); }

static void round_pairs(double *x, size_t elems) { round_all(x, 2 * elems); }

/* The specs' complex checks on float-rounded host results (eps of single precision), and what
 * they must reject. */
static void complex_spec_checks(void)
{
    for (int s = 0; s < N_SEEDS; ++s)
        for (int t = 0; t < N_SIZES; ++t) {
            const int n = SIZES[t], nrhs = 2;
            const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
            double *A = xcalloc(2 * nn, sizeof *A), *F = xcalloc(2 * nn, sizeof *F), *B = xcalloc(2 * nb, sizeof *B);
            double *X = xcalloc(2 * (nb > nn ? nb : nn), sizeof *X), *M = xcalloc(2 * nn, sizeof *M);
            double *tau = xcalloc(2 * (size_t)n, sizeof *tau);
            int *ipiv = xcalloc((size_t)n, sizeof *ipiv);
            const unsigned long long seed = SEEDS[s];

            lapack_spec_getrf.generate(n, n, 0, 0, 1, seed, A, NULL, NULL);
            memcpy(F, A, 2 * nn * sizeof *A);
            int info = oracle_zgetf2(n, n, F, n, ipiv);
            round_pairs(F, nn);
            lapack_problem p = {.m = n, .n = n, .is_complex = 1, .A0 = A, .A = F, .ipiv = ipiv, .info = info};
            CHECK(lapack_spec_getrf.check(&p, EPS_S) <= ACCEPT);
            p.info = info + 1;
            CHECK(isinf(lapack_spec_getrf.check(&p, EPS_S)));

            /* getrs op T and op C (the t variant with conj): each judged as its own op */
            lapack_spec_getrs.generate(n, n, nrhs, 1, 1, seed, A, B, ipiv);
            oracle_zlu_product(n, n, A, n, ipiv, M, n);
            for (int op = 1; op <= 2; ++op) {
                zlu_solve(op, n, nrhs, M, B, X);
                round_pairs(X, nb);
                lapack_problem q = {.m = n, .n = n, .nrhs = nrhs, .variant = 1, .is_complex = 1, .conj = op == 2,
                                    .A0 = A, .B0 = B, .ipiv0 = ipiv, .A = A, .B = X};
                CHECK(lapack_spec_getrs.check(&q, EPS_S) <= ACCEPT);
                q.conj = op == 1;
                if (n > 1) CHECK(lapack_spec_getrs.check(&q, EPS_S) > ORACLE_LIMIT);
            }

            /* getri: the inverse of the factors' product; a singular U(j, j) is both parts 0 */
            lapack_spec_getri.generate(n, n, 0, 0, 1, seed, A, NULL, ipiv);
            oracle_zlu_product(n, n, A, n, ipiv, M, n);
            memset(F, 0, 2 * nn * sizeof *F);
            for (int i = 0; i < n; ++i) CX(F)[i + (size_t)i * n] = 1.0;
            zlu_solve(0, n, n, M, F, X);
            round_pairs(X, nn);
            lapack_problem r = {.m = n, .n = n, .is_complex = 1, .A0 = A, .ipiv0 = ipiv, .A = A, .B = X};
            CHECK(lapack_spec_getri.check(&r, EPS_S) <= ACCEPT);
            A[0] = 0.0, A[1] = 1e-3; /* U(1, 1) = (0, im): not singular, so info 1 is wrong */
            r.info = 1;
            for (size_t i = 0; i < 2 * nn; ++i) X[i] = NAN;
            CHECK(isinf(lapack_spec_getri.check(&r, EPS_S)));
            A[1] = 0.0; /* both parts 0: singular at 1, the inverse all NaN */
            CHECK(lapack_spec_getri.check(&r, EPS_S) == 0.0);
            r.info = 0;
            CHECK(isinf(lapack_spec_getri.check(&r, EPS_S)));
            r.info = 1;
            X[2 * nn - 1] = 0.0; /* one imaginary part not NaN */
            CHECK(isinf(lapack_spec_getri.check(&r, EPS_S)));

            /* potrf: the stray imaginary diagonal of the input is not read; a factor diagonal with
             * an imaginary part is rejected */
            for (int up = 0; up < 2; ++up) {
                lapack_spec_potrf.generate(n, n, 0, up, 1, seed, A, NULL, NULL);
                memcpy(F, A, 2 * nn * sizeof *A);
                CHECK(oracle_zpotf2(n, up, F, n) == 0);
                round_pairs(F, nn);
                lapack_problem c = {.m = n, .n = n, .variant = up, .is_complex = 1, .A0 = A, .A = F};
                CHECK(lapack_spec_potrf.check(&c, EPS_S) <= ACCEPT);
                F[2 * (n - 1) * (n + 1) + 1] = 1e-3;
                CHECK(isinf(lapack_spec_potrf.check(&c, EPS_S)));
            }

            /* potrs: the solve with F F^H of the given factor; posv: the factor of the Hermitian
             * matrix (its stray imaginary diagonal not read) and the solve with it; a conjugated
             * solution is rejected */
            for (int up = 0; up < 2; ++up) {
                lapack_spec_potrs.generate(n, n, nrhs, up, 1, seed, A, B, NULL);
                oracle_zchol_product(n, up, A, n, M);
                zlu_solve(0, n, nrhs, M, B, X);
                round_pairs(X, nb);
                lapack_problem q = {.m = n, .n = n, .nrhs = nrhs, .variant = up, .is_complex = 1, .A0 = A,
                                    .B0 = B, .A = A, .B = X};
                CHECK(lapack_spec_potrs.check(&q, EPS_S) <= ACCEPT);
                for (size_t i = 0; i < nb; ++i) CX(X)[i] = conj(CX(X)[i]);
                CHECK(lapack_spec_potrs.check(&q, EPS_S) > ORACLE_LIMIT);

                lapack_spec_posv.generate(n, n, nrhs, up, 1, seed, A, B, NULL);
                memcpy(F, A, 2 * nn * sizeof *A);
                CHECK(oracle_zpotf2(n, up, F, n) == 0);
                round_pairs(F, nn);
                oracle_herm_from_tri(n, up, A, n, M);
                zlu_solve(0, n, nrhs, M, B, X);
                round_pairs(X, nb);
                lapack_problem v = {.m = n, .n = n, .nrhs = nrhs, .variant = up, .is_complex = 1, .A0 = A,
                                    .B0 = B, .A = F, .B = X};
                CHECK(lapack_spec_posv.check(&v, EPS_S) <= ACCEPT);
                for (size_t i = 0; i < nb; ++i) CX(X)[i] = conj(CX(X)[i]);
                CHECK(lapack_spec_posv.check(&v, EPS_S) > ORACLE_LIMIT);
            }

            /* geqrf: zgeqr2's results pass; an imaginary part on R's diagonal does not */
            lapack_spec_geqrf.generate(n, n, 0, 0, 1, seed, A, NULL, NULL);
            memcpy(F, A, 2 * nn * sizeof *A);
            oracle_zgeqr2(n, n, F, n, tau, NULL);
            round_pairs(F, nn);
            round_pairs(tau, (size_t)n);
            lapack_problem g = {.m = n, .n = n, .is_complex = 1, .A0 = A, .A = F, .tau = tau};
            CHECK(lapack_spec_geqrf.check(&g, EPS_S) <= ACCEPT);
            F[1] = 1e-3;
            CHECK(isinf(lapack_spec_geqrf.check(&g, EPS_S)));
            free(A), free(F), free(B), free(X), free(M), free(tau), free(ipiv);
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
        CASE(complex_lu_known),
        CASE(complex_lu_properties),
        CASE(complex_solve_and_inverse_properties),
        CASE(complex_cholesky_properties),
        CASE(complex_householder_known),
        CASE(complex_qr_properties),
        CASE(complex_spec_checks),
    };
    return host_cases_main(cases, (int)(sizeof cases / sizeof cases[0]), argc, argv);
}
