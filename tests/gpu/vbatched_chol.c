/* What the GPU tests of the variable-size batched Cholesky routines share: see vbatched_chol.h. */
#include "vbatched_chol.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "host_elems.h"

/* ------------------------------------------------------------------------------------------ */
/* Random numbers */

uint64_t vc_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b) { return vc_mix64(vc_mix64(seed ^ vc_mix64(a)) + b); }

uint64_t vc_hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return vc_mix64(h);
}

double vc_urand(uint64_t seed, uint64_t a, uint64_t b) { return (double)(hash3(seed, a, b) >> 40) * 0x1p-23 - 1.0; }

int vc_irand(uint64_t seed, uint64_t a, uint64_t b, int lo, int hi)
{
    return lo + (int)(hash3(seed, a, b) % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------------------------------------ */
/* Members */

int vc_draw_size(const vc_batch *s, int64_t i)
{
    const int N = s->size;
    const uint64_t seed = s->seed;
    switch (s->dist) {
    case VC_EQUAL: return N;
    case VC_SKEWED: {
        const double u = (vc_urand(seed, (uint64_t)i, 1) + 1.0) / 2.0;
        return 1 + (int)floor((N - 1) * u * u * u);
    }
    case VC_ZEROS: return i % 4 == 1 ? 0 : vc_irand(seed, (uint64_t)i, 1, 0, N);
    case VC_HUGE: return i == s->batch / 3 ? N : vc_irand(seed, (uint64_t)i, 1, 1, 8);
    case VC_SPIKED: return i % 50 == 7 ? 300 : vc_irand(seed, (uint64_t)i, 1, 1, N);
    case VC_TAIL: return i == s->batch / 2 ? 200 : vc_irand(seed, (uint64_t)i, 1, 0, N);
    case VC_CYCLE: return (int)(i % 4) + 1;
    default: return vc_irand(seed, (uint64_t)i, 1, 1, N); /* uniform */
    }
}

void vc_plan_sizes(vc_batch *s, char prec, shoal_fill_mode uplo, const char *name, vc_dist dist, int size,
                   long long batch, int pad_lo, int pad_hi)
{
    memset(s, 0, sizeof *s);
    s->prec = prec;
    s->uplo = uplo;
    s->es = prec == 's' ? 4 : prec == 'z' ? 16 : 8;
    s->w = elem_reals(prec);
    s->batch = gpu_test_batch(batch);
    s->dist = dist;
    s->size = size;
    s->seed = vc_hash_string(name);
    s->m = xmalloc(sizeof *s->m * (size_t)(s->batch ? s->batch : 1));
    int largest = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        vc_member *m = &s->m[i];
        memset(m, 0, sizeof *m);
        m->n = m->sn = vc_draw_size(s, i);
        m->lda = m->sld = (m->n > 1 ? m->n : 1) + (pad_hi > 0 ? vc_irand(s->seed, (uint64_t)i, 2, pad_lo, pad_hi) : 0);
        if (m->n > largest) largest = m->n;
    }
    s->max_n = largest;
}

void vc_draw_breakdown(const vc_batch *s, int64_t i, vc_member *m, int nan)
{
    if (!(i % 6 == 1 || i % 100 == 7) || m->n < 1) return;
    const int n = m->n, pick = (int)((i / 6) % 3);
    m->j = pick == 0 ? 0 : pick == 1 ? n - 1 : vc_irand(s->seed, (uint64_t)i, 3, 0, n - 1);
    if (!nan) {
        m->defect = (i / 6) % 2 ? D_ZERO_DIAG : D_NEG_DIAG;
    } else if ((i / 6) % 2 && n >= 2) {
        m->defect = D_NAN_OFF;
        if (m->j == 0) m->j = n - 1;
        m->k = vc_irand(s->seed, (uint64_t)i, 4, 0, m->j - 1);
    } else {
        m->defect = D_NAN_DIAG;
    }
}

void vc_layout(vc_batch *s, int odd)
{
    const int align = 16 / s->es;
    int64_t at = VC_GAP, bat = VC_GAP;
    for (int64_t i = 0; i < s->batch; ++i) {
        vc_member *m = &s->m[i];
        /* the tail layout ends at A(sn-1, sn-1): LAPACK's extent, nothing of the last column's padding */
        m->count = m->sn == 0 ? 0 : s->tail ? (int64_t)m->sld * (m->sn - 1) + m->sn : (int64_t)m->sld * m->sn;
        m->off = (at + align - 1) / align * align + (odd ? i % align : 0);
        at = m->off + m->count + VC_GAP;
        if (!s->rhs) continue;
        /* B(sn-1, snrhs-1) ends the tail layout; elsewhere whole columns, padding rows and all */
        m->bcount = s->tail ? (m->sn == 0 || m->snrhs == 0 ? 0 : (int64_t)m->sldb * (m->snrhs - 1) + m->sn)
                            : (int64_t)m->sldb * m->snrhs;
        m->boff = (bat + align - 1) / align * align + (odd ? (i + 1) % align : 0);
        bat = m->boff + m->bcount + VC_GAP;
    }
    s->total = at;
    s->btotal = s->rhs ? bat : 0;
}

vc_member *vc_twin_members(const vc_batch *s)
{
    vc_member *t = xmalloc(sizeof *t * (size_t)(s->batch ? s->batch : 1));
    memcpy(t, s->m, sizeof *t * (size_t)s->batch);
    for (int64_t i = 0; i < s->batch; ++i) {
        if (vc_is_invalid(t[i].defect)) {
            t[i].n = 0, t[i].lda = 1;
            if (s->rhs) t[i].nrhs = 0, t[i].ldb = 1;
        }
        t[i].defect = D_NONE;
        t[i].want = 0;
    }
    return t;
}

/* ------------------------------------------------------------------------------------------ */
/* Host images: element e of an image holds w reals of the precision */

static const uint32_t POISON_S[4] = {0x7fc0a0a0u, 0x7fc0b1b1u, 0x7fc0c2c2u, 0x7fc0d3d3u};
static const uint64_t POISON_D[4] = {0x7ff80000a0a0a0a0ull, 0x7ff80000b1b1b1b1ull, 0x7ff80000c2c2c2c2ull,
                                     0x7ff80000d3d3d3d3ull};

/* part (0 real, 1 imaginary) of element e <- a NaN with p's payload */
void vc_poison_part(const vc_batch *s, unsigned char *img, int64_t e, int part, enum vc_poison p)
{
    unsigned char *at = img + e * s->es + part * (s->es / s->w);
    if (elem_single(s->prec))
        memcpy(at, &POISON_S[p], 4);
    else
        memcpy(at, &POISON_D[p], 8);
}

static void poison_elem(const vc_batch *s, unsigned char *img, int64_t e, enum vc_poison p)
{
    for (int part = 0; part < s->w; ++part) vc_poison_part(s, img, e, part, p);
}

/* G(r, c) = sum_{q <= c} X(r, q) conj(X(c, q)) for r >= c: X lower triangular, row-major n x n
 * with w doubles an element. It makes the input (X = B) and multiplies the factor out (X = L). */
static void lower_gram(const double *X, int n, int w, double *G)
{
    /* parallel for a large member (vc_each_member runs those one at a time); nested in a parallel
     * region (a small member) it runs on the calling thread alone */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) if (n >= VC_PARALLEL_ORDER)
#endif
    for (int r = 0; r < n; ++r) {
        const double *xr = X + (size_t)r * n * w;
        for (int c = 0; c <= r; ++c) {
            const double *xc = X + (size_t)c * n * w;
            double re = 0.0, im = 0.0;
            if (w == 1) {
                for (int q = 0; q <= c; ++q) re += xr[q] * xc[q];
            } else {
                for (int q = 0; q <= c; ++q) {
                    re += xr[2 * q] * xc[2 * q] + xr[2 * q + 1] * xc[2 * q + 1];
                    im += xr[2 * q + 1] * xc[2 * q] - xr[2 * q] * xc[2 * q + 1];
                }
            }
            G[((size_t)r * n + c) * w] = re;
            if (w == 2) G[((size_t)r * n + c) * w + 1] = im;
        }
    }
}

