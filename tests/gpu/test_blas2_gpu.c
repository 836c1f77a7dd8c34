/* GPU correctness of shoal's level-2 routines through the public API: shoal_{s,d,c,z}gemv_batched /
 * _strided_batched, shoal_{s,d,c,z}trsv_batched / _strided_batched (c, z: ops N, T, C, the
 * complex cases near the end), shoal_{s,d,c,z}gemv_vbatched (c, z: in the complex runner),
 * shoal_imax_device and shoal_blas2_kernel_name.
 *
 * Inputs come from the host references (tuner/host_blas2.c): uniform entries in [-1, 1) (rounded
 * to float for single precision), well-conditioned triangles for trsv whose other triangle is NaN
 * (and, with a unit diagonal, the diagonal too: a kernel that reads them shows). Every output is
 * judged by blas2_gemv_error / blas2_trsv_error (normalized errors in units of eps), held to
 * BLAS2_ERROR_LIMIT (gemv) and 2 * BLAS2_ERROR_LIMIT (trsv). Besides:
 *  - everything the call must not write comes back bit for bit: A (padding rows beyond m when
 *    lda > m, gaps between matrices, a guard after the last one, all NaN with a recognizable
 *    payload), x of gemv, and the elements of the output vector's buffer that are not vector
 *    elements of a problem with work (between strided increments, gaps, guards, the y of
 *    vbatched problems with m_i or n_i <= 0); with alpha == 0 and beta == 1, m == 0 or n == 0
 *    the whole y must come back unchanged (BLAS quick return);
 *  - data that must not be read is NaN: y with beta == 0, A and x with alpha == 0;
 *  - pointer-array runs place the problems in a shuffled order; misaligned runs start A one
 *    element into the allocation with lda = 520 (every column start misaligned for 16-byte
 *    vectors) and x, y at odd offsets;
 *  - every output element of every problem must be finite; the error is computed for every
 *    problem of a run, except in runs too large for that, where the first 300, the last 300 and
 *    300 problems spread in between are checked;
 *  - the *_tail cases (issue 29) end every operand at the last element of its allocation: gemv
 *    and trsv the whole batch's A, x, y; gemv_vbatched every problem's A, x, y (each in an
 *    allocation of its own, starting 1..3 elements past a 16-byte boundary) and the size, lda and
 *    increment arrays; the *_page_end cases (last in the table) end them at the end of a mapped
 *    page with the next page unmapped (gemv_vbatched: the last problem's), so that a read past
 *    them faults on the hardware (gpu_test_page_end_alloc);
 *  - vendor dispatch is off (shoal's own kernels) except in the *_vendor cases, which run each
 *    configuration with shoal_set_vendor_dispatch(h, 0) and (h, 1) and check who served each
 *    call (runtime/served.h) against shoal_blas2_kernel_name: vendor off, that very kernel; vendor
 *    on, the kernel or vendor it names, or, where the vendor declines, the kernel it names with
 *    vendor dispatch off.
 * A run prints one line: routine, precision, mode, op, sizes, lda, increments, batch, the worst
 * normalized error, ok/FAILED, the kernel that served it and notes.
 *
 * Usage: test_blas2_gpu              run every case
 *        test_blas2_gpu --list       print the case names (needs no GPU)
 *        test_blas2_gpu --case NAME  run one case
 * Environment: SHOAL_TEST_BIG_BATCH (default 100000) is the batch of the *_batch cases' large
 * runs.
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device ("SKIP: ..." on stdout).
 *
 * Build: gcc -std=c11 -O2 -fopenmp -Iinclude -Iruntime -Ituner -I/usr/local/cuda/include
 *        tests/gpu/test_blas2_gpu.c tuner/host_blas2.c -Llib -lshoal
 *        -L/usr/local/cuda/lib64 -lcudart -lm
 */
#define _POSIX_C_SOURCE 200809L

#include "host_blas2.h"
#include "gpu_test.h"
#include "shoal.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODE_STRIDED 1
#define MODE_ARRAY 2
#define GUARD 37               /* poisoned elements after the last problem of every buffer */
#define SAMPLE_EDGE 300        /* huge runs: problems checked at each end and spread between */
#define CHECK_ALL_WORK 30000000LL /* check every problem when the batch's work is below this */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Quiet NaNs with a payload naming what they fill: padding of A, x, y; data not to be read. */
enum poison { P_A, P_X, P_Y, P_DATA };
static const uint32_t POISON_S[4] = {0x7fc0aaaau, 0x7fc0bbbbu, 0x7fc0ccccu, 0x7fc0ddddu};
static const uint64_t POISON_D[4] = {0x7ff80000aaaaaaaaull, 0x7ff80000bbbbbbbbull, 0x7ff80000ccccccccull,
                                     0x7ff80000ddddddddull};

enum family { F_GEMV, F_TRSV, F_GEMV_V };
static const char *const FNAME[] = {"gemv", "trsv", "gemv_v"};

/* gemv_vbatched size distributions */
enum vdist {
    V_UNIFORM, /* m_i, n_i uniform in [1, N] */
    V_EQUAL,   /* every problem m x n */
    V_SKEWED   /* 1% at N x N, 99% with m_i, n_i uniform in [1, N / 10] */
};

typedef struct run_cfg {
    enum family fam;
    char prec;
    int trans;                 /* 0 N, 1 T */
    int upper, unit;           /* trsv */
    int m, n;                  /* gemv: A is m x n; trsv: n; vbatched: V_EQUAL's sizes */
    int64_t lda;               /* 0: max(1, rows) + pad */
    int pad;
    int64_t incx, incy;        /* vbatched: 0 = per problem, 1 or 2 */
    double alpha, beta;
    int a_nan;                 /* A and x data are NaN (alpha == 0: must not be read) */
    int y_nan;                 /* y data is NaN (beta == 0: must not be read) */
    int64_t batch;
    int modes;                 /* MODE_STRIDED | MODE_ARRAY (vbatched: array only) */
    int vendor;                /* shoal_set_vendor_dispatch */
    int check_served;          /* the *_vendor cases: who served must be who the dispatch names */
    int64_t offa, offx, offy;  /* elements before the first problem (misalignment) */
    int64_t gapa, gapx, gapy;  /* poisoned elements between problems */
    int align4;                /* round strides up to multiples of 4 elements */
    int share_a, share_x;      /* strided gemv/trsv: strideA = 0 / stridex = 0 */
    int tail;                  /* gemv/trsv: no guard, every buffer ends at its last problem's
                                  last element (a read past an operand leaves the allocation);
                                  gemv_vbatched (1..4): every problem's A, x, y in an allocation
                                  of its own, ending at its last element and starting
                                  1 + (tail - 1 + b) % 3 elements into it */
    int page_end;              /* gemv/trsv: as tail, each buffer ending at a page end with the
                                  next page unmapped, problems in order in pointer arrays;
                                  gemv_vbatched: as tail, the last problem's operands at page
                                  ends (gpu_test_page_end_alloc) */
    /* vbatched */
    enum vdist dist;
    int vN;                    /* N of the distribution */
    int zero_sizes;            /* some problems with m_i = 0 or n_i = 0 */
    int neg_sizes;             /* some problems with m_i < 0 or n_i < 0 (skipped as well) */
    int use_imax;              /* maxima from shoal_imax_device (checked against the host) */
    int exact_max;             /* maxima = the host maxima (else the distribution's bound) */
} run_cfg;

typedef struct run_data {
    size_t es;
    int *pm, *pn, *plda, *pincx, *pincy;  /* per problem */
    int64_t *slot;                        /* problem b lives in slot[b] */
    int64_t *aoff, *xoff, *yoff;          /* element offsets of problem b */
    int64_t lda, sta, stx, sty;           /* fixed sizes: strides of the strided mode */
    int64_t na, nx, ny;                   /* buffer lengths (elements), guards included */
    int64_t max_el;                       /* largest m_i * n_i (at least 1) */
    int max_m, max_n;                     /* host maxima of max(0, m_i), max(0, n_i) */
    void *hA, *hx, *hy, *oA, *ox, *oy;    /* host images: uploaded, read back */
    unsigned char *wmask;                 /* elements of the output buffer the call may write */
    void *dA, *dx, *dy;                   /* NULL when scattered */
    void *allocs[3];                      /* what gpu_test_free takes for dA, dx, dy */
    int scatter;                          /* gemv_vbatched tail / page_end: per-problem operands */
    int64_t nbatch;                       /* scatter: the batch the allocations were made for */
    void **pa, **px, **py;                /* scatter: problem b's A, x, y on the device */
    void **palloc;                        /* scatter: their 3 * batch allocations */
    void **dAp, **dxp, **dyp;
    int *dm, *dn, *dlda, *dincx, *dincy;
    void *iallocs[5];                     /* what gpu_test_free takes for dm .. dincy */
} run_data;

static shoal_handle g_h;
static uint64_t g_case_seed;
static int g_run_index;
static int64_t g_big_batch = 100000;

/* ------------------------------------------------------------------------------------------ */
/* Small utilities. */

static uint64_t hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t s = a ^ (b * 0xd1b54a32d192ed03ull);
    return splitmix(&s);
}

/* uniform in [lo, hi] */
static int rand_in(uint64_t *s, int lo, int hi) { return lo + (int)(splitmix(s) % (uint64_t)(hi - lo + 1)); }

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t abs64(int64_t a) { return a < 0 ? -a : a; }
static int64_t round_up4(int64_t x) { return (x + 3) / 4 * 4; }

/* elements a length-len vector with increment inc spans */
static int64_t span(int len, int64_t inc) { return len > 0 ? 1 + (int64_t)(len - 1) * abs64(inc) : 0; }

static double get_el(char prec, const void *x, int64_t i)
{
    return prec == 's' ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

static void set_el(char prec, void *x, int64_t i, double v)
{
    if (prec == 's')
        ((float *)x)[i] = (float)v;
    else
        ((double *)x)[i] = v;
}

static void set_poison(char prec, void *x, int64_t i, enum poison which)
{
    if (prec == 's')
        memcpy((char *)x + 4 * i, &POISON_S[which], 4);
    else
        memcpy((char *)x + 8 * i, &POISON_D[which], 8);
}

static void fill_poison(char prec, void *x, int64_t count, enum poison which)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < count; ++i) set_poison(prec, x, i, which);
}

static void check_status(shoal_status st, const char *what)
{
    if (st != SHOAL_STATUS_SUCCESS) {
        printf("  %s returned %s: FAILED\n", what, shoal_status_string(st));
        gpu_test_record(0);
    }
}

/* sizes of problem b (negative vbatched sizes count as 0), its x and y lengths */
static int mpos(const run_data *d, int64_t b) { return d->pm[b] > 0 ? d->pm[b] : 0; }
static int npos(const run_data *d, int64_t b) { return d->pn[b] > 0 ? d->pn[b] : 0; }
static int xlen(const run_cfg *c, const run_data *d, int64_t b)
{
    return c->fam == F_TRSV ? npos(d, b) : c->trans ? mpos(d, b) : npos(d, b);
}
static int ylen(const run_cfg *c, const run_data *d, int64_t b)
{
    return c->fam == F_TRSV ? 0 : c->trans ? npos(d, b) : mpos(d, b);
}
static int has_work(const run_data *d, int64_t b) { return d->pm[b] > 0 && d->pn[b] > 0; }

/* The whole y must come back unchanged (BLAS quick return). */
static int y_identical(const run_cfg *c)
{
    if (c->fam == F_TRSV) return 0;
    if (c->alpha == 0 && c->beta == 1) return 1;
    return c->fam == F_GEMV && (c->m == 0 || c->n == 0);
}

static const char *variant_of(const run_cfg *c)
{
    static const char *const tv[4] = {"ln", "lt", "un", "ut"};
    if (c->fam == F_TRSV) return tv[c->upper * 2 + c->trans];
    return c->trans ? "t" : "n";
}

/* ------------------------------------------------------------------------------------------ */
/* Inputs. */

static void gen_sizes(const run_cfg *c, run_data *d)
{
    uint64_t s = mix(mix(g_case_seed, (uint64_t)g_run_index), 0x5173ull);
    const int64_t batch = c->batch;
    for (int64_t b = 0; b < batch; ++b) {
        int m = c->fam == F_TRSV ? c->n : c->m, n = c->n;
        int64_t incx = c->incx, incy = c->fam == F_TRSV ? 1 : c->incy;
        if (c->fam == F_GEMV_V) {
            const int N = c->vN;
            switch (c->dist) {
            case V_UNIFORM:
                m = rand_in(&s, 1, N);
                n = rand_in(&s, 1, N);
                break;
            case V_EQUAL:
                break;
            case V_SKEWED: {
                const int lo = N / 10 > 1 ? N / 10 : 1;
                if (b % 100 == 37) {
                    m = n = N;
                } else {
                    m = rand_in(&s, 1, lo);
                    n = rand_in(&s, 1, lo);
                }
                break;
            }
            }
            if (c->zero_sizes) {
                if (b % 7 == 3) m = 0;
                if (b % 11 == 5) n = 0;
                if (b % 13 == 6) m = n = 0;
            }
            if (c->neg_sizes) {
                if (b % 17 == 8) m = -1;
                if (b % 19 == 9) n = -3;
            }
            if (!c->incx) incx = (splitmix(&s) & 1) ? 2 : 1;
            if (!c->incy) incy = (splitmix(&s) & 1) ? 2 : 1;
        }
        d->pm[b] = m;
        d->pn[b] = n;
        d->pincx[b] = (int)incx;
        d->pincy[b] = (int)incy;
        /* vbatched: lda_i = m_i + pad; fixed sizes: max(1, rows) + pad */
        const int rows = m > 0 ? m : 0;
        d->plda[b] = (int)(c->lda                ? c->lda
                           : c->fam == F_GEMV_V ? rows + c->pad
                                                : (rows > 1 ? rows : 1) + c->pad);
    }
    d->max_m = d->max_n = 0;
    d->max_el = 1;
    for (int64_t b = 0; b < batch; ++b) {
        if (d->pm[b] > d->max_m) d->max_m = d->pm[b];
        if (d->pn[b] > d->max_n) d->max_n = d->pn[b];
        d->max_el = max64(d->max_el, (int64_t)mpos(d, b) * npos(d, b));
        if (c->fam == F_TRSV) d->max_el = max64(d->max_el, (int64_t)npos(d, b) * npos(d, b));
    }
    d->max_el = max64(d->max_el, max64(d->max_m, d->max_n));
}

