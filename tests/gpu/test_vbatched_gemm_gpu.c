/* GPU correctness of shoal's variable-size batched GEMM through the public API:
 * shoal_{s,d,c,z}gemm_vbatched (C_i = alpha op(A_i) op(B_i) + beta C_i, column-major, per-problem
 * sizes and leading dimensions in device int arrays, operands through device pointer arrays) and
 * shoal_imax_device.
 *
 * Every operand of every problem is placed separately inside one big device buffer (offsets
 * 16-byte aligned, some problems' operands at an odd element offset instead); leading dimensions
 * are the stored rows + 3. Everything outside the C matrices proper of the problems that are not
 * skipped (the ld padding, the gaps between operands, a guard after the last one, A and B whole)
 * is a NaN with a recognizable payload or input data and must come back bit for bit; skipped
 * problems (m_i <= 0 or n_i <= 0) must leave their C untouched; the device size, ld and pointer
 * arrays must come back unchanged.
 * Results are judged against a host reference in double (OpenMP over the problems): for each
 * checked problem, max |C - Cref| / (eps (|alpha| k max|A| max|B| + |beta| max|C0|)) must be
 * <= ERROR_LIMIT (eps = 2^-24 for s and c, 2^-53 for d and z; eps alone when that denominator is
 * 0; in c and z |.| is the modulus of alpha, beta and the entries, and each part of C is judged).
 * Entries are uniform in [-1, 1) from a hash seeded by the case name (rounded to float for s; in
 * c and z each part so). In c and z alpha = 0.75 + 0.5i and beta = -0.5 + 0.25i where 0.75 and
 * -0.5 are said below, the ops are N, T and C (C: the conjugate transpose), and every case below
 * runs with the C combinations said. Cases, for s, d, c and z:
 *  - {s,d,c,z}_gemm_vbatched_{nn,nt,tn,tt}_uniform_N (c, z: every pair of n, t, c): m_i, n_i, k_i
 *    uniform in [0, N], N in {1, 17, 33, 100}, batch 500 (N = 100: 200), alpha = 0.75,
 *    beta = -0.5 (as below unless said);
 *  - skewed: 1% of problems 256 x 256 x 256, the others uniform in [1, 25], nn, batch 400;
 *  - equal: every problem 64 x 64 x 64, tn (c, z: cn), batch 300;
 *  - batch1: one problem 37 x 29 x 41, tn (c, z: ct), ld = rows + 3;
 *  - beta0: beta = 0 with C filled with NaN beforehand (must not be read), nt (c, z: nc), N = 40;
 *  - alpha0: alpha = 0, beta = 2 (c, z: 2 - i), NaN in A and B (must not be read): C = beta C,
 *    nn, N = 40;
 *  - large_batch: 100000 problems, sizes uniform in [1, 8] (1% of problems with m, n or k = 0),
 *    nn; a sample of ~1000 problems spread over the batch (and every k = 0 one) is checked
 *    against the reference, every skipped one's C for being untouched;
 *  - imax: the maxima from shoal_imax_device (checked against the host maxima, also on an
 *    all-negative array and on count 0), sizes uniform in [-2, 40] (negative sizes are skipped
 *    or, for k, mean C = beta C), tt (c, z: cc);
 *  - zero: max_m = 0, max_n = 0, batch = 0 (also with NULL arrays): SHOAL_STATUS_SUCCESS and
 *    nothing touched;
 *  - special: Inf and NaN among the operands must come out as IEEE arithmetic puts them (a
 *    kernel that splits operands into parts, as the TF32 probe of docs/experiments.md did, makes
 *    Inf x 1 into Inf x 0 = NaN): op(A)(m/2, k/2) = +Inf in every third problem, op(B)(k-1, n-1)
 *    = NaN in every fifth, the other entries of A and B multiples of 2^-10 in [-1, 1], none zero
 *    (exact in TF32, so such a split has small parts of zero); sizes uniform in [1, 100], nn and
 *    tn (c, z: also cc). In c and z the Inf is A's real part and the NaN B's imaginary part only:
 *    the NaN must reach its own problem's C (both parts, through the complex product) and no
 *    other problem's. A non-finite reference part must be matched exactly (NaN by any NaN), the
 *    finite ones as everywhere;
 *  - tail (issue 29): every operand of every problem in an allocation of its own that ends at the
 *    operand's last element and starts 1..3 elements past a 16-byte boundary (gpu_test_tail_alloc;
 *    an empty operand is 0 elements long, its pointer the allocation's end), so that a read past
 *    any operand leaves its allocation and memcheck (make sanitize) reports it; every op pair (c,
 *    z: the 9 of n, t, c),
 *    ragged sizes with zeros (uniform, skewed), ld = rows + 1..3, beta = 0 (C NaN) and not; the
 *    size and ld arrays are exactly batch ints (their allocations' ends) in every case;
 *  - page_end (issue 29; last in the table): as tail, with the last problem's A, B and C each
 *    ending at the end of a mapped page, the next page unmapped (gpu_test_page_end_alloc): a
 *    kernel that reads past them dies with an illegal address even without compute-sanitizer.
 *
 * Usage: test_vbatched_gemm_gpu              run every case
 *        test_vbatched_gemm_gpu --list       print the case names (needs no GPU)
 *        test_vbatched_gemm_gpu --case NAME  run one case
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device ("SKIP: ..." on stdout).
 *
 * Build: gcc -std=c11 -O2 -fopenmp -D_GNU_SOURCE -Iinclude -Iruntime -I/usr/local/cuda/include
 *        tests/gpu/test_vbatched_gemm_gpu.c -Llib -lshoal -L/usr/local/cuda/lib64 -lcudart -lm
 */
#define _POSIX_C_SOURCE 200809L

#include "gpu_test.h"
#include "shoal.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERROR_LIMIT 16.0
#define GUARD 37        /* poisoned elements after the last operand */
/* A scalar or an element as doubles: (re, im); s and d use re (their calls drop im). */
typedef struct cplx {
    double re, im;
} cplx;

#define ALPHA ((cplx){0.75, 0.5})
#define BETA ((cplx){-0.5, 0.25})
#define ZERO ((cplx){0.0, 0.0})
#define ONE ((cplx){1.0, 0.0})
#define MAX_CASES 192
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Quiet NaNs with a payload: gaps and the guard; C before a beta == 0 call; A and B of alpha == 0;
 * the ld padding of A, B and C. */
enum poison { P_GAP = 0, P_C = 1, P_AB = 2, P_PAD_A = 3, P_PAD_B = 4, P_PAD_C = 5 };
static const uint32_t POISON_S[6] = {0x7fc0ccccu, 0x7fc0ddddu, 0x7fc0eeeeu, 0x7fc0aaaau, 0x7fc0bbbbu, 0x7fc0c0c0u};
static const uint64_t POISON_D[6] = {0x7ff80000ccccccccull, 0x7ff80000ddddddddull, 0x7ff80000eeeeeeeeull,
                                     0x7ff80000aaaaaaaaull, 0x7ff80000bbbbbbbbull, 0x7ff80000c0c0c0c0ull};