/* Member i's matrix in lower-triangle terms (row-major n x n, w doubles an element, r >= c):
 * B B^H + n I, then its defect. */
static void member_matrix(const vc_batch *s, const vc_member *m, int64_t i, double *B, double *A)
{
    const int n = m->sn, w = s->w;
    memset(B, 0, sizeof *B * (size_t)n * n * w);
    for (int r = 0; r < n; ++r)
        for (int q = 0; q < (r + 1) * w; ++q) /* the reals of B(r, 0..r) */
            B[(size_t)r * n * w + q] = vc_urand(s->seed, (uint64_t)i, 16 + (uint64_t)r * n * w + q);
    lower_gram(B, n, w, A);
    for (int r = 0; r < n; ++r) A[((size_t)r * n + r) * w] += n;
    double *const Ajj = A + ((size_t)m->j * n + m->j) * w;
    switch (m->defect) {
    case D_NEG_DIAG:
    case D_ZERO_DIAG:
    case D_NAN_DIAG:
        /* row and column j cleared: row j of L is exactly 0 before it, so pivot j is A(j, j) itself */
        for (int q = 0; q < n; ++q)
            for (int p = 0; p < w; ++p) {
                if (q < m->j) A[((size_t)m->j * n + q) * w + p] = 0.0;
                if (q > m->j) A[((size_t)q * n + m->j) * w + p] = 0.0;
            }
        Ajj[0] = m->defect == D_NEG_DIAG ? -1.0 : m->defect == D_ZERO_DIAG ? 0.0 : NAN;
        break;
    case D_NAN_OFF: A[((size_t)m->j * n + m->k) * w] = NAN; break;
    default: break;
    }
}