/* Elements of problem b's operand o (0 A, 1 x, 2 y) from its first element to its last: what a
 * scattered problem's allocation holds (0 for an empty one: its pointer is the allocation's end). */
static int64_t region_len(const run_cfg *c, const run_data *d, int64_t b, int o)
{
    const int m = mpos(d, b), n = npos(d, b);
    if (o == 0) return m > 0 && n > 0 ? (int64_t)d->plda[b] * (n - 1) + m : 0;
    if (o == 1) return span(xlen(c, d, b), d->pincx[b]);
    return span(ylen(c, d, b), d->pincy[b]);
}

static void setup(const run_cfg *c, run_data *d)
{
    memset(d, 0, sizeof *d);
    const int64_t batch = c->batch;
    const size_t nb = (size_t)(batch > 0 ? batch : 1);
    d->es = c->prec == 's' ? 4 : 8;
    d->pm = xmalloc(nb * sizeof(int));
    d->pn = xmalloc(nb * sizeof(int));
    d->plda = xmalloc(nb * sizeof(int));
    d->pincx = xmalloc(nb * sizeof(int));
    d->pincy = xmalloc(nb * sizeof(int));
    d->slot = xmalloc(nb * sizeof(int64_t));
    d->aoff = xmalloc(nb * sizeof(int64_t));
    d->xoff = xmalloc(nb * sizeof(int64_t));
    d->yoff = xmalloc(nb * sizeof(int64_t));
    gen_sizes(c, d);

    if (c->fam == F_GEMV_V) {
        /* regions packed in slot order; the layout (shuffled) is made in layout() */
        int64_t na = c->offa, nx = c->offx, ny = c->offy;
        for (int64_t b = 0; b < batch; ++b) {
            na += (int64_t)d->plda[b] * (npos(d, b) > 0 ? npos(d, b) : 1) + c->gapa;
            nx += max64(span(xlen(c, d, b), d->pincx[b]), 1) + c->gapx;
            ny += max64(span(ylen(c, d, b), d->pincy[b]), 1) + c->gapy;
        }
        d->na = na + GUARD;
        d->nx = nx + GUARD;
        d->ny = ny + GUARD;
    } else {
        const int cols = c->n;
        const int lx = c->fam == F_TRSV ? c->n : c->trans ? c->m : c->n;
        const int ly = c->fam == F_TRSV ? 0 : c->trans ? c->n : c->m;
        d->lda = d->plda[0];
        const int64_t rega = d->lda * cols, regx = span(lx, c->incx), regy = span(ly, c->incy);
        d->sta = rega + c->gapa;
        d->stx = regx + c->gapx;
        d->sty = regy + c->gapy;
        if (c->align4) {
            d->sta = round_up4(d->sta);
            d->stx = round_up4(d->stx);
            d->sty = round_up4(d->sty);
        }
        d->na = c->offa + (c->share_a ? rega + c->gapa : batch * d->sta) + GUARD;
        d->nx = c->offx + (c->share_x ? regx + c->gapx : batch * d->stx) + GUARD;
        d->ny = c->offy + batch * d->sty + GUARD;
        if ((c->tail || c->page_end) && batch > 0) { /* the last problem's last element ends each allocation */
            const int rows = c->fam == F_TRSV ? c->n : c->m;
            const int64_t lasta = rows > 0 && cols > 0 ? d->lda * (cols - 1) + rows : 0;
            d->na = c->offa + (c->share_a ? 0 : (batch - 1) * d->sta) + lasta;
            d->nx = c->offx + (c->share_x ? 0 : (batch - 1) * d->stx) + regx;
            d->ny = c->offy + (batch - 1) * d->sty + regy;
        }
    }

    d->hA = xmalloc((size_t)d->na * d->es);
    d->oA = xmalloc((size_t)d->na * d->es);
    d->hx = xmalloc((size_t)d->nx * d->es);
    d->ox = xmalloc((size_t)d->nx * d->es);
    d->hy = xmalloc((size_t)d->ny * d->es);
    d->oy = xmalloc((size_t)d->ny * d->es);
    d->wmask = xmalloc((size_t)(c->fam == F_TRSV ? d->nx : d->ny));
    d->scatter = c->fam == F_GEMV_V && (c->tail || c->page_end);
    d->nbatch = batch;
    if (d->scatter) {
        d->pa = xmalloc(nb * sizeof(void *));
        d->px = xmalloc(nb * sizeof(void *));
        d->py = xmalloc(nb * sizeof(void *));
        d->palloc = xmalloc(3 * nb * sizeof(void *));
        for (int64_t b = 0; b < batch; ++b) {
            const int shift = 1 + (int)((c->tail - 1 + b) % 3);
            const int last = c->page_end && b == batch - 1;
            void **dst[3] = {&d->pa[b], &d->px[b], &d->py[b]};
            for (int o = 0; o < 3; ++o) {
                const size_t len = (size_t)region_len(c, d, b, o);
                void **al = &d->palloc[3 * b + o];
                *dst[o] = last ? gpu_test_page_end_alloc(al, len, d->es) : gpu_test_tail_alloc(al, len, d->es, shift);
            }
        }
    } else if (c->page_end) {
        d->dA = gpu_test_page_end_alloc(&d->allocs[0], (size_t)d->na, d->es);
        d->dx = gpu_test_page_end_alloc(&d->allocs[1], (size_t)d->nx, d->es);
        d->dy = gpu_test_page_end_alloc(&d->allocs[2], (size_t)d->ny, d->es);
    } else {
        d->dA = gpu_test_tail_alloc(&d->allocs[0], (size_t)d->na, d->es, 0);
        d->dx = gpu_test_tail_alloc(&d->allocs[1], (size_t)d->nx, d->es, 0);
        d->dy = gpu_test_tail_alloc(&d->allocs[2], (size_t)d->ny, d->es, 0);
    }
    if (c->modes & MODE_ARRAY) {
        CUDA_CHECK(cudaMalloc((void **)&d->dAp, nb * sizeof(void *)));
        CUDA_CHECK(cudaMalloc((void **)&d->dxp, nb * sizeof(void *)));
        CUDA_CHECK(cudaMalloc((void **)&d->dyp, nb * sizeof(void *)));
    }
    if (c->fam == F_GEMV_V) { /* exactly batch ints each: a read past them leaves the allocation */
        int **dst[5] = {&d->dm, &d->dn, &d->dlda, &d->dincx, &d->dincy};
        for (int i = 0; i < 5; ++i) *dst[i] = gpu_test_tail_alloc(&d->iallocs[i], nb, sizeof(int), 0);
    }
}

static void release(run_data *d)
{
    void *host[] = {d->pm, d->pn, d->plda, d->pincx, d->pincy, d->slot, d->aoff, d->xoff, d->yoff,
                    d->hA, d->hx, d->hy, d->oA, d->ox, d->oy, d->wmask};
    for (int i = 0; i < COUNT(host); ++i) free(host[i]);
    for (int i = 0; i < 3; ++i) gpu_test_free(d->allocs[i]);
    for (int i = 0; i < 5; ++i) gpu_test_free(d->iallocs[i]);
    void *dev[] = {d->dAp, d->dxp, d->dyp};
    for (int i = 0; i < COUNT(dev); ++i) cudaFree(dev[i]);
    if (d->scatter) {
        for (int64_t i = 0; i < 3 * d->nbatch; ++i) gpu_test_free(d->palloc[i]);
        free(d->palloc);
        free(d->pa);
        free(d->px);
        free(d->py);
    }
}

/* Problem b's operand o (0 A, 1 x, 2 y) on the device and in the host images. */
static void *dev_operand(const run_data *d, int64_t b, int o)
{
    if (d->scatter) return o == 0 ? d->pa[b] : o == 1 ? d->px[b] : d->py[b];
    const int64_t off = o == 0 ? d->aoff[b] : o == 1 ? d->xoff[b] : d->yoff[b];
    return (char *)(o == 0 ? d->dA : o == 1 ? d->dx : d->dy) + (size_t)off * d->es;
}

/* Host images to the device (to_device) or the device to the read-back images: whole buffers, or,
 * scattered, each problem's regions; what lies outside every problem's regions is never on the
 * device and reads back as uploaded. */
static void copy_images(const run_cfg *c, run_data *d, int to_device)
{
    void *const up[3] = {d->hA, d->hx, d->hy}, *const back[3] = {d->oA, d->ox, d->oy};
    void *const *img = to_device ? up : back;
    const int64_t count[3] = {d->na, d->nx, d->ny};
    if (d->scatter && !to_device)
        for (int o = 0; o < 3; ++o) memcpy(back[o], up[o], (size_t)count[o] * d->es);
    for (int64_t b = 0; b < (d->scatter ? c->batch : 1); ++b)
        for (int o = 0; o < 3; ++o) {
            const int64_t off = !d->scatter ? 0 : o == 0 ? d->aoff[b] : o == 1 ? d->xoff[b] : d->yoff[b];
            const size_t bytes = (size_t)(d->scatter ? region_len(c, d, b, o) : count[o]) * d->es;
            char *host = (char *)img[o] + (size_t)off * d->es;
            void *dev = d->scatter ? dev_operand(d, b, o) : (o == 0 ? d->dA : o == 1 ? d->dx : d->dy);
            if (bytes)
                CUDA_CHECK(to_device ? cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice)
                                     : cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
        }
}

/* Writes problem b's inputs into the host images; t holds d->max_el doubles. */
static void fill_problem(const run_cfg *c, run_data *d, int64_t b, double *t)
{
    const char p = c->prec;
    const int single = p == 's';
    const uint64_t seed = mix(mix(g_case_seed, (uint64_t)g_run_index), (uint64_t)b);
    const int m = mpos(d, b), n = npos(d, b);
    const int64_t lda = d->plda[b];
    if (c->fam == F_TRSV) {
        if (!c->share_a || b == 0) {
            blas2_triangular(n, n, c->upper, mix(seed, 1), single, t);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const int64_t e = d->aoff[b] + i + j * lda;
                    if (i == j && c->unit)
                        set_poison(p, d->hA, e, P_DATA);
                    else
                        set_el(p, d->hA, e, t[i + (int64_t)j * n]);
                }
        }
        blas2_random(t, n, mix(seed, 2), single);
        for (int i = 0; i < n; ++i) set_el(p, d->hx, d->xoff[b] + blas2_vec_index(i, n, d->pincx[b]), t[i]);
        return;
    }
    if (!c->share_a || b == 0) {
        if (!c->a_nan) blas2_random(t, (int64_t)m * n, mix(seed, 1), single);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                const int64_t e = d->aoff[b] + i + j * lda;
                if (c->a_nan)
                    set_poison(p, d->hA, e, P_DATA);
                else
                    set_el(p, d->hA, e, t[i + (int64_t)j * m]);
            }
    }
    const int lx = xlen(c, d, b), ly = ylen(c, d, b);
    if (!c->share_x || b == 0) {
        if (!c->a_nan) blas2_random(t, lx, mix(seed, 2), single);
        for (int i = 0; i < lx; ++i) {
            const int64_t e = d->xoff[b] + blas2_vec_index(i, lx, d->pincx[b]);
            if (c->a_nan)
                set_poison(p, d->hx, e, P_DATA);
            else
                set_el(p, d->hx, e, t[i]);
        }
    }
    if (!c->y_nan) blas2_random(t, ly, mix(seed, 3), single);
    for (int i = 0; i < ly; ++i) {
        const int64_t e = d->yoff[b] + blas2_vec_index(i, ly, d->pincy[b]);
        if (c->y_nan)
            set_poison(p, d->hy, e, P_DATA);
        else
            set_el(p, d->hy, e, t[i]);
    }
}

