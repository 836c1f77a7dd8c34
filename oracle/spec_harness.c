#include "spec_harness.h"

#include "host_transfer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What padding rows and unreferenced parts of an operand hold: a value no result contains, so
 * a kernel that reads it shows up in the check. */
#define PAD_VALUE 777.0

spec_harness_page_allocator spec_harness_page_end = {NULL, NULL};

static int is_page_end(const spec_harness *h) { return h->tail_offset == SPEC_HARNESS_PAGE_END; }

/* The precision operand o is stored in: the call's, or for a real vector (kind 'r': gebrd's d, e)
 * the call's real type (s for c, d for z). */
static char prec_of(const spec_harness *h, int o)
{
    const char p = h->call.prec;
    if (h->ri->operand_kinds[o] != 'r') return p;
    return p == 'c' ? 's' : p == 'z' ? 'd' : p;
}

static size_t elem_of(const spec_harness *h, int o) { return (size_t)shoal_spec_elem_bytes(prec_of(h, o)); }

/* doubles per element on the host: 2 for a complex operand, 1 for a real one */
static long long w_of(const spec_harness *h, int o) { return shoal_spec_is_complex(prec_of(h, o)) ? 2 : 1; }

static long long stride_of(const spec_harness *h, int o) { return h->ld[o] * (h->cols[o] > 0 ? h->cols[o] : 1); }

/* Elements of operand o from its first problem's first element to its last problem's last. */
static long long extent_of(const spec_harness *h, int o, long long batch)
{
    if (batch <= 0) return 0;
    const long long last = h->rows[o] > 0 && h->cols[o] > 0 ? (h->cols[o] - 1) * h->ld[o] + h->rows[o] : 0;
    return (batch - 1) * stride_of(h, o) + last;
}

static cudaError_t make_pointers(spec_harness *h, int o, long long batch, size_t elem)
{
    void **host = malloc(sizeof(void *) * (size_t)(batch > 0 ? batch : 1));
    if (!host) return cudaErrorMemoryAllocation;
    for (long long i = 0; i < batch; ++i) host[i] = (char *)h->d_op[o] + (size_t)(i * stride_of(h, o)) * elem;
    cudaError_t e = cudaMalloc((void **)&h->d_ptrs[o], sizeof(void *) * (size_t)(batch > 0 ? batch : 1));
    if (e == cudaSuccess) e = cudaMemcpy(h->d_ptrs[o], host, sizeof(void *) * (size_t)batch, cudaMemcpyHostToDevice);
    free(host);
    return e;
}

cudaError_t spec_harness_init(spec_harness *h, int routine, char prec, int mode, const int *dims, const int *opts,
                              double alpha, double beta, long long batch, int ld_pad, int tail_offset,
                              unsigned long long seed)
{
    return spec_harness_init_complex(h, routine, prec, mode, dims, opts, alpha, 0.0, beta, 0.0, batch, ld_pad,
                                     tail_offset, seed);
}

