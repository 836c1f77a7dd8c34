/* What the GPU tests of the variable-size batched Cholesky routines share
 * (test_potrf_vbatched_gpu.c: potrf_vbatched; test_posv_vbatched_gpu.c: potrs_vbatched and
 * posv_vbatched): the batch's members (sizes from a case's distribution, leading dimensions,
 * defects, where they lie in a host image), the host images (SPD matrices, right-hand sides, the
 * poisoned junk around them), the device copies (pointer and size arrays of exactly batch entries
 * at the end of their allocations), and the checks (untouched storage, the factor's and the
 * solution's residuals in double, the twin comparison, failure lines).
 *
 * Inputs: member i (order n) is A = B B^H + n I, B random lower triangular with entries uniform
 * in [-1, 1) (both parts in c and z), from a hash of the case name and i; rounded to the
 * precision, and the rounded values are what the checks read back. Around the referenced
 * triangle everything holds junk that must come back bit for bit: the other triangle (NaNs with a
 * payload and +-1e30, so a kernel that reads or writes it is caught either way), the padding rows
 * n..lda-1 (NaNs), the gaps between members and a guard after the last one (NaNs); in c and z the
 * diagonal's imaginary parts are NaNs too (they must not be read). Right-hand sides (where the
 * routine has them): B_i's n x nrhs entries uniform in [-1, 1), its padding rows n..ldb-1, the gaps
 * and the guard NaNs; a member with nrhs 0 keeps one stored column of them outside the tail
 * layout. Members lie at 16-byte-aligned offsets (odd element offsets where the shape asks);
 * info is poisoned (VC_INFO_POISON) before every call. */
#ifndef SHOAL_TESTS_VBATCHED_CHOL_H
#define SHOAL_TESTS_VBATCHED_CHOL_H

#include <stdint.h>

#include "gpu_test.h"

#define VC_RESIDUAL_LIMIT 30.0
#define VC_MAX_SUPPORTED_N 1024
#define VC_GAP 3               /* poisoned elements between members, and after the last one */
#define VC_INFO_POISON (-777)  /* info before a call: every entry must be written (or left, where no work) */
#define VC_MAX_REPORTS 8       /* failure lines per run; the rest are counted */
#define VC_JUNK_BIG 1e30       /* half of the other triangle: a read of it blows the residual up */
#define VC_PARALLEL_ORDER 192  /* members from this order on are handled one at a time, in parallel inside */

/* ------------------------------------------------------------------------------------------ */
/* Random numbers: a counter-based hash, so members can be drawn in any order (in parallel) */

uint64_t vc_mix64(uint64_t x);
uint64_t vc_hash_string(const char *s);
double vc_urand(uint64_t seed, uint64_t a, uint64_t b); /* uniform in [-1, 1), 24 significant bits */
int vc_irand(uint64_t seed, uint64_t a, uint64_t b, int lo, int hi); /* uniform in [lo, hi] */

/* ------------------------------------------------------------------------------------------ */
/* Members */

/* Size distributions of the orders n (N: the distribution's size) */
typedef enum vc_dist {
    VC_EQUAL,   /* N */
    VC_UNIFORM, /* 1..N */
    VC_SKEWED,  /* most small, a few large: 1 + floor((N - 1) u^3) */
    VC_ZEROS,   /* 0..N, every fourth member (i % 4 == 1) 0 */
    VC_HUGE,    /* N for the member a third into the batch, 1..8 for the others */
    VC_SPIKED,  /* 300 every fiftieth member (i % 50 == 7), 1..N for the others */
    VC_TAIL,    /* 200 for the member half-way into the batch, 0..N for the others */
    VC_CYCLE    /* i % 4 + 1 (the status cases) */
} vc_dist;

typedef enum vc_defect {
    D_NONE,
    D_NEG_DIAG, D_ZERO_DIAG, D_NAN_DIAG, D_NAN_OFF, /* not positive definite: info = j + 1 */
    D_N_NEG, D_N_BIG, D_LDA_SMALL,                   /* invalid: untouched, info < 0 */
    D_NRHS_NEG, D_NRHS_BIG, D_LDB_SMALL
} vc_defect;

