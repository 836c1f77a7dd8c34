/* One GPU test case of a spec routine (generated/spec_cases.c, from tests/cases/<r>.toml). */
#ifndef SHOAL_SPEC_CASES_H
#define SHOAL_SPEC_CASES_H

typedef struct spec_case {
    const char *name;
    int routine;                /* index into shoal_spec_routines */
    char prec;
    int pointer_array;
    int opts[4], dims[4];       /* the spec's order */
    long long batch;
    int ld_pad;
    int tail_offset;            /* -1: off; 0..3: operands end at their allocation's end, so
                                   offset; SPEC_HARNESS_PAGE_END (4): at a page end with the next
                                   page unmapped (spec_harness_init; `page_end = true`) */
    double alpha, beta;
    int nan;                    /* a NaN in problem 0 (nan_operand, nan_element); the others
                                   must pass */
    int vendor;                 /* let the tables route to the vendor */
    double alpha_im, beta_im;   /* imaginary parts of the scalars (complex precisions) */
    int nan_imag;               /* the NaN in the imaginary part only (complex precisions) */
    int nan_operand;            /* the operand (the spec's order) that holds the NaN: default 0 */
    long long nan_element;      /* its element offset in problem 0's storage (column-major, ld
                                   included): default 0; past the storage the case fails */
    int input;                  /* the first operand's values in every problem: SPEC_INPUT_*
                                   (oracle/spec_harness.h; `input` in tests/cases/README.md) */
    int driver;                 /* > 0: the routine's driver with this leaf size (panel width),
                                   called directly (shoal_spec_run_driver), not the dispatch */
} spec_case;

extern const spec_case spec_cases[];
extern const int spec_n_cases;

#endif