cudaError_t spec_harness_init_complex(spec_harness *h, int routine, char prec, int mode, const int *dims,
                                      const int *opts, double alpha, double alpha_im, double beta, double beta_im,
                                      long long batch, int ld_pad, int tail_offset, unsigned long long seed)
{
    memset(h, 0, sizeof *h);
    h->tail_offset = tail_offset;
    h->w = shoal_spec_is_complex(prec) ? 2 : 1;
    h->ri = &shoal_spec_routines[routine];
    h->orc = oracle_find(h->ri->oracle);
    if (!h->orc) return cudaErrorInvalidValue;
    shoal_spec_call *c = &h->call;
    c->routine = routine;
    c->prec = prec;
    c->mode = mode;
    for (int i = 0; i < h->ri->n_dims; ++i) c->p.dims[i] = dims[i];
    for (int i = 0; i < h->ri->n_options; ++i) c->p.opts[i] = opts[i];
    /* the scalars and inputs as the precision holds them: the checks compare inputs bit for bit
     * (an operand that must not change) and judge results against what the kernel was given */
    c->p.alpha = tuner_round(alpha, prec);
    c->p.beta = tuner_round(beta, prec);
    c->p.alpha_im = h->w == 2 ? tuner_round(alpha_im, prec) : 0.0;
    c->p.beta_im = h->w == 2 ? tuner_round(beta_im, prec) : 0.0;
    c->p.batch = batch;
    h->distinct = batch < SPEC_HARNESS_DISTINCT_MAX ? batch : SPEC_HARNESS_DISTINCT_MAX;
    if (h->distinct < 1) h->distinct = 1;
    oracle_problem shape;
    memset(&shape, 0, sizeof shape);
    memcpy(shape.dims, c->p.dims, sizeof shape.dims);
    memcpy(shape.opts, c->p.opts, sizeof shape.opts);
    shape.alpha = c->p.alpha;
    shape.beta = c->p.beta;
    shape.alpha_im = c->p.alpha_im;
    shape.beta_im = c->p.beta_im;
    shape.is_complex = h->w == 2;
    for (int o = 0; o < h->ri->n_operands; ++o) {
        const long long w = w_of(h, o);
        h->ri->operand_shape(c, o, &h->rows[o], &h->cols[o]);
        /* a vector (tau) has no ld in the call: its elements are contiguous */
        h->ld[o] = (h->rows[o] > 1 ? h->rows[o] : 1) + (h->ri->operand_kinds[o] != 'm' ? 0 : ld_pad);
        shape.rows[o] = (int)h->rows[o];
        shape.cols[o] = (int)h->cols[o];
        h->h_in[o] = malloc(sizeof(double) * (size_t)(w * h->rows[o] * h->cols[o] * h->distinct + 1));
        if (!h->h_in[o]) return cudaErrorMemoryAllocation;
    }
    /* the distinct problems, packed */
    for (long long i = 0; i < h->distinct; ++i) {
        double *in[ORACLE_MAX_OPERANDS] = {0};
        for (int o = 0; o < h->ri->n_operands; ++o) in[o] = h->h_in[o] + w_of(h, o) * i * h->rows[o] * h->cols[o];
        h->orc->generate(&shape, seed + 0x9e3779b97f4a7c15ULL * (unsigned long long)(i + 1), in);
    }
    for (int o = 0; o < h->ri->n_operands; ++o)
        for (long long i = 0; i < w_of(h, o) * h->rows[o] * h->cols[o] * h->distinct; ++i)
            h->h_in[o][i] = tuner_round(h->h_in[o][i], prec_of(h, o));
    for (int o = 0; o < h->ri->n_operands; ++o) {
        const long long st = stride_of(h, o), per = h->rows[o] * h->cols[o], w = w_of(h, o);
        const size_t elem = elem_of(h, o);
        const int tail = tail_offset >= 0, page_end = is_page_end(h);
        h->bytes[o] = (tail ? extent_of(h, o, batch) : batch * st) * (long long)elem;
        cudaError_t e = cudaSuccess;
        if (page_end) { /* nothing after the last element, then an unmapped page */
            if (!spec_harness_page_end.alloc || !spec_harness_page_end.free) return cudaErrorNotSupported;
            h->d_op[o] = spec_harness_page_end.alloc(&h->d_alloc[o], (size_t)h->bytes[o] / elem, elem);
            if (!h->d_op[o]) return cudaErrorMemoryAllocation;
        } else {
            /* tail: nothing after the last element, tail_offset elements before the first */
            const size_t lead = tail ? (size_t)tail_offset * elem : 0, slack = tail ? 0 : 64;
            const size_t total = lead + (size_t)h->bytes[o] + slack;
            e = cudaMalloc(&h->d_alloc[o], total ? total : 1);
            if (e != cudaSuccess) return e;
            h->d_op[o] = (char *)h->d_alloc[o] + lead;
        }
        const long long up = st * h->distinct * (long long)elem < h->bytes[o] ? st * h->distinct * (long long)elem
                                                                               : h->bytes[o];
        /* the distinct problems in the call's layout, padding rows filled (w doubles per element) */
        double *lay = malloc(sizeof(double) * (size_t)(w * st * h->distinct + 1));
        if (!lay) return cudaErrorMemoryAllocation;
        for (long long i = 0; i < w * st * h->distinct; ++i) lay[i] = PAD_VALUE;
        for (long long i = 0; i < h->distinct; ++i)
            for (long long j = 0; j < h->cols[o]; ++j)
                memcpy(lay + w * (i * st + j * h->ld[o]), h->h_in[o] + w * (i * per + j * h->rows[o]),
                       sizeof(double) * (size_t)(w * h->rows[o]));
        e = tuner_upload(h->d_op[o], lay, up / (long long)elem, prec_of(h, o));
        free(lay);
        /* byte units: a tail layout's last copy may end inside a problem */
        if (e == cudaSuccess) e = tuner_tile(h->d_op[o], up, h->bytes[o], 1);
        if (e != cudaSuccess) return e;
        if (h->ri->operand_access[o] != 'i') {
            e = cudaMalloc(&h->d_orig[o], (size_t)h->bytes[o] + 64);
            if (e == cudaSuccess) e = cudaMemcpy(h->d_orig[o], h->d_op[o], (size_t)h->bytes[o], cudaMemcpyDeviceToDevice);
            if (e != cudaSuccess) return e;
        }
        c->p.op[o].ld = h->ld[o];
        /* made for strided calls too: the vendor, whose batched calls take pointer arrays, is
         * timed and benchmarked on the same operands */
        e = make_pointers(h, o, batch, elem);
        if (e != cudaSuccess) return e;
        if (mode == SHOAL_MODE_ARRAY) {
            c->p.op[o].array = h->d_ptrs[o];
        } else {
            c->p.op[o].ptr = h->d_op[o];
            c->p.op[o].stride = st;
        }
    }
    return cudaDeviceSynchronize();
}

