/* Host references and residual checks of the spec routines (spec/routines/<r>.toml names its
 * oracle): one place, used by the tuner (tuner/measure_spec.c), the GPU tests and the benchmark.
 *
 * Host side, double precision: callers convert float data to double before a check. Every
 * operand of one problem is packed column-major with ld = its rows. Complex precisions (c, z):
 * every element is a (re, im) pair of doubles, the layout of C99's double _Complex, so an operand
 * of rows x cols elements holds 2 rows cols doubles; the oracle reads is_complex and alpha_im. */
#ifndef SHOAL_ORACLE_H
#define SHOAL_ORACLE_H

#include "host_math.h" /* oracle_uniform: the generators' random numbers */

#ifdef __cplusplus
extern "C" {
#endif

#define ORACLE_MAX_OPERANDS 5 /* gebrd: A, d, e, tauq, taup */

/* One problem as a check sees it: the spec's dims, options and scalars, and per operand
 * (spec order) its shape, the input before the call and the output after it. */
typedef struct oracle_problem {
    int dims[4];
    int opts[4];
    double alpha, beta;                      /* real parts */
    double alpha_im, beta_im;                /* imaginary parts (complex precisions) */
    int is_complex;                          /* elements are (re, im) pairs of doubles */
    int rows[ORACLE_MAX_OPERANDS], cols[ORACLE_MAX_OPERANDS];
    const double *in[ORACLE_MAX_OPERANDS];   /* before the call */
    const double *out[ORACLE_MAX_OPERANDS];  /* after the call (== content of in for inputs) */
    int info;                                /* reported info (0 without one) */
} oracle_problem;

typedef struct oracle {
    const char *name;                        /* as a spec's `oracle` names it */
    /* Fills the inputs of one problem (in[o] of every operand, packed, rows x cols): random,
     * never all zeros, differing with the seed, conditioned so that the check's bound holds in
     * single precision (e.g. a triangle with a dominant diagonal). */
    void (*generate)(const oracle_problem *shape, unsigned long long seed, double *const in[]);
    /* Normalized error in units of eps (e.g. ||op(A) X - alpha B|| / (||A|| ||X|| t eps)), eps
     * the unit roundoff of the precision's real type; complex: the same normalization with
     * complex arithmetic and |x|^2 = re^2 + im^2 in the norms;
     * INFINITY when something is wrong that no tolerance excuses (an element outside the
     * operand's referenced part changed, a NaN where the reference is finite). */
    double (*check)(const oracle_problem *p, double eps);
} oracle;

#define ORACLE_ERROR_LIMIT 30.0

/* NULL when no oracle has this name. */
const oracle *oracle_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
