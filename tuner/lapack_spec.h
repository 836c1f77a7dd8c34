/* What the generic factorization harness (tuner/measure_lapack.c, and the GPU tests) needs to
 * know about one routine: which operands it has, how to make valid inputs, and how to judge
 * an output. One spec per routine, in tuner/spec_<family>.c; looked up by name.
 *
 * Host side, double precision: the harness converts float data to double before a check and
 * converts generated inputs to float for 's'. All matrices of one problem are packed
 * column-major (ld = rows). Sizes: A is m x n; B is n x nrhs (solves) or n x n (inverses,
 * flag LAPACK_B_SQUARE); ipiv and tau have min(m, n) entries.
 *
 * Complex precisions (c, z): every element (of A, B and tau) is a (re, im) pair of doubles, so an
 * operand of rows x cols elements holds 2 rows cols doubles; generate gets is_complex and the
 * check reads lapack_problem.is_complex; eps is the unit roundoff of the real type (oracle_eps). */
#ifndef SHOAL_LAPACK_SPEC_H
#define SHOAL_LAPACK_SPEC_H

#ifdef __cplusplus
extern "C" {
#endif

enum lapack_operand_flags {
    LAPACK_A_OUT = 1 << 0,     /* A is overwritten (factorizations); else A is input only */
    LAPACK_B_IN = 1 << 1,      /* B holds input (right-hand sides) */
    LAPACK_B_OUT = 1 << 2,     /* B is written (solution, inverse) */
    LAPACK_B_SQUARE = 1 << 3,  /* B is n x n (inverse) instead of n x nrhs */
    LAPACK_IPIV_IN = 1 << 4,   /* pivots are an input (getrs, getri) */
    LAPACK_IPIV_OUT = 1 << 5,  /* pivots are an output (getrf, gesv) */
    LAPACK_TAU_OUT = 1 << 6,   /* geqrf */
    LAPACK_INFO_OUT = 1 << 7   /* per-matrix info is written */
};

/* One problem as the check sees it: inputs before the call and outputs after it. */
typedef struct lapack_problem {
    int m, n, nrhs;
    int variant;               /* index in the routine's variants (search space order) */
    int is_complex;            /* c, z: elements are (re, im) pairs of doubles */
    int conj;                  /* c/z getrs, variant t: op C (A^H; shoal_lapack_params.conj) */
    const double *A0, *B0;     /* inputs (B0 NULL without LAPACK_B_IN) */
    const int *ipiv0;          /* input pivots (LAPACK_IPIV_IN), 1-based */
    const double *A, *B;       /* outputs (A == A0 content-wise when A is input only) */
    const int *ipiv;           /* output pivots (LAPACK_IPIV_OUT) */
    const double *tau;         /* LAPACK_TAU_OUT */
    int info;                  /* reported info (0 without LAPACK_INFO_OUT) */
} lapack_problem;

typedef struct lapack_spec {
    const char *routine;       /* as in search_space/<routine>.toml */
    unsigned flags;            /* enum lapack_operand_flags */
    /* Inputs of one problem (packed): A (m x n), B when LAPACK_B_IN, ipiv when LAPACK_IPIV_IN.
     * Must be well conditioned enough that the check's bound holds in single precision, must
     * not be all zeros, and must differ with the seed. Pointers of absent operands are NULL. */
    void (*generate)(int m, int n, int nrhs, int variant, int is_complex, unsigned long long seed,
                     double *A, double *B, int *ipiv);
    /* Normalized error of one problem in units of eps (e.g. ||PA - LU|| / (n ||A|| eps));
     * INFINITY (or NaN) when something is wrong that no tolerance excuses (bad info, pivots out
     * of range, an output left unwritten). The harness accepts error <= LAPACK_ERROR_LIMIT. */
    double (*check)(const lapack_problem *p, double eps);
} lapack_spec;

#define LAPACK_ERROR_LIMIT 30.0

/* NULL when no spec has this name. */
const lapack_spec *lapack_spec_find(const char *routine);

#ifdef __cplusplus
}
#endif
#endif
