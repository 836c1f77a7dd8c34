/* GPU cases of orgbr (shoal_?orgbr_batched / _strided_batched: Q or P^H of a bidiagonal
 * reduction, runtime/drivers/orgbr_qr.c), s, d, c, z, both forms, vect Q and P in each of
 * LAPACK's layouts (unshifted; shifted: Q where m < k, P where k >= n; k = 0; 1 x 1).
 * Inputs: A with random entries, the reflectors' taus 2 / ||u||^2 (unitary reflectors, so that
 * every product stays of order 1), the taus LAPACK leaves unused 0; A's padding rows hold a
 * sentinel. Judged on the host against tests/c/orgbr_ref.h (the reflectors applied to the
 * identity one by one, in double complex): every element within 30 eps max(m, n); the padding
 * rows and tau bit-identical. Cases: the shapes (batch 67), ld > m, batch 1, a large batch
 * (70000 small matrices; SHOAL_TEST_QUICK caps it), a NaN in problem 0's first tau (problem 0
 * is not judged, every other one is), tails (each operand's allocation ends at its last problem's
 * last element and starts 0..3 elements in: gpu_test_tail_alloc, for make sanitize's memcheck).
 *   test_orgbr_gpu       every case; --list, --case NAME (tests/gpu/gpu_test.h) */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gpu_test.h"
#include "host_elems.h"
#include "orgbr_ref.h"

#define SENTINEL 777.0

typedef struct ocase {
    char name[64];
    char prec;
    int vect, m, n, k, array, ld_pad, nan, tail; /* tail: -1 none, else the shift 0..3 */
    long long batch;
} ocase;

static ocase g_cases[512];
static int g_ncases;
static shoal_handle g_h;

static const int SHAPES_Q[][3] = {{7, 4, 4}, {9, 5, 3}, {6, 6, 6}, {5, 1, 1}, {4, 3, 0}, {5, 5, 8}, {1, 1, 3},
                                  {40, 40, 40}, {100, 37, 37}, {64, 64, 80}, {300, 200, 200}};
static const int SHAPES_P[][3] = {{4, 7, 4}, {3, 8, 2}, {1, 5, 1}, {3, 4, 0}, {6, 6, 6}, {5, 5, 9}, {1, 1, 1},
                                  {40, 40, 40}, {37, 100, 37}, {64, 64, 80}, {200, 300, 200}};

static void add(char prec, int vect, const int *s, int array, int ld_pad, int nan, int tail, long long batch,
                const char *what)
{
    ocase *c = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    *c = (ocase){"", prec, vect, s[0], s[1], s[2], array, ld_pad, nan, tail, batch};
    gpu_test_case_name(c->name, sizeof c->name, "%corgbr_%c_%dx%dk%d_%s%s", prec, vect ? 'p' : 'q', s[0], s[1],
                       s[2], array ? "array" : "strided", what);
}

static void build_cases(void)
{
    for (const char *p = "sdcz"; *p; ++p)
        for (int vect = 0; vect < 2; ++vect) {
            const int (*shapes)[3] = vect ? SHAPES_P : SHAPES_Q;
            const int count = (int)(sizeof SHAPES_Q / sizeof SHAPES_Q[0]);
            for (int i = 0; i < count; ++i)
                for (int array = 0; array < 2; ++array) add(*p, vect, shapes[i], array, 0, 0, -1, 67, "");
            add(*p, vect, shapes[1], 0, 3, 0, -1, 33, "_ld_pad");
            add(*p, vect, shapes[7], 1, 0, 0, -1, 1, "_batch1");
            add(*p, vect, shapes[5], 0, 0, 0, -1, 70000, "_big_batch");
            add(*p, vect, shapes[8], 0, 0, 1, -1, 65, "_nan");
            add(*p, vect, shapes[5], 1, 0, 1, -1, 65, "_nan");
            for (int t = 0; t < 4; ++t) {
                char what[16];
                snprintf(what, sizeof what, "_tail%d", t);
                add(*p, vect, shapes[t == 3 ? 8 : t], t % 2, 0, 0, t, 129, what);
            }
        }
}

static size_t elem_bytes(char prec) { return prec == 's' ? 4 : prec == 'z' ? 16 : 8; }

static double complex get(char prec, const void *x, int64_t e)
{
    double v[2] = {0.0, 0.0};
    elem_get(prec, x, e, v, 0);
    return v[0] + I * v[1];
}

static void put(char prec, void *x, int64_t e, double complex z)
{
    const double v[2] = {creal(z), cimag(z)};
    elem_put(prec, x, e, v, 0);
}

static void *device_alloc(void **alloc, size_t count, size_t es, int tail)
{
    if (tail >= 0) return gpu_test_tail_alloc(alloc, count, es, tail);
    CUDA_CHECK(cudaMalloc(alloc, count * es + 64));
    return *alloc;
}

static shoal_status call(const ocase *c, void *A, void *const *Ap, long long lda, long long sa, void *tau,
                         void *const *taup, long long st, long long batch)
{
    const shoal_vect v = c->vect ? SHOAL_VECT_P : SHOAL_VECT_Q;
#define ORGBR(p, T)                                                                                            \
    return c->array ? shoal_##p##orgbr_batched(g_h, v, c->m, c->n, c->k, (T *const *)Ap, lda, (const T *const *)taup, \
                                               batch)                                                          \
                    : shoal_##p##orgbr_strided_batched(g_h, v, c->m, c->n, c->k, (T *)A, lda, sa, (const T *)tau, st, \
                                                       batch)
    switch (c->prec) {
    case 's': ORGBR(s, float);
    case 'd': ORGBR(d, double);
    case 'c': ORGBR(c, shoal_complex_float);
    default: ORGBR(z, shoal_complex_double);
    }
