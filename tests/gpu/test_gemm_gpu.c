/* GPU correctness of shoal_{s,d,c,z}gemm_{batched,strided_batched} against a host reference.
 *
 * Every run generates fresh random data in [-1, 1] (never 0; in c and z the real and imaginary
 * parts each) from a seed derived from the case name and the run's index, computes the reference
 * in double precision on the host (OpenBLAS cblas_dgemm per matrix for s and d, cblas_zgemm for c
 * and z, float data widened first), then calls shoal in each requested mode
 * (strided, pointer array) with vendor dispatch on and off, so shoal's own kernels are checked on
 * every shape even where the tuned table routes to cuBLAS; every call with work checks who served
 * it (runtime/served.h) against shoal_gemm_kernel_name (see served_as_named). Per matrix the error is
 *     max |C - Cref| / ((|alpha| k max|A| max|B| + |beta| max|C0|) eps)
 * and a run passes if it is <= 16 for every matrix; in c and z every |.| is the complex modulus
 * (gemm_check.h), and the ops are N, T and C (conjugate transpose), alpha and beta complex.
 * Every element of A, B, C outside the matrices proper (rows beyond m when ld > rows, gaps
 * between matrices, a guard after the last one) holds a NaN with a recognizable payload (both
 * parts of a complex element): padding read by mistake turns results into NaN, and padding
 * of C must come back bit for bit. The *_nan_isolation cases (c, z) make the imaginary part of
 * one element of one matrix of A, B or C NaN: exactly the entries of that problem's C that
 * depend on it must come back NaN, every other entry and problem finite and correct. The *_tail cases (issue 29) drop the guard instead: every
 * buffer ends at its last matrix's last element and starts 0..3 elements into its allocation, so
 * a read past an operand leaves the allocation, which memcheck (make sanitize) reports. The
 * *_page_end cases (last in the table) end A, B and C each at the end of a mapped page with the
 * next page unmapped (gpu_test_page_end_alloc), so that a read past them faults on the hardware.
 *
 * Usage: test_gemm_gpu              run every case
 *        test_gemm_gpu --list       print the case names (needs no GPU)
 *        test_gemm_gpu --case NAME  run one case
 * Exit: 0 all passed, 1 a failure, 2 usage, 77 no CUDA device ("SKIP: ..." on stdout).
 */
#define _POSIX_C_SOURCE 200809L

#include "gemm_check.h"
#include "gpu_test.h"
#include "shoal.h"

#include <cblas.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODE_STRIDED 1
#define MODE_ARRAY 2
#define VENDOR_ON 1
#define VENDOR_OFF 2
#define GUARD 37 /* poisoned elements after the last matrix of every buffer */

/* Quiet NaNs with a payload naming the buffer (A, B, C): a NaN computed from A's padding and
 * stored into C's padding keeps its payload on some hardware, and must still differ from C's.
 * s and c use POISON_S for every float (both parts of a c element), d and z POISON_D. */
static const uint32_t POISON_S[3] = {0x7fc0aaaau, 0x7fc0bbbbu, 0x7fc0ccccu};
static const uint64_t POISON_D[3] = {0x7ff80000aaaaaaaaull, 0x7ff80000bbbbbbbbull,
                                     0x7ff80000ccccccccull};

/* One run: a shape, its data layout and scalars, and which modes / dispatch settings to call. */
typedef struct gcfg {
    char prec;
    int ta, tb, m, n, k;
    int pad;            /* ld = max(1, rows) + pad, for A, B and C */
    int64_t gap;        /* extra poisoned elements between consecutive matrices */
    int64_t batch;
    double alpha, beta;
    double alpha_im, beta_im; /* c and z only (0 in s and d): see set_scalars */
    int c_nan;          /* m x n part of C is NaN (with beta == 0 it must not show) */
    int ab_nan;         /* A and B are NaN (with alpha == 0 or k == 0 they must not be read) */
    int share_a, share_b; /* strided: stride 0; array: every pointer to matrix 0 */
    int perm;           /* array mode: 0 in order, 1 all reversed, 2 A reversed, B in order,
                           C shuffled */
    int zero_strides;   /* batch 1 only: pass 0 for every stride */
    int modes;          /* MODE_STRIDED | MODE_ARRAY */
    int vendors;        /* VENDOR_ON | VENDOR_OFF */
    int graph;          /* capture the call in a CUDA graph and replay it */
    int tail;           /* 1..4: no guard, every buffer ends at its last matrix's last element and
                           starts tail - 1 elements into its allocation (gpu_test_tail_alloc) */
    int page_end;       /* no guard, every buffer ends at the end of a mapped page with the next
                           one unmapped (gpu_test_page_end_alloc); in-order pointer arrays, so
                           the last problem's matrices are the ones at the page ends */
    int nan_op;         /* c and z: 0 none; 1 A, 2 B, 3 C: the imaginary part of one element of
                           that operand's stored matrix nan_mat is NaN, at row nan_row % rows,
                           column nan_col % cols of the stored matrix */
    int64_t nan_mat;
    int nan_row, nan_col;
} gcfg;

typedef struct gdata {
    size_t es;                 /* bytes per element (gc_elem_size) */
    int rw;                    /* doubles per reference element: 1 (s, d) or 2 (c, z) */
    int64_t rows_a, cols_a, rows_b, cols_b;
    int64_t lda, ldb, ldc;
    int64_t sta, stb, stc;     /* storage strides (elements) */
    int64_t na, nb, nc;        /* buffer sizes (elements) */
    void *ha, *hb, *hc0, *hc;  /* host: A, B, original C, C read back */
    unsigned char *covered;    /* nc flags: element belongs to some C_i's m x n part */
    void *da, *db, *dc;
    void *allocs[3];           /* what gpu_test_free takes for da, db, dc */
    void **dap, **dbp, **dcp;  /* device pointer arrays */
    int64_t *offa, *offb, *offc; /* matrix i's offsets in the current layout */
    double *ref, *scale;       /* batch * m * n reference (of rw doubles each); per-matrix
                                  error scale; a NaN in the reference marks an entry that must
                                  come back NaN (nan_op) */
    int64_t nan_index;         /* nan_op: the NaN element's index in its operand's buffer */
    int ref_layout;            /* layout the reference was computed for; -1 none */
} gdata;

static shoal_handle g_h;
static cudaStream_t g_stream;
static cudaEvent_t g_ev0, g_ev1;
static uint64_t g_case_seed;
static int g_run_index;

/* ------------------------------------------------------------------------------------------ */
/* Small utilities. */

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Elements from the first matrix's start to the last one's last element: nmat matrices of
 * rows x cols, leading dimension ld, stride st (0 when a matrix is empty). */
static int64_t tail_length(int64_t nmat, int64_t st, int64_t ld, int64_t rows, int64_t cols)
{
    return nmat > 0 && rows > 0 && cols > 0 ? (nmat - 1) * st + ld * (cols - 1) + rows : 0;
}

/* which: 0 A, 1 B, 2 C; count elements (every part of a complex element poisoned alike) */
static void fill_poison(char prec, void *x, int64_t count, int which)
{
    const int64_t scalars = count * (gc_is_complex(prec) ? 2 : 1);
    for (int64_t i = 0; i < scalars; ++i) {
        if (prec == 's' || prec == 'c')
            memcpy((char *)x + 4 * i, &POISON_S[which], 4);
        else
            memcpy((char *)x + 8 * i, &POISON_D[which], 8);
    }
}

/* ta, tb: SHOAL_OP_N, _T or _C (0, 1, 2) */
static const char *trans_str(int ta, int tb)
{
    static const char *s[9] = {"nn", "nt", "nc", "tn", "tt", "tc", "cn", "ct", "cc"};
    return s[ta * 3 + tb];
}

/* The op pairs a case runs over, as in a case name ("nn tn ..."): those for s and d or those for
 * c and z, by the precision. Returns how many were written to out (at most 9). */
typedef struct op_pair {
    int ta, tb;
} op_pair;
#define PAIRS_REAL_ALL "nn nt tn tt"
#define PAIRS_COMPLEX_ALL "nn nt nc tn tt tc cn ct cc"

static int op_code(char ch) { return ch == 'n' ? SHOAL_OP_N : ch == 't' ? SHOAL_OP_T : SHOAL_OP_C; }

static int op_pairs(char p, const char *real, const char *cplx, op_pair out[9])
{
    const char *s = gc_is_complex(p) ? cplx : real;
    int n = 0;
    for (; s[0] && s[1] && n < 9; s += s[2] ? 3 : 2) {
        out[n].ta = op_code(s[0]);
        out[n].tb = op_code(s[1]);
        ++n;
    }
    return n;
}