/* Writes member i's storage into the image: the matrix in the referenced triangle (the upper
 * triangle holds A^H's entries), junk everywhere else. */
static void fill_member(const vc_batch *s, const vc_member *m, int64_t i, unsigned char *img)
{
    const int n = m->sn, w = s->w;
    double *B = xmalloc(sizeof *B * ((size_t)n * n * w + 1)), *A = xmalloc(sizeof *A * ((size_t)n * n * w + 1));
    member_matrix(s, m, i, B, A);
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m->sld; ++r) {
            const int64_t at = (int64_t)r + (int64_t)c * m->sld, e = m->off + at;
            if (at >= m->count) break;
            if (r >= n) {
                poison_elem(s, img, e, P_PAD);
            } else if (!vc_referenced(s->uplo, r, c)) {
                if ((r + 2 * c) % 3 == 0) {
                    for (int p = 0; p < w; ++p)
                        elem_set_real(s->prec, img, e * w + p, (r + p) % 2 ? -VC_JUNK_BIG : VC_JUNK_BIG);
                } else {
                    poison_elem(s, img, e, P_TRI);
                }
            } else {
                const int lo = r > c ? r : c, hi = r > c ? c : r; /* lower-triangle position */
                const double *v = A + ((size_t)lo * n + hi) * w;
                elem_set_real(s->prec, img, e * w, v[0]);
                if (w == 2 && r == c) vc_poison_part(s, img, e, 1, P_IMAG); /* must not be read */
                else if (w == 2) elem_set_real(s->prec, img, e * w + 1, s->uplo == SHOAL_FILL_LOWER ? v[1] : -v[1]);
            }
        }
    free(B);
    free(A);
}

void vc_each_member(const vc_batch *s, const vc_member *mem, void (*fn)(void *ctx, int64_t i), void *ctx)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int64_t i = 0; i < s->batch; ++i)
        if (mem[i].sn < VC_PARALLEL_ORDER) fn(ctx, i);
    for (int64_t i = 0; i < s->batch; ++i)
        if (mem[i].sn >= VC_PARALLEL_ORDER) fn(ctx, i);
}

typedef struct fill_ctx {
    const vc_batch *s;
    const vc_member *mem;
    unsigned char *img;
} fill_ctx;

static void fill_one(void *ctx, int64_t i)
{
    const fill_ctx *f = ctx;
    fill_member(f->s, &f->mem[i], i, f->img);
}

unsigned char *vc_make_image(const vc_batch *s, const vc_member *mem)
{
    unsigned char *img = xmalloc((size_t)(s->total ? s->total : 1) * s->es);
    for (int64_t e = 0; e < s->total; ++e) poison_elem(s, img, e, P_GAP);
    fill_ctx f = {s, mem, img};
    vc_each_member(s, mem, fill_one, &f);
    return img;
}

unsigned char *vc_make_rhs_image(const vc_batch *s, const vc_member *mem)
{
    unsigned char *img = xmalloc((size_t)(s->btotal ? s->btotal : 1) * s->es);
    for (int64_t e = 0; e < s->btotal; ++e) poison_elem(s, img, e, P_GAP);
    const uint64_t seed = vc_mix64(s->seed ^ 0x42);
    for (int64_t i = 0; i < s->batch; ++i) {
        const vc_member *m = &mem[i];
        for (int64_t at = 0; at < m->bcount; ++at) {
            const int r = (int)(at % m->sldb);
            if (r >= m->sn) {
                poison_elem(s, img, m->boff + at, P_PAD);
                continue;
            }
            for (int p = 0; p < s->w; ++p)
                elem_set_real(s->prec, img, (m->boff + at) * s->w + p,
                              vc_urand(seed, (uint64_t)i, (uint64_t)(at * s->w + p)));
        }
    }
    return img;
}

