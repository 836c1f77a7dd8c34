/* What the glue tests (tests/c/test_{lapack,blas2,gemm}_glue.c) share: the seeded random grid
 * and the loop that makes every call both ways, old and new, and compares them. Each test keeps
 * its own arguments, calls, mock runs and record; this loop only sees them through glue_test.
 * Linked into each test by tests/glue_util.py. */
#ifndef SHOAL_GLUE_COMMON_H
#define SHOAL_GLUE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "shoal.h"

/* xorshift64: the grid is the same on every machine for a seed */
uint64_t glue_next(void);
int64_t glue_pick(const int64_t *v, size_t n);
#define PICK(...) glue_pick((const int64_t[]){__VA_ARGS__}, sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))

/* The op a side of the comparison is given: the one change since the hand-written entry points
 * is SHOAL_OP_C, which they rejected and which is SHOAL_OP_T in s and d, so the old side gets T
 * where the new side gets C. */
static inline shoal_operation glue_op(int old, int op)
{
    return (shoal_operation)(old && op == SHOAL_OP_C ? SHOAL_OP_T : op);
}

/* One line of the report: a routine in one form, as its entry points are named without the
 * precision (getrf_batched, gemv_vbatched). */
typedef struct glue_unit {
    const char *name;
    int routine;
    int array; /* 1: the pointer-array (or vbatched) form, 0: the strided one */
} glue_unit;

/* A unit's calls that matched, by what became of them (the test's tally decides). */
typedef struct glue_counts {
    long reached, rejected, quick, routed;
} glue_counts;

typedef struct glue_test {
    const glue_unit *units;
    int n_units;
    void *args;          /* the test's argument set, filled by random_args */
    void *record;        /* the test's mock record; its first member is int calls */
    size_t record_size;
    void (*random_args)(const glue_unit *u, void *args);
    shoal_status (*call)(int old, const glue_unit *u, char prec, const void *args);
    /* which part of two records of reached runs differs, or NULL */
    const char *(*differs)(const void *old_record, const void *new_record);
    void (*print_args)(const void *args);
    void (*tally)(const glue_unit *u, shoal_status s, const void *record, glue_counts *c);
    void (*report)(const glue_unit *u, const glue_counts *c);
} glue_test;

/* main's: argv[1] cases per unit and precision (default 20000), argv[2] the seed. Prints the
 * first mismatches, one report line per unit, then "N cases, R reached run, B rejected,
 * M mismatches"; returns whether there was a mismatch. */
int glue_main(const glue_test *t, int argc, char **argv);

#endif