static int is_zero(double re, double im) { return re == 0.0 && im == 0.0; }

/* ------------------------------------------------------------------------------------------ */
/* Data set-up. */

static void layout_offsets(const gcfg *c, gdata *d, int mode, gc_rng *r)
{
    int perm = mode == MODE_ARRAY ? c->perm : 0;
    int64_t b = c->batch;
    for (int64_t i = 0; i < b; ++i) {
        int64_t rev = b - 1 - i;
        int64_t ia = perm >= 1 ? rev : i;
        int64_t ib = perm == 1 ? rev : i;
        int64_t ic = perm == 1 ? rev : i;
        d->offa[i] = c->share_a ? 0 : ia * d->sta;
        d->offb[i] = c->share_b ? 0 : ib * d->stb;
        d->offc[i] = ic * d->stc;
    }
    if (perm == 2) { /* Fisher-Yates shuffle of the C matrices */
        for (int64_t i = b - 1; i > 0; --i) {
            int64_t j = (int64_t)(gc_rng_next(r) % (uint64_t)(i + 1));
            int64_t t = d->offc[i];
            d->offc[i] = d->offc[j];
            d->offc[j] = t;
        }
    }
    memset(d->covered, 0, (size_t)d->nc);
    for (int64_t i = 0; i < b; ++i)
        for (int64_t j = 0; j < c->n; ++j)
            memset(d->covered + d->offc[i] + j * d->ldc, 1, (size_t)c->m);
}

/* nan_op: the imaginary part of one element of one stored matrix of A, B or C becomes NaN (on
 * the host, before the upload); d->nan_index says which element of the operand's buffer. */
static void inject_nan(const gcfg *c, gdata *d)
{
    void *x = c->nan_op == 1 ? d->ha : c->nan_op == 2 ? d->hb : d->hc0;
    int64_t rows = c->nan_op == 1 ? d->rows_a : c->nan_op == 2 ? d->rows_b : c->m;
    int64_t cols = c->nan_op == 1 ? d->cols_a : c->nan_op == 2 ? d->cols_b : c->n;
    int64_t ld = c->nan_op == 1 ? d->lda : c->nan_op == 2 ? d->ldb : d->ldc;
    int64_t st = c->nan_op == 1 ? d->sta : c->nan_op == 2 ? d->stb : d->stc;
    if (!gc_is_complex(c->prec) || rows == 0 || cols == 0) {
        fprintf(stderr, "test_gemm_gpu: nan_op needs c or z and a nonempty operand\n");
        exit(2);
    }
    d->nan_index = c->nan_mat * st + c->nan_row % rows + (c->nan_col % cols) * ld;
    gc_complex v = gc_cget(c->prec, x, d->nan_index);
    v.im = NAN;
    gc_cset(c->prec, x, d->nan_index, v);
}

static void setup_data(const gcfg *c, gdata *d, gc_rng *r)
{
    memset(d, 0, sizeof *d);
    d->es = gc_elem_size(c->prec);
    d->rw = gc_is_complex(c->prec) ? 2 : 1;
    d->rows_a = c->ta == SHOAL_OP_N ? c->m : c->k;
    d->cols_a = c->ta == SHOAL_OP_N ? c->k : c->m;
    d->rows_b = c->tb == SHOAL_OP_N ? c->k : c->n;
    d->cols_b = c->tb == SHOAL_OP_N ? c->n : c->k;
    d->lda = max64(1, d->rows_a) + c->pad;
    d->ldb = max64(1, d->rows_b) + c->pad;
    d->ldc = max64(1, c->m) + c->pad;
    d->sta = d->lda * d->cols_a + c->gap;
    d->stb = d->ldb * d->cols_b + c->gap;
    d->stc = d->ldc * c->n + c->gap;
    int64_t nmat_a = c->share_a ? 1 : c->batch, nmat_b = c->share_b ? 1 : c->batch;
    d->na = nmat_a * d->sta + GUARD;
    d->nb = nmat_b * d->stb + GUARD;
    d->nc = c->batch * d->stc + GUARD;
    if (c->tail || c->page_end) { /* nothing after the last matrix's last element */
        d->na = tail_length(nmat_a, d->sta, d->lda, d->rows_a, d->cols_a);
        d->nb = tail_length(nmat_b, d->stb, d->ldb, d->rows_b, d->cols_b);
        d->nc = tail_length(c->batch, d->stc, d->ldc, c->m, c->n);
    }

    d->ha = xmalloc((size_t)d->na * d->es);
    d->hb = xmalloc((size_t)d->nb * d->es);
    d->hc0 = xmalloc((size_t)d->nc * d->es);
    d->hc = xmalloc((size_t)d->nc * d->es);
    d->covered = xmalloc((size_t)d->nc);
    d->offa = xmalloc((size_t)c->batch * sizeof(int64_t));
    d->offb = xmalloc((size_t)c->batch * sizeof(int64_t));
    d->offc = xmalloc((size_t)c->batch * sizeof(int64_t));
    d->ref = xmalloc((size_t)c->batch * (size_t)c->m * (size_t)c->n * (size_t)d->rw * sizeof(double));
    d->scale = xmalloc((size_t)c->batch * sizeof(double));
    d->ref_layout = -1;

    fill_poison(c->prec, d->ha, d->na, 0);
    fill_poison(c->prec, d->hb, d->nb, 1);
    fill_poison(c->prec, d->hc0, d->nc, 2);
    for (int64_t i = 0; i < nmat_a; ++i)
        gc_fill_matrix(c->prec, (char *)d->ha + (size_t)(i * d->sta) * d->es, d->rows_a, d->cols_a,
                    d->lda, r, c->ab_nan);
    for (int64_t i = 0; i < nmat_b; ++i)
        gc_fill_matrix(c->prec, (char *)d->hb + (size_t)(i * d->stb) * d->es, d->rows_b, d->cols_b,
                    d->ldb, r, c->ab_nan);
    for (int64_t i = 0; i < c->batch; ++i)
        gc_fill_matrix(c->prec, (char *)d->hc0 + (size_t)(i * d->stc) * d->es, c->m, c->n, d->ldc,
                    r, c->c_nan);
    if (c->nan_op)
        inject_nan(c, d);

    const int shift = c->tail ? c->tail - 1 : 0;
    if (c->page_end) {
        d->da = gpu_test_page_end_alloc(&d->allocs[0], (size_t)d->na, d->es);
        d->db = gpu_test_page_end_alloc(&d->allocs[1], (size_t)d->nb, d->es);
        d->dc = gpu_test_page_end_alloc(&d->allocs[2], (size_t)d->nc, d->es);
    } else {
        d->da = gpu_test_tail_alloc(&d->allocs[0], (size_t)d->na, d->es, shift);
        d->db = gpu_test_tail_alloc(&d->allocs[1], (size_t)d->nb, d->es, shift);
        d->dc = gpu_test_tail_alloc(&d->allocs[2], (size_t)d->nc, d->es, shift);
    }
    CUDA_CHECK(cudaMemcpy(d->da, d->ha, (size_t)d->na * d->es, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->db, d->hb, (size_t)d->nb * d->es, cudaMemcpyHostToDevice));
    if (c->modes & MODE_ARRAY) {
        CUDA_CHECK(cudaMalloc((void **)&d->dap, (size_t)c->batch * sizeof(void *)));
        CUDA_CHECK(cudaMalloc((void **)&d->dbp, (size_t)c->batch * sizeof(void *)));
        CUDA_CHECK(cudaMalloc((void **)&d->dcp, (size_t)c->batch * sizeof(void *)));
    }
}

static void free_data(gdata *d)
{
    free(d->ha);
    free(d->hb);
    free(d->hc0);
    free(d->hc);
    free(d->covered);
    free(d->offa);
    free(d->offb);
    free(d->offc);
    free(d->ref);
    free(d->scale);
    for (int i = 0; i < 3; ++i)
        gpu_test_free(d->allocs[i]);
    cudaFree(d->dap);
    cudaFree(d->dbp);
    cudaFree(d->dcp);
}