enum kind { K_UNIFORM, K_SKEWED, K_EQUAL, K_ONE, K_BETA0, K_ALPHA0, K_LARGE, K_IMAX, K_ZERO, K_SPECIAL, K_TAIL, K_PAGE_END };

typedef struct tcase {
    char name[64];
    enum kind kind;
    char prec;
    shoal_operation ta, tb;
    int N;
} tcase;

static tcase g_cases[MAX_CASES];
static int g_ncases;
static shoal_handle g_h;
static char g_why[512];
static int g_failed;

static void fail(const char *fmt, ...)
{
    if (g_failed++) return; /* keep the first reason */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_why, sizeof g_why, fmt, ap);
    va_end(ap);
}

/* ---- hashing ---- */

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash2(uint64_t seed, uint64_t a, uint64_t b) { return mix64(mix64(seed ^ mix64(a)) + b); }

static uint64_t hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return mix64(h);
}

/* uniform in [lo, hi] */
static int rand_int(uint64_t seed, uint64_t a, uint64_t b, int lo, int hi)
{
    return lo + (int)(hash2(seed, a, b) % (uint64_t)(hi - lo + 1));
}

/* uniform in [-1, 1), 24 significant bits: exact in float */
static double rand_val(uint64_t seed, uint64_t a, uint64_t b)
{
    return (double)(hash2(seed, a, b) >> 40) * 0x1p-23 - 1.0;
}

/* ---- a batch of problems in one buffer ---- */

typedef struct pset {
    char prec;
    int es; /* element size */
    int rs; /* bytes of its real type (a part of a complex element) */
    int w;  /* parts: 2 in c and z */
    shoal_operation ta, tb;
    int64_t batch;
    int *m, *n, *k, *lda, *ldb, *ldc;
    int64_t *oa, *ob, *oc; /* element offsets into the buffer */
    int64_t total;         /* elements in the buffer */
    unsigned char *h0;     /* what was uploaded */
    unsigned char *h1;     /* what came back */
    void **pa, **pb, **pc; /* device addresses */
    /* device */
    unsigned char *dbuf;
    int *dm, *dn, *dk, *dlda, *dldb, *dldc;
    void **dpa, **dpb, **dpc;
    int max_m, max_n, max_k; /* host maxima of max(0, size) */
    int pad;                 /* ld = stored rows + pad (3 unless a case sets it) */
    int tail;                /* 1..3: every operand of every problem in an allocation of its own,
                                ending at its last element, starting 1 + (tail - 1 + i + o) % 3
                                elements into it (o: 0 A, 1 B, 2 C); dbuf unused */
    int page_end;            /* with tail: the last problem's operands end at page ends */
    void **allocs;           /* tail: the 3 * batch allocations (gpu_test_free) */
} pset;

static int pos(int x) { return x > 0 ? x : 0; }

/* every part of element i (both of a complex one) */
static void set_poison(const pset *s, unsigned char *buf, int64_t i, enum poison p)
{
    for (int part = 0; part < s->w; ++part) {
        unsigned char *at = buf + i * s->es + part * s->rs;
        if (s->rs == 4)
            memcpy(at, &POISON_S[p], 4);
        else
            memcpy(at, &POISON_D[p], 8);
    }
}

/* part 0 (real) or 1 (imaginary) of element i */
static void set_part(const pset *s, unsigned char *buf, int64_t i, int part, double v)
{
    unsigned char *at = buf + i * s->es + part * s->rs;
    if (s->rs == 4) {
        float f = (float)v;
        memcpy(at, &f, 4);
    } else {
        memcpy(at, &v, 8);
    }
}

static double get_part(const pset *s, const unsigned char *buf, int64_t i, int part)
{
    const unsigned char *at = buf + i * s->es + part * s->rs;
    if (s->rs == 4) {
        float f;
        memcpy(&f, at, 4);
        return f;
    }
    double d;
    memcpy(&d, at, 8);
    return d;
}

/* element i; im = 0 in s and d */
static cplx get_elem(const pset *s, const unsigned char *buf, int64_t i)
{
    const cplx v = {get_part(s, buf, i, 0), s->w == 2 ? get_part(s, buf, i, 1) : 0.0};
    return v;
}

/* element e from stream a of seed: uniform in [-1, 1) (each part of a complex one) */
static void set_rand(const pset *s, unsigned char *buf, int64_t e, uint64_t seed, uint64_t a)
{
    set_part(s, buf, e, 0, rand_val(seed, a, (uint64_t)e));
    if (s->w == 2) set_part(s, buf, e, 1, rand_val(mix64(seed), a, (uint64_t)e));
}

/* The scalar a call of s's precision takes: s and d have no imaginary part. */
static cplx eff(const pset *s, cplx x)
{
    if (s->w == 1) x.im = 0.0;
    return x;
}

static int is_zero(cplx x) { return x.re == 0.0 && x.im == 0.0; }

/* a b, and s + a b: real arithmetic alone in s and d (so that an Inf there meets no 0 * Inf of
 * an imaginary part), the complex product in c and z */