typedef struct vc_member {
    int n, lda;        /* as passed */
    int sn, sld;       /* the order and leading dimension of what is stored (an invalid n stores
                          a stand-in, an lda too small stores n rows) */
    int64_t off;       /* element offset in the A image */
    int64_t count;     /* elements of storage: sld * sn, or to A(sn-1, sn-1) in the tail case */
    int nrhs, ldb;     /* as passed (routines with right-hand sides) */
    int snrhs, sldb;   /* what is stored: snrhs columns of sldb (>= sn) rows */
    int64_t boff;      /* element offset in the B image */
    int64_t bcount;    /* elements: sldb * snrhs, or to B(sn-1, snrhs-1) in the tail case */
    vc_defect defect;
    int j, k;          /* the defect's row, and (D_NAN_OFF) its column k < j: lower-triangle terms */
    int want;          /* the info it must get */
} vc_member;

typedef struct vc_batch {
    char prec;
    shoal_fill_mode uplo;
    int es, w;          /* element bytes; reals per element (2 in c, z) */
    int64_t batch;
    int max_n, max_nrhs;
    int rhs;            /* the routine has right-hand sides (B, nrhs, ldb) */
    int tail;           /* every member in an allocation of its own (gpu_test_tail_alloc) */
    vc_dist dist;
    int size;           /* N of the distribution */
    vc_member *m;
    int64_t total;      /* elements of the A image */
    int64_t btotal;     /* elements of the B image (0 without right-hand sides) */
    uint64_t seed;
} vc_batch;

/* Starts batch s: precision, uplo, the batch (through gpu_test_batch), the seed (a hash of name),
 * members of orders drawn from dist and lda = max(1, n) + pad, pad uniform in pad_lo..pad_hi
 * (none where pad_hi is 0); nrhs and ldb 0 (the caller sets them where s->rhs). max_n is the
 * largest order (the caller may change it). */
void vc_plan_sizes(vc_batch *s, char prec, shoal_fill_mode uplo, const char *name, vc_dist dist, int size,
                   long long batch, int pad_lo, int pad_hi);

/* The order of member i under the batch's distribution. */
int vc_draw_size(const vc_batch *s, int64_t i);

/* The defect of member i of a non-SPD (nan 0) or NaN (nan 1) batch (D_NONE for most), its row j
 * (and column k), and the stored matrix to go with it. */
void vc_draw_breakdown(const vc_batch *s, int64_t i, vc_member *m, int nan);

/* Whether the defect makes the member's arguments invalid (it is not touched). */
static inline int vc_is_invalid(vc_defect d) { return d >= D_N_NEG; }

/* Whether the call may write member m's referenced triangle (a valid member with work). */
static inline int vc_may_write(const vc_member *m) { return !vc_is_invalid(m->defect) && m->n > 0; }

/* Whether the call may write member m's right-hand sides (it solves: info 0, n and nrhs > 0). */
static inline int vc_may_solve(const vc_member *m) { return m->want == 0 && m->n > 0 && m->nrhs > 0; }

/* Lays the members out (want already set): offsets and counts in the A and B images, 16-byte
 * aligned, odd element offsets with odd; the tail layout ends each at its last element. */
void vc_layout(vc_batch *s, int odd);

/* The twin of a batch: the defective members healthy, the invalid ones given n = 0 (and nrhs 0,
 * lda = ldb = 1; storage kept, so the images differ only inside the defective members'
 * referenced triangles), every want 0. */
vc_member *vc_twin_members(const vc_batch *s);

/* ------------------------------------------------------------------------------------------ */
/* Host images */

enum vc_poison { P_GAP, P_PAD, P_TRI, P_IMAG };
void vc_poison_part(const vc_batch *s, unsigned char *img, int64_t e, int part, enum vc_poison p);

/* Whether (r, c) of a stored member is in the triangle uplo references (diagonal included). */
static inline int vc_referenced(shoal_fill_mode uplo, int r, int c) { return uplo == SHOAL_FILL_LOWER ? r >= c : r <= c; }

/* fn(ctx, i) for every member i of mem: the small ones in parallel, then the large ones one at a
 * time (each parallel inside where it calls vc_lower_gram). */
void vc_each_member(const vc_batch *s, const vc_member *mem, void (*fn)(void *ctx, int64_t i), void *ctx);

/* The image of the matrices of a batch: every member, the gaps and the guard. */
unsigned char *vc_make_image(const vc_batch *s, const vc_member *mem);

/* The image of the right-hand sides (s->btotal elements). */
unsigned char *vc_make_rhs_image(const vc_batch *s, const vc_member *mem);