static void upload_pointer_arrays(const gcfg *c, gdata *d)
{
    void **h = xmalloc((size_t)c->batch * sizeof(void *));
    for (int64_t i = 0; i < c->batch; ++i)
        h[i] = (char *)d->da + (size_t)d->offa[i] * d->es;
    CUDA_CHECK(cudaMemcpy(d->dap, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
    for (int64_t i = 0; i < c->batch; ++i)
        h[i] = (char *)d->db + (size_t)d->offb[i] * d->es;
    CUDA_CHECK(cudaMemcpy(d->dbp, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
    for (int64_t i = 0; i < c->batch; ++i)
        h[i] = (char *)d->dc + (size_t)d->offc[i] * d->es;
    CUDA_CHECK(cudaMemcpy(d->dcp, h, (size_t)c->batch * sizeof(void *), cudaMemcpyHostToDevice));
    free(h);
}

/* ------------------------------------------------------------------------------------------ */
/* Host reference, in double whatever the precision: Cref_i = alpha op(A_i) op(B_i) + beta C0_i.
 * beta C0 is formed first (exact for the betas used here in s, d and c), and left out when
 * beta == 0 so that NaN in C0 does not reach the reference; alpha == 0 or k == 0 skips the
 * product entirely. */

static int product_of(const gcfg *c) { return !is_zero(c->alpha, c->alpha_im) && c->k > 0; }

static void reference_real(const gcfg *c, gdata *d, int64_t i, double *ad, double *bd)
{
    const char p = c->prec;
    const int64_t m = c->m, n = c->n, k = c->k;
    const int64_t lda_r = max64(1, d->rows_a), ldb_r = max64(1, d->rows_b);
    const int product = product_of(c);
    const char *a = (const char *)d->ha + (size_t)d->offa[i] * d->es;
    const char *b = (const char *)d->hb + (size_t)d->offb[i] * d->es;
    const char *c0 = (const char *)d->hc0 + (size_t)d->offc[i] * d->es;
    double *r = d->ref + (size_t)i * (size_t)(m * n);
    double max_a = product ? gc_max_abs(p, a, d->rows_a, d->cols_a, d->lda) : 0.0;
    double max_b = product ? gc_max_abs(p, b, d->rows_b, d->cols_b, d->ldb) : 0.0;
    double max_c = c->beta != 0.0 ? gc_max_abs(p, c0, m, n, d->ldc) : 0.0;
    d->scale[i] = gc_gemm_scale(p, (int)k, c->alpha, c->beta, max_a, max_b, max_c);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t q = 0; q < m; ++q)
            r[q + j * m] = c->beta == 0.0 ? 0.0 : c->beta * gc_get(p, c0, q + j * d->ldc);
    if (!product)
        return;
    for (int64_t j = 0; j < d->cols_a; ++j)
        for (int64_t q = 0; q < d->rows_a; ++q)
            ad[q + j * lda_r] = gc_get(p, a, q + j * d->lda);
    for (int64_t j = 0; j < d->cols_b; ++j)
        for (int64_t q = 0; q < d->rows_b; ++q)
            bd[q + j * ldb_r] = gc_get(p, b, q + j * d->ldb);
    cblas_dgemm(CblasColMajor, c->ta == SHOAL_OP_N ? CblasNoTrans : CblasTrans,
                c->tb == SHOAL_OP_N ? CblasNoTrans : CblasTrans, (int)m, (int)n, (int)k,
                c->alpha, ad, (int)lda_r, bd, (int)ldb_r, 1.0, r, (int)max64(1, m));
}

/* Whether the injected NaN (operand op: 1 A, 2 B, 3 C) lies in the rows x cols matrix at element
 * off of its buffer; if so *row, *col get its place in that matrix. */
static int nan_hit(const gcfg *c, const gdata *d, int op, int64_t off, int64_t ld, int64_t rows,
                   int64_t cols, int64_t *row, int64_t *col)
{
    const int64_t rel = d->nan_index - off;
    if (c->nan_op != op || rel < 0 || rel % ld >= rows || rel / ld >= cols)
        return 0;
    *row = rel % ld;
    *col = rel / ld;
    return 1;
}

/* x (rows x cols, leading dimension ld, precision p) widened into w (leading dimension rows); the
 * injected NaN, when in this matrix (operand op), becomes 0 there: the entries of C it reaches are
 * marked NaN afterwards (mark_nan), and the others do not depend on it. Returns the largest
 * modulus (without the NaN). */
static double widen_complex(const gcfg *c, const gdata *d, int op, int64_t off, int64_t rows,
                            int64_t cols, int64_t ld, gc_complex *w, int64_t *hit_row, int64_t *hit_col)
{
    const char *x = (const char *)(op == 1 ? d->ha : op == 2 ? d->hb : d->hc0) + (size_t)off * d->es;
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t q = 0; q < rows; ++q)
            w[q + j * rows] = gc_cget(c->prec, x, q + j * ld);
    if (nan_hit(c, d, op, off, ld, rows, cols, hit_row, hit_col))
        w[*hit_row + *hit_col * rows].im = 0.0;
    else
        *hit_row = *hit_col = -1;
    return gc_max_abs('z', w, rows, cols, rows);
}

/* The entries of the m x n reference r that the injected NaN reaches: a row of C for an element of
 * A (row i of op(A)), a column for one of B (column j of op(B)), the entry itself for one of C0. */
static void mark_nan(const gcfg *c, gc_complex *r, int op, int64_t row, int64_t col)
{
    const int64_t m = c->m, n = c->n;
    if (row < 0)
        return;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t q = 0; q < m; ++q) {
            int reached = op == 1 ? q == (c->ta == SHOAL_OP_N ? row : col)
                        : op == 2 ? j == (c->tb == SHOAL_OP_N ? col : row)
                                  : q == row && j == col;
            if (reached)
                r[q + j * m].re = r[q + j * m].im = NAN;
        }
}

static CBLAS_TRANSPOSE cblas_op(int op)
{
    return op == SHOAL_OP_N ? CblasNoTrans : op == SHOAL_OP_T ? CblasTrans : CblasConjTrans;
}

/* c and z: in double complex through cblas_zgemm; |alpha|, |beta| and the maxima are moduli. */
static void reference_complex(const gcfg *c, gdata *d, int64_t i, gc_complex *ad, gc_complex *bd,
                              gc_complex *cd)
{
    const int64_t m = c->m, n = c->n, k = c->k;
    const int product = product_of(c), with_c = !is_zero(c->beta, c->beta_im);
    gc_complex *r = (gc_complex *)d->ref + (size_t)i * (size_t)(m * n);
    int64_t ar = -1, ac = -1, br = -1, bc = -1, cr = -1, cc = -1;
    double max_a = 0.0, max_b = 0.0, max_c = 0.0;
    if (product) {
        max_a = widen_complex(c, d, 1, d->offa[i], d->rows_a, d->cols_a, d->lda, ad, &ar, &ac);
        max_b = widen_complex(c, d, 2, d->offb[i], d->rows_b, d->cols_b, d->ldb, bd, &br, &bc);
    }
    if (with_c)
        max_c = widen_complex(c, d, 3, d->offc[i], m, n, d->ldc, cd, &cr, &cc);
    d->scale[i] = gc_gemm_scale(c->prec, (int)k, hypot(c->alpha, c->alpha_im),
                                hypot(c->beta, c->beta_im), max_a, max_b, max_c);
    for (int64_t e = 0; e < m * n; ++e) {
        gc_complex z = {0.0, 0.0};
        if (with_c) {
            z.re = c->beta * cd[e].re - c->beta_im * cd[e].im;
            z.im = c->beta * cd[e].im + c->beta_im * cd[e].re;
        }
        r[e] = z;
    }
    if (product) {
        const gc_complex alpha = {c->alpha, c->alpha_im}, one = {1.0, 0.0};
        cblas_zgemm(CblasColMajor, cblas_op(c->ta), cblas_op(c->tb), (int)m, (int)n, (int)k, &alpha,
                    ad, (int)max64(1, d->rows_a), bd, (int)max64(1, d->rows_b), &one, r,
                    (int)max64(1, m));
        mark_nan(c, r, 1, ar, ac);
        mark_nan(c, r, 2, br, bc);
    }
    mark_nan(c, r, 3, cr, cc);
}

static void compute_reference(const gcfg *c, gdata *d)
{
    const int cplx = gc_is_complex(c->prec);
    const size_t es = cplx ? sizeof(gc_complex) : sizeof(double);
    const size_t na = (size_t)(max64(1, d->rows_a) * d->cols_a), nb = (size_t)(max64(1, d->rows_b) * d->cols_b);
#pragma omp parallel
    {
        void *ad = xmalloc(na * es), *bd = xmalloc(nb * es);
        gc_complex *cd = cplx ? xmalloc((size_t)(c->m * c->n) * es) : NULL;
#pragma omp for schedule(dynamic, 64)
        for (int64_t i = 0; i < c->batch; ++i) {
            if (cplx)
                reference_complex(c, d, i, ad, bd, cd);
            else
                reference_real(c, d, i, ad, bd);
        }
        free(ad);
        free(bd);
        free(cd);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Calling shoal. */

/* c and z; sa, sb, sc: the strides call_shoal chose */
static shoal_status call_shoal_complex(const gcfg *c, const gdata *d, int mode, int64_t sa,
                                       int64_t sb, int64_t sc)
{
    shoal_operation ta = (shoal_operation)c->ta, tb = (shoal_operation)c->tb;
    if (c->prec == 'c') {
        const shoal_complex_float alpha = {(float)c->alpha, (float)c->alpha_im};
        const shoal_complex_float beta = {(float)c->beta, (float)c->beta_im};
        typedef shoal_complex_float T;
        if (mode == MODE_STRIDED)
            return shoal_cgemm_strided_batched(g_h, ta, tb, c->m, c->n, c->k, alpha,
                                               (const T *)d->da, d->lda, sa, (const T *)d->db,
                                               d->ldb, sb, beta, (T *)d->dc, d->ldc, sc, c->batch);
        return shoal_cgemm_batched(g_h, ta, tb, c->m, c->n, c->k, alpha,
                                   (const T *const *)d->dap, d->lda, (const T *const *)d->dbp,
                                   d->ldb, beta, (T *const *)d->dcp, d->ldc, c->batch);
    }
    const shoal_complex_double alpha = {c->alpha, c->alpha_im}, beta = {c->beta, c->beta_im};
    typedef shoal_complex_double T;
    if (mode == MODE_STRIDED)
        return shoal_zgemm_strided_batched(g_h, ta, tb, c->m, c->n, c->k, alpha, (const T *)d->da,
                                           d->lda, sa, (const T *)d->db, d->ldb, sb, beta,
                                           (T *)d->dc, d->ldc, sc, c->batch);
    return shoal_zgemm_batched(g_h, ta, tb, c->m, c->n, c->k, alpha, (const T *const *)d->dap,
                               d->lda, (const T *const *)d->dbp, d->ldb, beta,
                               (T *const *)d->dcp, d->ldc, c->batch);
}

static shoal_status call_shoal(const gcfg *c, const gdata *d, int mode)
{
    shoal_operation ta = (shoal_operation)c->ta, tb = (shoal_operation)c->tb;
    int64_t sa = c->share_a ? 0 : d->sta, sb = c->share_b ? 0 : d->stb, sc = d->stc;
    if (c->zero_strides)
        sa = sb = sc = 0;
    if (gc_is_complex(c->prec))
        return call_shoal_complex(c, d, mode, sa, sb, sc);
    if (c->prec == 's') {
        if (mode == MODE_STRIDED)
            return shoal_sgemm_strided_batched(g_h, ta, tb, c->m, c->n, c->k, (float)c->alpha,
                                               (const float *)d->da, d->lda, sa,
                                               (const float *)d->db, d->ldb, sb, (float)c->beta,
                                               (float *)d->dc, d->ldc, sc, c->batch);
        return shoal_sgemm_batched(g_h, ta, tb, c->m, c->n, c->k, (float)c->alpha,
                                   (const float *const *)d->dap, d->lda,
                                   (const float *const *)d->dbp, d->ldb, (float)c->beta,
                                   (float *const *)d->dcp, d->ldc, c->batch);
    }
    if (mode == MODE_STRIDED)
        return shoal_dgemm_strided_batched(g_h, ta, tb, c->m, c->n, c->k, c->alpha,
                                           (const double *)d->da, d->lda, sa,
                                           (const double *)d->db, d->ldb, sb, c->beta,
                                           (double *)d->dc, d->ldc, sc, c->batch);
    return shoal_dgemm_batched(g_h, ta, tb, c->m, c->n, c->k, c->alpha,
                               (const double *const *)d->dap, d->lda,
                               (const double *const *)d->dbp, d->ldb, c->beta,
                               (double *const *)d->dcp, d->ldc, c->batch);
}

/* Compares the C read back with the reference and the poison. Returns the worst error (Inf if
 * poison was overwritten) and describes a failure in why. */
static double check_result(const gcfg *c, gdata *d, char *why, size_t why_len)
{
    double worst = 0.0;
    int64_t worst_i = -1, nan_missed = 0;
    for (int64_t i = 0; i < c->batch; ++i) {
        const char *ci = (const char *)d->hc + (size_t)d->offc[i] * d->es;
        const double *ri = d->ref + (size_t)i * (size_t)c->m * (size_t)c->n * (size_t)d->rw;
        int64_t missed = 0;
        double e = c->nan_op ? gc_gemm_error_nan(c->prec, c->m, c->n, ci, d->ldc, ri, c->m,
                                                 d->scale[i], &missed)
                             : gc_gemm_error(c->prec, c->m, c->n, ci, d->ldc, ri, c->m, d->scale[i]);
        nan_missed += missed;
        if (e > worst || (worst_i < 0 && e >= worst)) {
            worst = e;
            worst_i = i;
        }
    }
    int64_t touched = 0, first = -1;
    for (int64_t e = 0; e < d->nc; ++e)
        if (!d->covered[e] &&
            memcmp((char *)d->hc + (size_t)e * d->es, (char *)d->hc0 + (size_t)e * d->es, d->es)) {
            if (first < 0)
                first = e;
            ++touched;
        }
    why[0] = '\0';
    if (worst > GC_ERROR_LIMIT)
        snprintf(why, why_len, " worst at matrix %lld", (long long)worst_i);
    if (nan_missed) {
        size_t u = strlen(why);
        snprintf(why + u, why_len - u, " %lld entr%s of C not NaN that the NaN must reach",
                 (long long)nan_missed, nan_missed == 1 ? "y" : "ies");
    }
    if (touched) {
        size_t u = strlen(why);
        snprintf(why + u, why_len - u, " %lld padding element(s) of C overwritten, first at %lld",
                 (long long)touched, (long long)first);
        worst = INFINITY;
    }
    return worst;
}

/* array: a pointer-array row (the placement notes describe those only) */
static void notes_of(const gcfg *c, int array, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t u = 0;
#define NOTE(cond, ...)                                                                       \
    if ((cond) && u < len)                                                                    \
        u += (size_t)snprintf(buf + u, len - u, __VA_ARGS__);
    NOTE(c->pad, " ld+%d", c->pad)
    NOTE(c->gap, " gap%lld", (long long)c->gap)
    NOTE(c->c_nan, " C=NaN")
    NOTE(c->ab_nan, " AB=NaN")
    NOTE(c->share_a, " shareA")
    NOTE(c->share_b, " shareB")
    NOTE(array && c->perm == 1, " reversed")
    NOTE(array && c->perm == 2, " shuffled")
    NOTE(c->zero_strides, " strides0")
    NOTE(c->tail, " tail+%d", c->tail - 1)
    NOTE(c->page_end, " page_end")
    NOTE(c->nan_op, " NaN(im) in %c%lld", "ABC"[(c->nan_op - 1) % 3], (long long)c->nan_mat)
#undef NOTE
}

/* "%.2f", or "(%.2f,%.2f)" in c and z */
static const char *scalar_str(char p, double re, double im, char *buf, size_t len)
{
    if (gc_is_complex(p))
        snprintf(buf, len, "(%.2f,%.2f)", re, im);
    else
        snprintf(buf, len, "%.2f", re);
    return buf;
}

static void print_header(void)
{
    printf("# %-2s %-2s %5s %5s %5s %5s %5s %5s %8s %6s %6s %-7s %-6s %10s %9s %-6s %s\n", "p",
           "op", "m", "n", "k", "lda", "ldb", "ldc", "batch", "alpha", "beta", "mode", "vendor",
           "shoal_ms", "error", "status", "kernel / notes");
}

static void print_row(const gcfg *c, const gdata *d, const char *mode, int vendor_on, double ms,
                      double err, int ok, const char *kernel, const char *why)
{
    char notes[128], alpha[32], beta[32];
    notes_of(c, strstr(mode, "array") != NULL, notes, sizeof notes);
    printf("  %-2c %-2s %5d %5d %5d %5lld %5lld %5lld %8lld %6s %6s %-7s %-6s %10.4f %9.2e "
           "%-6s %s%s%s\n",
           c->prec, trans_str(c->ta, c->tb), c->m, c->n, c->k, (long long)d->lda,
           (long long)d->ldb, (long long)d->ldc, (long long)c->batch,
           scalar_str(c->prec, c->alpha, c->alpha_im, alpha, sizeof alpha),
           scalar_str(c->prec, c->beta, c->beta_im, beta, sizeof beta), mode,
           vendor_on ? "on" : "off", ms, err, ok ? "ok" : "FAILED", kernel, notes, why);
    fflush(stdout);
}

static void download_c(gdata *d)
{
    CUDA_CHECK(cudaMemcpy(d->hc, d->dc, (size_t)d->nc * d->es, cudaMemcpyDeviceToHost));
}

static void upload_c(gdata *d)
{
    CUDA_CHECK(cudaMemcpy(d->dc, d->hc0, (size_t)d->nc * d->es, cudaMemcpyHostToDevice));
}

/* Who served the call just made (or captured), when the dispatch named a kernel: that kernel,
 * or, where it named cuBLAS and cuBLAS was ruled out (alpha = 0, k = 0), kernel_off, the one it
 * names with vendor dispatch off. Returns 1 when so; *kernel becomes the name that served. */
static int served_as_named(const char **kernel, const char *kernel_off, char *why, size_t len)
{
    if (!*kernel) {
        gpu_test_served_reset(g_h);
        *kernel = "?";
        return 1;
    }
    return gpu_test_check_served(g_h, *kernel, kernel_off, kernel, why, len);
}

/* Plain call on the handle's current stream, timed with events. */
static void exec_plain(const gcfg *c, gdata *d, int mode, int vendor_on, const char *kernel, const char *kernel_off)
{
    cudaStream_t s;
    shoal_get_stream(g_h, &s);
    upload_c(d);
    CUDA_CHECK(cudaDeviceSynchronize());
    gpu_test_served_reset(g_h);
    CUDA_CHECK(cudaEventRecord(g_ev0, s));
    shoal_status st = call_shoal(c, d, mode);
    CUDA_CHECK(cudaEventRecord(g_ev1, s));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, g_ev0, g_ev1));
    char why[256] = "";
    const int served_ok = served_as_named(&kernel, kernel_off, why, sizeof why);
    double err = INFINITY;
    if (st != SHOAL_STATUS_SUCCESS) {
        const size_t u = strlen(why);
        snprintf(why + u, sizeof why - u, " returned %s", shoal_status_string(st));
    } else {
        download_c(d);
        const size_t u = strlen(why);
        err = check_result(c, d, why + u, sizeof why - u);
    }
    int ok = st == SHOAL_STATUS_SUCCESS && err <= GC_ERROR_LIMIT && served_ok;
    print_row(c, d, mode == MODE_STRIDED ? "strided" : "array", vendor_on, ms, err, ok, kernel,
              why);
    gpu_test_record(ok);
}

/* Capture on a non-blocking stream, check that capturing ran nothing, replay twice. */
static void exec_graph(const gcfg *c, gdata *d, int mode, int vendor_on, const char *kernel, const char *kernel_off)
{
    const char *mname = mode == MODE_STRIDED ? "g-strd" : "g-array";
    char why[256] = "";
    upload_c(d);
    CUDA_CHECK(cudaDeviceSynchronize());
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    gpu_test_served_reset(g_h);
    CUDA_CHECK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    shoal_status st = call_shoal(c, d, mode);
    cudaError_t ce = cudaStreamEndCapture(g_stream, &graph);
    char served_why[160] = "";
    if (!served_as_named(&kernel, kernel_off, served_why, sizeof served_why)) {
        print_row(c, d, mname, vendor_on, 0.0, INFINITY, 0, kernel, served_why);
        gpu_test_record(0);
    }
    if (st != SHOAL_STATUS_SUCCESS || ce != cudaSuccess) {
        snprintf(why, sizeof why, " capture: shoal returned %s, cudaStreamEndCapture: %s",
                 shoal_status_string(st), cudaGetErrorString(ce));
        (void)cudaGetLastError();
        if (graph)
            cudaGraphDestroy(graph);
        print_row(c, d, mname, vendor_on, 0.0, INFINITY, 0, kernel, why);
        gpu_test_record(0);
        return;
    }
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    /* Capturing must not have run the work. */
    download_c(d);
    if (memcmp(d->hc, d->hc0, (size_t)d->nc * d->es) != 0) {
        print_row(c, d, mname, vendor_on, 0.0, INFINITY, 0, kernel,
                  " C changed during capture (the call ran instead of being recorded)");
        gpu_test_record(0);
    }
    for (int replay = 0; replay < 2; ++replay) {
        if (replay)
            upload_c(d);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaEventRecord(g_ev0, g_stream));
        CUDA_CHECK(cudaGraphLaunch(exec, g_stream));
        CUDA_CHECK(cudaEventRecord(g_ev1, g_stream));
        CUDA_CHECK(cudaStreamSynchronize(g_stream));
        CUDA_CHECK(cudaGetLastError());
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, g_ev0, g_ev1));
        download_c(d);
        double err = check_result(c, d, why, sizeof why);
        int ok = err <= GC_ERROR_LIMIT;
        print_row(c, d, mname, vendor_on, ms, err, ok, kernel, why);
        gpu_test_record(ok);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
}