/* Places the problems for a mode, fills the host images and uploads them. */
static void layout(const run_cfg *c, run_data *d, int mode)
{
    const int64_t batch = c->batch;
    for (int64_t b = 0; b < batch; ++b) d->slot[b] = b;
    if (mode == MODE_ARRAY && !c->page_end) { /* shuffled placement (page_end: the last problem last) */
        uint64_t s = mix(g_case_seed, 0xa77a7ull + (uint64_t)g_run_index);
        for (int64_t i = batch - 1; i > 0; --i) {
            const int64_t j = (int64_t)(splitmix(&s) % (uint64_t)(i + 1));
            const int64_t t = d->slot[i];
            d->slot[i] = d->slot[j];
            d->slot[j] = t;
        }
    }
    if (c->fam == F_GEMV_V) {
        int64_t *by_slot = xmalloc((size_t)(batch > 0 ? batch : 1) * sizeof(int64_t));
        for (int64_t b = 0; b < batch; ++b) by_slot[d->slot[b]] = b;
        int64_t oa = c->offa, ox = c->offx, oy = c->offy;
        for (int64_t s = 0; s < batch; ++s) {
            const int64_t b = by_slot[s];
            d->aoff[b] = oa;
            d->xoff[b] = ox;
            d->yoff[b] = oy;
            oa += (int64_t)d->plda[b] * (npos(d, b) > 0 ? npos(d, b) : 1) + c->gapa;
            ox += max64(span(xlen(c, d, b), d->pincx[b]), 1) + c->gapx;
            oy += max64(span(ylen(c, d, b), d->pincy[b]), 1) + c->gapy;
        }
        free(by_slot);
    } else {
        for (int64_t b = 0; b < batch; ++b) {
            d->aoff[b] = c->offa + (c->share_a ? 0 : d->slot[b] * d->sta);
            d->xoff[b] = c->offx + (c->share_x ? 0 : d->slot[b] * d->stx);
            d->yoff[b] = c->offy + d->slot[b] * d->sty;
        }
    }

    fill_poison(c->prec, d->hA, d->na, P_A);
    fill_poison(c->prec, d->hx, d->nx, P_X);
    fill_poison(c->prec, d->hy, d->ny, P_Y);
#pragma omp parallel
    {
        double *t = xmalloc((size_t)d->max_el * sizeof(double));
#pragma omp for schedule(dynamic, 64)
        for (int64_t b = 0; b < batch; ++b) fill_problem(c, d, b, t);
        free(t);
    }

    /* what the call may write: the output vectors of the problems with work */
    const int64_t nw = c->fam == F_TRSV ? d->nx : d->ny;
    memset(d->wmask, 0, (size_t)nw);
    for (int64_t b = 0; b < batch; ++b) {
        if (!has_work(d, b)) continue;
        if (c->fam == F_TRSV) {
            const int n = npos(d, b);
            for (int i = 0; i < n; ++i) d->wmask[d->xoff[b] + blas2_vec_index(i, n, d->pincx[b])] = 1;
        } else {
            const int ly = ylen(c, d, b);
            for (int i = 0; i < ly; ++i) d->wmask[d->yoff[b] + blas2_vec_index(i, ly, d->pincy[b])] = 1;
        }
    }

    copy_images(c, d, 1);
    if (mode == MODE_ARRAY) {
        const size_t nb = (size_t)(batch > 0 ? batch : 1);
        void **h = xmalloc(nb * sizeof(void *));
        for (int64_t b = 0; b < batch; ++b) h[b] = dev_operand(d, b, 0);
        CUDA_CHECK(cudaMemcpy(d->dAp, h, (size_t)batch * sizeof(void *), cudaMemcpyHostToDevice));
        for (int64_t b = 0; b < batch; ++b) h[b] = dev_operand(d, b, 1);
        CUDA_CHECK(cudaMemcpy(d->dxp, h, (size_t)batch * sizeof(void *), cudaMemcpyHostToDevice));
        for (int64_t b = 0; b < batch; ++b) h[b] = dev_operand(d, b, 2);
        CUDA_CHECK(cudaMemcpy(d->dyp, h, (size_t)batch * sizeof(void *), cudaMemcpyHostToDevice));
        free(h);
    }
    if (c->fam == F_GEMV_V) {
        CUDA_CHECK(cudaMemcpy(d->dm, d->pm, (size_t)batch * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d->dn, d->pn, (size_t)batch * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d->dlda, d->plda, (size_t)batch * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d->dincx, d->pincx, (size_t)batch * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d->dincy, d->pincy, (size_t)batch * sizeof(int), cudaMemcpyHostToDevice));
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Calling shoal. */

static shoal_status call_shoal(const run_cfg *c, const run_data *d, int mode, int max_m, int max_n)
{
    const shoal_operation op = c->trans ? SHOAL_OP_T : SHOAL_OP_N;
    const shoal_fill_mode uplo = c->upper ? SHOAL_FILL_UPPER : SHOAL_FILL_LOWER;
    const shoal_diag diag = c->unit ? SHOAL_DIAG_UNIT : SHOAL_DIAG_NON_UNIT;
    const int m = c->m, n = c->n, arr = mode == MODE_ARRAY;
    const int64_t lda = d->lda, incx = c->incx, incy = c->incy, batch = c->batch;
    const int64_t sta = c->share_a ? 0 : d->sta, stx = c->share_x ? 0 : d->stx, sty = d->sty;
    if (c->prec == 's') {
        const float alpha = (float)c->alpha, beta = (float)c->beta;
        const float *A = (const float *)d->dA + c->offa;
        const float *x = (const float *)d->dx + c->offx;
        float *xw = (float *)d->dx + c->offx, *y = (float *)d->dy + c->offy;
        const float *const *Ap = (const float *const *)d->dAp, *const *xp = (const float *const *)d->dxp;
        float *const *xwp = (float *const *)d->dxp, *const *yp = (float *const *)d->dyp;
        switch (c->fam) {
        case F_GEMV:
            return arr ? shoal_sgemv_batched(g_h, op, m, n, alpha, Ap, lda, xp, incx, beta, yp, incy, batch)
                       : shoal_sgemv_strided_batched(g_h, op, m, n, alpha, A, lda, sta, x, incx, stx, beta, y, incy,
                                                     sty, batch);
        case F_TRSV:
            return arr ? shoal_strsv_batched(g_h, uplo, op, diag, n, Ap, lda, xwp, incx, batch)
                       : shoal_strsv_strided_batched(g_h, uplo, op, diag, n, A, lda, sta, xw, incx, stx, batch);
        case F_GEMV_V:
            return shoal_sgemv_vbatched(g_h, op, d->dm, d->dn, max_m, max_n, alpha, Ap, d->dlda, xp, d->dincx, beta,
                                        yp, d->dincy, batch);
        }
    } else {
        const double alpha = c->alpha, beta = c->beta;
        const double *A = (const double *)d->dA + c->offa;
        const double *x = (const double *)d->dx + c->offx;
        double *xw = (double *)d->dx + c->offx, *y = (double *)d->dy + c->offy;
        const double *const *Ap = (const double *const *)d->dAp, *const *xp = (const double *const *)d->dxp;
        double *const *xwp = (double *const *)d->dxp, *const *yp = (double *const *)d->dyp;
        switch (c->fam) {
        case F_GEMV:
            return arr ? shoal_dgemv_batched(g_h, op, m, n, alpha, Ap, lda, xp, incx, beta, yp, incy, batch)
                       : shoal_dgemv_strided_batched(g_h, op, m, n, alpha, A, lda, sta, x, incx, stx, beta, y, incy,
                                                     sty, batch);
        case F_TRSV:
            return arr ? shoal_dtrsv_batched(g_h, uplo, op, diag, n, Ap, lda, xwp, incx, batch)
                       : shoal_dtrsv_strided_batched(g_h, uplo, op, diag, n, A, lda, sta, xw, incx, stx, batch);
        case F_GEMV_V:
            return shoal_dgemv_vbatched(g_h, op, d->dm, d->dn, max_m, max_n, alpha, Ap, d->dlda, xp, d->dincx, beta,
                                        yp, d->dincy, batch);
        }
    }
    return SHOAL_STATUS_INVALID_VALUE;
}

/* ------------------------------------------------------------------------------------------ */
/* Judging a run. */

/* Elements of buffers a and b (es bytes each) that differ, outside mask where mask != NULL;
 * the first in *first. */
static int64_t changed(const void *a, const void *b, size_t es, int64_t count, const unsigned char *mask,
                       int64_t *first)
{
    int64_t k = 0, f = -1;
#pragma omp parallel for schedule(static) reduction(+ : k)
    for (int64_t e = 0; e < count; ++e) {
        if (mask && mask[e]) continue;
        if (memcmp((const char *)a + (size_t)e * es, (const char *)b + (size_t)e * es, es)) {
            ++k;
#pragma omp critical
            if (f < 0 || e < f) f = e;
        }
    }
    *first = f;
    return k;
}

/* Non-finite elements of buf inside mask; the first in *first. */
static int64_t non_finite(char prec, const void *buf, int64_t count, const unsigned char *mask, int64_t *first)
{
    int64_t k = 0, f = -1;
#pragma omp parallel for schedule(static) reduction(+ : k)
    for (int64_t e = 0; e < count; ++e) {
        if (!mask[e] || isfinite(get_el(prec, buf, e))) continue;
        ++k;
#pragma omp critical
        if (f < 0 || e < f) f = e;
    }
    *first = f;
    return k;
}

/* The problems whose error is computed: all, or a sample of a huge run. */
static int64_t pick_problems(const run_cfg *c, const run_data *d, int64_t *list)
{
    const int64_t batch = c->batch;
    int64_t work = 0;
    for (int64_t b = 0; b < batch && work <= CHECK_ALL_WORK; ++b)
        work += (int64_t)mpos(d, b) * npos(d, b) + mpos(d, b) + npos(d, b);
    if (work <= CHECK_ALL_WORK || batch <= 3 * SAMPLE_EDGE) {
        for (int64_t b = 0; b < batch; ++b) list[b] = b;
        return batch;
    }
    int64_t k = 0;
    for (int64_t b = 0; b < SAMPLE_EDGE; ++b) list[k++] = b;
    for (int64_t i = 0; i < SAMPLE_EDGE; ++i) list[k++] = SAMPLE_EDGE + i * (batch - 3 * SAMPLE_EDGE) / SAMPLE_EDGE;
    for (int64_t b = batch - SAMPLE_EDGE; b < batch; ++b) list[k++] = b;
    return k;
}

/* Error of problem b (after download). */
static double problem_error(const run_cfg *c, const run_data *d, int64_t b, double eps, double *A, double *x0,
                            double *x1, double *y0, double *y1)
{
    const char p = c->prec;
    const int m = mpos(d, b), n = npos(d, b);
    const int64_t lda = d->plda[b];
    if (c->fam == F_TRSV) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) A[i + (int64_t)j * n] = get_el(p, d->hA, d->aoff[b] + i + j * lda);
        for (int i = 0; i < n; ++i) {
            const int64_t e = d->xoff[b] + blas2_vec_index(i, n, d->pincx[b]);
            x0[i] = get_el(p, d->hx, e);
            x1[i] = get_el(p, d->ox, e);
        }
        return blas2_trsv_error(c->upper, c->trans, c->unit, n, A, n, x0, x1, 1, eps);
    }
    const int lx = xlen(c, d, b), ly = ylen(c, d, b);
    /* A and x are NaN where alpha == 0 says they are not read: the reference takes zeros */
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            A[i + (int64_t)j * m] = c->a_nan ? 0.0 : get_el(p, d->hA, d->aoff[b] + i + j * lda);
    for (int i = 0; i < lx; ++i)
        x0[i] = c->a_nan ? 0.0 : get_el(p, d->hx, d->xoff[b] + blas2_vec_index(i, lx, d->pincx[b]));
    for (int i = 0; i < ly; ++i) {
        const int64_t e = d->yoff[b] + blas2_vec_index(i, ly, d->pincy[b]);
        y0[i] = get_el(p, d->hy, e);
        y1[i] = get_el(p, d->oy, e);
    }
    return blas2_gemv_error(c->trans, m, n, c->alpha, A, m > 1 ? m : 1, x0, 1, c->beta, y0, y1, 1, eps);
}

/* Describes which problem's output region (vector span, the rest of a size-0 problem's slot
 * included) holds element e of the output buffer, for failure notes. */
static void owner_note(const run_cfg *c, const run_data *d, int64_t e, char *buf, size_t len)
{
    const int out_x = c->fam == F_TRSV;
    for (int64_t b = 0; b < c->batch; ++b) {
        const int64_t base = out_x ? d->xoff[b] : d->yoff[b];
        const int n = out_x ? xlen(c, d, b) : ylen(c, d, b);
        const int64_t sp = max64(span(n, out_x ? d->pincx[b] : d->pincy[b]), 1);
        if (e >= base && e < base + sp) {
            snprintf(buf, len, " (problem %lld: m %d, n %d, inc %d, element %lld of its span)", (long long)b,
                     d->pm[b], d->pn[b], out_x ? d->pincx[b] : d->pincy[b], (long long)(e - base));
            return;
        }
    }
    snprintf(buf, len, " (outside every problem's span)");
}

/* Worst normalized error of the run (after download); layout violations give Inf and a note in
 * why. */
static double judge(const run_cfg *c, run_data *d, char *why, size_t why_len)
{
    const double eps = c->prec == 's' ? ldexp(1.0, -24) : ldexp(1.0, -53);
    const double limit = c->fam == F_TRSV ? 2 * BLAS2_ERROR_LIMIT : BLAS2_ERROR_LIMIT;
    const int64_t batch = c->batch;
    double worst = 0.0;
    int64_t worst_b = -1;
    size_t u = 0;
    why[0] = '\0';

    int64_t *list = xmalloc((size_t)(batch > 0 ? batch : 1) * sizeof(int64_t));
    const int64_t nlist = pick_problems(c, d, list);
    const int64_t vmax = max64(d->max_m, d->max_n) + 1;
#pragma omp parallel
    {
        double *A = xmalloc((size_t)d->max_el * sizeof(double));
        double *x0 = xmalloc((size_t)vmax * sizeof(double)), *x1 = xmalloc((size_t)vmax * sizeof(double));
        double *y0 = xmalloc((size_t)vmax * sizeof(double)), *y1 = xmalloc((size_t)vmax * sizeof(double));
        double my_worst = 0.0;
        int64_t my_b = -1;
#pragma omp for schedule(dynamic, 16)
        for (int64_t k = 0; k < nlist; ++k) {
            const int64_t b = list[k];
            if (!has_work(d, b) || y_identical(c)) continue;
            double e = problem_error(c, d, b, eps, A, x0, x1, y0, y1);
            if (isnan(e)) e = INFINITY;
            if (my_b < 0 || e > my_worst) {
                my_worst = e;
                my_b = b;
            }
        }
#pragma omp critical
        {
            if (my_b >= 0 && (worst_b < 0 || my_worst > worst || (my_worst == worst && my_b < worst_b))) {
                worst = my_worst;
                worst_b = my_b;
            }
        }
        free(A);
        free(x0);
        free(x1);
        free(y0);
        free(y1);
    }
    free(list);
    if (worst > limit && u < why_len)
        u += (size_t)snprintf(why + u, why_len - u, " worst at problem %lld (%d x %d, lda %d, incx %d, incy %d)",
                              (long long)worst_b, d->pm[worst_b], d->pn[worst_b], d->plda[worst_b],
                              d->pincx[worst_b], c->fam == F_TRSV ? 0 : d->pincy[worst_b]);

    /* what must come back bit for bit */
    int64_t first, k;
    k = changed(d->oA, d->hA, d->es, d->na, NULL, &first);
    if (k) {
        worst = INFINITY;
        if (u < why_len)
            u += (size_t)snprintf(why + u, why_len - u, " A: %lld element(s) changed, first at %lld", (long long)k,
                                  (long long)first);
    }
    k = changed(d->ox, d->hx, d->es, d->nx, c->fam == F_TRSV ? d->wmask : NULL, &first);
    if (k) {
        worst = INFINITY;
        if (u < why_len)
            u += (size_t)snprintf(why + u, why_len - u, " x: %lld element(s) %s changed, first at %lld", (long long)k,
                                  c->fam == F_TRSV ? "outside the vectors" : "of an input", (long long)first);
    }
    char owner[128] = "";
    if (k && c->fam == F_TRSV) {
        owner_note(c, d, first, owner, sizeof owner);
        if (u < why_len) u += (size_t)snprintf(why + u, why_len - u, "%s", owner);
    }
    const int ident = y_identical(c);
    k = changed(d->oy, d->hy, d->es, d->ny, c->fam == F_TRSV || ident ? NULL : d->wmask, &first);
    if (k) {
        worst = INFINITY;
        owner[0] = '\0';
        if (c->fam != F_TRSV) owner_note(c, d, first, owner, sizeof owner);
        if (u < why_len)
            u += (size_t)snprintf(why + u, why_len - u, " y: %lld element(s) %s changed, first at %lld%s", (long long)k,
                                  ident ? "of a quick return" : c->fam == F_TRSV ? "of an unused buffer"
                                                                                 : "outside the vectors",
                                  (long long)first, owner);
    }
    if (!ident) {
        k = c->fam == F_TRSV ? non_finite(c->prec, d->ox, d->nx, d->wmask, &first)
                             : non_finite(c->prec, d->oy, d->ny, d->wmask, &first);
        if (k) {
            worst = INFINITY;
            owner_note(c, d, first, owner, sizeof owner);
            if (u < why_len)
                u += (size_t)snprintf(why + u, why_len - u, " %lld output element(s) not finite, first at %lld%s",
                                      (long long)k, (long long)first, owner);
        }
    }
    return worst;
}

