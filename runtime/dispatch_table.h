/* Types of the dispatch tables emitted into generated/ by the generator (never by hand).
 *
 * A table holds, for one tuned device, one rule per tuned shape: which kernel won overall
 * ("best", may be the vendor) and which of shoal's own kernels won ("own"). The runtime picks
 * the table (device -> same compute capability -> lower capability -> portable default) once in
 * shoal_create, and the rule per call (nearest tuned shape whose kernel can serve the call). */
#ifndef SHOAL_DISPATCH_TABLE_H
#define SHOAL_DISPATCH_TABLE_H

#define SHOAL_KERNEL_VENDOR (-1)     /* rule.best == this: call cuBLAS */

enum shoal_design {
    SHOAL_DESIGN_TILED = 1,          /* classic BLK_M x BLK_N x BLK_K tiling, one tile per block */
    SHOAL_DESIGN_STAGED = 2,         /* whole small problems in shared memory, MPB per group, pipelined
                                        (strided batches) */
    SHOAL_DESIGN_REGS = 3,           /* factorizations: a problem in a thread team's registers */
    SHOAL_DESIGN_SMEM = 4,           /* factorizations: a problem in shared memory */
    SHOAL_DESIGN_SERIAL = 5,         /* factorizations: a problem per thread (tiny sizes) */
    SHOAL_DESIGN_GROUP = 6,          /* gemv: MPB whole problems per block through shared memory */
    SHOAL_DESIGN_STREAM = 7,         /* gemv: A streamed in vector loads, BLK outputs per block */
    SHOAL_DESIGN_BLOCKED = 8,        /* trsv: blocked substitution, a warp or a block per problem */
    SHOAL_DESIGN_VTILED = 9,         /* gemm_vbatched: tiles shaped for the maxima, early exit */
    SHOAL_DESIGN_STAGED_PTR = 10,    /* the staged design for pointer arrays, moved problem by problem */
    SHOAL_DESIGN_GROUP_PTR = 11,     /* gemv: the group design for pointer arrays, pipelined, problem by
                                        problem */
    SHOAL_DESIGN_VMMA = 12,          /* gemm_vbatched, double: vtiled's grid on FP64 tensor cores */
    SHOAL_DESIGN_DMMA = 13,          /* gemm, double: the vmma loop on fixed sizes, tiled's grid */
    SHOAL_DESIGN_TALL = 14,          /* getrf: a tall panel (m <= p[0], n <= p[1]) per block of p[2]
                                        threads */
    /* spec routines (runtime/spec_run.h): the driver's entry (p[0] = its leaf size), and the
       kernels, SHOAL_DESIGN_SPEC + the design's index in the search space */
    SHOAL_DESIGN_DRIVER = 31,
    SHOAL_DESIGN_SPEC = 32
};

enum shoal_mode { SHOAL_MODE_STRIDED = 0, SHOAL_MODE_ARRAY = 1 };

typedef struct shoal_kernel_desc {
    const char *name;                /* encodes the whole configuration */
    char precision;                  /* 's', 'd' */
    unsigned char variant;           /* GEMM: trans_a * 2 + trans_b; else the index in the
                                        routine's variants */
    unsigned char design;            /* enum shoal_design */
    short dim_x, dim_y;              /* threads */
    short p[5];                      /* TILED, DMMA: BLK_M, BLK_N, BLK_K; STAGED, STAGED_PTR: MPB, TM, TN, FLAT;
                                        REGS, SMEM, SERIAL: N, NB, design-specific p[2], p[3], and
                                        PF in p[4] (REGS, SERIAL: 1 = a resident grid whose teams or
                                        blocks prefetch their next problems; docs/lapack.md);
                                        TALL: M, NC, T (rows, columns, threads);
                                        GROUP, GROUP_PTR, STREAM, BLOCKED, VTILED, VMMA:
                                        docs/blas2.md */
    const void *func;                /* host stub of the __global__ function */
    int arch_floor;                  /* tuned-only kernels: the lowest __CUDA_ARCH__ (compute
                                        capability x 100) of the tables that name it; below it the
                                        kernel is a __trap() (generator/emit.py _arch_floor,
                                        docs/internals.md). 0: it runs on every device (the
                                        portable defaults and fallbacks) */
} shoal_kernel_desc;

typedef struct shoal_rule {
    char precision;
    unsigned char mode;              /* enum shoal_mode */
    unsigned char variant;
    int dims[3];                     /* GEMM: m, n, k; factorizations: m, n, nrhs (1 without) */
    short best;                      /* index into the kernel array or SHOAL_KERNEL_VENDOR */
    short own;                       /* best of shoal's own kernels; -1 if none was valid */
} shoal_rule;

typedef struct shoal_table {
    const char *routine;             /* "gemm" */
    const char *device_name;         /* as cudaGetDeviceProperties reports it */
    int cc_major, cc_minor;
    const shoal_rule *rules;
    int n_rules;
} shoal_table;

/* Emitted by the generator, one set per routine. The portable default per (precision,
 * variant) indexes the kernel array: [precision index * n_variants + variant], precisions in
 * the search space's order (shoal_<r>_precisions: "sd", "sdcz"). */
#define SHOAL_ROUTINE_TABLES(r)                                                                  \
    extern const shoal_kernel_desc shoal_##r##_kernels[];                                        \
    extern const int shoal_##r##_n_kernels;                                                      \
    extern const shoal_table shoal_##r##_tables[];                                               \
    extern const int shoal_##r##_n_tables;                                                       \
    extern const short shoal_##r##_default_kernel[];                                             \
    extern const char shoal_##r##_precisions[];

SHOAL_ROUTINE_TABLES(gemm)
SHOAL_ROUTINE_TABLES(getrf)
SHOAL_ROUTINE_TABLES(getrs)
SHOAL_ROUTINE_TABLES(gesv)
SHOAL_ROUTINE_TABLES(getri)
SHOAL_ROUTINE_TABLES(getri_fused)
SHOAL_ROUTINE_TABLES(potrf)
SHOAL_ROUTINE_TABLES(potrs)
SHOAL_ROUTINE_TABLES(posv)
SHOAL_ROUTINE_TABLES(geqrf)
SHOAL_ROUTINE_TABLES(gemv)
SHOAL_ROUTINE_TABLES(trsv)
SHOAL_ROUTINE_TABLES(gemv_vbatched)
SHOAL_ROUTINE_TABLES(gemm_vbatched)
/* the spec routines' tables are declared by their registry (generated/spec_registry.c) */

#endif