static void run(gcfg c)
{
    gdata d;
    c.batch = gpu_test_batch(c.batch); /* SHOAL_TEST_QUICK */
    if (c.nan_op && c.nan_mat >= c.batch) /* a capped batch: the NaN in its last matrix */
        c.nan_mat = c.batch - 1;
    gc_rng r;
    gc_rng_seed(&r, gc_mix(g_case_seed, (uint64_t)g_run_index++));
    setup_data(&c, &d, &r);
    for (int mode = MODE_STRIDED; mode <= MODE_ARRAY; ++mode) {
        if (!(c.modes & mode))
            continue;
        layout_offsets(&c, &d, mode, &r);
        int layout = mode == MODE_ARRAY ? c.perm : 0;
        if (d.ref_layout != layout || layout == 2) {
            compute_reference(&c, &d);
            d.ref_layout = layout;
        }
        if (mode == MODE_ARRAY)
            upload_pointer_arrays(&c, &d);
        for (int v = VENDOR_ON; v <= VENDOR_OFF; ++v) {
            if (!(c.vendors & v))
                continue;
            int vendor_on = v == VENDOR_ON;
            shoal_status st = shoal_set_vendor_dispatch(g_h, vendor_on);
            if (st != SHOAL_STATUS_SUCCESS) {
                printf("  shoal_set_vendor_dispatch(%d) returned %s\n", vendor_on,
                       shoal_status_string(st));
                gpu_test_record(0);
                continue;
            }
            /* NULL: no kernel named (a call without work), so who served is not checked */
            const char *kernel = NULL, *kernel_off = NULL;
            st = shoal_gemm_kernel_name(g_h, c.prec, mode == MODE_ARRAY, (shoal_operation)c.ta,
                                        (shoal_operation)c.tb, c.m, c.n, c.k, &kernel);
            if (st != SHOAL_STATUS_SUCCESS || c.batch == 0)
                kernel = NULL;
            if (kernel && vendor_on) {
                shoal_set_vendor_dispatch(g_h, 0);
                if (shoal_gemm_kernel_name(g_h, c.prec, mode == MODE_ARRAY, (shoal_operation)c.ta,
                                           (shoal_operation)c.tb, c.m, c.n, c.k, &kernel_off) != SHOAL_STATUS_SUCCESS)
                    kernel_off = NULL;
                shoal_set_vendor_dispatch(g_h, 1);
            }
            if (c.graph)
                exec_graph(&c, &d, mode, vendor_on, kernel, kernel_off);
            else
                exec_plain(&c, &d, mode, vendor_on, kernel, kernel_off);
        }
    }
    shoal_set_vendor_dispatch(g_h, 1);
    free_data(&d);
}