static void notes_of(const run_cfg *c, char *buf, size_t len)
{
    size_t u = 0;
    buf[0] = '\0';
#define NOTE(cond, ...)                                                                       \
    if ((cond) && u < len) u += (size_t)snprintf(buf + u, len - u, __VA_ARGS__);
    NOTE(c->fam == F_TRSV && c->unit, " diag=U")
    NOTE(c->fam != F_TRSV, " alpha=%g beta=%g", c->alpha, c->beta)
    NOTE(c->a_nan, " A,x=NaN")
    NOTE(c->y_nan, " y=NaN")
    NOTE(c->offa || c->offx || c->offy, " off=%lld/%lld/%lld", (long long)c->offa, (long long)c->offx,
         (long long)c->offy)
    NOTE(c->gapa || c->gapx || c->gapy, " gap=%lld/%lld/%lld", (long long)c->gapa, (long long)c->gapx,
         (long long)c->gapy)
    NOTE(c->share_a, " strideA=0")
    NOTE(c->share_x, " stridex=0")
    NOTE(c->fam == F_GEMV_V, " dist=%s N=%d", c->dist == V_UNIFORM ? "uniform" : c->dist == V_EQUAL ? "equal" : "skewed",
         c->dist == V_EQUAL ? (c->m > c->n ? c->m : c->n) : c->vN)
    NOTE(c->zero_sizes, " +empty")
    NOTE(c->neg_sizes, " +negative")
    NOTE(c->use_imax, " max=imax_device")
    NOTE(c->vendor, " vendor=on")
    NOTE(c->tail && c->fam == F_GEMV_V, " tail(per problem)")
    NOTE(c->tail && c->fam != F_GEMV_V, " tail")
    NOTE(c->page_end, " page_end")
#undef NOTE
}

static void print_header(void)
{
    printf("# %-6s %-2s %-7s %-3s %5s %5s %5s %4s %4s %7s %10s %-6s %s\n", "rout", "p", "mode", "op", "m", "n", "lda",
           "incx", "incy", "batch", "error", "status", "kernel / notes");
}

static void run(const run_cfg *wanted)
{
    if (!gpu_test_run_taken()) return; /* SHOAL_TEST_RUN_SHARD: another process does this run */
    run_cfg q = *wanted;
    q.batch = gpu_test_batch(q.batch); /* SHOAL_TEST_QUICK */
    const run_cfg *c = &q;
    run_data d;
    setup(c, &d);
    const int modes = c->fam == F_GEMV_V ? MODE_ARRAY : c->modes;
    for (int mode = MODE_STRIDED; mode <= MODE_ARRAY; ++mode) {
        if (!(modes & mode)) continue;
        if (mode == MODE_ARRAY && (c->share_a || c->share_x)) continue;
        layout(c, &d, mode);
        if (shoal_set_vendor_dispatch(g_h, c->vendor) != SHOAL_STATUS_SUCCESS) {
            printf("  shoal_set_vendor_dispatch failed\n");
            gpu_test_record(0);
        }
        char why[512] = "";
        size_t u = 0;
        int extra_fail = 0;
        /* maxima of a variable-size call */
        int max_m = 0, max_n = 0;
        if (c->fam == F_GEMV_V) {
            if (c->use_imax) {
                CUDA_CHECK(cudaDeviceSynchronize());
                const shoal_status s1 = shoal_imax_device(g_h, d.dm, c->batch, &max_m);
                const shoal_status s2 = shoal_imax_device(g_h, d.dn, c->batch, &max_n);
                if (s1 != SHOAL_STATUS_SUCCESS || s2 != SHOAL_STATUS_SUCCESS || max_m != d.max_m || max_n != d.max_n) {
                    extra_fail = 1;
                    u += (size_t)snprintf(why + u, sizeof why - u,
                                          " imax_device: %s/%s, %d x %d, host maxima %d x %d", shoal_status_string(s1),
                                          shoal_status_string(s2), max_m, max_n, d.max_m, d.max_n);
                    max_m = d.max_m;
                    max_n = d.max_n;
                }
            } else if (c->exact_max || c->dist == V_EQUAL) {
                max_m = d.max_m;
                max_n = d.max_n;
            } else { /* the distribution's bound, which need not be reached */
                max_m = max_n = c->vN;
            }
        }
        const char *kernel = NULL, *kernel_off = NULL;
        const char *rname = c->fam == F_GEMV ? "gemv" : c->fam == F_TRSV ? "trsv" : "gemv_vbatched";
        const int km = c->fam == F_GEMV_V ? max_m : c->fam == F_TRSV ? c->n : c->m;
        const int kn = c->fam == F_GEMV_V ? max_n : c->n;
        if (km < 1 || kn < 1 ||
            shoal_blas2_kernel_name(g_h, rname, c->prec, mode == MODE_ARRAY, variant_of(c), km, kn, &kernel) !=
                SHOAL_STATUS_SUCCESS)
            kernel = NULL;
        /* where the dispatch names the vendor, the vendor may decline (TRSV with incx != 1): then
         * the kernel named with vendor dispatch off serves */
        if (c->check_served && c->vendor && kernel) {
            shoal_set_vendor_dispatch(g_h, 0);
            if (shoal_blas2_kernel_name(g_h, rname, c->prec, mode == MODE_ARRAY, variant_of(c), km, kn, &kernel_off) !=
                SHOAL_STATUS_SUCCESS)
                kernel_off = NULL;
            shoal_set_vendor_dispatch(g_h, 1);
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        gpu_test_served_reset(g_h);
        const shoal_status st = call_shoal(c, &d, mode, max_m, max_n);
        const char *served = NULL;
        const int served_ok =
            !c->check_served || gpu_test_check_served(g_h, kernel, kernel_off, &served, why, sizeof why);
        if (served) kernel = served;
        u = strlen(why);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaGetLastError());
        double err = INFINITY;
        if (st != SHOAL_STATUS_SUCCESS) {
            u += (size_t)snprintf(why + u, sizeof why - u, " returned %s", shoal_status_string(st));
        } else {
            copy_images(c, &d, 0);
            err = judge(c, &d, why + u, sizeof why - u);
        }
        const double limit = c->fam == F_TRSV ? 2 * BLAS2_ERROR_LIMIT : BLAS2_ERROR_LIMIT;
        const int ok = st == SHOAL_STATUS_SUCCESS && err <= limit && !extra_fail && served_ok;
        char notes[256], op[4], lda_s[24], incx_s[24], incy_s[24];
        notes_of(c, notes, sizeof notes);
        snprintf(op, sizeof op, "%s", c->fam == F_TRSV ? variant_of(c) : c->trans ? "T" : "N");
        if (c->fam == F_GEMV_V) {
            snprintf(lda_s, sizeof lda_s, "m+%d", c->pad);
            snprintf(incx_s, sizeof incx_s, c->incx ? "%lld" : "1|2", (long long)c->incx);
            snprintf(incy_s, sizeof incy_s, c->incy ? "%lld" : "1|2", (long long)c->incy);
        } else {
            snprintf(lda_s, sizeof lda_s, "%lld", (long long)d.lda);
            snprintf(incx_s, sizeof incx_s, "%lld", (long long)c->incx);
            snprintf(incy_s, sizeof incy_s, "%s", "-");
            if (c->fam == F_GEMV) snprintf(incy_s, sizeof incy_s, "%lld", (long long)c->incy);
        }
        printf("  %-6s %-2c %-7s %-3s %5d %5d %5s %4s %4s %7lld %10.3e %-6s %s%s%s\n", FNAME[c->fam], c->prec,
               mode == MODE_STRIDED ? "strided" : "array", op, km, kn, lda_s, incx_s, incy_s, (long long)c->batch, err,
               ok ? "ok" : "FAILED", kernel ? kernel : "?", notes, why);
        fflush(stdout);
        gpu_test_record(ok);
    }
    shoal_set_vendor_dispatch(g_h, 0);
    release(&d);
    ++g_run_index;
}

/* ------------------------------------------------------------------------------------------ */
/* Case helpers. */

static int64_t gemv_batch_for(int m, int n)
{
    const int64_t work = (int64_t)m * n;
    return work <= 1100 ? 400 : work <= 20000 ? 150 : work <= 70000 ? 40 : 16;
}

static int64_t trsv_batch_for(int n) { return n <= 33 ? 300 : n <= 100 ? 100 : n <= 257 ? 30 : n <= 600 ? 12 : 5; }

static run_cfg gemv_cfg(char p, int trans, int m, int n, int64_t batch)
{
    run_cfg c;
    memset(&c, 0, sizeof c);
    c.fam = F_GEMV;
    c.prec = p;
    c.trans = trans;
    c.m = m;
    c.n = n;
    c.incx = c.incy = 1;
    c.alpha = 1.25;
    c.beta = -0.5;
    c.batch = batch;
    c.modes = MODE_STRIDED | MODE_ARRAY;
    return c;
}

static run_cfg trsv_cfg(char p, int upper, int trans, int unit, int n, int64_t batch)
{
    run_cfg c;
    memset(&c, 0, sizeof c);
    c.fam = F_TRSV;
    c.prec = p;
    c.upper = upper;
    c.trans = trans;
    c.unit = unit;
    c.m = c.n = n;
    c.incx = c.incy = 1;
    c.batch = batch;
    c.modes = MODE_STRIDED | MODE_ARRAY;
    return c;
}

static run_cfg vgemv_cfg(char p, int trans, enum vdist dist, int N, int64_t batch)
{
    run_cfg c;
    memset(&c, 0, sizeof c);
    c.fam = F_GEMV_V;
    c.prec = p;
    c.trans = trans;
    c.dist = dist;
    c.vN = N;
    c.m = c.n = N;
    c.pad = 3; /* lda_i = m_i + 3, NaN padding */
    c.incx = c.incy = 0; /* per problem: 1 or 2 */
    c.alpha = 1.25;
    c.beta = -0.5;
    c.batch = batch;
    c.modes = MODE_ARRAY;
    c.gapx = c.gapy = 1;
    c.gapa = 2;
    return c;
}

static const int GEMV_SIZES[][2] = {{1, 1},   {2, 2},    {3, 3},   {4, 4},     {17, 17},  {31, 31},  {32, 32},
                                    {33, 33}, {64, 64},  {100, 100}, {511, 511}, {512, 512}, {3, 100}, {100, 3},
                                    {8, 512}, {512, 8},  {1, 7},   {7, 1},     {5, 9},    {9, 5},    {1, 512},
                                    {512, 1}, {200, 300}, {300, 200}};

/* n <= 32 around every team width (2, 4, 8, 16, 32 lanes): the tuned sizes, sizes between them
 * (served by a neighbour's kernel), 33 and beyond (a block per problem) */
static const int TRSV_SIZES[] = {1,  2,  3,  4,  5,  7,   8,   9,   15,  16,  17,  20,
                                 24, 31, 32, 33, 64, 100, 257, 512, 600, 1024};

/* ------------------------------------------------------------------------------------------ */
/* gemv cases. */

/* The sizes of the brief and more, lda = m, unit increments, both modes. */
static void case_gemv_sizes(char p, int trans)
{
    for (int i = 0; i < COUNT(GEMV_SIZES); ++i) {
        const int m = GEMV_SIZES[i][0], n = GEMV_SIZES[i][1];
        run_cfg c = gemv_cfg(p, trans, m, n, gemv_batch_for(m, n));
        run(&c);
    }
}

/* lda > m with NaN padding, gaps between the problems and vectors; shared A and x (stride 0). */
static void case_gemv_ld(char p)
{
    static const int sizes[][2] = {{1, 1}, {3, 3}, {5, 9}, {17, 17}, {33, 31}, {100, 100}, {511, 511}, {8, 512}, {512, 8}};
    static const int pads[] = {1, 3, 8, 13};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(sizes); ++i) {
            run_cfg c = gemv_cfg(p, trans, sizes[i][0], sizes[i][1], gemv_batch_for(sizes[i][0], sizes[i][1]));
            c.pad = pads[(i + trans) % COUNT(pads)];
            c.gapa = 5;
            c.gapx = 3;
            c.gapy = 2;
            run(&c);
        }
    for (int trans = 0; trans < 2; ++trans) {
        run_cfg c = gemv_cfg(p, trans, 17, 23, 300);
        c.pad = 2;
        c.share_a = 1;
        c.modes = MODE_STRIDED;
        run(&c);
        c.share_x = 1;
        run(&c);
        c = gemv_cfg(p, trans, 100, 60, 100);
        c.share_x = 1;
        c.modes = MODE_STRIDED;
        run(&c);
    }
}

/* incx, incy in {1, 2, -1, -3}. */
static void case_gemv_inc(char p)
{
    static const int sizes[][2] = {{1, 1}, {3, 3}, {33, 17}, {100, 100}, {8, 512}, {512, 8}};
    static const int incs[] = {1, 2, -1, -3};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(sizes); ++i)
            for (int a = 0; a < COUNT(incs); ++a)
                for (int b = 0; b < COUNT(incs); ++b) {
                    run_cfg c = gemv_cfg(p, trans, sizes[i][0], sizes[i][1], 64);
                    c.incx = incs[a];
                    c.incy = incs[b];
                    if ((a + b) % 2) c.pad = 1;
                    run(&c);
                }
}

/* beta = 0 with NaN in y; alpha = 0 (A, x NaN); alpha = 0, beta = 1 and m or n = 0: quick
 * return, y unchanged bit for bit; batch = 0 and m = 0 with NULL pointers. */