static cplx mul(const pset *s, cplx a, cplx b)
{
    if (s->w == 1) return (cplx){a.re * b.re, 0.0};
    return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static cplx add_mul(const pset *s, cplx acc, cplx a, cplx b)
{
    const cplx p = mul(s, a, b);
    return (cplx){acc.re + p.re, acc.im + p.im};
}

static char op_letter(shoal_operation op) { return op == SHOAL_OP_N ? 'n' : op == SHOAL_OP_T ? 't' : 'c'; }

static void pset_free(pset *s)
{
    free(s->m), free(s->n), free(s->k), free(s->lda), free(s->ldb), free(s->ldc);
    free(s->oa), free(s->ob), free(s->oc), free(s->h0), free(s->h1);
    if (s->allocs)
        for (int64_t i = 0; i < 3 * s->batch; ++i) gpu_test_free(s->allocs[i]);
    free(s->allocs);
    free(s->pa), free(s->pb), free(s->pc);
    cudaFree(s->dbuf);
    cudaFree(s->dm), cudaFree(s->dn), cudaFree(s->dk);
    cudaFree(s->dlda), cudaFree(s->dldb), cudaFree(s->dldc);
    cudaFree(s->dpa), cudaFree(s->dpb), cudaFree(s->dpc);
    memset(s, 0, sizeof *s);
}

static int pset_alloc_sizes(pset *s, char prec, shoal_operation ta, shoal_operation tb, int64_t batch)
{
    memset(s, 0, sizeof *s);
    s->prec = prec;
    s->w = prec == 'c' || prec == 'z' ? 2 : 1;
    s->rs = prec == 's' || prec == 'c' ? 4 : 8;
    s->es = s->rs * s->w;
    s->ta = ta;
    s->tb = tb;
    s->batch = batch;
    s->pad = 3;
    size_t nb = (size_t)(batch > 0 ? batch : 1);
    s->m = calloc(nb, sizeof(int)), s->n = calloc(nb, sizeof(int)), s->k = calloc(nb, sizeof(int));
    s->lda = calloc(nb, sizeof(int)), s->ldb = calloc(nb, sizeof(int)), s->ldc = calloc(nb, sizeof(int));
    s->oa = calloc(nb, sizeof(int64_t)), s->ob = calloc(nb, sizeof(int64_t)), s->oc = calloc(nb, sizeof(int64_t));
    s->pa = calloc(nb, sizeof(void *)), s->pb = calloc(nb, sizeof(void *)), s->pc = calloc(nb, sizeof(void *));
    if (!s->m || !s->n || !s->k || !s->lda || !s->ldb || !s->ldc || !s->oa || !s->ob || !s->oc || !s->pa ||
        !s->pb || !s->pc) {
        fail("host allocation failed");
        return 1;
    }
    return 0;
}

static int64_t place(int64_t *cur, int64_t size, int align, int odd)
{
    int64_t off = (*cur + align - 1) / align * align;
    if (odd) off += 1;
    *cur = off + size;
    return off;
}

/* Elements of problem i's operand o (0 A, 1 B, 2 C) from its first to its last: what its own
 * allocation holds in a tail layout (0 for an empty one). */
static int64_t extent(const pset *s, int64_t i, int o)
{
    const int m = pos(s->m[i]), n = pos(s->n[i]), k = pos(s->k[i]);
    int rows, cols, ld;
    if (o == 0) rows = s->ta == SHOAL_OP_N ? m : k, cols = s->ta == SHOAL_OP_N ? k : m, ld = s->lda[i];
    else if (o == 1) rows = s->tb == SHOAL_OP_N ? k : n, cols = s->tb == SHOAL_OP_N ? n : k, ld = s->ldb[i];
    else rows = m, cols = n, ld = s->ldc[i];
    return rows > 0 && cols > 0 ? (int64_t)ld * (cols - 1) + rows : 0;
}

/* Tail layout: every problem's operands between h0 and their allocations (up: to the device),
 * or from them into h1, which first gets h0: what lies outside the operands never leaves the
 * host and reads back as uploaded. */
static cudaError_t copy_regions(pset *s, int up)
{
    if (!up) memcpy(s->h1, s->h0, (size_t)s->total * s->es);
    for (int64_t i = 0; i < s->batch; ++i)
        for (int o = 0; o < 3; ++o) {
            const size_t bytes = (size_t)extent(s, i, o) * s->es;
            const int64_t off = o == 0 ? s->oa[i] : o == 1 ? s->ob[i] : s->oc[i];
            void *dev = o == 0 ? s->pa[i] : o == 1 ? s->pb[i] : s->pc[i];
            if (!bytes) continue;
            const cudaError_t e = up ? cudaMemcpy(dev, s->h0 + off * s->es, bytes, cudaMemcpyHostToDevice)
                                     : cudaMemcpy(s->h1 + off * s->es, dev, bytes, cudaMemcpyDeviceToHost);
            if (e != cudaSuccess) return e;
        }
    return cudaSuccess;
}

/* After the sizes are set: leading dimensions, offsets, host contents (poison A/B or C as asked),
 * device buffers and arrays. */
static int pset_build(pset *s, uint64_t seed, int nan_ab, int nan_c)
{
    const int align = 16 / s->es;
    int64_t cur = 0;
    s->max_m = s->max_n = s->max_k = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        const int m = pos(s->m[i]), n = pos(s->n[i]), k = pos(s->k[i]);
        if (m > s->max_m) s->max_m = m;
        if (n > s->max_n) s->max_n = n;
        if (k > s->max_k) s->max_k = k;
        const int ra = s->ta == SHOAL_OP_N ? m : k, ca = s->ta == SHOAL_OP_N ? k : m;
        const int rb = s->tb == SHOAL_OP_N ? k : n, cb = s->tb == SHOAL_OP_N ? n : k;
        s->lda[i] = ra + s->pad;
        s->ldb[i] = rb + s->pad;
        s->ldc[i] = m + s->pad;
        s->oa[i] = place(&cur, (int64_t)s->lda[i] * ca, align, i % 11 == 5);
        s->ob[i] = place(&cur, (int64_t)s->ldb[i] * cb, align, i % 13 == 6);
        s->oc[i] = place(&cur, (int64_t)s->ldc[i] * n, align, i % 7 == 2);
    }
    s->total = cur + GUARD;
    const size_t bytes = (size_t)s->total * s->es;
    s->h0 = malloc(bytes);
    s->h1 = malloc(bytes);
    if (!s->h0 || !s->h1) {
        fail("host allocation of %zu bytes failed", bytes);
        return 1;
    }
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < s->total; ++e) set_poison(s, s->h0, e, P_GAP);
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < s->batch; ++i) {
        const int m = pos(s->m[i]), n = pos(s->n[i]), k = pos(s->k[i]);
        const int ra = s->ta == SHOAL_OP_N ? m : k, ca = s->ta == SHOAL_OP_N ? k : m;
        const int rb = s->tb == SHOAL_OP_N ? k : n, cb = s->tb == SHOAL_OP_N ? n : k;
        for (int c = 0; c < ca; ++c)
            for (int r = 0; r < s->lda[i]; ++r) {
                const int64_t e = s->oa[i] + r + (int64_t)c * s->lda[i];
                if (r >= ra)
                    set_poison(s, s->h0, e, P_PAD_A);
                else if (nan_ab)
                    set_poison(s, s->h0, e, P_AB);
                else
                    set_rand(s, s->h0, e, seed, 3 * (uint64_t)i);
            }
        for (int c = 0; c < cb; ++c)
            for (int r = 0; r < s->ldb[i]; ++r) {
                const int64_t e = s->ob[i] + r + (int64_t)c * s->ldb[i];
                if (r >= rb)
                    set_poison(s, s->h0, e, P_PAD_B);
                else if (nan_ab)
                    set_poison(s, s->h0, e, P_AB);
                else
                    set_rand(s, s->h0, e, seed, 3 * (uint64_t)i + 1);
            }
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < s->ldc[i]; ++r) {
                const int64_t e = s->oc[i] + r + (int64_t)c * s->ldc[i];
                if (r >= m)
                    set_poison(s, s->h0, e, P_PAD_C);
                else if (nan_c)
                    set_poison(s, s->h0, e, P_C);
                else
                    set_rand(s, s->h0, e, seed, 3 * (uint64_t)i + 2);
            }
    }
    /* device */
    const size_t ib = (size_t)(s->batch > 0 ? s->batch : 1) * sizeof(int);
    const size_t pb = (size_t)(s->batch > 0 ? s->batch : 1) * sizeof(void *);
    cudaError_t e = s->tail ? cudaSuccess : cudaMalloc((void **)&s->dbuf, bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dm, ib);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dn, ib);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dk, ib);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dlda, ib);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dldb, ib);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dldc, ib);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dpa, pb);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dpb, pb);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->dpc, pb);
    if (e != cudaSuccess) {
        fail("cudaMalloc: %s", cudaGetErrorString(e));
        return 1;
    }
    if (s->tail) {
        s->allocs = calloc((size_t)(s->batch > 0 ? 3 * s->batch : 1), sizeof(void *));
        if (!s->allocs) {
            fail("host allocation failed");
            return 1;
        }
        for (int64_t i = 0; i < s->batch; ++i)
            for (int o = 0; o < 3; ++o) {
                const size_t len = (size_t)extent(s, i, o);
                const int shift = 1 + (int)((s->tail - 1 + i + o) % 3);
                void **al = &s->allocs[3 * i + o];
                void *p = s->page_end && i == s->batch - 1 ? gpu_test_page_end_alloc(al, len, (size_t)s->es)
                                                           : gpu_test_tail_alloc(al, len, (size_t)s->es, shift);
                *(o == 0 ? &s->pa[i] : o == 1 ? &s->pb[i] : &s->pc[i]) = p;
            }
    } else {
        for (int64_t i = 0; i < s->batch; ++i) {
            s->pa[i] = s->dbuf + s->oa[i] * s->es;
            s->pb[i] = s->dbuf + s->ob[i] * s->es;
            s->pc[i] = s->dbuf + s->oc[i] * s->es;
        }
    }
    const size_t nib = (size_t)s->batch * sizeof(int), npb = (size_t)s->batch * sizeof(void *);
    e = s->tail ? copy_regions(s, 1) : cudaMemcpy(s->dbuf, s->h0, bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dm, s->m, nib, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dn, s->n, nib, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dk, s->k, nib, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dlda, s->lda, nib, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dldb, s->ldb, nib, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dldc, s->ldc, nib, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dpa, s->pa, npb, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dpb, s->pb, npb, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->dpc, s->pc, npb, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        fail("upload: %s", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}

/* One call; the status must be SUCCESS and the device clean afterwards. */
static int call_gemm(const pset *s, int max_m, int max_n, int max_k, cplx alpha, cplx beta, int64_t batch,
                     int null_arrays, const char *what)
{
    shoal_status st;
    const int *dm = null_arrays ? NULL : s->dm, *dn = null_arrays ? NULL : s->dn, *dk = null_arrays ? NULL : s->dk;
    const int *dlda = null_arrays ? NULL : s->dlda, *dldb = null_arrays ? NULL : s->dldb,
              *dldc = null_arrays ? NULL : s->dldc;
    void **pa = null_arrays ? NULL : s->dpa, **pb = null_arrays ? NULL : s->dpb, **pc = null_arrays ? NULL : s->dpc;
    if (s->prec == 's') {
        st = shoal_sgemm_vbatched(g_h, s->ta, s->tb, dm, dn, dk, max_m, max_n, max_k, (float)alpha.re,
                                  (const float *const *)pa, dlda, (const float *const *)pb, dldb, (float)beta.re,
                                  (float *const *)pc, dldc, batch);
    } else if (s->prec == 'd') {
        st = shoal_dgemm_vbatched(g_h, s->ta, s->tb, dm, dn, dk, max_m, max_n, max_k, alpha.re,
                                  (const double *const *)pa, dlda, (const double *const *)pb, dldb, beta.re,
                                  (double *const *)pc, dldc, batch);
    } else if (s->prec == 'c') {
        const shoal_complex_float a = {(float)alpha.re, (float)alpha.im}, b = {(float)beta.re, (float)beta.im};
        st = shoal_cgemm_vbatched(g_h, s->ta, s->tb, dm, dn, dk, max_m, max_n, max_k, a,
                                  (const shoal_complex_float *const *)pa, dlda, (const shoal_complex_float *const *)pb,
                                  dldb, b, (shoal_complex_float *const *)pc, dldc, batch);
    } else {
        const shoal_complex_double a = {alpha.re, alpha.im}, b = {beta.re, beta.im};
        st = shoal_zgemm_vbatched(g_h, s->ta, s->tb, dm, dn, dk, max_m, max_n, max_k, a,
                                  (const shoal_complex_double *const *)pa, dlda,
                                  (const shoal_complex_double *const *)pb, dldb, b, (shoal_complex_double *const *)pc,
                                  dldc, batch);
    }
    const cudaError_t e1 = cudaDeviceSynchronize();
    const cudaError_t e2 = cudaGetLastError();
    if (st != SHOAL_STATUS_SUCCESS) {
        fail("%s: %cgemm_vbatched returned %s", what, s->prec, shoal_status_string(st));
        return 1;
    }
    if (e1 != cudaSuccess || e2 != cudaSuccess) {
        fail("%s: CUDA error after the call: %s", what, cudaGetErrorString(e1 != cudaSuccess ? e1 : e2));
        return 1;
    }
    return 0;
}

static int download(pset *s)
{
    cudaError_t e = s->tail ? copy_regions(s, 0) : cudaMemcpy(s->h1, s->dbuf, (size_t)s->total * s->es, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        fail("download: %s", cudaGetErrorString(e));
        return 1;
    }
    /* the argument arrays are input only */
    const size_t n = (size_t)s->batch;
    const int *host_int[6] = {s->m, s->n, s->k, s->lda, s->ldb, s->ldc};
    const int *dev_int[6] = {s->dm, s->dn, s->dk, s->dlda, s->dldb, s->dldc};
    static const char *const names[6] = {"m", "n", "k", "lda", "ldb", "ldc"};
    void *tmp = malloc((n > 0 ? n : 1) * sizeof(void *));
    if (!tmp) {
        fail("host allocation failed");
        return 1;
    }
    for (int a = 0; a < 6 && n > 0; ++a) {
        e = cudaMemcpy(tmp, dev_int[a], n * sizeof(int), cudaMemcpyDeviceToHost);
        if (e != cudaSuccess || memcmp(tmp, host_int[a], n * sizeof(int)) != 0) {
            fail("the device array %s changed (%s)", names[a], cudaGetErrorString(e));
            free(tmp);
            return 1;
        }
    }
    void **const host_p[3] = {s->pa, s->pb, s->pc};
    void **const dev_p[3] = {s->dpa, s->dpb, s->dpc};
    for (int a = 0; a < 3 && n > 0; ++a) {
        e = cudaMemcpy(tmp, dev_p[a], n * sizeof(void *), cudaMemcpyDeviceToHost);
        if (e != cudaSuccess || memcmp(tmp, host_p[a], n * sizeof(void *)) != 0) {
            fail("the device pointer array %c changed (%s)", "ABC"[a], cudaGetErrorString(e));
            free(tmp);
            return 1;
        }
    }
    free(tmp);
    return 0;
}

/* Normalized error of problem i (h1 against the reference from h0); NaN or > limit fails. The
 * maxima in the denominator are over the finite entries (moduli in c and z); a non-finite
 * reference part (the special case) must be matched exactly, its error is 0 if it is and Inf if
 * not. Each part of a complex entry is judged on its own. */
static double problem_error(const pset *s, int64_t i, cplx alpha, cplx beta)
{
    const int m = s->m[i], n = s->n[i], k = pos(s->k[i]);
    const int lda = s->lda[i], ldb = s->ldb[i], ldc = s->ldc[i];
    const int64_t oa = s->oa[i], ob = s->ob[i], oc = s->oc[i];
    const int use_ab = !is_zero(alpha) && k > 0, use_c = !is_zero(beta);
    const double eps = s->rs == 4 ? 0x1p-24 : 0x1p-53;
    const int conj_a = s->ta == SHOAL_OP_C, conj_b = s->tb == SHOAL_OP_C;
    double max_a = 0, max_b = 0, max_c = 0;
    if (use_ab) {
        for (int r = 0; r < m; ++r)
            for (int l = 0; l < k; ++l) {
                const int64_t e = s->ta == SHOAL_OP_N ? oa + r + (int64_t)l * lda : oa + l + (int64_t)r * lda;
                const cplx v = get_elem(s, s->h0, e);
                if (isfinite(v.re) && isfinite(v.im)) max_a = fmax(max_a, hypot(v.re, v.im));
            }
        for (int l = 0; l < k; ++l)
            for (int c = 0; c < n; ++c) {
                const int64_t e = s->tb == SHOAL_OP_N ? ob + l + (int64_t)c * ldb : ob + c + (int64_t)l * ldb;
                const cplx v = get_elem(s, s->h0, e);
                if (isfinite(v.re) && isfinite(v.im)) max_b = fmax(max_b, hypot(v.re, v.im));
            }
    }
    if (use_c)
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < m; ++r) {
                const cplx v = get_elem(s, s->h0, oc + r + (int64_t)c * ldc);
                max_c = fmax(max_c, hypot(v.re, v.im));
            }
    double den = eps * ((use_ab ? hypot(alpha.re, alpha.im) * k * max_a * max_b : 0.0) +
                        (use_c ? hypot(beta.re, beta.im) * max_c : 0.0));
    if (den == 0.0) den = eps;
    double worst = 0.0;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) {
            cplx sum = ZERO;
            if (use_ab)
                for (int l = 0; l < k; ++l) {
                    const int64_t ea = s->ta == SHOAL_OP_N ? oa + r + (int64_t)l * lda : oa + l + (int64_t)r * lda;
                    const int64_t eb = s->tb == SHOAL_OP_N ? ob + l + (int64_t)c * ldb : ob + c + (int64_t)l * ldb;
                    cplx a = get_elem(s, s->h0, ea), b = get_elem(s, s->h0, eb);
                    if (conj_a) a.im = -a.im;
                    if (conj_b) b.im = -b.im;
                    sum = add_mul(s, sum, a, b);
                }
            const int64_t ec = oc + r + (int64_t)c * ldc;
            cplx ref = use_ab ? mul(s, alpha, sum) : ZERO;
            if (use_c) ref = add_mul(s, ref, beta, get_elem(s, s->h0, ec));
            for (int part = 0; part < s->w; ++part) {
                const double want = part ? ref.im : ref.re, got = get_part(s, s->h1, ec, part);
                const double err = isfinite(want) ? fabs(got - want) / den
                                   : (isnan(want) ? isnan(got) : got == want) ? 0.0 : INFINITY;
                if (!(err <= worst)) worst = err; /* NaN sticks */
                if (isnan(worst)) return worst;
            }
        }
    return worst;
}