static gcfg base_cfg(char prec, int ta, int tb, int m, int n, int k, int64_t batch)
{
    gcfg c;
    memset(&c, 0, sizeof c);
    c.prec = prec;
    c.ta = ta;
    c.tb = tb;
    c.m = m;
    c.n = n;
    c.k = k;
    c.batch = batch;
    c.alpha = 1.0;
    c.beta = 0.0;
    c.modes = MODE_STRIDED | MODE_ARRAY;
    c.vendors = VENDOR_ON | VENDOR_OFF;
    return c;
}

/* alpha and beta; the imaginary parts count in c and z only (s and d take the real parts, so that
 * one call serves every precision) */
static void set_scalars(gcfg *c, double alpha, double alpha_im, double beta, double beta_im)
{
    const int cplx = gc_is_complex(c->prec);
    c->alpha = alpha;
    c->alpha_im = cplx ? alpha_im : 0.0;
    c->beta = beta;
    c->beta_im = cplx ? beta_im : 0.0;
}

/* ------------------------------------------------------------------------------------------ */
/* Cases. Each takes the precision and (where it has one) the transpose pair. Those that loop over
 * op pairs take them from op_pairs: in c and z every pair of N, T and C where s and d take every
 * pair of N and T, and subsets with C where s and d take subsets. */

static const int square_sizes[] = {1, 2, 3, 15, 16, 17, 31, 33, 100, 511, 512};
static const int rect_shapes[][3] = {{3, 17, 5},   {33, 2, 100}, {16, 1, 16}, {1, 16, 7},
                                     {100, 31, 64}, {2, 8, 4},   {17, 3, 1},  {5, 64, 2}};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The transposing op a fixed-op run uses: T in s and d, C (conjugate transpose) in c and z. */