cudaError_t spec_harness_restore(spec_harness *h)
{
    for (int o = 0; o < h->ri->n_operands; ++o) {
        if (!h->d_orig[o]) continue;
        const cudaError_t e = cudaMemcpyAsync(h->d_op[o], h->d_orig[o], (size_t)h->bytes[o], cudaMemcpyDeviceToDevice, 0);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t spec_harness_poison(spec_harness *h, int o, long long i) { return spec_harness_poison_part(h, o, i, 0); }

cudaError_t spec_harness_poison_part(spec_harness *h, int o, long long i, int part)
{
    return spec_harness_poison_at(h, o, i, 0, part);
}

cudaError_t spec_harness_poison_at(spec_harness *h, int o, long long i, long long element, int part)
{
    /* inside the problem's elements: below the last one, in one of the rows (not the padding) */
    const long long last = h->rows[o] > 0 && h->cols[o] > 0 ? (h->cols[o] - 1) * h->ld[o] + h->rows[o] : 0;
    if (o < 0 || o >= h->ri->n_operands || element < 0 || element >= last || element % h->ld[o] >= h->rows[o])
        return cudaErrorInvalidValue;
    const size_t elem = elem_of(h, o);
    char *dst = (char *)h->d_op[o] + (size_t)(i * stride_of(h, o) + element) * elem;
    /* the element as it is, one of its parts made NaN (a real element has only part 0) */
    double v[2] = {0.0, 0.0};
    cudaError_t e = tuner_download(v, dst, 1, prec_of(h, o));
    if (e != cudaSuccess) return e;
    v[w_of(h, o) == 2 && part == 1 ? 1 : 0] = NAN;
    e = tuner_upload(dst, v, 1, prec_of(h, o));
    if (e == cudaSuccess && h->d_orig[o])
        e = cudaMemcpy((char *)h->d_orig[o] + (dst - (char *)h->d_op[o]), dst, elem, cudaMemcpyDeviceToDevice);
    return e;
}

/* One problem's columns made zero, or (rank deficient) each column of the second half a copy of
 * one of the first half's: the same transform on the device copy and on the host's inputs. */
static void shape_columns(double *p, long long rows, long long cols, long long ld, long long w, int input)
{
    const long long half = (cols + 1) / 2;
    for (long long j = 0; j < cols; ++j)
        for (long long i = 0; i < rows * w; ++i)
            p[j * ld * w + i] = input == SPEC_INPUT_ZERO ? 0.0 : p[(j % half) * ld * w + i];
}

cudaError_t spec_harness_shape_input(spec_harness *h, int o, int input)
{
    if (input == SPEC_INPUT_RANDOM) return cudaSuccess;
    if (o < 0 || o >= h->ri->n_operands || (input != SPEC_INPUT_ZERO && input != SPEC_INPUT_RANK_DEFICIENT))
        return cudaErrorInvalidValue;
    const long long batch = h->call.p.batch, count = extent_of(h, o, batch), w = w_of(h, o);
    if (count <= 0) return cudaSuccess;
    const long long rows = h->rows[o], cols = h->cols[o] > 0 ? h->cols[o] : 1, ld = h->ld[o];
    /* the oracle checks against the host's inputs: they must be what the device holds */
    for (long long d = 0; d < h->distinct; ++d)
        shape_columns(h->h_in[o] + w * d * rows * h->cols[o], rows, h->cols[o], rows, w, input);
    double *x = malloc(sizeof(double) * (size_t)(count * w));
    if (!x) return cudaErrorMemoryAllocation;
    cudaError_t e = tuner_download(x, h->d_op[o], count, prec_of(h, o));
    for (long long b = 0; e == cudaSuccess && b < batch; ++b)
        shape_columns(x + b * stride_of(h, o) * w, rows, cols, ld, w, input);
    if (e == cudaSuccess) e = tuner_upload(h->d_op[o], x, count, prec_of(h, o));
    free(x);
    if (e == cudaSuccess && h->d_orig[o])
        e = cudaMemcpy(h->d_orig[o], h->d_op[o], (size_t)h->bytes[o], cudaMemcpyDeviceToDevice);
    return e;
}

long long spec_harness_check_count(const spec_harness *h, long long max, double flops_budget)
{
    const double per = h->ri->flops(&h->call);
    if (!(per > 0.0) || per * (double)max <= flops_budget) return max;
    const long long n = (long long)(flops_budget / per);
    return n < 1 ? 1 : n;
}

double spec_harness_check(spec_harness *h, long long first, long long count, const long long *skip, int n_skip,
                          long long *bad)
{
    const char prec = h->call.prec;
    /* the unit roundoff of the real type: float for s and c */
    const double eps = prec == 's' || prec == 'c' ? ldexp(1.0, -24) : ldexp(1.0, -53);
    *bad = -1;
    if (first + count > h->call.p.batch) count = h->call.p.batch - first;
    if (count <= 0) return 0.0;
    double *out[ORACLE_MAX_OPERANDS] = {0};
    double worst = 0.0;
    for (int o = 0; o < h->ri->n_operands; ++o) {
        const long long st = stride_of(h, o), w = w_of(h, o);
        const size_t elem = elem_of(h, o);
        /* a tail layout ends before the last problem's stride does: what is not there reads as padding */
        const long long have_el = h->bytes[o] / (long long)elem - first * st;
        const long long n_el = st * count < have_el ? st * count : have_el;
        out[o] = malloc(sizeof(double) * (size_t)(w * st * count + 1));
        if (!out[o] || n_el < 0 ||
            tuner_download(out[o], (char *)h->d_op[o] + (size_t)(first * st) * elem, n_el, prec_of(h, o)) != cudaSuccess) {
            worst = INFINITY;
            goto done;
        }
        for (long long i = w * n_el; i < w * st * count; ++i) out[o][i] = PAD_VALUE;
    }
    double *packed[ORACLE_MAX_OPERANDS] = {0};
    for (int o = 0; o < h->ri->n_operands; ++o)
        packed[o] = malloc(sizeof(double) * (size_t)(w_of(h, o) * h->rows[o] * h->cols[o] + 1));
    for (long long i = 0; i < count; ++i) {
        const long long p = first + i;
        int skipped = 0;
        for (int s = 0; s < n_skip; ++s) skipped |= skip[s] == p;
        if (skipped) continue;
        oracle_problem pr;
        memset(&pr, 0, sizeof pr);
        memcpy(pr.dims, h->call.p.dims, sizeof pr.dims);
        memcpy(pr.opts, h->call.p.opts, sizeof pr.opts);
        pr.alpha = h->call.p.alpha;
        pr.beta = h->call.p.beta;
        pr.alpha_im = h->call.p.alpha_im;
        pr.beta_im = h->call.p.beta_im;
        pr.is_complex = h->w == 2;
        int padding_touched = 0;
        for (int o = 0; o < h->ri->n_operands; ++o) {
            const long long st = stride_of(h, o), d = p % h->distinct, w = w_of(h, o);
            pr.rows[o] = (int)h->rows[o];
            pr.cols[o] = (int)h->cols[o];
            pr.in[o] = h->h_in[o] + w * d * h->rows[o] * h->cols[o];
            for (long long j = 0; j < h->cols[o]; ++j) {
                const double *col = out[o] + w * (i * st + j * h->ld[o]);
                memcpy(packed[o] + w * j * h->rows[o], col, sizeof(double) * (size_t)(w * h->rows[o]));
                /* nothing outside the operand's rows may change */
                for (long long r = w * h->rows[o]; r < w * h->ld[o]; ++r) padding_touched |= col[r] != PAD_VALUE;
            }
            pr.out[o] = packed[o];
        }
        double err = padding_touched ? INFINITY : h->orc->check(&pr, eps);
        if (!(err <= ORACLE_ERROR_LIMIT) && *bad < 0) *bad = p;
        if (!(err <= worst)) worst = err; /* NaN propagates */
    }
    for (int o = 0; o < h->ri->n_operands; ++o) free(packed[o]);
done:
    for (int o = 0; o < h->ri->n_operands; ++o) free(out[o]);
    return worst;
}

void spec_harness_free(spec_harness *h)
{
    for (int o = 0; o < ORACLE_MAX_OPERANDS; ++o) {
        free(h->h_in[o]);
        if (is_page_end(h) && h->d_alloc[o])
            spec_harness_page_end.free(h->d_alloc[o]);
        else
            cudaFree(h->d_alloc[o]);
        cudaFree(h->d_orig[o]);
        cudaFree(h->d_ptrs[o]);
    }
    memset(h, 0, sizeof *h);
}