/* Checks the outputs: the problems with check[i] (all when check is NULL) against the reference,
 * then everything but the C matrices proper of the problems not skipped for bit identity. */
static int verify(pset *s, cplx alpha, cplx beta, const unsigned char *check, const char *what)
{
    if (download(s)) return 1;
    alpha = eff(s, alpha), beta = eff(s, beta);
    double *err = calloc((size_t)(s->batch > 0 ? s->batch : 1), sizeof(double));
    if (!err) {
        fail("host allocation failed");
        return 1;
    }
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t i = 0; i < s->batch; ++i) {
        if (s->m[i] <= 0 || s->n[i] <= 0 || (check && !check[i])) continue;
        err[i] = problem_error(s, i, alpha, beta);
    }
    double worst = 0.0;
    int64_t wi = -1, nchecked = 0, nbad = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        if (s->m[i] <= 0 || s->n[i] <= 0 || (check && !check[i])) continue;
        ++nchecked;
        if (!(err[i] <= ERROR_LIMIT)) ++nbad;
        if (wi < 0 || (!isnan(worst) && !(err[i] <= worst))) worst = err[i], wi = i; /* a NaN stays */
    }
    free(err);
    printf("  %s: %c %c%c batch %lld max %d x %d x %d: %lld problems checked, worst error %.3g", what, s->prec,
           op_letter(s->ta), op_letter(s->tb), (long long)s->batch, s->max_m,
           s->max_n, s->max_k, (long long)nchecked, wi >= 0 ? worst : 0.0);
    if (wi >= 0) printf(" (problem %lld: %d x %d x %d)", (long long)wi, s->m[wi], s->n[wi], s->k[wi]);
    printf("\n");
    int bad = 0;
    if (nbad) {
        fail("%s: %lld of %lld problems over the limit %g; worst %.3g at problem %lld (m %d n %d k %d)", what,
             (long long)nbad, (long long)nchecked, ERROR_LIMIT, worst, (long long)wi, s->m[wi], s->n[wi],
             s->k[wi]);
        bad = 1;
    }
    /* restore the C matrices proper of the problems not skipped, then all must match */
    for (int64_t i = 0; i < s->batch; ++i) {
        if (s->m[i] <= 0 || s->n[i] <= 0) continue;
        for (int c = 0; c < s->n[i]; ++c) {
            const int64_t e = s->oc[i] + (int64_t)c * s->ldc[i];
            memcpy(s->h1 + e * s->es, s->h0 + e * s->es, (size_t)s->m[i] * s->es);
        }
    }
    if (memcmp(s->h0, s->h1, (size_t)s->total * s->es) != 0) {
        int64_t e = 0;
        while (memcmp(s->h0 + e * s->es, s->h1 + e * s->es, s->es) == 0) ++e;
        /* whose element is it? */
        const char *where = "a gap or the guard";
        int64_t owner = -1;
        for (int64_t i = 0; i < s->batch; ++i) {
            const int m = pos(s->m[i]), n = pos(s->n[i]), k = pos(s->k[i]);
            const int64_t sa = (int64_t)s->lda[i] * (s->ta == SHOAL_OP_N ? k : m);
            const int64_t sb = (int64_t)s->ldb[i] * (s->tb == SHOAL_OP_N ? n : k);
            const int64_t sc = (int64_t)s->ldc[i] * n;
            if (e >= s->oa[i] && e < s->oa[i] + sa) where = "A", owner = i;
            if (e >= s->ob[i] && e < s->ob[i] + sb) where = "B", owner = i;
            if (e >= s->oc[i] && e < s->oc[i] + sc)
                where = (s->m[i] <= 0 || s->n[i] <= 0) ? "C of a skipped problem" : "the ld padding of C",
                owner = i;
            if (owner >= 0) break;
        }
        uint64_t b0 = 0, b1 = 0; /* the first 8 bytes (a z element's real part) */
        memcpy(&b0, s->h0 + e * s->es, s->es < 8 ? s->es : 8);
        memcpy(&b1, s->h1 + e * s->es, s->es < 8 ? s->es : 8);
        fail("%s: element %lld (in %s, problem %lld) changed: 0x%llx -> 0x%llx", what, (long long)e, where,
             (long long)owner, (unsigned long long)b0, (unsigned long long)b1);
        bad = 1;
    }
    return bad;
}