void vc_load_lower(const vc_batch *s, const vc_member *m, const unsigned char *img, double *X)
{
    const int n = m->n, w = s->w;
    memset(X, 0, sizeof *X * (size_t)n * n * w);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c <= r; ++c) {
            const int64_t e = s->uplo == SHOAL_FILL_LOWER ? m->off + r + (int64_t)c * m->lda : m->off + c + (int64_t)r * m->lda;
            double *x = X + ((size_t)r * n + c) * w;
            elem_get(s->prec, img, e, x, 0);
            if (w == 2 && s->uplo == SHOAL_FILL_UPPER) x[1] = -x[1];
        }
}

/* ------------------------------------------------------------------------------------------ */
/* Device side */

void vc_dev_setup(const vc_batch *s, vc_dev *d)
{
    memset(d, 0, sizeof *d);
    const size_t b = (size_t)s->batch, bb = b ? b : 1;
    d->ptrs = xmalloc(sizeof(void *) * bb);
    d->bptrs = xmalloc(sizeof(void *) * bb);
    if (s->tail) {
        d->allocs = xmalloc(sizeof(void *) * bb);
        d->ballocs = xmalloc(sizeof(void *) * bb);
        for (size_t i = 0; i < b; ++i) {
            d->ptrs[i] = gpu_test_tail_alloc(&d->allocs[i], (size_t)s->m[i].count, (size_t)s->es, (int)(i % 4));
            d->ballocs[i] = NULL;
            if (s->rhs)
                d->bptrs[i] = gpu_test_tail_alloc(&d->ballocs[i], (size_t)s->m[i].bcount, (size_t)s->es, (int)((i + 1) % 4));
        }
    } else {
        d->buf = gpu_test_tail_alloc(&d->buf_alloc, (size_t)s->total, (size_t)s->es, 0);
        for (size_t i = 0; i < b; ++i) d->ptrs[i] = (char *)d->buf + (size_t)s->m[i].off * s->es;
        if (s->rhs) {
            d->bbuf = gpu_test_tail_alloc(&d->bbuf_alloc, (size_t)s->btotal, (size_t)s->es, 0);
            for (size_t i = 0; i < b; ++i) d->bptrs[i] = (char *)d->bbuf + (size_t)s->m[i].boff * s->es;
        }
    }
    d->dn = gpu_test_tail_alloc(&d->n_alloc, b, sizeof(int), 1);
    d->dlda = gpu_test_tail_alloc(&d->lda_alloc, b, sizeof(int), 2);
    d->dinfo = gpu_test_tail_alloc(&d->info_alloc, b, sizeof(int), 3);
    d->dptrs = gpu_test_tail_alloc(&d->ptrs_alloc, b, sizeof(void *), 0);
    if (s->rhs) {
        d->dnrhs = gpu_test_tail_alloc(&d->nrhs_alloc, b, sizeof(int), 3);
        d->dldb = gpu_test_tail_alloc(&d->ldb_alloc, b, sizeof(int), 1);
        d->dbptrs = gpu_test_tail_alloc(&d->bptrs_alloc, b, sizeof(void *), 0);
    }
}

void vc_dev_free(const vc_batch *s, vc_dev *d)
{
    for (int64_t i = 0; s->tail && i < s->batch; ++i) {
        gpu_test_free(d->allocs[i]);
        gpu_test_free(d->ballocs[i]);
    }
    gpu_test_free(d->buf_alloc);
    gpu_test_free(d->bbuf_alloc);
    gpu_test_free(d->n_alloc);
    gpu_test_free(d->lda_alloc);
    gpu_test_free(d->info_alloc);
    gpu_test_free(d->ptrs_alloc);
    gpu_test_free(d->nrhs_alloc);
    gpu_test_free(d->ldb_alloc);
    gpu_test_free(d->bptrs_alloc);
    free(d->allocs);
    free(d->ballocs);
    free(d->ptrs);
    free(d->bptrs);
}