static void case_gemv_alpha_beta(char p)
{
    static const int sizes[][2] = {{1, 1}, {4, 4}, {17, 17}, {33, 100}, {100, 33}, {512, 512}};
    static const struct {
        double alpha, beta;
        int a_nan, y_nan;
        int incx, incy;
    } sp[] = {
        {1.25, 0.0, 0, 1, 1, 1},  /* beta = 0: y not read */
        {-1.0, 0.0, 0, 1, 2, -3}, /* the same with increments */
        {0.0, 2.0, 1, 0, 1, 1},   /* alpha = 0: A, x not read; y = 2 y */
        {0.0, -0.5, 1, 0, -1, 2},
        {0.0, 1.0, 1, 0, 1, 1},   /* quick return */
        {0.0, 1.0, 1, 1, 2, -1},  /* quick return, y NaN: still untouched */
        {0.0, 0.0, 1, 1, 1, 1},   /* y = 0 without reading anything */
        {1.0, 1.0, 0, 0, 1, 1},
        {-0.75, 1.0, 0, 0, -1, 1},
        {1.0, 0.0, 0, 0, 1, 1},
    };
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(sizes); ++i)
            for (int s = 0; s < COUNT(sp); ++s) {
                const int m = sizes[i][0], n = sizes[i][1];
                run_cfg c = gemv_cfg(p, trans, m, n, m * n > 10000 ? 16 : 100);
                c.alpha = sp[s].alpha;
                c.beta = sp[s].beta;
                c.a_nan = sp[s].a_nan;
                c.y_nan = sp[s].y_nan;
                c.incx = sp[s].incx;
                c.incy = sp[s].incy;
                c.pad = s % 3;
                run(&c);
            }
    /* m == 0 or n == 0: nothing touched, whatever alpha and beta */
    static const int empty[][2] = {{0, 5}, {5, 0}, {0, 0}, {0, 1}, {1, 0}};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(empty); ++i) {
            run_cfg c = gemv_cfg(p, trans, empty[i][0], empty[i][1], 20);
            c.gapa = c.gapx = c.gapy = 1;
            c.incy = i % 2 ? -2 : 1;
            run(&c);
        }
    /* no work and NULL pointers: SUCCESS at once */
    for (int trans = 0; trans < 2; ++trans) {
        const shoal_operation op = trans ? SHOAL_OP_T : SHOAL_OP_N;
        if (p == 's') {
            check_status(shoal_sgemv_strided_batched(g_h, op, 4, 4, 1.f, NULL, 4, 16, NULL, 1, 4, 0.f, NULL, 1, 4, 0),
                         "sgemv_strided_batched batch 0, NULL pointers");
            check_status(shoal_sgemv_batched(g_h, op, 0, 4, 1.f, NULL, 1, NULL, 1, 0.f, NULL, 1, 3),
                         "sgemv_batched m 0, NULL pointers");
            check_status(shoal_sgemv_batched(g_h, op, 4, 0, 1.f, NULL, 4, NULL, 1, 0.f, NULL, 1, 3),
                         "sgemv_batched n 0, NULL pointers");
        } else {
            check_status(shoal_dgemv_strided_batched(g_h, op, 4, 4, 1.0, NULL, 4, 16, NULL, 1, 4, 0.0, NULL, 1, 4, 0),
                         "dgemv_strided_batched batch 0, NULL pointers");
            check_status(shoal_dgemv_batched(g_h, op, 0, 4, 1.0, NULL, 1, NULL, 1, 0.0, NULL, 1, 3),
                         "dgemv_batched m 0, NULL pointers");
            check_status(shoal_dgemv_batched(g_h, op, 4, 0, 1.0, NULL, 4, NULL, 1, 0.0, NULL, 1, 3),
                         "dgemv_batched n 0, NULL pointers");
        }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
}

/* Batch 1; large batches (SHOAL_TEST_BIG_BATCH, default 100000) for n <= 8. */
static void case_gemv_batch(char p)
{
    static const int one[][2] = {{1, 1}, {3, 3}, {17, 17}, {100, 100}, {512, 512}, {8, 512}, {512, 8}, {3, 100}};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(one); ++i) {
            run_cfg c = gemv_cfg(p, trans, one[i][0], one[i][1], 1);
            c.pad = i % 2;
            run(&c);
        }
    static const struct { int m, n, trans, modes; } big[] = {
        {1, 1, 0, MODE_STRIDED}, {2, 2, 1, MODE_ARRAY}, {3, 3, 1, MODE_STRIDED}, {4, 4, 0, MODE_ARRAY},
        {8, 8, 0, MODE_STRIDED | MODE_ARRAY}, {8, 8, 1, MODE_STRIDED | MODE_ARRAY},
        {8, 3, 0, MODE_STRIDED}, {3, 8, 1, MODE_ARRAY}, {7, 5, 0, MODE_ARRAY}, {5, 7, 1, MODE_STRIDED},
    };
    for (int i = 0; i < COUNT(big); ++i) {
        run_cfg c = gemv_cfg(p, big[i].trans, big[i].m, big[i].n, g_big_batch);
        c.modes = big[i].modes;
        if (i == 3) c.incy = -1;
        if (i == 6) c.incx = 2;
        run(&c);
    }
}

/* A = base + 1 with lda = 520: every column start misaligned for 16-byte vectors; x and y at
 * odd offsets, strides multiples of 4 (every problem misaligned the same way). */
static void case_gemv_misaligned(char p)
{
    static const int sizes[][2] = {{1, 1},     {3, 3},     {17, 17},   {31, 31}, {33, 33}, {100, 100},
                                   {511, 511}, {512, 512}, {3, 100},   {100, 3}, {8, 512}, {512, 8}};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(sizes); ++i) {
            const int m = sizes[i][0], n = sizes[i][1];
            run_cfg c = gemv_cfg(p, trans, m, n, gemv_batch_for(m, n));
            c.lda = 520;
            c.offa = 1;
            c.offx = 3;
            c.offy = 5;
            c.align4 = 1;
            run(&c);
            if (i % 3 == 1) { /* with increments and beta = 0 over NaN */
                c.incx = 2;
                c.incy = -1;
                c.beta = 0.0;
                c.y_nan = 1;
                run(&c);
            }
        }
    /* odd strides: the problems' alignments all differ */
    for (int trans = 0; trans < 2; ++trans) {
        run_cfg c = gemv_cfg(p, trans, 64, 64, 120);
        c.lda = 67;
        c.offa = 1;
        c.offx = 1;
        c.offy = 3;
        c.gapa = 1;
        c.gapx = 2;
        c.gapy = 1;
        run(&c);
    }
}

/* Issue 29: every operand (A, x, y) ends at the last element of its allocation and starts 1..3
 * elements into it; op N and T, strided and pointer arrays (the last slot holds a shuffled
 * problem), odd and 16-byte-multiple sizes. A read past an operand is outside the allocation:
 * memcheck (make sanitize) reports it, the checks here judge the results as usual. */
static void case_gemv_tail(char p)
{
    static const int sizes[][2] = {{1, 1}, {3, 5}, {17, 23}, {32, 32}, {33, 31}, {100, 3}, {3, 100}, {129, 64}, {512, 8}};
    for (int off = 1; off <= 3; ++off)
        for (int trans = 0; trans < 2; ++trans)
            for (int i = 0; i < COUNT(sizes); ++i) {
                run_cfg c = gemv_cfg(p, trans, sizes[i][0], sizes[i][1], 129);
                c.tail = 1;
                c.offa = c.offx = c.offy = off;
                if (i % 3 == 2) c.pad = off; /* lda > m: the last column has no padding after it */
                run(&c);
            }
}

static void case_trsv_tail(char p)
{
    static const int sizes[] = {1, 3, 5, 16, 17, 33, 100, 129};
    for (int off = 1; off <= 3; ++off)
        for (int v = 0; v < 4; ++v)
            for (int i = 0; i < COUNT(sizes); ++i) {
                run_cfg c = trsv_cfg(p, v >> 1, v & 1, (i + v) % 2, sizes[i], 129);
                c.tail = 1;
                c.offa = c.offx = off;
                if (i % 2) c.pad = off;
                run(&c);
            }
}

/* The same calls with vendor dispatch off and on. */
static void case_gemv_vendor(char p)
{
    static const int sizes[][2] = {{2, 2}, {8, 8}, {32, 32}, {100, 100}, {512, 512}, {3, 100}, {512, 8}};
    for (int vendor = 0; vendor < 2; ++vendor)
        for (int trans = 0; trans < 2; ++trans)
            for (int i = 0; i < COUNT(sizes); ++i) {
                const int m = sizes[i][0], n = sizes[i][1];
                run_cfg c = gemv_cfg(p, trans, m, n, gemv_batch_for(m, n));
                c.vendor = vendor;
                c.check_served = 1;
                run(&c);
                if (i % 2 == 0) {
                    c.pad = 3;
                    c.incx = 2;
                    c.incy = -1;
                    c.beta = 0.0;
                    c.y_nan = 1;
                    run(&c);
                }
            }
}

/* ------------------------------------------------------------------------------------------ */
/* trsv cases. */

/* All four uplo/trans combinations, lda = n, unit increment, both modes. */
static void case_trsv_sizes(char p, int unit)
{
    for (int v = 0; v < 4; ++v)
        for (int i = 0; i < COUNT(TRSV_SIZES); ++i) {
            const int n = TRSV_SIZES[i];
            run_cfg c = trsv_cfg(p, v >> 1, v & 1, unit, n, trsv_batch_for(n));
            run(&c);
        }
}

/* lda > n with NaN padding, gaps, incx in {1, 2, -1}; a shared A (strideA = 0); n = 0. */
static void case_trsv_ld_inc(char p)
{
    static const int sizes[] = {1, 3, 17, 32, 33, 100, 257, 600};
    static const int incs[] = {1, 2, -1};
    for (int v = 0; v < 4; ++v)
        for (int i = 0; i < COUNT(sizes); ++i)
            for (int k = 0; k < COUNT(incs); ++k) {
                const int n = sizes[i];
                run_cfg c = trsv_cfg(p, v >> 1, v & 1, (i + k + v) % 2, n, n > 100 ? 8 : 100);
                c.pad = 1 + 4 * ((i + k) % 2);
                c.incx = incs[k];
                c.gapa = 3;
                c.gapx = 2;
                run(&c);
            }
    for (int v = 0; v < 4; ++v) {
        run_cfg c = trsv_cfg(p, v >> 1, v & 1, v == 2, v < 2 ? 20 : 77, 200);
        c.share_a = 1;
        c.pad = 2;
        c.modes = MODE_STRIDED;
        run(&c);
    }
    /* n == 0: nothing touched */
    for (int v = 0; v < 4; ++v) {
        run_cfg c = trsv_cfg(p, v >> 1, v & 1, 0, 0, 10);
        c.gapa = c.gapx = 1;
        run(&c);
    }
    const shoal_status st = p == 's' ? shoal_strsv_strided_batched(g_h, SHOAL_FILL_LOWER, SHOAL_OP_N, SHOAL_DIAG_NON_UNIT,
                                                                   5, NULL, 5, 25, NULL, 1, 5, 0)
                                     : shoal_dtrsv_batched(g_h, SHOAL_FILL_UPPER, SHOAL_OP_T, SHOAL_DIAG_UNIT, 5, NULL,
                                                           5, NULL, 1, 0);
    check_status(st, "trsv batch 0, NULL pointers");
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
}

/* Every n in 1..33 (the team paths, each team width and its neighbours, and the first size past
 * them), all four uplo/trans, unit and non-unit, both modes, lda and incx rotating through
 * (n, 1), (n + 3, -1), (n + 1, 2), (n + 2, -3) with gaps between the problems; an odd batch
 * leaves the last block partly idle wherever a block holds several problems. */
static void case_trsv_small(char p)
{
    static const struct { int pad; int64_t incx; } lay[] = {{0, 1}, {3, -1}, {1, 2}, {2, -3}};
    for (int n = 1; n <= 33; ++n)
        for (int v = 0; v < 4; ++v)
            for (int unit = 0; unit < 2; ++unit) {
                const int l = (n + v + 2 * unit) % 4;
                run_cfg c = trsv_cfg(p, v >> 1, v & 1, unit, n, 257);
                c.pad = lay[l].pad;
                c.incx = lay[l].incx;
                c.gapa = l;
                c.gapx = l % 2;
                run(&c);
            }
}

/* Batch 1; large batches (SHOAL_TEST_BIG_BATCH) for n <= 32. */
static void case_trsv_batch(char p)
{
    static const int one[] = {1, 3, 32, 33, 512, 1024};
    for (int v = 0; v < 4; ++v)
        for (int i = 0; i < COUNT(one); ++i) {
            run_cfg c = trsv_cfg(p, v >> 1, v & 1, (i + v) % 2, one[i], 1);
            c.pad = i % 2;
            run(&c);
        }
    static const struct { int n, v, unit, modes, incx; } big[] = {
        {1, 0, 0, MODE_STRIDED, 1}, {4, 3, 0, MODE_ARRAY, 1},   {8, 1, 1, MODE_STRIDED, -1},
        {16, 2, 0, MODE_ARRAY, 2},  {17, 0, 1, MODE_ARRAY, 1},  {32, 1, 0, MODE_STRIDED, 1},
        {32, 2, 1, MODE_ARRAY, 1},
    };
    for (int i = 0; i < COUNT(big); ++i) {
        run_cfg c = trsv_cfg(p, big[i].v >> 1, big[i].v & 1, big[i].unit, big[i].n, g_big_batch);
        c.modes = big[i].modes;
        c.incx = big[i].incx;
        run(&c);
    }
}

/* A = base + 1 with lda = n + 9; x at an odd offset. */
static void case_trsv_misaligned(char p)
{
    for (int v = 0; v < 4; ++v)
        for (int i = 0; i < COUNT(TRSV_SIZES); ++i) {
            const int n = TRSV_SIZES[i];
            run_cfg c = trsv_cfg(p, v >> 1, v & 1, (i + v) % 2, n, n <= 33 ? 100 : n <= 100 ? 40 : n <= 600 ? 8 : 4);
            c.lda = n + 9;
            c.offa = 1;
            c.offx = 3;
            c.align4 = 1;
            if (i % 4 == 3) c.incx = -1;
            run(&c);
        }
}

static void case_trsv_vendor(char p)
{
    static const int sizes[] = {4, 32, 100, 512};
    for (int vendor = 0; vendor < 2; ++vendor)
        for (int v = 0; v < 4; ++v)
            for (int i = 0; i < COUNT(sizes); ++i) {
                const int n = sizes[i];
                run_cfg c = trsv_cfg(p, v >> 1, v & 1, (i + v) % 2, n, trsv_batch_for(n));
                c.vendor = vendor;
                c.check_served = 1;
                run(&c);
                if (i % 2) {
                    c.incx = -1;
                    c.pad = 3;
                    run(&c);
                }
            }
}

/* ------------------------------------------------------------------------------------------ */
/* gemv_vbatched cases. */

static int64_t vbatch_for(int N) { return N <= 8 ? 20000 : N <= 100 ? 2000 : 120; }

/* m_i, n_i uniform in [1, N], empty problems mixed in, increments 1 or 2 per problem; the
 * maxima passed are N (a bound the sizes need not reach); alpha / beta special values. */