static void print_kernel(const pset *s)
{
    if (s->max_m < 1 || s->max_n < 1) return;
    const char *name = NULL;
    /* op C is served by the t variant's kernels */
    const char variant[3] = {s->ta == SHOAL_OP_N ? 'n' : 't', s->tb == SHOAL_OP_N ? 'n' : 't', 0};
    if (shoal_blas2_kernel_name(g_h, "gemm_vbatched", s->prec, 1, variant, s->max_m, s->max_n, &name) ==
            SHOAL_STATUS_SUCCESS &&
        name)
        printf("  kernel for %s %d x %d: %s\n", variant, s->max_m, s->max_n, name);
}

/* ---- cases ---- */

/* Sizes uniform in [lo, hi] each. */
static void sizes_uniform(pset *s, uint64_t seed, int lo, int hi)
{
    for (int64_t i = 0; i < s->batch; ++i) {
        s->m[i] = rand_int(seed, (uint64_t)i, 101, lo, hi);
        s->n[i] = rand_int(seed, (uint64_t)i, 102, lo, hi);
        s->k[i] = rand_int(seed, (uint64_t)i, 103, lo, hi);
    }
}

static int run_simple(const tcase *t, uint64_t seed, int64_t batch, cplx alpha, cplx beta, int nan_ab, int nan_c)
{
    pset s;
    batch = gpu_test_batch(batch); /* SHOAL_TEST_QUICK */
    int bad = pset_alloc_sizes(&s, t->prec, t->ta, t->tb, batch);
    if (!bad) {
        switch (t->kind) {
        case K_SKEWED:
            sizes_uniform(&s, seed, 1, 25);
            for (int64_t i = 37; i < batch; i += 100) s.m[i] = s.n[i] = s.k[i] = 256;
            break;
        case K_EQUAL:
            for (int64_t i = 0; i < batch; ++i) s.m[i] = s.n[i] = s.k[i] = 64;
            break;
        case K_ONE: s.m[0] = 37, s.n[0] = 29, s.k[0] = 41; break;
        default: sizes_uniform(&s, seed, 0, t->N); break;
        }
        bad = pset_build(&s, seed, nan_ab, nan_c);
    }
    if (!bad) print_kernel(&s);
    if (!bad) bad = call_gemm(&s, s.max_m, s.max_n, s.max_k, alpha, beta, batch, 0, "call");
    if (!bad) bad = verify(&s, alpha, beta, NULL, "call");
    pset_free(&s);
    return bad;
}