void vc_upload(const vc_batch *s, const vc_dev *d, const vc_member *mem, const unsigned char *img,
               const unsigned char *bimg)
{
    const size_t b = (size_t)s->batch, bb = b ? b : 1;
    int *hn = xmalloc(sizeof(int) * bb), *hlda = xmalloc(sizeof(int) * bb), *hinfo = xmalloc(sizeof(int) * bb);
    int *hnrhs = xmalloc(sizeof(int) * bb), *hldb = xmalloc(sizeof(int) * bb);
    for (size_t i = 0; i < b; ++i)
        hn[i] = mem[i].n, hlda[i] = mem[i].lda, hinfo[i] = VC_INFO_POISON, hnrhs[i] = mem[i].nrhs, hldb[i] = mem[i].ldb;
    if (s->tail) {
        for (size_t i = 0; i < b; ++i) {
            CUDA_CHECK(cudaMemcpy(d->ptrs[i], img + (size_t)mem[i].off * s->es, (size_t)mem[i].count * s->es,
                                  cudaMemcpyHostToDevice));
            if (bimg && s->rhs)
                CUDA_CHECK(cudaMemcpy(d->bptrs[i], bimg + (size_t)mem[i].boff * s->es, (size_t)mem[i].bcount * s->es,
                                      cudaMemcpyHostToDevice));
        }
    } else {
        CUDA_CHECK(cudaMemcpy(d->buf, img, (size_t)s->total * s->es, cudaMemcpyHostToDevice));
        if (bimg && s->rhs) CUDA_CHECK(cudaMemcpy(d->bbuf, bimg, (size_t)s->btotal * s->es, cudaMemcpyHostToDevice));
    }
    CUDA_CHECK(cudaMemcpy(d->dn, hn, sizeof(int) * b, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dlda, hlda, sizeof(int) * b, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dinfo, hinfo, sizeof(int) * b, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->dptrs, d->ptrs, sizeof(void *) * b, cudaMemcpyHostToDevice));
    if (s->rhs) {
        CUDA_CHECK(cudaMemcpy(d->dnrhs, hnrhs, sizeof(int) * b, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d->dldb, hldb, sizeof(int) * b, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d->dbptrs, d->bptrs, sizeof(void *) * b, cudaMemcpyHostToDevice));
    }
    free(hn), free(hlda), free(hinfo), free(hnrhs), free(hldb);
}

/* The device's image of a buffer over a copy of base: one copy, or (tail) member by member. */
static unsigned char *download_image(const vc_batch *s, const vc_member *mem, const unsigned char *base,
                                     int64_t total, const void *buf, void *const *ptrs, int rhs)
{
    unsigned char *out = xmalloc((size_t)(total ? total : 1) * s->es);
    if (s->tail) {
        memcpy(out, base, (size_t)total * s->es); /* the gaps exist on the host only */
        for (int64_t i = 0; i < s->batch; ++i) {
            const int64_t off = rhs ? mem[i].boff : mem[i].off, count = rhs ? mem[i].bcount : mem[i].count;
            CUDA_CHECK(cudaMemcpy(out + (size_t)off * s->es, ptrs[i], (size_t)count * s->es, cudaMemcpyDeviceToHost));
        }
    } else {
        CUDA_CHECK(cudaMemcpy(out, buf, (size_t)total * s->es, cudaMemcpyDeviceToHost));
    }
    return out;
}