/* Member m of an image in lower-triangle terms (row-major n x n, w doubles an element, r >= c):
 * the upper triangle's entries conjugated; the diagonal's imaginary parts as stored. */
void vc_load_lower(const vc_batch *s, const vc_member *m, const unsigned char *img, double *X);

/* ------------------------------------------------------------------------------------------ */
/* Device side */

typedef struct vc_dev {
    void *buf, *buf_alloc;   /* one buffer holding the A image (not tail) */
    void *bbuf, *bbuf_alloc; /* and the B image */
    void **allocs, **ballocs; /* tail: each member's own allocations */
    void **ptrs, **bptrs;    /* the device address of each member's storage */
    int *dn, *dlda, *dinfo, *dnrhs, *dldb;
    void **dptrs, **dbptrs;
    void *n_alloc, *lda_alloc, *info_alloc, *ptrs_alloc, *nrhs_alloc, *ldb_alloc, *bptrs_alloc;
} vc_dev;

/* Device storage for batch s: the arrays of exactly batch entries at the end of their allocations. */
void vc_dev_setup(const vc_batch *s, vc_dev *d);
void vc_dev_free(const vc_batch *s, vc_dev *d);

/* Copies the A image, mem's sizes, the pointers and a poisoned info to the device; and the B
 * image where bimg is not NULL. */
void vc_upload(const vc_batch *s, const vc_dev *d, const vc_member *mem, const unsigned char *img,
               const unsigned char *bimg);

/* What came back from a call: the storage (the images with the device's members copied over
 * them), info, and whether the size and pointer arrays are as they went. */
typedef struct vc_result {
    unsigned char *out, *bout; /* bout NULL without right-hand sides */
    int *info;
    int arrays_kept;
} vc_result;

void vc_download(const vc_batch *s, const vc_dev *d, const vc_member *mem, const unsigned char *img,
                 const unsigned char *bimg, vc_result *res);
void vc_result_free(vc_result *r);

/* ------------------------------------------------------------------------------------------ */
/* Judging */

/* A failure line of the current run, the first VC_MAX_REPORTS of them; *count counts them all. */
void vc_report(int *count, const char *run, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Every element of the A image outside the referenced triangles of the members the call may write
 * (none where a_written is 0) is bit for bit as in img: the other triangles, padding rows,
 * invalid members, gaps and the guard. */
void vc_check_untouched(const vc_batch *s, const vc_member *mem, const unsigned char *img, const unsigned char *out,
                        int a_written, const char *run, int *bad);

/* Every element of the B image outside the n x nrhs blocks of the members that solve
 * (vc_may_solve) is bit for bit as in bimg. */
void vc_check_rhs_untouched(const vc_batch *s, const vc_member *mem, const unsigned char *bimg,
                            const unsigned char *bout, const char *run, int *bad);

/* Residuals and diagonals of the factors of every member that factored (may write, want 0, info
 * 0): ||A - L L^H||_F / (||A||_F n eps) <= VC_RESIDUAL_LIMIT, a real positive diagonal. */
void vc_check_factors(const vc_batch *s, const vc_member *mem, const unsigned char *img, const vc_result *res,
                      const char *run, int *bad);

/* Residuals of the solutions of every member that solved (vc_may_solve, info 0): with A the
 * Hermitian matrix of img (the diagonal's imaginary parts taken as 0), B of bimg, X of bout,
 * ||A X - B||_F / (||A||_F ||X||_F n eps) <= VC_RESIDUAL_LIMIT. */
void vc_check_solutions(const vc_batch *s, const vc_member *mem, const unsigned char *img,
                        const unsigned char *bimg, const vc_result *res, const char *run, int *bad);

/* info[i] == mem[i].want for every member. */
void vc_check_info(const vc_batch *s, const vc_member *mem, const vc_result *res, const char *run, int *bad);

/* The members of the run that are not defective must come out as in the twin run: their A and B
 * storage and info. Returns the number of differences. */
int vc_compare_twin(const vc_batch *s, const vc_result *twin, const vc_result *res);

/* One host-level answer of a status case: a run of its own. */
void vc_expect(const char *what, shoal_status got, shoal_status want);

/* Prints the failure total of a run where it exceeded the lines shown. */
void vc_report_total(const char *run, int bad);

#endif