static int case_large(const tcase *t, uint64_t seed)
{
    const int64_t batch = gpu_test_batch(100000); /* SHOAL_TEST_QUICK */
    pset s;
    unsigned char *check = NULL;
    int bad = pset_alloc_sizes(&s, t->prec, t->ta, t->tb, batch);
    if (!bad) {
        sizes_uniform(&s, seed, 1, 8);
        for (int64_t i = 0; i < batch; ++i) {
            const uint64_t h = hash2(seed, (uint64_t)i, 104);
            if (h % 100 == 0) s.m[i] = 0;      /* skipped */
            else if (h % 100 == 1) s.n[i] = 0; /* skipped */
            else if (h % 100 == 2) s.k[i] = 0; /* C = beta C */
        }
        bad = pset_build(&s, seed, 0, 0);
    }
    if (!bad) {
        check = calloc((size_t)batch, 1);
        if (!check) bad = 1, fail("host allocation failed");
    }
    if (!bad) {
        for (int64_t i = 0; i < batch; ++i) check[i] = i % 100 == 0 || i % 997 == 13 || s.k[i] == 0;
        check[batch - 1] = 1;
        print_kernel(&s);
        bad = call_gemm(&s, s.max_m, s.max_n, s.max_k, ALPHA, BETA, batch, 0, "call");
    }
    if (!bad) bad = verify(&s, ALPHA, BETA, check, "call");
    free(check);
    pset_free(&s);
    return bad;
}

/* Entries of A and B made exact in TF32 and nonzero, then the special values placed (see the
 * header); uploaded again. */
static int case_special(const tcase *t, uint64_t seed)
{
    const int64_t batch = gpu_test_batch(300); /* SHOAL_TEST_QUICK */
    pset s;
    int bad = pset_alloc_sizes(&s, t->prec, t->ta, t->tb, batch);
    if (!bad) {
        sizes_uniform(&s, seed, 1, t->N);
        bad = pset_build(&s, seed, 0, 0);
    }
    if (!bad) {
        for (int64_t i = 0; i < batch; ++i) {
            const int m = s.m[i], n = s.n[i], k = s.k[i];
            const int64_t lda = s.lda[i], ldb = s.ldb[i];
            for (int r = 0; r < m; ++r)
                for (int l = 0; l < k; ++l) {
                    const int64_t e = s.ta == SHOAL_OP_N ? s.oa[i] + r + l * lda : s.oa[i] + l + r * lda;
                    for (int part = 0; part < s.w; ++part) {
                        const double v = round(get_part(&s, s.h0, e, part) * 1024.0) / 1024.0;
                        set_part(&s, s.h0, e, part, v != 0.0 ? v : 1.0 / 1024.0);
                    }
                }
            for (int l = 0; l < k; ++l)
                for (int c = 0; c < n; ++c) {
                    const int64_t e = s.tb == SHOAL_OP_N ? s.ob[i] + l + c * ldb : s.ob[i] + c + l * ldb;
                    for (int part = 0; part < s.w; ++part) {
                        const double v = round(get_part(&s, s.h0, e, part) * 1024.0) / 1024.0;
                        set_part(&s, s.h0, e, part, v != 0.0 ? v : -1.0 / 1024.0);
                    }
                }
            if (i % 3 == 0) { /* the real part */
                const int r = m / 2, l = k / 2;
                set_part(&s, s.h0, s.ta == SHOAL_OP_N ? s.oa[i] + r + l * lda : s.oa[i] + l + r * lda, 0, INFINITY);
            }
            if (i % 5 == 1) { /* c, z: the imaginary part only */
                const int l = k - 1, c = n - 1;
                set_part(&s, s.h0, s.tb == SHOAL_OP_N ? s.ob[i] + l + c * ldb : s.ob[i] + c + l * ldb, s.w - 1, NAN);
            }
        }
        const cudaError_t e = cudaMemcpy(s.dbuf, s.h0, (size_t)s.total * s.es, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) bad = 1, fail("upload: %s", cudaGetErrorString(e));
    }
    if (!bad) print_kernel(&s);
    if (!bad) bad = call_gemm(&s, s.max_m, s.max_n, s.max_k, ALPHA, BETA, batch, 0, "call");
    if (!bad) bad = verify(&s, ALPHA, BETA, NULL, "call");
    pset_free(&s);
    return bad;
}