static int op_t(char p) { return gc_is_complex(p) ? SHOAL_OP_C : SHOAL_OP_T; }

static void case_sizes(char p, int ta, int tb)
{
    for (int i = 0; i < COUNT(square_sizes); ++i) {
        int n = square_sizes[i];
        int64_t batch = n <= 33 ? 257 : n <= 100 ? 17 : 2;
        gcfg c = base_cfg(p, ta, tb, n, n, n, batch);
        set_scalars(&c, 1.0, -0.5, 0.0, 0.0);
        run(c);
    }
}

static void case_rect(char p, int ta, int tb)
{
    for (int pad = 0; pad <= 3; pad += 3)
        for (int i = 0; i < COUNT(rect_shapes); ++i) {
            int m = rect_shapes[i][0], n = rect_shapes[i][1], k = rect_shapes[i][2];
            gcfg c = base_cfg(p, ta, tb, m, n, k, (int64_t)m * n * k > 100000 ? 9 : 129);
            c.pad = pad;
            set_scalars(&c, 0.75, -0.5, -1.25, 0.25);
            run(c);
        }
}

static void case_ld_gaps(char p)
{
    static const int sizes[] = {1, 2, 3, 8, 16, 17, 33};
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(sizes); ++i) {
            gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, sizes[i], sizes[i], sizes[i], 65);
            c.pad = 3;
            c.gap = 5;
            set_scalars(&c, 1.0, 0.25, 1.0, -0.5);
            run(c);
        }
    /* packed columns, odd gaps between matrices: every matrix starts at another 16-byte phase,
     * so pointer arrays move each problem as a run of its own with partial units at both ends */
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(sizes); ++i)
            for (int gap = 1; gap <= 3; gap += 2) {
                gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, sizes[i], sizes[i], sizes[i], 65);
                c.gap = gap;
                set_scalars(&c, 1.0, -0.75, gap == 1 ? 0.0 : -0.75, gap == 1 ? 0.0 : 0.5);
                run(c);
            }
    for (int t = 0; t < np; ++t) {
        gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, 7, 3, 5, 33);
        c.pad = 3;
        c.gap = 11;
        run(c);
        c = base_cfg(p, pr[t].ta, pr[t].tb, 16, 16, 16, 17);
        c.pad = 61;
        set_scalars(&c, 1.0, 0.5, -0.5, -0.5);
        run(c);
    }
}

static void case_batch_one(char p)
{
    static const int sizes[] = {1, 5, 16, 33, 128, 512};
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(sizes); ++i) {
            gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, sizes[i], sizes[i], sizes[i], 1);
            set_scalars(&c, 1.0, 0.0, -0.5, 0.25);
            c.zero_strides = (i & 1) == 0; /* legal for batch 1 (shoal.h) */
            run(c);
        }
    gcfg c = base_cfg(p, SHOAL_OP_N, op_t(p), 33, 2, 100, 1);
    c.pad = 3;
    run(c);
}

static void case_batch_large(char p)
{
    const int t = op_t(p);
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    gcfg c = base_cfg(p, SHOAL_OP_N, SHOAL_OP_N, 1, 1, 1, 1048577);
    run(c);
    for (int i = 0; i < np; ++i) {
        c = base_cfg(p, pr[i].ta, pr[i].tb, 2, 2, 2, 100003);
        set_scalars(&c, 1.0, 0.0, 0.5, 0.5);
        run(c);
    }
    c = base_cfg(p, SHOAL_OP_N, SHOAL_OP_N, 4, 4, 4, 131071);
    run(c);
    c = base_cfg(p, t, t, 4, 4, 4, 131071);
    set_scalars(&c, 1.0, -0.5, -1.0, 0.5);
    run(c);
    c = base_cfg(p, SHOAL_OP_N, SHOAL_OP_N, 8, 8, 8, 70000);
    run(c);
    c = base_cfg(p, SHOAL_OP_N, t, 8, 8, 8, 70000);
    set_scalars(&c, 1.0, 0.0, 1.0, -1.0);
    run(c);
    c = base_cfg(p, SHOAL_OP_N, SHOAL_OP_N, 2, 4, 3, 100000);
    run(c);
    c = base_cfg(p, t, SHOAL_OP_N, 16, 16, 16, 66000);
    set_scalars(&c, 1.0, 0.75, 0.0, 0.0);
    run(c);
}

typedef struct scalars {
    double alpha, alpha_im, beta, beta_im;
    int c_nan, ab_nan;
} scalars;

static void case_alpha_beta(char p)
{
    static const int shapes[][4] = {{3, 3, 3, 257}, {16, 16, 16, 257}, {33, 17, 9, 65},
                                    {100, 100, 100, 9}};
    static const scalars sc_real[] = {
        {1.0, 0, 0.0, 0, 1, 0},  {1.0, 0, 1.0, 0, 0, 0},  {1.0, 0, -0.5, 0, 0, 0},
        {-1.5, 0, 0.25, 0, 0, 0}, {-1.0, 0, 0.0, 0, 1, 0}, {0.0, 0, 2.0, 0, 0, 1},
        {0.0, 0, 0.0, 0, 1, 1},  {2.5, 0, 1.0, 0, 0, 0}};
    /* alpha purely imaginary must still read A and B (and with C = NaN, beta = 0, not read C) */
    static const scalars sc_complex[] = {
        {1.0, 0.0, 0.0, 0.0, 1, 0},    {0.0, 1.5, 0.0, 0.0, 1, 0},   {0.0, -1.0, 0.0, 0.5, 0, 0},
        {0.5, -0.25, 0.75, 0.5, 0, 0}, {-1.5, 0.75, 1.0, 0.0, 0, 0}, {1.0, 0.0, 0.0, -1.0, 0, 0},
        {0.0, 0.0, 2.0, -1.0, 0, 1},   {0.0, 0.0, 0.0, 1.5, 0, 1},   {0.0, 0.0, 0.0, 0.0, 1, 1},
        {2.5, 1.0, -0.5, -0.25, 0, 0}};
    const int cplx = gc_is_complex(p);
    const scalars *sc = cplx ? sc_complex : sc_real;
    const int nsc = cplx ? COUNT(sc_complex) : COUNT(sc_real);
    op_pair pr[9];
    const int np = op_pairs(p, "nn tn", "nn cn tc", pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(shapes); ++i)
            for (int j = 0; j < nsc; ++j) {
                gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, shapes[i][0], shapes[i][1], shapes[i][2],
                                  shapes[i][3]);
                set_scalars(&c, sc[j].alpha, sc[j].alpha_im, sc[j].beta, sc[j].beta_im);
                c.c_nan = sc[j].c_nan;
                c.ab_nan = sc[j].ab_nan;
                run(c);
            }
}

static void case_k_zero(char p)
{
    static const int mn[][2] = {{1, 1}, {4, 4}, {17, 5}, {64, 64}};
    /* s and d: the first three (their real parts) */
    static const double betas[][2] = {{0.0, 0.0}, {1.0, 0.0}, {-0.5, 0.75}, {0.0, 1.0}};
    const int nb = gc_is_complex(p) ? 4 : 3;
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(mn); ++i)
            for (int j = 0; j < nb; ++j) {
                gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, mn[i][0], mn[i][1], 0, 33);
                set_scalars(&c, 1.5, -0.5, betas[j][0], betas[j][1]);
                c.c_nan = is_zero(betas[j][0], betas[j][1]);
                run(c);
            }
}

static void case_shared_operand(char p)
{
    static const int shapes[][3] = {{4, 4, 4}, {16, 16, 16}, {32, 32, 32}, {7, 5, 3}};
    op_pair pr[9];
    const int np = op_pairs(p, "nn tt", "nn cc tc", pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(shapes); ++i)
            for (int share = 1; share <= 3; ++share) {
                gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, shapes[i][0], shapes[i][1], shapes[i][2],
                                  100);
                c.share_a = share & 1;
                c.share_b = (share >> 1) & 1;
                set_scalars(&c, 1.0, 0.5, 0.5, -0.25);
                run(c);
            }
}

static void case_array_layout(char p)
{
    static const int shapes[][3] = {{2, 2, 2}, {8, 8, 8}, {16, 16, 16}, {33, 33, 33}, {5, 9, 3}};
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(shapes); ++i)
            for (int perm = 1; perm <= 2; ++perm) {
                gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, shapes[i][0], shapes[i][1], shapes[i][2],
                                  257);
                c.modes = MODE_ARRAY;
                c.perm = perm;
                set_scalars(&c, 1.0, -1.0, perm == 2 ? -0.5 : 0.0, perm == 2 ? 0.5 : 0.0);
                run(c);
            }
}