static void case_vgemv_uniform(char p)
{
    static const int Ns[] = {8, 100, 512};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(Ns); ++i) {
            run_cfg c = vgemv_cfg(p, trans, V_UNIFORM, Ns[i], vbatch_for(Ns[i]));
            c.zero_sizes = 1;
            run(&c);
            c.zero_sizes = 0;
            c.exact_max = 1;
            c.incx = 1;
            c.incy = 1;
            run(&c);
        }
    static const struct { double alpha, beta; int a_nan, y_nan; } sp[] = {
        {1.25, 0.0, 0, 1}, {0.0, 2.0, 1, 0}, {0.0, 1.0, 1, 1}, {0.0, 0.0, 1, 1}, {1.0, 1.0, 0, 0}};
    for (int trans = 0; trans < 2; ++trans)
        for (int s = 0; s < COUNT(sp); ++s) {
            run_cfg c = vgemv_cfg(p, trans, V_UNIFORM, 100, 500);
            c.zero_sizes = 1;
            c.alpha = sp[s].alpha;
            c.beta = sp[s].beta;
            c.a_nan = sp[s].a_nan;
            c.y_nan = sp[s].y_nan;
            run(&c);
        }
}

/* Every problem the same size (the fixed-size case through the variable-size call). */
static void case_vgemv_equal(char p)
{
    static const int sizes[][2] = {{1, 1}, {8, 8}, {33, 17}, {17, 33}, {100, 100}, {512, 512}, {3, 100}, {512, 8}};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(sizes); ++i) {
            const int m = sizes[i][0], n = sizes[i][1];
            run_cfg c = vgemv_cfg(p, trans, V_EQUAL, m > n ? m : n, gemv_batch_for(m, n));
            c.m = m;
            c.n = n;
            c.incx = c.incy = i % 2 ? 0 : 1;
            run(&c);
        }
}

/* 1% of the problems N x N, 99% in [1, N / 10]. */
static void case_vgemv_skewed(char p)
{
    static const int Ns[] = {100, 512};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(Ns); ++i) {
            run_cfg c = vgemv_cfg(p, trans, V_SKEWED, Ns[i], Ns[i] == 512 ? 1000 : 3000);
            run(&c);
            c.zero_sizes = 1;
            c.exact_max = 1;
            run(&c);
        }
}

/* shoal_imax_device against the host maximum, alone and as the source of the maxima. */
static void case_vgemv_imax(char p)
{
    /* direct checks */
    static const int64_t counts[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1000, 100000, 3000001};
    int *h = xmalloc((size_t)3000001 * sizeof(int));
    int *dv = NULL;
    CUDA_CHECK(cudaMalloc((void **)&dv, (size_t)3000001 * sizeof(int)));
    for (int i = 0; i < COUNT(counts); ++i)
        for (int pattern = 0; pattern < 4; ++pattern) {
            const int64_t cnt = counts[i];
            uint64_t s = mix(g_case_seed, (uint64_t)(i * 4 + pattern));
            int want = 0;
            for (int64_t k = 0; k < cnt; ++k) {
                int v = rand_in(&s, -1000, 1000);
                if (pattern == 1) v = -1 - (int)(splitmix(&s) % 50); /* all negative: 0 */
                h[k] = v;
            }
            if (cnt > 0 && pattern == 2) h[cnt - 1] = 5000; /* the maximum last */
            if (cnt > 0 && pattern == 3) h[0] = 7000;       /* the maximum first */
            for (int64_t k = 0; k < cnt; ++k)
                if (h[k] > want) want = h[k];
            if (cnt) CUDA_CHECK(cudaMemcpy(dv, h, (size_t)cnt * sizeof(int), cudaMemcpyHostToDevice));
            int got = -12345;
            const shoal_status st = shoal_imax_device(g_h, cnt ? dv : NULL, cnt, &got);
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaGetLastError());
            const int ok = st == SHOAL_STATUS_SUCCESS && got == want;
            printf("  imax   -  count %lld pattern %d: got %d, want %d (%s): %s\n", (long long)cnt, pattern, got, want,
                   shoal_status_string(st), ok ? "ok" : "FAILED");
            gpu_test_record(ok);
        }
    cudaFree(dv);
    free(h);
    /* the maxima of variable-size calls from shoal_imax_device */
    static const int Ns[] = {8, 100, 512};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(Ns); ++i) {
            run_cfg c = vgemv_cfg(p, trans, i == 2 ? V_SKEWED : V_UNIFORM, Ns[i], i == 2 ? 1000 : vbatch_for(Ns[i]));
            c.use_imax = 1;
            c.zero_sizes = 1;
            c.neg_sizes = 1;
            run(&c);
        }
}

/* Issue 29: every problem's A, x and y in an allocation of its own that ends at the operand's
 * last element and starts 1..3 elements past a 16-byte boundary (gpu_test_tail_alloc; the shift
 * varies from problem to problem), the m, n, lda, incx, incy arrays ending at their allocations'
 * ends too: ragged sizes (uniform, skewed, equal odd sizes) with empty and negative problems
 * mixed in (their operands are 0 elements long: the pointer is the allocation's end), lda > m_i,
 * increments 1 or 2 per problem, op N and T, beta = 0 (y NaN) and not. A read past any operand
 * of any problem leaves its allocation: memcheck (make sanitize) reports it. */
static void case_vgemv_tail(char p)
{
    static const struct { enum vdist dist; int N; } ds[] = {{V_UNIFORM, 8}, {V_UNIFORM, 33}, {V_SKEWED, 100}, {V_EQUAL, 17}};
    for (int tail = 1; tail <= 3; ++tail)
        for (int trans = 0; trans < 2; ++trans)
            for (int i = 0; i < COUNT(ds); ++i) {
                run_cfg c = vgemv_cfg(p, trans, ds[i].dist, ds[i].N, 129);
                if (ds[i].dist == V_EQUAL) {
                    c.m = 17 + 2 * trans;
                    c.n = 33 - 16 * trans;
                }
                c.tail = tail;
                c.zero_sizes = ds[i].dist != V_EQUAL;
                c.neg_sizes = ds[i].dist != V_EQUAL && (i + tail) % 2;
                c.pad = 1 + (i + tail + trans) % 3; /* lda_i = m_i + pad > m_i */
                c.incx = c.incy = (i + tail) % 2 ? 0 : 1;
                c.exact_max = (i + trans) % 2;
                if ((i + tail + trans) % 2) {
                    c.beta = 0.0;
                    c.y_nan = 1;
                }
                run(&c);
            }
}

/* Issue 29, page ends: A, x and y each end at the end of a mapped page with the page after it
 * unmapped (gpu_test_page_end_alloc), strided and in-order pointer arrays, so that the last
 * problem's operands end the pages: a kernel that reads past them dies with an illegal address
 * even without compute-sanitizer (CUDA_CHECK fails the case and stops the process). */
static void case_gemv_page_end(char p)
{
    if (!gpu_test_page_end_ready()) return;
    static const int sizes[][2] = {{1, 1}, {3, 5}, {17, 23}, {33, 31}, {100, 3}, {3, 100}, {129, 64}, {512, 8}};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(sizes); ++i) {
            run_cfg c = gemv_cfg(p, trans, sizes[i][0], sizes[i][1], 129);
            c.page_end = 1;
            if (i % 3 == 2) c.pad = 1 + i % 3;
            if ((i + trans) % 2) {
                c.beta = 0.0;
                c.y_nan = 1;
            }
            run(&c);
        }
}

static void case_trsv_page_end(char p)
{
    if (!gpu_test_page_end_ready()) return;
    static const int sizes[] = {1, 3, 17, 33, 100, 129};
    for (int v = 0; v < 4; ++v)
        for (int i = 0; i < COUNT(sizes); ++i) {
            run_cfg c = trsv_cfg(p, v >> 1, v & 1, (i + v) % 2, sizes[i], 129);
            c.page_end = 1;
            if (i % 2) c.pad = 1 + v % 3;
            run(&c);
        }
}

/* The variable-size call with every problem's operands in allocations of their own (as
 * gemv_vbatched_tail) and the last problem's A, x, y each ending at a page end. */
static void case_vgemv_page_end(char p)
{
    if (!gpu_test_page_end_ready()) return;
    static const struct { enum vdist dist; int N; } ds[] = {{V_UNIFORM, 8}, {V_UNIFORM, 100}, {V_EQUAL, 33}};
    for (int trans = 0; trans < 2; ++trans)
        for (int i = 0; i < COUNT(ds); ++i) {
            run_cfg c = vgemv_cfg(p, trans, ds[i].dist, ds[i].N, 129);
            c.page_end = 1;
            c.tail = 1 + i;
            c.zero_sizes = ds[i].dist != V_EQUAL;
            c.pad = 1 + i;
            c.exact_max = trans;
            if ((i + trans) % 2) {
                c.beta = 0.0;
                c.y_nan = 1;
            }
            run(&c);
        }
}

/* ------------------------------------------------------------------------------------------ */
/* Complex precisions (c, z): shoal_{c,z}gemv_*, shoal_{c,z}trsv_* and shoal_{c,z}gemv_vbatched,
 * ops N, T and C (C runs the t kernels with A conjugated as it is read), complex alpha and beta.
 * A runner of its own: host elements are (re, im) pairs of doubles (tuner/host_blas2.h's complex
 * references), A padded past m with NaN (ld > m: the padding must not be read), y NaN under
 * beta == 0, and optionally one NaN in an imaginary part of one problem's x (nan_imag: that
 * problem's output must show it, every other problem must stay correct). Fixed sizes go through
 * both forms (strided and pointer arrays); vbatched runs draw each problem's m_i x n_i within the
 * maxima m x n (every fifth problem empty: its y must stay as it was), lda_i = m_i + pad, in
 * slots of the maximum size, pointer arrays only. */

typedef struct cx_cfg {
    enum family fam;           /* F_GEMV or F_TRSV */
    char prec;                 /* 'c' or 'z' */
    int trans;                 /* 0 N, 1 T, 2 C */
    int upper, unit;           /* trsv */
    int m, n;                  /* trsv: n */
    int pad;                   /* lda = rows + pad */
    int64_t incx, incy;
    double alpha[2], beta[2];
    int64_t batch;
    int nan_imag;              /* problem 1's x: NaN in the imaginary part of element 0 */
    int vbatched;              /* F_GEMV only: shoal_{c,z}gemv_vbatched, m x n the maxima */
} cx_cfg;

/* a vbatched run's per-problem sizes, leading dimensions and increments, on the device */
typedef struct cx_sizes {
    int *m, *n, *lda, *incx, *incy;
} cx_sizes;

static size_t cx_es(char prec) { return prec == 'c' ? 8 : 16; }

/* count complex elements between host doubles and device elements of prec */
static void cx_upload(void *dst, const double *src, int64_t count, char prec)
{
    if (prec == 'z') {
        CUDA_CHECK(cudaMemcpy(dst, src, (size_t)count * 16, cudaMemcpyHostToDevice));
        return;
    }
    float *t = xmalloc((size_t)(2 * count + 1) * sizeof(float));
    for (int64_t i = 0; i < 2 * count; ++i) t[i] = (float)src[i];
    CUDA_CHECK(cudaMemcpy(dst, t, (size_t)count * 8, cudaMemcpyHostToDevice));
    free(t);
}

static void cx_download(double *dst, const void *src, int64_t count, char prec)
{
    if (prec == 'z') {
        CUDA_CHECK(cudaMemcpy(dst, src, (size_t)count * 16, cudaMemcpyDeviceToHost));
        return;
    }
    float *t = xmalloc((size_t)(2 * count + 1) * sizeof(float));
    CUDA_CHECK(cudaMemcpy(t, src, (size_t)count * 8, cudaMemcpyDeviceToHost));
    for (int64_t i = 0; i < 2 * count; ++i) dst[i] = t[i];
    free(t);
}