static int imax_check(const int *dvalues, int64_t count, int expect, const char *what)
{
    int got = -12345;
    shoal_status st = shoal_imax_device(g_h, dvalues, count, &got);
    const cudaError_t e1 = cudaDeviceSynchronize(), e2 = cudaGetLastError();
    if (st != SHOAL_STATUS_SUCCESS) {
        fail("shoal_imax_device(%s) returned %s", what, shoal_status_string(st));
        return 1;
    }
    if (e1 != cudaSuccess || e2 != cudaSuccess) {
        fail("shoal_imax_device(%s): CUDA error %s", what, cudaGetErrorString(e1 != cudaSuccess ? e1 : e2));
        return 1;
    }
    if (got != expect) {
        fail("shoal_imax_device(%s) = %d, the host max is %d", what, got, expect);
        return 1;
    }
    return 0;
}

static int case_imax(const tcase *t, uint64_t seed)
{
    const int64_t batch = gpu_test_batch(500); /* SHOAL_TEST_QUICK */
    pset s;
    int bad = pset_alloc_sizes(&s, t->prec, t->ta, t->tb, batch);
    if (!bad) {
        sizes_uniform(&s, seed, -2, 40);
        bad = pset_build(&s, seed, 0, 0);
    }
    int mm = -1, mn = -1, mk = -1;
    if (!bad) bad = imax_check(s.dm, batch, s.max_m, "m");
    if (!bad) bad = imax_check(s.dn, batch, s.max_n, "n");
    if (!bad) bad = imax_check(s.dk, batch, s.max_k, "k");
    if (!bad) {
        /* the same calls again, for the values to pass on */
        mm = s.max_m, mn = s.max_n, mk = s.max_k;
        if (shoal_imax_device(g_h, s.dm, batch, &mm) != SHOAL_STATUS_SUCCESS ||
            shoal_imax_device(g_h, s.dn, batch, &mn) != SHOAL_STATUS_SUCCESS ||
            shoal_imax_device(g_h, s.dk, batch, &mk) != SHOAL_STATUS_SUCCESS)
            bad = 1, fail("shoal_imax_device failed on a repeated call");
    }
    if (!bad) bad = imax_check(s.dm, 0, 0, "count 0");
    if (!bad) bad = imax_check(s.dm, 1, pos(s.m[0]), "count 1");
    if (!bad) {
        /* an all-negative array: max(0, ...) = 0 */
        int neg[1000];
        for (int i = 0; i < COUNT(neg); ++i) neg[i] = -1 - (i % 5);
        int *dneg = NULL;
        cudaError_t e = cudaMalloc((void **)&dneg, sizeof neg);
        if (e == cudaSuccess) e = cudaMemcpy(dneg, neg, sizeof neg, cudaMemcpyHostToDevice);
        if (e != cudaSuccess)
            bad = 1, fail("cudaMalloc/cudaMemcpy: %s", cudaGetErrorString(e));
        else
            bad = imax_check(dneg, COUNT(neg), 0, "all negative");
        /* one large value at the end of a long array */
        if (!bad) {
            neg[COUNT(neg) - 1] = 77;
            e = cudaMemcpy(dneg, neg, sizeof neg, cudaMemcpyHostToDevice);
            if (e != cudaSuccess)
                bad = 1, fail("cudaMemcpy: %s", cudaGetErrorString(e));
            else
                bad = imax_check(dneg, COUNT(neg), 77, "max last");
        }
        cudaFree(dneg);
    }
    if (!bad) {
        printf("  imax: m %d n %d k %d\n", mm, mn, mk);
        print_kernel(&s);
        bad = call_gemm(&s, mm, mn, mk, ALPHA, BETA, batch, 0, "call with the device maxima");
    }
    if (!bad) bad = verify(&s, ALPHA, BETA, NULL, "call with the device maxima");
    pset_free(&s);
    return bad;
}

static int case_zero(const tcase *t, uint64_t seed)
{
    const int64_t batch = gpu_test_batch(100); /* SHOAL_TEST_QUICK */
    pset s;
    int bad = pset_alloc_sizes(&s, t->prec, t->ta, t->tb, batch);
    if (!bad) {
        sizes_uniform(&s, seed, 1, 17);
        bad = pset_build(&s, seed, 0, 0);
    }
    /* With no work every C must stay as it was: the reference is C itself (alpha 0, beta 1). */
    if (!bad) bad = call_gemm(&s, 0, s.max_n, s.max_k, ALPHA, BETA, batch, 0, "max_m = 0");
    if (!bad) bad = verify(&s, ZERO, ONE, NULL, "max_m = 0");
    if (!bad) bad = call_gemm(&s, s.max_m, 0, s.max_k, ALPHA, BETA, batch, 0, "max_n = 0");
    if (!bad) bad = verify(&s, ZERO, ONE, NULL, "max_n = 0");
    if (!bad) bad = call_gemm(&s, s.max_m, s.max_n, s.max_k, ALPHA, BETA, 0, 0, "batch = 0");
    if (!bad) bad = verify(&s, ZERO, ONE, NULL, "batch = 0");
    if (!bad) bad = call_gemm(&s, 0, 0, 0, ALPHA, BETA, batch, 1, "max_m = max_n = 0, NULL arrays");
    if (!bad) bad = call_gemm(&s, s.max_m, s.max_n, s.max_k, ALPHA, BETA, 0, 1, "batch = 0, NULL arrays");
    if (!bad) bad = verify(&s, ZERO, ONE, NULL, "after the NULL-array calls");
    /* the data was there all along: a real call must now work */
    if (!bad) bad = call_gemm(&s, s.max_m, s.max_n, s.max_k, ALPHA, BETA, batch, 0, "real call");
    if (!bad) bad = verify(&s, ALPHA, BETA, NULL, "real call");
    pset_free(&s);
    return bad;
}

/* Tail / page-end layouts (see the header): every op pair (c, z: of N, T, C), three size
 * distributions with zeros,
 * ld = rows + 1..3, beta = 0 (C NaN, must not be read) and not; page_end: the last problem's
 * operands at page ends (made non-empty, so that they are read). Each run prints its line; the
 * case fails on the first bad run's reason. */