static void case_graph(char p)
{
    static const int shapes[][4] = {{8, 8, 8, 1000}, {64, 64, 64, 100}, {256, 256, 256, 10},
                                    {5, 3, 7, 1000}};
    cudaStream_t got = (cudaStream_t)0;
    shoal_status st = shoal_set_stream(g_h, g_stream);
    if (st == SHOAL_STATUS_SUCCESS)
        st = shoal_get_stream(g_h, &got);
    if (st != SHOAL_STATUS_SUCCESS || got != g_stream) {
        printf("  shoal_set_stream/get_stream: %s, stream %s\n", shoal_status_string(st),
               got == g_stream ? "as set" : "differs");
        gpu_test_record(0);
    }
    op_pair pr[9];
    const int np = op_pairs(p, "nn tt", "nn cc", pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(shapes); ++i) {
            gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, shapes[i][0], shapes[i][1], shapes[i][2],
                              shapes[i][3]);
            set_scalars(&c, 1.0, 0.5, -0.5, 0.25);
            c.graph = 1;
            run(c);
        }
    /* Back to the legacy default stream for whatever runs next. */
    st = shoal_set_stream(g_h, (cudaStream_t)0);
    if (st != SHOAL_STATUS_SUCCESS) {
        printf("  shoal_set_stream(0): %s\n", shoal_status_string(st));
        gpu_test_record(0);
    }
}

/* Issue 29: A, B and C each end at the last element of their allocation and start 0..3
 * elements into it (gpu_test_tail_alloc), for every op pair, odd and multi-tile shapes, ld > rows
 * (the padding as wide as the shift), odd gaps, and pointer arrays in and out of order, so that
 * the end of the allocation is some problem's last element, not only the last problem's. A read
 * past an operand (a vector load or cp.async copy at the end of a run) leaves the allocation,
 * which memcheck reports; the usual checks judge the results. beta != 0 on every other shape, so
 * C is read as well as written. Vendor dispatch off: these judge shoal's own kernels. */
static void case_tail(char p)
{
    static const int shapes[][4] = {{1, 1, 1, 129},   {3, 5, 7, 129},     {16, 16, 16, 129},
                                    {17, 9, 31, 129},  {33, 33, 33, 129},  {64, 64, 64, 65},
                                    {100, 31, 64, 33}, {129, 67, 65, 9}};
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    for (int tail = 1; tail <= 4; ++tail)
        for (int t = 0; t < np; ++t)
            for (int i = 0; i < COUNT(shapes); ++i) {
                gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, shapes[i][0], shapes[i][1], shapes[i][2],
                                  shapes[i][3]);
                c.tail = tail;
                c.pad = (i + t) % 2 ? tail : 0;
                c.gap = (i + tail) % 3 == 0 ? 1 : 0;
                c.perm = (i + t + tail) % 3;
                set_scalars(&c, i % 3 == 2 ? -0.75 : 1.0, i % 3 == 2 ? 0.5 : -0.25,
                            i % 2 ? -0.5 : 0.0, i % 2 ? 0.25 : 0.0);
                c.vendors = VENDOR_OFF;
                run(c);
            }
}

/* Issue 29: A, B and C each end at the end of a mapped page, the page after it unmapped
 * (gpu_test_page_end_alloc), strided and in-order pointer arrays (the last problem's matrices end
 * the pages), every op pair, odd and multi-tile shapes, ld > rows, odd gaps, beta = 0 and not: a
 * kernel that reads past an operand dies with an illegal address even without compute-sanitizer
 * (CUDA_CHECK then fails the case and stops the process). Skipped where VMM is unavailable. */
static void case_page_end(char p)
{
    if (!gpu_test_page_end_ready()) return;
    static const int shapes[][4] = {{1, 1, 1, 129},  {3, 5, 7, 129},   {17, 9, 31, 129},
                                    {33, 33, 33, 65}, {64, 64, 64, 33}, {129, 67, 65, 9}};
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(shapes); ++i) {
            gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]);
            c.page_end = 1;
            c.pad = (i + t) % 2 ? 1 + i % 3 : 0;
            c.gap = (i + t) % 3 == 0 ? 1 : 0;
            c.perm = 0;
            set_scalars(&c, i % 3 == 2 ? -0.75 : 1.0, i % 3 == 2 ? 0.5 : -0.25,
                        (i + t) % 2 ? 0.0 : -0.5, (i + t) % 2 ? 0.0 : 0.25);
            c.vendors = VENDOR_OFF;
            run(c);
        }
}

/* c and z: the imaginary part of one element of one stored matrix of A, B or C is NaN
 * (inject_nan), in the middle or the last matrix of the batch, strided and pointer arrays in and
 * out of order. Exactly the entries of that problem's C that depend on it must come back NaN (the
 * row of C an element of A reaches, the column an element of B reaches, the entry itself of C0
 * with beta != 0): every other entry of that problem and every other problem finite and correct.
 * alpha is purely imaginary where the NaN is in A (a kernel that skips the product on a zero real
 * part misses it), beta 0 where it is in B. Then the NaN must not show at all: in A or B with
 * alpha = 0, in C with beta = 0 (those operands are not read). */
static void case_nan_isolation(char p)
{
    static const int shapes[][4] = {{3, 5, 7, 129}, {17, 9, 31, 33}, {64, 64, 64, 9},
                                    {33, 100, 16, 17}};
    op_pair pr[9];
    const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
    for (int t = 0; t < np; ++t)
        for (int i = 0; i < COUNT(shapes); ++i)
            for (int op = 1; op <= 3; ++op) {
                gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, shapes[i][0], shapes[i][1], shapes[i][2],
                                  shapes[i][3]);
                c.nan_op = op;
                c.nan_mat = (t + i + op) % 2 ? shapes[i][3] / 2 : shapes[i][3] - 1;
                c.nan_row = 7 * t + 3 * op + i;
                c.nan_col = 5 * t + op + 2 * i;
                c.perm = (t + i + op) % 3;
                if (op == 1)
                    set_scalars(&c, 0.0, 1.25, 0.5, -0.5);
                else if (op == 2)
                    set_scalars(&c, -0.75, 0.5, 0.0, 0.0);
                else
                    set_scalars(&c, 1.0, -0.25, 0.25, 1.0);
                run(c);
            }
    for (int t = 0; t < np; t += 4) /* nn, tt, cc */
        for (int op = 1; op <= 3; ++op) {
            gcfg c = base_cfg(p, pr[t].ta, pr[t].tb, 17, 9, 31, 33);
            c.nan_op = op;
            c.nan_mat = 16;
            c.nan_row = 5;
            c.nan_col = 3;
            if (op == 1)
                set_scalars(&c, 0.0, 0.0, 0.5, 0.5);
            else if (op == 2)
                set_scalars(&c, 0.0, 0.0, -0.5, 0.25);
            else
                set_scalars(&c, 0.0, 1.0, 0.0, 0.0);
            run(c);
        }
}

/* m, n or batch == 0: SUCCESS at once, nothing written, NULL pointers allowed. */
static void case_zero_work(char p)
{
    gcfg c = base_cfg(p, SHOAL_OP_N, SHOAL_OP_N, 4, 4, 4, 3);
    gdata d;
    gc_rng r;
    gc_rng_seed(&r, gc_mix(g_case_seed, (uint64_t)g_run_index++));
    setup_data(&c, &d, &r);
    layout_offsets(&c, &d, MODE_ARRAY, &r);
    upload_pointer_arrays(&c, &d);
    static const int zero[][4] = {{0, 4, 4, 3}, {4, 0, 4, 3}, {4, 4, 4, 0}, {0, 0, 0, 0}};
    for (int i = 0; i < COUNT(zero); ++i)
        for (int mode = MODE_STRIDED; mode <= MODE_ARRAY; ++mode)
            for (int nulls = 0; nulls < 2; ++nulls) {
                gcfg z = c;
                z.m = zero[i][0];
                z.n = zero[i][1];
                z.k = zero[i][2];
                z.batch = zero[i][3];
                gdata dz = d;
                if (nulls) {
                    dz.da = dz.db = dz.dc = NULL;
                    dz.dap = dz.dbp = dz.dcp = NULL;
                }
                upload_c(&d);
                CUDA_CHECK(cudaDeviceSynchronize());
                shoal_status st = call_shoal(&z, &dz, mode);
                CUDA_CHECK(cudaDeviceSynchronize());
                CUDA_CHECK(cudaGetLastError());
                download_c(&d);
                int untouched = memcmp(d.hc, d.hc0, (size_t)d.nc * d.es) == 0;
                int ok = st == SHOAL_STATUS_SUCCESS && untouched;
                printf("  %c m=%d n=%d k=%d batch=%lld %-7s pointers=%-5s -> %s%s %s\n", p, z.m,
                       z.n, z.k, (long long)z.batch, mode == MODE_STRIDED ? "strided" : "array",
                       nulls ? "NULL" : "valid", shoal_status_string(st),
                       untouched ? "" : ", C was written", ok ? "ok" : "FAILED");
                gpu_test_record(ok);
            }
    free_data(&d);
}