/* Whether the device array of b ints at d holds want's field (at the member's offset). */
static int ints_kept(const int *d, size_t b, const vc_member *mem, size_t field)
{
    int *h = xmalloc(sizeof(int) * (b ? b : 1)), kept = 1;
    CUDA_CHECK(cudaMemcpy(h, d, sizeof(int) * b, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < b; ++i) {
        int want;
        memcpy(&want, (const char *)&mem[i] + field, sizeof want);
        kept &= h[i] == want;
    }
    free(h);
    return kept;
}

static int ptrs_kept(void *const *d, size_t b, void *const *want)
{
    void **h = xmalloc(sizeof(void *) * (b ? b : 1));
    CUDA_CHECK(cudaMemcpy(h, d, sizeof(void *) * b, cudaMemcpyDeviceToHost));
    const int kept = memcmp(h, want, sizeof(void *) * b) == 0;
    free(h);
    return kept;
}

void vc_download(const vc_batch *s, const vc_dev *d, const vc_member *mem, const unsigned char *img,
                 const unsigned char *bimg, vc_result *res)
{
    const size_t b = (size_t)s->batch;
    res->out = download_image(s, mem, img, s->total, d->buf, d->ptrs, 0);
    res->bout = s->rhs ? download_image(s, mem, bimg, s->btotal, d->bbuf, d->bptrs, 1) : NULL;
    res->info = xmalloc(sizeof(int) * (b ? b : 1));
    CUDA_CHECK(cudaMemcpy(res->info, d->dinfo, sizeof(int) * b, cudaMemcpyDeviceToHost));
    res->arrays_kept = ints_kept(d->dn, b, mem, offsetof(vc_member, n)) &&
                       ints_kept(d->dlda, b, mem, offsetof(vc_member, lda)) && ptrs_kept(d->dptrs, b, d->ptrs);
    if (s->rhs)
        res->arrays_kept = res->arrays_kept && ints_kept(d->dnrhs, b, mem, offsetof(vc_member, nrhs)) &&
                           ints_kept(d->dldb, b, mem, offsetof(vc_member, ldb)) && ptrs_kept(d->dbptrs, b, d->bptrs);
}

void vc_result_free(vc_result *r)
{
    free(r->out);
    free(r->bout);
    free(r->info);
}

/* ------------------------------------------------------------------------------------------ */
/* Judging */

void vc_report(int *count, const char *run, const char *fmt, ...)
{
    if ((*count)++ >= VC_MAX_REPORTS) return;
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("  %s: %s: %s\n", gpu_test_case, run, line);
}

void vc_report_total(const char *run, int bad)
{
    if (bad > VC_MAX_REPORTS) printf("  %s: %s: %d failures in all\n", gpu_test_case, run, bad);
}

/* The elements of an image (total of them) that differ from base outside may[], reported by the
 * member whose storage holds them (offsets off/count of the A or B layout). */
static void report_changed(const vc_batch *s, const vc_member *mem, const unsigned char *base, const unsigned char *out,
                           const unsigned char *may, int64_t total, int rhs, const char *run, int *bad)
{
    int64_t member_at = 0;
    const char *what = rhs ? "B" : "A";
    for (int64_t e = 0; e < total; ++e) {
        if (may[e] || memcmp(out + e * s->es, base + e * s->es, (size_t)s->es) == 0) continue;
        while (member_at + 1 < s->batch && (rhs ? mem[member_at + 1].boff : mem[member_at + 1].off) <= e) ++member_at;
        const vc_member *m = s->batch ? &mem[member_at] : NULL;
        const int64_t off = m ? (rhs ? m->boff : m->off) : 0, count = m ? (rhs ? m->bcount : m->count) : 0;
        const int ld = m ? (rhs ? m->sldb : m->sld) : 1;
        if (m && e >= off && e < off + count)
            vc_report(bad, run, "member %lld (n %d, lda %d, nrhs %d, ldb %d): %s element (%lld, %lld) outside what it "
                      "may write changed", (long long)member_at, m->n, m->lda, m->nrhs, m->ldb, what,
                      (long long)((e - off) % ld), (long long)((e - off) / ld));
        else
            vc_report(bad, run, "%s image element %lld (a gap or the guard) changed", what, (long long)e);
    }
}

void vc_check_untouched(const vc_batch *s, const vc_member *mem, const unsigned char *img, const unsigned char *out,
                        int a_written, const char *run, int *bad)
{
    unsigned char *may = xmalloc((size_t)(s->total ? s->total : 1));
    memset(may, 0, (size_t)s->total);
    for (int64_t i = 0; a_written && i < s->batch; ++i) {
        const vc_member *m = &mem[i];
        if (!vc_may_write(m)) continue;
        for (int c = 0; c < m->n; ++c)
            for (int r = 0; r < m->n; ++r)
                if (vc_referenced(s->uplo, r, c)) may[m->off + r + (int64_t)c * m->lda] = 1;
    }
    report_changed(s, mem, img, out, may, s->total, 0, run, bad);
    free(may);
}

void vc_check_rhs_untouched(const vc_batch *s, const vc_member *mem, const unsigned char *bimg,
                            const unsigned char *bout, const char *run, int *bad)
{
    unsigned char *may = xmalloc((size_t)(s->btotal ? s->btotal : 1));
    memset(may, 0, (size_t)s->btotal);
    for (int64_t i = 0; i < s->batch; ++i) {
        const vc_member *m = &mem[i];
        if (!vc_may_solve(m)) continue;
        for (int c = 0; c < m->nrhs; ++c)
            for (int r = 0; r < m->n; ++r) may[m->boff + r + (int64_t)c * m->ldb] = 1;
    }
    report_changed(s, mem, bimg, bout, may, s->btotal, 1, run, bad);
    free(may);
}

/* The factor of a member that succeeded: a diagonal that is real (exactly) and positive, and the
 * scaled residual ||A - L L^H||_F / (||A||_F n eps) into *ratio. 0 when the diagonal is wrong. */
static int check_factor(const vc_batch *s, const vc_member *m, const unsigned char *img, const unsigned char *out,
                        double *ratio)
{
    const int n = m->n, w = s->w;
    const size_t sz = (size_t)n * n * w;
    double *A = xmalloc(sizeof *A * sz), *L = xmalloc(sizeof *L * sz), *G = xmalloc(sizeof *G * sz);
    vc_load_lower(s, m, img, A);
    vc_load_lower(s, m, out, L);
    int diag_ok = 1;
    for (int r = 0; r < n; ++r) {
        double *a = A + ((size_t)r * n + r) * w, *l = L + ((size_t)r * n + r) * w;
        if (w == 2) {
            a[1] = 0.0; /* not read: the input's is a NaN */
            diag_ok &= l[1] == 0.0;
        }
        diag_ok &= l[0] > 0.0 && isfinite(l[0]);
    }
    lower_gram(L, n, w, G);
    double rr = 0.0, aa = 0.0;
    for (int r = 0; r < n; ++r)
        for (int c = 0; c <= r; ++c)
            for (int p = 0; p < w; ++p) {
                const size_t at = ((size_t)r * n + c) * w + p;
                const double d = A[at] - G[at], mult = r == c ? 1.0 : 2.0; /* the upper half mirrors it */
                rr += mult * d * d;
                aa += mult * A[at] * A[at];
            }
    const double eps = elem_single(s->prec) ? 0x1p-24 : 0x1p-53;
    *ratio = sqrt(rr) / (sqrt(aa) * n * eps);
    free(A), free(L), free(G);
    return diag_ok;
}

typedef struct check_ctx {
    const vc_batch *s;
    const vc_member *mem;
    const unsigned char *img, *bimg;
    const vc_result *res;
    double *ratio;
    int *diag_ok;
} check_ctx;

static void check_one_factor(void *ctx, int64_t i)
{
    const check_ctx *f = ctx;
    const vc_member *m = &f->mem[i];
    f->ratio[i] = 0.0, f->diag_ok[i] = 1;
    if (vc_may_write(m) && m->want == 0 && f->res->info[i] == 0)
        f->diag_ok[i] = check_factor(f->s, m, f->img, f->res->out, &f->ratio[i]);
}

void vc_check_factors(const vc_batch *s, const vc_member *mem, const unsigned char *img, const vc_result *res,
                      const char *run, int *bad)
{
    double *ratio = xmalloc(sizeof *ratio * (size_t)(s->batch ? s->batch : 1));
    int *diag_ok = xmalloc(sizeof *diag_ok * (size_t)(s->batch ? s->batch : 1));
    check_ctx f = {s, mem, img, NULL, res, ratio, diag_ok};
    vc_each_member(s, mem, check_one_factor, &f);
    double worst = 0.0;
    for (int64_t i = 0; i < s->batch; ++i) {
        if (!diag_ok[i])
            vc_report(bad, run, "member %lld (n %d): the factor's diagonal is not real and positive", (long long)i,
                      mem[i].n);
        if (!(ratio[i] <= VC_RESIDUAL_LIMIT))
            vc_report(bad, run, "member %lld (n %d, lda %d): ||A - L L^H|| / (||A|| n eps) = %.3g > %g", (long long)i,
                      mem[i].n, mem[i].lda, ratio[i], VC_RESIDUAL_LIMIT);
        if (ratio[i] > worst) worst = ratio[i];
    }
    if (*bad) printf("  %s: %s: worst residual %.3g (limit %g)\n", gpu_test_case, run, worst, VC_RESIDUAL_LIMIT);
    free(ratio);
    free(diag_ok);
}

/* ||A X - B||_F / (||A||_F ||X||_F n eps) of member m: A the Hermitian matrix of img (its
 * diagonal's imaginary parts taken as 0), B of bimg, X of bout. */
static double solution_ratio(const vc_batch *s, const vc_member *m, const unsigned char *img, const unsigned char *bimg,
                             const unsigned char *bout)
{
    const int n = m->n, nrhs = m->nrhs, w = s->w;
    double *A = xmalloc(sizeof *A * (size_t)n * n * w);
    double *X = xmalloc(sizeof *X * (size_t)n * w), *R = xmalloc(sizeof *R * (size_t)n * w);
    vc_load_lower(s, m, img, A);
    double aa = 0.0, xx = 0.0, rr = 0.0;
    for (int r = 0; r < n; ++r) {
        if (w == 2) A[((size_t)r * n + r) * w + 1] = 0.0; /* not read: the input's is a NaN */
        for (int c = 0; c <= r; ++c)
            for (int p = 0; p < w; ++p) {
                const double v = A[((size_t)r * n + c) * w + p];
                aa += (r == c ? 1.0 : 2.0) * v * v;
            }
    }
    for (int j = 0; j < nrhs; ++j) {
        for (int r = 0; r < n; ++r) {
            const int64_t e = m->boff + r + (int64_t)j * m->ldb;
            elem_get(s->prec, bout, e, X, r);
            elem_get(s->prec, bimg, e, R, r);
            for (int p = 0; p < w; ++p) {
                xx += X[(size_t)r * w + p] * X[(size_t)r * w + p];
                R[(size_t)r * w + p] = -R[(size_t)r * w + p];
            }
        }
        /* R += A X, A(r, c) for r >= c stored, A(c, r) = conj(A(r, c)) */
        for (int r = 0; r < n; ++r)
            for (int c = 0; c <= r; ++c) {
                const double *a = A + ((size_t)r * n + c) * w;
                if (w == 1) {
                    R[r] += a[0] * X[c];
                    if (c != r) R[c] += a[0] * X[r];
                } else {
                    const double ar = a[0], ai = a[1];
                    R[2 * r] += ar * X[2 * c] - ai * X[2 * c + 1];
                    R[2 * r + 1] += ar * X[2 * c + 1] + ai * X[2 * c];
                    if (c != r) { /* conj(a) X(r) */
                        R[2 * c] += ar * X[2 * r] + ai * X[2 * r + 1];
                        R[2 * c + 1] += ar * X[2 * r + 1] - ai * X[2 * r];
                    }
                }
            }
        for (size_t q = 0; q < (size_t)n * w; ++q) rr += R[q] * R[q];
    }
    free(A), free(X), free(R);
    const double eps = elem_single(s->prec) ? 0x1p-24 : 0x1p-53;
    return sqrt(rr) / (sqrt(aa) * sqrt(xx) * n * eps);
}

static void check_one_solution(void *ctx, int64_t i)
{
    const check_ctx *f = ctx;
    const vc_member *m = &f->mem[i];
    f->ratio[i] = 0.0;
    if (vc_may_solve(m) && f->res->info[i] == 0) f->ratio[i] = solution_ratio(f->s, m, f->img, f->bimg, f->res->bout);
}

void vc_check_solutions(const vc_batch *s, const vc_member *mem, const unsigned char *img,
                        const unsigned char *bimg, const vc_result *res, const char *run, int *bad)
{
    double *ratio = xmalloc(sizeof *ratio * (size_t)(s->batch ? s->batch : 1));
    check_ctx f = {s, mem, img, bimg, res, ratio, NULL};
    vc_each_member(s, mem, check_one_solution, &f);
    double worst = 0.0;
    int failed = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        if (!(ratio[i] <= VC_RESIDUAL_LIMIT)) {
            vc_report(bad, run, "member %lld (n %d, nrhs %d, lda %d, ldb %d): ||A X - B|| / (||A|| ||X|| n eps) = %.3g > %g",
                      (long long)i, mem[i].n, mem[i].nrhs, mem[i].lda, mem[i].ldb, ratio[i], VC_RESIDUAL_LIMIT);
            failed = 1;
        }
        if (ratio[i] > worst) worst = ratio[i];
    }
    if (failed) printf("  %s: %s: worst solution residual %.3g (limit %g)\n", gpu_test_case, run, worst, VC_RESIDUAL_LIMIT);
    free(ratio);
}