static int case_tail(const tcase *t, uint64_t seed)
{
    if (t->kind == K_PAGE_END && !gpu_test_page_end_ready()) return 0;
    const int64_t batch = gpu_test_batch(129); /* SHOAL_TEST_QUICK */
    int bad = 0;
    const int nops = t->prec == 'c' || t->prec == 'z' ? 3 : 2;
    for (int tail = 1; tail <= 3; ++tail)
        for (int tp = 0; tp < nops * nops; ++tp)
            for (int dist = 0; dist < 3; ++dist) {
                if (t->kind == K_PAGE_END && tail > 1) continue;
                const uint64_t rs = hash2(seed, (uint64_t)(tail * 16 + tp * 4 + dist), 7);
                pset s;
                int b = pset_alloc_sizes(&s, t->prec, (shoal_operation)(tp / nops), (shoal_operation)(tp % nops), batch);
                if (!b) {
                    s.tail = tail;
                    s.page_end = t->kind == K_PAGE_END;
                    s.pad = 1 + (tail + tp + dist) % 3;
                    if (dist == 0) sizes_uniform(&s, rs, 0, 17);         /* zeros among them */
                    else if (dist == 1) sizes_uniform(&s, rs, 1, 40);
                    else {                                                /* skewed */
                        sizes_uniform(&s, rs, 1, 9);
                        for (int64_t i = 13; i < batch; i += 50) s.m[i] = s.n[i] = s.k[i] = 65;
                    }
                    for (int64_t i = 0; i < batch && dist > 0; ++i) {
                        if (i % 7 == 3) s.m[i] = 0;
                        if (i % 11 == 5) s.n[i] = 0;
                        if (i % 13 == 6) s.k[i] = 0;
                    }
                    if (s.page_end && batch > 0) s.m[batch - 1] = 17 + dist, s.n[batch - 1] = 9, s.k[batch - 1] = 33;
                }
                const cplx beta = (tail + tp + dist) % 2 ? ZERO : BETA;
                if (!b) b = pset_build(&s, rs, 0, is_zero(beta));
                if (!b) print_kernel(&s);
                char what[112];
                snprintf(what, sizeof what, "%s+%d %c%c ld=rows+%d dist %d beta %g%+gi",
                         s.page_end ? "page_end tail" : "tail", tail, op_letter(s.ta), op_letter(s.tb), s.pad, dist,
                         eff(&s, beta).re, eff(&s, beta).im);
                if (!b) b = call_gemm(&s, s.max_m, s.max_n, s.max_k, ALPHA, beta, batch, 0, what);
                if (!b) b = verify(&s, ALPHA, beta, NULL, what);
                if (b) printf("  %s: FAILED\n", what);
                bad |= b;
                pset_free(&s);
            }
    return bad;
}

static void add_case(enum kind kind, char prec, shoal_operation ta, shoal_operation tb, int N, const char *suffix)
{
    tcase *t = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    t->kind = kind;
    t->prec = prec;
    t->ta = ta;
    t->tb = tb;
    t->N = N;
    gpu_test_case_name(t->name, sizeof t->name, "%c_gemm_vbatched_%s", prec, suffix);
}

static void build_cases(void)
{
    static const int sizes[] = {1, 17, 33, 100};
    static const char precs[4] = {'s', 'd', 'c', 'z'};
    char buf[48];
    for (int pi = 0; pi < 4; ++pi) {
        const char p = precs[pi];
        const int cx = p == 'c' || p == 'z';
        /* c, z: op C where s and d have T in one operand of each single-pair case */
        const shoal_operation X = cx ? SHOAL_OP_C : SHOAL_OP_T;
        const int nops = cx ? 3 : 2; /* N, T (, C) */
        for (int tp = 0; tp < nops * nops; ++tp) {
            const shoal_operation ta = (shoal_operation)(tp / nops), tb = (shoal_operation)(tp % nops);
            for (int si = 0; si < COUNT(sizes); ++si) {
                snprintf(buf, sizeof buf, "%c%c_uniform_%d", op_letter(ta), op_letter(tb), sizes[si]);
                add_case(K_UNIFORM, p, ta, tb, sizes[si], buf);
            }
        }
        add_case(K_SKEWED, p, SHOAL_OP_N, SHOAL_OP_N, 256, "nn_skewed");
        snprintf(buf, sizeof buf, "%cn_equal_64", op_letter(X));
        add_case(K_EQUAL, p, X, SHOAL_OP_N, 64, buf);
        snprintf(buf, sizeof buf, "%ct_batch1", op_letter(X));
        add_case(K_ONE, p, X, SHOAL_OP_T, 41, buf);
        snprintf(buf, sizeof buf, "n%c_beta0", op_letter(X));
        add_case(K_BETA0, p, SHOAL_OP_N, X, 40, buf);
        add_case(K_ALPHA0, p, SHOAL_OP_N, SHOAL_OP_N, 40, "nn_alpha0");
        add_case(K_LARGE, p, SHOAL_OP_N, SHOAL_OP_N, 8, "nn_large_batch");
        snprintf(buf, sizeof buf, "%c%c_imax", op_letter(X), op_letter(X));
        add_case(K_IMAX, p, X, X, 40, buf);
        add_case(K_ZERO, p, SHOAL_OP_N, SHOAL_OP_N, 17, "zero");
        add_case(K_SPECIAL, p, SHOAL_OP_N, SHOAL_OP_N, 100, "nn_special");
        add_case(K_SPECIAL, p, SHOAL_OP_T, SHOAL_OP_N, 100, "tn_special");
        if (cx) add_case(K_SPECIAL, p, SHOAL_OP_C, SHOAL_OP_C, 100, "cc_special");
        add_case(K_TAIL, p, SHOAL_OP_N, SHOAL_OP_N, 40, "tail");
    }
    /* last: a kernel fault there loses the CUDA context (and the cases after it) */
    for (int pi = 0; pi < 4; ++pi) add_case(K_PAGE_END, precs[pi], SHOAL_OP_N, SHOAL_OP_N, 40, "page_end");
}

static void run_case(const tcase *t)
{
    g_failed = 0;
    g_why[0] = 0;
    const uint64_t seed = hash_string(t->name);
    int bad = 0;
    switch (t->kind) {
    case K_UNIFORM: bad = run_simple(t, seed, t->N == 100 ? 200 : 500, ALPHA, BETA, 0, 0); break;
    case K_SKEWED: bad = run_simple(t, seed, 400, ALPHA, BETA, 0, 0); break;
    case K_EQUAL: bad = run_simple(t, seed, 300, ALPHA, BETA, 0, 0); break;
    case K_ONE: bad = run_simple(t, seed, 1, ALPHA, BETA, 0, 0); break;
    case K_BETA0: bad = run_simple(t, seed, 500, ALPHA, ZERO, 0, 1); break;
    case K_ALPHA0: bad = run_simple(t, seed, 500, ZERO, (cplx){2.0, -1.0}, 1, 0); break;
    case K_LARGE: bad = case_large(t, seed); break;
    case K_IMAX: bad = case_imax(t, seed); break;
    case K_ZERO: bad = case_zero(t, seed); break;
    case K_SPECIAL: bad = case_special(t, seed); break;
    case K_TAIL:
    case K_PAGE_END: bad = case_tail(t, seed); break;
    }
    if (bad || g_failed) printf("  %s\n", g_why[0] ? g_why : "(no reason recorded)");
    gpu_test_record(!(bad || g_failed));
}

static const char *case_name(int i) { return g_cases[i].name; }
static void run_index(int i) { run_case(&g_cases[i]); }

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_index, NULL, NULL};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