static void **cx_pointers(void *base, int64_t stride_bytes, int64_t batch)
{
    void **h = xmalloc((size_t)batch * sizeof(void *)), **d = NULL;
    for (int64_t b = 0; b < batch; ++b) h[b] = (char *)base + b * stride_bytes;
    CUDA_CHECK(cudaMalloc((void **)&d, (size_t)batch * sizeof(void *)));
    CUDA_CHECK(cudaMemcpy(d, h, (size_t)batch * sizeof(void *), cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static shoal_status cx_call(const cx_cfg *c, int arr, int64_t lda, void *A, void *x, void *y, int64_t sta,
                            int64_t stx, int64_t sty, void **Ap, void **xp, void **yp, const cx_sizes *v)
{
    const shoal_operation op = c->trans == 0 ? SHOAL_OP_N : c->trans == 1 ? SHOAL_OP_T : SHOAL_OP_C;
    const shoal_fill_mode uplo = c->upper ? SHOAL_FILL_UPPER : SHOAL_FILL_LOWER;
    const shoal_diag diag = c->unit ? SHOAL_DIAG_UNIT : SHOAL_DIAG_NON_UNIT;
    const int64_t nb = c->batch;
    if (c->prec == 'c') {
        const shoal_complex_float al = {(float)c->alpha[0], (float)c->alpha[1]},
                                  be = {(float)c->beta[0], (float)c->beta[1]};
        if (c->vbatched)
            return shoal_cgemv_vbatched(g_h, op, v->m, v->n, c->m, c->n, al, (const shoal_complex_float *const *)Ap,
                                        v->lda, (const shoal_complex_float *const *)xp, v->incx, be,
                                        (shoal_complex_float *const *)yp, v->incy, nb);
        if (c->fam == F_GEMV)
            return arr ? shoal_cgemv_batched(g_h, op, c->m, c->n, al, (const shoal_complex_float *const *)Ap, lda,
                                             (const shoal_complex_float *const *)xp, c->incx, be,
                                             (shoal_complex_float *const *)yp, c->incy, nb)
                       : shoal_cgemv_strided_batched(g_h, op, c->m, c->n, al, A, lda, sta, x, c->incx, stx, be, y,
                                                     c->incy, sty, nb);
        return arr ? shoal_ctrsv_batched(g_h, uplo, op, diag, c->n, (const shoal_complex_float *const *)Ap, lda,
                                         (shoal_complex_float *const *)xp, c->incx, nb)
                   : shoal_ctrsv_strided_batched(g_h, uplo, op, diag, c->n, A, lda, sta, x, c->incx, stx, nb);
    }
    const shoal_complex_double al = {c->alpha[0], c->alpha[1]}, be = {c->beta[0], c->beta[1]};
    if (c->vbatched)
        return shoal_zgemv_vbatched(g_h, op, v->m, v->n, c->m, c->n, al, (const shoal_complex_double *const *)Ap,
                                    v->lda, (const shoal_complex_double *const *)xp, v->incx, be,
                                    (shoal_complex_double *const *)yp, v->incy, nb);
    if (c->fam == F_GEMV)
        return arr ? shoal_zgemv_batched(g_h, op, c->m, c->n, al, (const shoal_complex_double *const *)Ap, lda,
                                         (const shoal_complex_double *const *)xp, c->incx, be,
                                         (shoal_complex_double *const *)yp, c->incy, nb)
                   : shoal_zgemv_strided_batched(g_h, op, c->m, c->n, al, A, lda, sta, x, c->incx, stx, be, y, c->incy,
                                                 sty, nb);
    return arr ? shoal_ztrsv_batched(g_h, uplo, op, diag, c->n, (const shoal_complex_double *const *)Ap, lda,
                                     (shoal_complex_double *const *)xp, c->incx, nb)
               : shoal_ztrsv_strided_batched(g_h, uplo, op, diag, c->n, A, lda, sta, x, c->incx, stx, nb);
}

static int cx_has_nan(const double *v, int len, int64_t inc)
{
    for (int i = 0; i < len; ++i) {
        const double *e = v + 2 * blas2_vec_index(i, len, inc);
        if (isnan(e[0]) || isnan(e[1])) return 1;
    }
    return 0;
}

/* Elements of a vector slot of `per` complex elements that a length-len, increment-inc vector
 * does not cover must come out as they went in (NaN-aware); -1 when they do, else the first. */
static int64_t cx_first_touched(const double *in, const double *o, int64_t per, int len, int64_t inc)
{
    const int64_t step = abs64(inc);
    for (int64_t i = 0; i < per; ++i) {
        if (len > 0 && i % step == 0 && i / step < len) continue; /* an element of the vector */
        for (int h = 0; h < 2; ++h)
            if (!(isnan(in[2 * i + h]) && isnan(o[2 * i + h])) && in[2 * i + h] != o[2 * i + h]) return i;
    }
    return -1;
}

static int *cx_device_ints(const int *h, int64_t count)
{
    int *d = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d, (size_t)count * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, (size_t)count * sizeof(int), cudaMemcpyHostToDevice));
    return d;
}

static void cx_run(const cx_cfg *wanted)
{
    if (!gpu_test_run_taken()) return;
    cx_cfg q = *wanted;
    q.batch = gpu_test_batch(q.batch);
    const cx_cfg *c = &q;
    const int trsv = c->fam == F_TRSV, m = trsv ? c->n : c->m, n = c->n, vb = c->vbatched;
    const int lx = trsv ? n : c->trans ? m : n, ly = trsv ? 0 : c->trans ? n : m;
    const int64_t lda = (m > 1 ? m : 1) + c->pad, nb = c->batch;
    /* problem b's sizes: the maxima, or (vbatched) drawn in [1, max], every fifth problem empty */
    int *pm = xmalloc((size_t)nb * sizeof(int)), *pn = xmalloc((size_t)nb * sizeof(int));
    int *plda = xmalloc((size_t)nb * sizeof(int)), *pix = xmalloc((size_t)nb * sizeof(int)),
        *piy = xmalloc((size_t)nb * sizeof(int));
    for (int64_t b = 0; b < nb; ++b) {
        uint64_t r = mix(mix(g_case_seed, (uint64_t)g_run_index), 7919 + (uint64_t)b);
        pm[b] = vb ? (b % 5 == 4 ? 0 : rand_in(&r, 1, m)) : m;
        pn[b] = vb ? (b % 5 == 4 && b % 2 ? 0 : rand_in(&r, 1, n)) : n;
        plda[b] = (int)((pm[b] > 1 ? pm[b] : 1) + c->pad);
        pix[b] = (int)c->incx;
        piy[b] = (int)c->incy;
    }
    const int64_t sta = lda * n, stx = span(lx, c->incx), sty = span(ly, c->incy);
    const size_t es = cx_es(c->prec);
    const int single = c->prec == 'c';
    const double eps = single ? ldexp(1.0, -24) : ldexp(1.0, -53);
    const int beta_zero = c->beta[0] == 0 && c->beta[1] == 0;
    double *hA = xmalloc((size_t)(2 * nb * sta + 2) * sizeof(double));
    double *hx = xmalloc((size_t)(2 * nb * stx + 2) * sizeof(double));
    double *hy = xmalloc((size_t)(2 * nb * sty + 2) * sizeof(double));
    double *out = xmalloc((size_t)(2 * nb * (trsv ? stx : sty) + 2) * sizeof(double));
    for (int64_t b = 0; b < nb; ++b) {
        const uint64_t seed = mix(mix(g_case_seed, (uint64_t)g_run_index), (uint64_t)b);
        double *A = hA + 2 * b * sta;
        const int mb = pm[b], nbc = pn[b], lxb = trsv ? n : c->trans ? mb : nbc;
        for (int64_t i = 0; i < 2 * sta; ++i) A[i] = NAN; /* padding and (trsv) the other triangle */
        if (trsv) {
            blas2_ctriangular(n, lda, c->upper, mix(seed, 1), single, A);
        } else {
            double *col = xmalloc((size_t)(2 * m + 1) * sizeof(double));
            for (int j = 0; j < nbc; ++j) {
                blas2_random(col, 2 * mb, mix(seed, 100 + (uint64_t)j), single);
                memcpy(A + 2 * (int64_t)j * plda[b], col, (size_t)(2 * mb) * sizeof(double));
            }
            free(col);
        }
        double *x = hx + 2 * b * stx;
        for (int64_t i = 0; i < 2 * stx; ++i) x[i] = NAN; /* between increments: not read */
        double *v = xmalloc((size_t)(2 * lx + 1) * sizeof(double));
        blas2_random(v, 2 * lxb, mix(seed, 2), single);
        for (int i = 0; i < lxb; ++i) memcpy(x + 2 * blas2_vec_index(i, lxb, c->incx), v + 2 * i, 2 * sizeof(double));
        free(v);
        if (c->nan_imag && b == 1 && lxb > 0) x[2 * blas2_vec_index(0, lxb, c->incx) + 1] = NAN;
        if (!trsv) {
            double *y = hy + 2 * b * sty;
            blas2_random(y, 2 * sty, mix(seed, 3), single);
            if (beta_zero)
                for (int64_t i = 0; i < 2 * sty; ++i) y[i] = NAN; /* must not be read */
        }
    }
    void *dA = NULL, *dx = NULL, *dy = NULL;
    CUDA_CHECK(cudaMalloc(&dA, (size_t)(nb * sta) * es + 16));
    CUDA_CHECK(cudaMalloc(&dx, (size_t)(nb * stx) * es + 16));
    CUDA_CHECK(cudaMalloc(&dy, (size_t)(nb * sty) * es + 16));
    cx_upload(dA, hA, nb * sta, c->prec);
    void **Ap = cx_pointers(dA, sta * (int64_t)es, nb), **xp = cx_pointers(dx, stx * (int64_t)es, nb),
         **yp = cx_pointers(dy, sty * (int64_t)es, nb);
    cx_sizes dv = {NULL, NULL, NULL, NULL, NULL};
    if (vb) { /* exactly batch ints each */
        dv.m = cx_device_ints(pm, nb);
        dv.n = cx_device_ints(pn, nb);
        dv.lda = cx_device_ints(plda, nb);
        dv.incx = cx_device_ints(pix, nb);
        dv.incy = cx_device_ints(piy, nb);
    }
    for (int arr = vb; arr < 2; ++arr) { /* vbatched: pointer arrays only */
        cx_upload(dx, hx, nb * stx, c->prec);
        if (!trsv) cx_upload(dy, hy, nb * sty, c->prec);
        const char *kernel = NULL;
        const char *variant = trsv ? (c->upper ? (c->trans ? "ut" : "un") : (c->trans ? "lt" : "ln"))
                                   : (c->trans ? "t" : "n");
        const char *routine = trsv ? "trsv" : vb ? "gemv_vbatched" : "gemv";
        if (m < 1 || n < 1 ||
            shoal_blas2_kernel_name(g_h, routine, c->prec, arr, variant, m, n, &kernel) != SHOAL_STATUS_SUCCESS)
            kernel = NULL;
        const shoal_status st = cx_call(c, arr, lda, dA, dx, dy, sta, stx, sty, Ap, xp, yp, &dv);
        CUDA_CHECK(cudaDeviceSynchronize());
        int ok = st == SHOAL_STATUS_SUCCESS;
        double worst = 0;
        char why[160] = "";
        if (!ok) snprintf(why, sizeof why, " status %s", shoal_status_string(st));
        const int64_t per = trsv ? stx : sty;
        if (ok) cx_download(out, trsv ? dx : dy, nb * per, c->prec);
        for (int64_t b = 0; ok && b < nb; ++b) {
            const double *A = hA + 2 * b * sta, *x = hx + 2 * b * stx, *o = out + 2 * b * per;
            const int mb = pm[b], nbc = pn[b], empty = mb < 1 || nbc < 1;
            const int lxb = trsv ? n : c->trans ? mb : nbc, lyb = trsv ? 0 : c->trans ? nbc : mb;
            /* the output vector's elements: an empty problem writes none */
            const int len = empty ? 0 : trsv ? lxb : lyb;
            const int64_t inc = trsv ? c->incx : c->incy;
            const double *in = trsv ? x : hy + 2 * b * sty;
            const int nan_here = c->nan_imag && b == 1 && lxb > 0 && !empty;
            if (nan_here) { /* the NaN shows in its own problem */
                if (!cx_has_nan(o, len, inc) && !(c->alpha[0] == 0 && c->alpha[1] == 0)) {
                    ok = 0;
                    snprintf(why, sizeof why, " problem 1: the imaginary NaN did not reach the output");
                }
                continue;
            }
            if (!empty) {
                const double err =
                    trsv ? blas2_ctrsv_error(c->upper, c->trans, c->unit, n, A, lda, x, o, c->incx, eps)
                         : blas2_cgemv_error(c->trans, mb, nbc, c->alpha, A, plda[b], x, c->incx, c->beta,
                                             hy + 2 * b * sty, o, c->incy, eps);
                if (!(err <= worst)) worst = isnan(err) ? INFINITY : err;
                if (!(err <= (trsv ? 2 * BLAS2_ERROR_LIMIT : BLAS2_ERROR_LIMIT))) {
                    ok = 0;
                    snprintf(why, sizeof why, " problem %lld (%d x %d): error %.3g", (long long)b, mb, nbc, err);
                }
            }
            /* elements between the increments, past a smaller problem's vector, and all of an
             * empty problem's: untouched */
            const int64_t at = ok ? cx_first_touched(in, o, per, len, inc) : -1;
            if (at >= 0) {
                ok = 0;
                snprintf(why, sizeof why, " problem %lld (%d x %d): element %lld outside the vector written",
                         (long long)b, mb, nbc, (long long)at);
            }
        }
        const char ops[] = "NTC";
        printf("  %-6s %c  %-7s %c%s %5d %5d %5lld %4lld %4lld %7lld %10.3g %-6s %s%s\n", trsv ? "trsv" : "gemv",
               c->prec, vb ? "vbatch" : arr ? "array" : "strided", ops[c->trans], trsv ? (c->upper ? "u" : "l") : " ", m, n,
               (long long)lda, (long long)c->incx, (long long)c->incy, (long long)nb, worst, ok ? "ok" : "FAILED",
               kernel ? kernel : "-", why);
        gpu_test_record(ok);
    }
    CUDA_CHECK(cudaFree(Ap));
    CUDA_CHECK(cudaFree(xp));
    CUDA_CHECK(cudaFree(yp));
    int *const dints[] = {dv.m, dv.n, dv.lda, dv.incx, dv.incy};
    for (int i = 0; i < 5; ++i)
        if (dints[i]) CUDA_CHECK(cudaFree(dints[i]));
    free(pm);
    free(pn);
    free(plda);
    free(pix);
    free(piy);
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    free(hA);
    free(hx);
    free(hy);
    free(out);
    ++g_run_index;
}

static const double CX_ALPHA[2] = {0.5, -0.75}, CX_BETA[2] = {-0.25, 0.5};

/* every op, odd and round sizes through every gemv design's range, ld > m, increments */
static void case_cgemv_ops(char p)
{
    static const int sizes[][2] = {{1, 1}, {3, 5}, {7, 2}, {8, 8}, {17, 31}, {32, 32}, {33, 65}, {100, 37},
                                   {129, 257}, {512, 8}, {8, 512}};
    for (int t = 0; t < 3; ++t)
        for (int s = 0; s < COUNT(sizes); ++s) {
            cx_cfg c = {F_GEMV, p, t, 0, 0, sizes[s][0], sizes[s][1], s % 3, 1, 1,
                        {CX_ALPHA[0], CX_ALPHA[1]}, {CX_BETA[0], CX_BETA[1]}, 3 + s, 0, 0};
            if (s % 4 == 1) c.incx = -2;
            if (s % 4 == 2) c.incy = 3;
            cx_run(&c);
        }
}

/* complex alpha and beta: beta == 0 over a NaN y (not read), alpha == 0 (A and x not read, only
 * beta y), purely imaginary scalars */
static void case_cgemv_alpha_beta(char p)
{
    static const double ab[][4] = {{0.5, -0.75, 0, 0}, {0, 0, -0.25, 0.5}, {0, 1, 0, -1}, {1, 0, 1, 0}, {2, 0.5, 0, 0}};
    for (int t = 0; t < 3; ++t)
        for (int i = 0; i < COUNT(ab); ++i) {
            cx_cfg c = {F_GEMV, p, t, 0, 0, 13, 9, 2, 1, 1, {ab[i][0], ab[i][1]}, {ab[i][2], ab[i][3]}, 5, 0, 0};
            cx_run(&c);
        }
}

/* one NaN in an imaginary part of problem 1's x: its own output shows it, the others are right */
static void case_cgemv_nan_imag(char p)
{
    static const int sizes[][2] = {{4, 4}, {16, 24}, {100, 100}};
    for (int t = 0; t < 3; ++t)
        for (int s = 0; s < COUNT(sizes); ++s) {
            cx_cfg c = {F_GEMV, p, t, 0, 0, sizes[s][0], sizes[s][1], 1, 1, 1,
                        {CX_ALPHA[0], CX_ALPHA[1]}, {CX_BETA[0], CX_BETA[1]}, 4, 1, 0};
            cx_run(&c);
        }
}

static void case_cgemv_batch(char p)
{
    for (int t = 0; t < 3; ++t) {
        cx_cfg one = {F_GEMV, p, t, 0, 0, 37, 19, 0, 1, 1, {CX_ALPHA[0], CX_ALPHA[1]}, {CX_BETA[0], CX_BETA[1]}, 1, 0, 0};
        cx_run(&one);
        cx_cfg big = {F_GEMV, p, t, 0, 0, 5, 7, 0, 1, 1, {CX_ALPHA[0], CX_ALPHA[1]}, {0, 0}, g_big_batch, 0, 0};
        cx_run(&big);
    }
}

/* gemv_vbatched: every op, maxima through the stream design's range (tiles of one problem or
 * many), ld > m, negative and wide increments, complex and zero scalars (beta == 0 over a NaN
 * y), an imaginary NaN isolated to its problem, batch 1 and a large batch; every fifth problem
 * empty (its y untouched) */
static void case_cgemv_vbatched(char p)
{
    static const int maxima[][2] = {{1, 1}, {7, 5}, {33, 17}, {128, 64}, {40, 300}, {512, 8}};
    for (int t = 0; t < 3; ++t)
        for (int s = 0; s < COUNT(maxima); ++s) {
            cx_cfg c = {F_GEMV, p, t, 0, 0, maxima[s][0], maxima[s][1], s % 3, 1, 1,
                        {CX_ALPHA[0], CX_ALPHA[1]}, {CX_BETA[0], CX_BETA[1]}, 7 + s, 0, 1};
            if (s % 3 == 1) c.incx = -2;
            if (s % 3 == 2) c.incy = 3;
            if (s == 3) c.beta[0] = c.beta[1] = 0;
            if (s == 4) c.alpha[0] = c.alpha[1] = 0;
            cx_run(&c);
        }
    for (int t = 0; t < 3; ++t) {
        cx_cfg nan = {F_GEMV, p, t, 0, 0, 24, 16, 1, 1, 1, {CX_ALPHA[0], CX_ALPHA[1]}, {CX_BETA[0], CX_BETA[1]}, 6, 1, 1};
        cx_run(&nan);
        cx_cfg one = {F_GEMV, p, t, 0, 0, 37, 19, 0, 1, 1, {CX_ALPHA[0], CX_ALPHA[1]}, {CX_BETA[0], CX_BETA[1]}, 1, 0, 1};
        cx_run(&one);
        cx_cfg big = {F_GEMV, p, t, 0, 0, 9, 6, 0, 1, 1, {CX_ALPHA[0], CX_ALPHA[1]}, {0, 0}, g_big_batch, 0, 1};
        cx_run(&big);
    }
}

/* every uplo x op (N, T, C), unit and non-unit, sizes through the team, fixed-width, wide and
 * blocked paths, ld > n, increments */
static void case_ctrsv_ops(char p)
{
    static const int sizes[] = {1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 48, 64, 65, 100, 257};
    for (int up = 0; up < 2; ++up)
        for (int t = 0; t < 3; ++t)
            for (int s = 0; s < COUNT(sizes); ++s) {
                cx_cfg c = {F_TRSV, p, t, up, s % 5 == 4, sizes[s], sizes[s], s % 3, s % 4 == 1 ? -2 : 1, 1,
                            {1, 0}, {0, 0}, 3 + s % 4, 0, 0};
                cx_run(&c);
            }
}

static void case_ctrsv_nan_imag(char p)
{
    static const int sizes[] = {4, 32, 100};
    for (int up = 0; up < 2; ++up)
        for (int t = 0; t < 3; ++t)
            for (int s = 0; s < COUNT(sizes); ++s) {
                cx_cfg c = {F_TRSV, p, t, up, 0, sizes[s], sizes[s], 1, 1, 1, {1, 0}, {0, 0}, 4, 1, 0};
                cx_run(&c);
            }
}

static void case_ctrsv_batch(char p)
{
    for (int t = 0; t < 3; ++t) {
        cx_cfg one = {F_TRSV, p, t, 1, 0, 45, 45, 0, 1, 1, {1, 0}, {0, 0}, 1, 0, 0};
        cx_run(&one);
        cx_cfg big = {F_TRSV, p, t, 0, 0, 6, 6, 0, 1, 1, {1, 0}, {0, 0}, g_big_batch, 0, 0};
        cx_run(&big);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* shoal_blas2_kernel_name. */

static void case_kernel_name(void)
{
    static const struct { const char *routine, *variant; } q[] = {
        {"gemv", "n"}, {"gemv", "t"}, {"trsv", "ln"}, {"trsv", "lt"}, {"trsv", "un"}, {"trsv", "ut"},
        {"gemv_vbatched", "n"}, {"gemv_vbatched", "t"}};
    static const int sizes[][2] = {{1, 1}, {8, 8}, {32, 32}, {100, 100}, {512, 512}, {3, 100}, {512, 8}, {1024, 1024}};
    for (int vendor = 0; vendor < 2; ++vendor) {
        shoal_set_vendor_dispatch(g_h, vendor);
        for (int pi = 0; pi < 4; ++pi)
            for (int pa = 0; pa < 2; ++pa)
                for (int i = 0; i < COUNT(q); ++i)
                    for (int s = 0; s < COUNT(sizes); ++s) {
                        const int is_trsv = !strcmp(q[i].routine, "trsv");
                        const int m = sizes[s][0], n = is_trsv ? sizes[s][0] : sizes[s][1];
                        if (is_trsv && sizes[s][0] != sizes[s][1]) continue;
                        const char *name = NULL;
                        const char prec = "sdcz"[pi];
                        /* c and z: gemv and trsv only (gemv_vbatched refuses them) */
                        const int served = prec == 's' || prec == 'd' || !strcmp(q[i].routine, "gemv") || is_trsv;
                        const shoal_status st =
                            shoal_blas2_kernel_name(g_h, q[i].routine, prec, pa, q[i].variant, m, n, &name);
                        const int ok = served ? st == SHOAL_STATUS_SUCCESS && name && name[0]
                                              : st == SHOAL_STATUS_INVALID_VALUE;
                        if (!ok || (s == 0 && pa == 1))
                            printf("  kernel_name %s %s %c %s %dx%d vendor=%d: status %d \"%s\": %s\n", q[i].routine,
                                   q[i].variant, prec, pa ? "array" : "strided", m, n, vendor, (int)st,
                                   name ? name : "(null)", ok ? "ok" : "FAILED");
                        gpu_test_record(ok);
                    }
    }
    shoal_set_vendor_dispatch(g_h, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* The case table. */

enum case_kind {
    K_GEMV_SIZES_N, K_GEMV_SIZES_T, K_GEMV_LD, K_GEMV_INC, K_GEMV_ALPHA_BETA, K_GEMV_BATCH, K_GEMV_MISALIGNED,
    K_GEMV_VENDOR, K_TRSV_SIZES, K_TRSV_UNIT, K_TRSV_SMALL, K_TRSV_LD_INC, K_TRSV_BATCH, K_TRSV_MISALIGNED, K_TRSV_VENDOR,
    K_VGEMV_UNIFORM, K_VGEMV_EQUAL, K_VGEMV_SKEWED, K_VGEMV_IMAX, K_KERNEL_NAME, K_GEMV_TAIL, K_TRSV_TAIL,
    K_VGEMV_TAIL, K_GEMV_PAGE_END, K_TRSV_PAGE_END, K_VGEMV_PAGE_END, K_CGEMV_OPS, K_CGEMV_ALPHA_BETA,
    K_CGEMV_NAN_IMAG, K_CGEMV_BATCH, K_CTRSV_OPS, K_CTRSV_NAN_IMAG, K_CTRSV_BATCH, K_CGEMV_VBATCHED
};

typedef struct tcase {
    char name[48];
    enum case_kind kind;
    char prec;
} tcase;

static tcase g_cases[80];
static int g_ncases;

static void add_case(enum case_kind kind, char p, const char *name)
{
    tcase *t = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    t->kind = kind;
    t->prec = p;
    if (p)
        gpu_test_case_name(t->name, sizeof t->name, "%c_%s", p, name);
    else
        gpu_test_case_name(t->name, sizeof t->name, "%s", name);
}

static void build_cases(void)
{
    for (int pi = 0; pi < 2; ++pi) {
        const char p = pi ? 'd' : 's';
        add_case(K_GEMV_SIZES_N, p, "gemv_sizes_n");
        add_case(K_GEMV_SIZES_T, p, "gemv_sizes_t");
        add_case(K_GEMV_LD, p, "gemv_ld");
        add_case(K_GEMV_INC, p, "gemv_inc");
        add_case(K_GEMV_ALPHA_BETA, p, "gemv_alpha_beta");
        add_case(K_GEMV_BATCH, p, "gemv_batch");
        add_case(K_GEMV_MISALIGNED, p, "gemv_misaligned");
        add_case(K_GEMV_VENDOR, p, "gemv_vendor");
        add_case(K_GEMV_TAIL, p, "gemv_tail");
        add_case(K_TRSV_SIZES, p, "trsv_sizes");
        add_case(K_TRSV_UNIT, p, "trsv_sizes_unit");
        add_case(K_TRSV_SMALL, p, "trsv_small");
        add_case(K_TRSV_LD_INC, p, "trsv_ld_inc");
        add_case(K_TRSV_BATCH, p, "trsv_batch");
        add_case(K_TRSV_MISALIGNED, p, "trsv_misaligned");
        add_case(K_TRSV_VENDOR, p, "trsv_vendor");
        add_case(K_TRSV_TAIL, p, "trsv_tail");
        add_case(K_VGEMV_UNIFORM, p, "gemv_vbatched_uniform");
        add_case(K_VGEMV_EQUAL, p, "gemv_vbatched_equal");
        add_case(K_VGEMV_SKEWED, p, "gemv_vbatched_skewed");
        add_case(K_VGEMV_IMAX, p, "gemv_vbatched_imax");
        add_case(K_VGEMV_TAIL, p, "gemv_vbatched_tail");
    }
    for (int pi = 0; pi < 2; ++pi) { /* complex: gemv and trsv */
        const char p = pi ? 'z' : 'c';
        add_case(K_CGEMV_OPS, p, "gemv_ops");
        add_case(K_CGEMV_ALPHA_BETA, p, "gemv_alpha_beta");
        add_case(K_CGEMV_NAN_IMAG, p, "gemv_nan_imag");
        add_case(K_CGEMV_BATCH, p, "gemv_batch");
        add_case(K_CTRSV_OPS, p, "trsv_ops");
        add_case(K_CGEMV_VBATCHED, p, "gemv_vbatched_complex");
        add_case(K_CTRSV_NAN_IMAG, p, "trsv_nan_imag");
        add_case(K_CTRSV_BATCH, p, "trsv_batch");
    }
    add_case(K_KERNEL_NAME, 0, "blas2_kernel_name");
    /* last: a kernel fault there loses the CUDA context (and the cases after it) */
    for (int pi = 0; pi < 2; ++pi) {
        const char p = pi ? 'd' : 's';
        add_case(K_GEMV_PAGE_END, p, "gemv_page_end");
        add_case(K_TRSV_PAGE_END, p, "trsv_page_end");
        add_case(K_VGEMV_PAGE_END, p, "gemv_vbatched_page_end");
    }
}

static void run_case(const tcase *t)
{
    g_case_seed = hash_string(t->name);
    g_run_index = 0;
    print_header();
    const char p = t->prec;
    switch (t->kind) {
    case K_GEMV_SIZES_N: case_gemv_sizes(p, 0); break;
    case K_GEMV_SIZES_T: case_gemv_sizes(p, 1); break;
    case K_GEMV_LD: case_gemv_ld(p); break;
    case K_GEMV_INC: case_gemv_inc(p); break;
    case K_GEMV_ALPHA_BETA: case_gemv_alpha_beta(p); break;
    case K_GEMV_BATCH: case_gemv_batch(p); break;
    case K_GEMV_MISALIGNED: case_gemv_misaligned(p); break;
    case K_GEMV_VENDOR: case_gemv_vendor(p); break;
    case K_TRSV_SIZES: case_trsv_sizes(p, 0); break;
    case K_TRSV_UNIT: case_trsv_sizes(p, 1); break;
    case K_TRSV_SMALL: case_trsv_small(p); break;
    case K_TRSV_LD_INC: case_trsv_ld_inc(p); break;
    case K_TRSV_BATCH: case_trsv_batch(p); break;
    case K_TRSV_MISALIGNED: case_trsv_misaligned(p); break;
    case K_TRSV_VENDOR: case_trsv_vendor(p); break;
    case K_VGEMV_UNIFORM: case_vgemv_uniform(p); break;
    case K_VGEMV_EQUAL: case_vgemv_equal(p); break;
    case K_VGEMV_SKEWED: case_vgemv_skewed(p); break;
    case K_VGEMV_IMAX: case_vgemv_imax(p); break;
    case K_KERNEL_NAME: case_kernel_name(); break;
    case K_GEMV_TAIL: case_gemv_tail(p); break;
    case K_TRSV_TAIL: case_trsv_tail(p); break;
    case K_VGEMV_TAIL: case_vgemv_tail(p); break;
    case K_GEMV_PAGE_END: case_gemv_page_end(p); break;
    case K_TRSV_PAGE_END: case_trsv_page_end(p); break;
    case K_VGEMV_PAGE_END: case_vgemv_page_end(p); break;
    case K_CGEMV_OPS: case_cgemv_ops(p); break;
    case K_CGEMV_ALPHA_BETA: case_cgemv_alpha_beta(p); break;
    case K_CGEMV_NAN_IMAG: case_cgemv_nan_imag(p); break;
    case K_CGEMV_BATCH: case_cgemv_batch(p); break;
    case K_CTRSV_OPS: case_ctrsv_ops(p); break;
    case K_CGEMV_VBATCHED: case_cgemv_vbatched(p); break;
    case K_CTRSV_NAN_IMAG: case_ctrsv_nan_imag(p); break;
    case K_CTRSV_BATCH: case_ctrsv_batch(p); break;
    }
}

static const char *case_name(int i) { return g_cases[i].name; }
static void run_index(int i) { run_case(&g_cases[i]); }

/* Cases judge shoal's own kernels: the vendor serves only where a case asks for it. */
static int start(shoal_handle h)
{
    g_big_batch = gpu_test_env_count("SHOAL_TEST_BIG_BATCH", g_big_batch);
    shoal_set_vendor_dispatch(h, 0);
    return 0;
}

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_index, start, NULL};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