/* The handle's introspection: dispatch table, streams, kernel names. */
static void case_handle_info(void)
{
    const char *dev = NULL;
    int level = -1;
    shoal_status st = shoal_get_dispatch_info(g_h, &dev, &level);
    int ok = st == SHOAL_STATUS_SUCCESS && dev && dev[0] && level >= 0 && level <= 3;
    printf("  dispatch table: \"%s\", match level %d (%s) %s\n", dev ? dev : "(null)", level,
           shoal_status_string(st), ok ? "ok" : "FAILED");
    gpu_test_record(ok);
    st = shoal_get_dispatch_info(g_h, NULL, NULL);
    gpu_test_record(st == SHOAL_STATUS_SUCCESS);
    if (st != SHOAL_STATUS_SUCCESS)
        printf("  get_dispatch_info(h, NULL, NULL): %s FAILED\n", shoal_status_string(st));

    cudaStream_t s = (cudaStream_t)(uintptr_t)0x1234;
    st = shoal_get_stream(g_h, &s);
    ok = st == SHOAL_STATUS_SUCCESS && (s == (cudaStream_t)0 || s == cudaStreamLegacy);
    printf("  default stream %p (%s) %s\n", (void *)s, shoal_status_string(st),
           ok ? "ok" : "FAILED");
    gpu_test_record(ok);

    static const int shapes[][3] = {{1, 1, 1}, {2, 2, 2}, {4, 8, 2}, {16, 16, 16},
                                    {32, 32, 32}, {100, 31, 64}, {512, 512, 512}, {4, 4, 0}};
    for (int pi = 0; pi < 4; ++pi) {
        const char p = "sdcz"[pi];
        op_pair pr[9];
        const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
        for (int pa = 0; pa < 2; ++pa)
            for (int t = 0; t < np; ++t)
                for (int i = 0; i < COUNT(shapes); ++i)
                    for (int vendor = 1; vendor >= 0; --vendor) {
                        const char *name = NULL;
                        shoal_set_vendor_dispatch(g_h, vendor);
                        st = shoal_gemm_kernel_name(g_h, p, pa, (shoal_operation)pr[t].ta,
                                                    (shoal_operation)pr[t].tb, shapes[i][0],
                                                    shapes[i][1], shapes[i][2], &name);
                        ok = st == SHOAL_STATUS_SUCCESS && name && name[0] &&
                             (vendor || strcmp(name, "cublas") != 0);
                        if (!ok || (t == 0 && pa == 0))
                            printf("  kernel %c %s %s %dx%dx%d vendor=%s: %s (%s) %s\n", p,
                                   pa ? "array  " : "strided", trans_str(pr[t].ta, pr[t].tb),
                                   shapes[i][0], shapes[i][1], shapes[i][2],
                                   vendor ? "on " : "off", name ? name : "(null)",
                                   shoal_status_string(st), ok ? "ok" : "FAILED");
                        gpu_test_record(ok);
                    }
    }
    shoal_set_vendor_dispatch(g_h, 1);

    /* A second handle lives beside the first. */
    shoal_handle h2 = NULL;
    st = shoal_create(&h2);
    ok = st == SHOAL_STATUS_SUCCESS && h2 != NULL;
    if (ok) {
        st = shoal_destroy(h2);
        ok = st == SHOAL_STATUS_SUCCESS;
    }
    printf("  second handle create/destroy: %s %s\n", shoal_status_string(st),
           ok ? "ok" : "FAILED");
    gpu_test_record(ok);
}

/* ------------------------------------------------------------------------------------------ */
/* Case table. */

enum kind { K_SIZES, K_RECT, K_LD, K_ONE, K_LARGE, K_AB, K_K0, K_SHARED, K_ARRAY, K_GRAPH,
            K_ZERO, K_HANDLE, K_TAIL, K_PAGE_END, K_NAN };

typedef struct tcase {
    char name[48];
    enum kind kind;
    char prec;
    int ta, tb;
} tcase;

static tcase g_cases[128];
static int g_ncases;

static void add_case(enum kind kind, char prec, int ta, int tb, const char *suffix)
{
    tcase *t = GPU_TEST_NEXT_CASE(g_cases, g_ncases);
    t->kind = kind;
    t->prec = prec;
    t->ta = ta;
    t->tb = tb;
    if (kind == K_SIZES || kind == K_RECT)
        gpu_test_case_name(t->name, sizeof t->name, "%c_%s_%s", prec, trans_str(ta, tb), suffix);
    else if (kind == K_HANDLE)
        gpu_test_case_name(t->name, sizeof t->name, "%s", suffix);
    else
        gpu_test_case_name(t->name, sizeof t->name, "%c_%s", prec, suffix);
}

static void build_cases(void)
{
    add_case(K_HANDLE, 0, 0, 0, "handle_info");
    for (int pi = 0; pi < 4; ++pi) {
        const char p = "sdcz"[pi];
        op_pair pr[9];
        const int np = op_pairs(p, PAIRS_REAL_ALL, PAIRS_COMPLEX_ALL, pr);
        for (int t = 0; t < np; ++t)
            add_case(K_SIZES, p, pr[t].ta, pr[t].tb, "sizes");
        for (int t = 0; t < np; ++t)
            add_case(K_RECT, p, pr[t].ta, pr[t].tb, "rect");
        add_case(K_LD, p, 0, 0, "ld_gaps");
        add_case(K_ONE, p, 0, 0, "batch_one");
        add_case(K_LARGE, p, 0, 0, "batch_large");
        add_case(K_AB, p, 0, 0, "alpha_beta");
        add_case(K_K0, p, 0, 0, "k_zero");
        add_case(K_SHARED, p, 0, 0, "shared_operand");
        add_case(K_ARRAY, p, 0, 0, "array_layout");
        add_case(K_GRAPH, p, 0, 0, "graph");
        add_case(K_ZERO, p, 0, 0, "zero_work");
        add_case(K_TAIL, p, 0, 0, "tail");
        if (gc_is_complex(p))
            add_case(K_NAN, p, 0, 0, "nan_isolation");
    }
    /* last: a kernel fault there loses the CUDA context (and the cases after it) */
    for (int pi = 0; pi < 4; ++pi)
        add_case(K_PAGE_END, "sdcz"[pi], 0, 0, "page_end");
}

static void run_case(const tcase *t)
{
    g_case_seed = gc_hash_string(t->name);
    g_run_index = 0;
    if (t->kind != K_ZERO && t->kind != K_HANDLE)
        print_header();
    switch (t->kind) {
    case K_SIZES: case_sizes(t->prec, t->ta, t->tb); break;
    case K_RECT: case_rect(t->prec, t->ta, t->tb); break;
    case K_LD: case_ld_gaps(t->prec); break;
    case K_ONE: case_batch_one(t->prec); break;
    case K_LARGE: case_batch_large(t->prec); break;
    case K_AB: case_alpha_beta(t->prec); break;
    case K_K0: case_k_zero(t->prec); break;
    case K_SHARED: case_shared_operand(t->prec); break;
    case K_ARRAY: case_array_layout(t->prec); break;
    case K_GRAPH: case_graph(t->prec); break;
    case K_ZERO: case_zero_work(t->prec); break;
    case K_HANDLE: case_handle_info(); break;
    case K_TAIL: case_tail(t->prec); break;
    case K_PAGE_END: case_page_end(t->prec); break;
    case K_NAN: case_nan_isolation(t->prec); break;
    }
}

static const char *case_name(int i) { return g_cases[i].name; }
static void run_index(int i) { run_case(&g_cases[i]); }

static int start(shoal_handle h)
{
    (void)h;
    CUDA_CHECK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&g_ev0));
    CUDA_CHECK(cudaEventCreate(&g_ev1));
    openblas_set_num_threads(1); /* the reference parallelizes over the batch itself */
    return 0;
}

static void finish(void)
{
    cudaEventDestroy(g_ev0);
    cudaEventDestroy(g_ev1);
    cudaStreamDestroy(g_stream);
}

int main(int argc, char **argv)
{
    build_cases();
    const gpu_test_suite suite = {g_ncases, case_name, run_index, start, finish};
    return gpu_test_main(argc, argv, &suite, &g_h);
}