void vc_check_info(const vc_batch *s, const vc_member *mem, const vc_result *res, const char *run, int *bad)
{
    for (int64_t i = 0; i < s->batch; ++i)
        if (res->info[i] != mem[i].want) {
            if (s->rhs)
                vc_report(bad, run, "member %lld (n %d, nrhs %d, lda %d, ldb %d, max_n %d, max_nrhs %d): info %d, want %d",
                          (long long)i, mem[i].n, mem[i].nrhs, mem[i].lda, mem[i].ldb, s->max_n, s->max_nrhs,
                          res->info[i], mem[i].want);
            else
                vc_report(bad, run, "member %lld (n %d, lda %d, max_n %d): info %d, want %d", (long long)i, mem[i].n,
                          mem[i].lda, s->max_n, res->info[i], mem[i].want);
        }
}

int vc_compare_twin(const vc_batch *s, const vc_result *twin, const vc_result *res)
{
    int bad = 0;
    for (int64_t i = 0; i < s->batch; ++i) {
        const vc_member *m = &s->m[i];
        if (m->defect != D_NONE) continue;
        if (memcmp(twin->out + (size_t)m->off * s->es, res->out + (size_t)m->off * s->es, (size_t)m->count * s->es) ||
            (s->rhs && memcmp(twin->bout + (size_t)m->boff * s->es, res->bout + (size_t)m->boff * s->es,
                              (size_t)m->bcount * s->es)) ||
            twin->info[i] != res->info[i])
            vc_report(&bad, "twin", "member %lld (n %d): differs from the twin call, where the defective members were "
                      "healthy", (long long)i, m->n);
    }
    return bad;
}

void vc_expect(const char *what, shoal_status got, shoal_status want)
{
    if (got != want)
        printf("  %s: %s: got %s, want %s\n", gpu_test_case, what, shoal_status_string(got), shoal_status_string(want));
    gpu_test_record(got == want);
}