#undef ORGBR
}

static void run_case(int i)
{
    const ocase *c = &g_cases[i];
    const char prec = c->prec;
    const int m = c->m, n = c->n, k = c->k, q = c->vect ? n : m;
    const int kq = c->vect ? (n < k ? n : k) : (m < k ? m : k), st = kq > 0 ? kq : 1;
    const int nr = orgbr_ref_count(c->vect, m, n, k);
    const long long batch = gpu_test_batch(c->batch), lda = m + c->ld_pad, sa = lda * n;
    const size_t es = elem_bytes(prec), a_count = (size_t)(batch * sa), t_count = (size_t)(batch * st);
    unsigned char *ha = xmalloc(a_count * es), *ht = xmalloc(t_count * es), *out = xmalloc(a_count * es);
    unsigned char *tout = xmalloc(t_count * es);
    double complex *A = xmalloc(sizeof *A * (size_t)m * n), *u = xmalloc(sizeof *u * (size_t)q);
    double complex *Y = xmalloc(sizeof *Y * (size_t)q * q), *tau = xmalloc(sizeof *tau * (size_t)st);
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)i;
    for (long long b = 0; b < batch; ++b) {
        for (int col = 0; col < n; ++col)
            for (long long r = 0; r < lda; ++r) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                const double x = (double)(seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                const double y = (double)(seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
                put(prec, ha, b * sa + col * lda + r, r < m ? x + I * y : SENTINEL);
            }
        for (int col = 0; col < n; ++col)
            for (int r = 0; r < m; ++r) A[r + (size_t)col * m] = get(prec, ha, b * sa + col * lda + r);
        for (int j = 0; j < st; ++j) {
            double complex t = 0.0;
            if (j < nr) {
                orgbr_ref_reflector(A, m, m, n, c->vect, k, j, u);
                t = orgbr_ref_unitary_tau(u, q);
            }
            put(prec, ht, b * st + j, t);
        }
    }
    if (c->nan) put(prec, ht, 0, NAN);
    void *a_alloc = NULL, *t_alloc = NULL;
    void *dA = device_alloc(&a_alloc, a_count, es, c->tail), *dT = device_alloc(&t_alloc, t_count, es, c->tail);
    CUDA_CHECK(cudaMemcpy(dA, ha, a_count * es, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dT, ht, t_count * es, cudaMemcpyHostToDevice));
    void **ptrs = NULL;
    void *const *dAp = NULL, *const *dTp = NULL;
    if (c->array) {
        void **host = xmalloc(sizeof(void *) * (size_t)(2 * batch));
        for (long long b = 0; b < batch; ++b) {
            host[b] = (char *)dA + (size_t)(b * sa) * es;
            host[batch + b] = (char *)dT + (size_t)(b * st) * es;
        }
        CUDA_CHECK(cudaMalloc((void **)&ptrs, sizeof(void *) * (size_t)(2 * batch)));
        CUDA_CHECK(cudaMemcpy(ptrs, host, sizeof(void *) * (size_t)(2 * batch), cudaMemcpyHostToDevice));
        free(host);
        dAp = ptrs;
        dTp = ptrs + batch;
    }
    const shoal_status status = call(c, dA, dAp, lda, sa, dT, dTp, st, batch);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out, dA, a_count * es, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(tout, dT, t_count * es, cudaMemcpyDeviceToHost));
    int ok = status == SHOAL_STATUS_SUCCESS;
    if (!ok) printf("  %s: status %d\n", c->name, (int)status);
    if (ok && memcmp(tout, ht, t_count * es)) ok = 0, printf("  %s: tau changed\n", c->name);
    /* the padding rows of every problem, then the values of up to 64 problems spread over the batch */
    for (long long b = 0; ok && b < batch; ++b)
        for (int col = 0; ok && col < n; ++col)
            for (long long r = m; ok && r < lda; ++r)
                if (get(prec, out, b * sa + col * lda + r) != SENTINEL)
                    ok = 0, printf("  %s: problem %lld: a padding row changed\n", c->name, b);
    const double eps = elem_single(prec) ? ldexp(1.0, -23) : ldexp(1.0, -52);
    const long long step = batch > 64 ? batch / 64 : 1;
    double worst = 0.0;
    for (long long b = c->nan ? 1 : 0; ok && b < batch; b += step) {
        for (int col = 0; col < n; ++col)
            for (int r = 0; r < m; ++r) A[r + (size_t)col * m] = get(prec, ha, b * sa + col * lda + r);
        for (int j = 0; j < st; ++j) tau[j] = get(prec, ht, b * st + j);
        orgbr_ref_form(A, m, m, n, c->vect, k, tau, Y, u);
        for (int col = 0; col < n; ++col)
            for (int r = 0; r < m; ++r) {
                const double e = cabs(get(prec, out, b * sa + col * lda + r) - orgbr_ref_want(Y, m, n, c->vect, r, col)) /
                                 ((m > n ? m : n) * eps);
                if (!(e <= worst)) worst = e;
            }
    }
    if (ok && !(worst <= 30.0)) ok = 0, printf("  %s: error %.3g eps\n", c->name, worst);
    gpu_test_record(ok);
    cudaFree(ptrs);
    gpu_test_free(a_alloc);
    gpu_test_free(t_alloc);
    free(ha), free(ht), free(out), free(tout), free(A), free(u), free(Y), free(tau);
}

static const char *case_name(int i) { return g_cases[i].name; }

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_case, NULL, NULL};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
