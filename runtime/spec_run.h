/* Routines declared by a spec (spec/routines/<r>.toml): one call record, one registry entry per
 * routine (emitted into generated/spec_registry.c), one dispatch path (runtime/spec_run.c).
 *
 * The emitted entry points check their arguments in the documented order, pack the call into a
 * shoal_spec_call and hand it to shoal_spec_run, which picks what serves it: a tuned kernel, the
 * vendor (where it won the tuning and can take the call), or the routine's driver (a sequence
 * of dispatched steps, runtime/drivers/). */
#ifndef SHOAL_SPEC_RUN_H
#define SHOAL_SPEC_RUN_H

#include <cublas_v2.h>
#include "dispatch_table.h"
#include "shoal.h"
#include "spec_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct shoal_context;

typedef struct shoal_spec_call {
    int routine;                    /* index into shoal_spec_routines */
    char prec;                      /* 's', 'd', 'c', 'z' */
    int mode;                       /* enum shoal_mode: strided or pointer arrays */
    shoal_spec_params p;            /* dims, options, scalars, operands, batch: the kernel's block */
} shoal_spec_call;

/* How a vendor or peer call ended. */
enum { SHOAL_SPEC_VENDOR_OK = 0, SHOAL_SPEC_VENDOR_FAILED = 1, SHOAL_SPEC_VENDOR_CANNOT = 2 };

typedef struct shoal_spec_routine {
    const char *name;
    const char *variants;           /* letters, e.g. "lr" */
    int n_variants;
    int variant_option;             /* opts[] index whose value is the variant */
    int n_dims, n_options, n_operands;
    const char *dim_names;          /* one letter per dim, e.g. "mn": its slot in the rule's (m, n, k) */
    const char *operand_names;      /* e.g. "AB" */
    const char *operand_access;     /* per operand: 'i' in, 'o' out, 'b' in and out */
    const char *operand_kinds;      /* per operand: 'm' matrix, 'v' vector (no ld in the call: max(1, rows)),
                                       'r' vector of the real type in every precision (gebrd's d, e) */
    const char *oracle;             /* oracle/oracle.h name */
    const char *designs;            /* kernel designs, space-separated: SHOAL_DESIGN_SPEC + index */
    const shoal_kernel_desc *kernels;
    const int *n_kernels;
    const shoal_table *tables;
    const int *n_tables;
    const short *default_kernel;    /* [precision index * n_variants + variant] */
    const char *precisions;         /* tuned precisions, e.g. "sd": the default_kernel order */
    /* the rule's (m, n, k) of a call: spec dims in their slots, 1 elsewhere */
    void (*slots)(const shoal_spec_call *c, int dims[3]);
    int (*quick_return)(const shoal_spec_call *c);
    int (*kernels_serve)(const shoal_spec_call *c);          /* the spec's `kernels` rule */
    int (*driver_serves)(const shoal_spec_call *c);          /* its `driver_serves` rule (where both
                                                                serve, the tuned tables choose) */
    int (*fits)(const shoal_kernel_desc *kd, const shoal_spec_call *c);
    long long (*grid_y)(const shoal_kernel_desc *kd, const shoal_spec_call *c);
    /* bytes of dynamic shared memory from the design's launch rule `smem` (0 without one: the
     * kernel's shared memory is static) */
    long long (*smem)(const shoal_kernel_desc *kd, const shoal_spec_call *c);
    void (*operand_shape)(const shoal_spec_call *c, int o, long long *rows, long long *cols);
    double (*flops)(const shoal_spec_call *c);               /* per problem */
    double (*bytes)(const shoal_spec_call *c);               /* per problem */
    /* NULL where the spec has none; the vendor takes pointer arrays, int sizes and counts */
    int (*vendor)(cublasHandle_t h, const shoal_spec_call *c);
    int (*peer)(cublasHandle_t h, const shoal_spec_call *c);  /* the benchmark's peer */
    shoal_status (*driver)(struct shoal_context *ctx, const shoal_spec_call *c, int leaf);
    /* how much a kernel holds (the search space's design `extent`); NULL where no design says:
     * then a call no tuned rule serves runs the portable default, else the shipped kernel of
     * least extent that fits and that the device can run (the routine's fallbacks) */
    long long (*extent)(const shoal_kernel_desc *kd);
} shoal_spec_routine;

extern const shoal_spec_routine shoal_spec_routines[];
extern const int shoal_spec_n_routines;

/* Index of a routine by name, -1 if no spec declares it. */
int shoal_spec_routine_id(const char *name);

/* SHOAL_DESIGN_SPEC + the index of a design name of the routine, -1 if it has none such. */
int shoal_spec_design_id(const shoal_spec_routine *ri, const char *design);

/* Element bytes of a precision letter (from spec/precisions via the generator). */
int shoal_spec_elem_bytes(char prec);
/* 1 for a complex precision letter (c, z), 0 otherwise (spec/precisions.toml via the generator). */
int shoal_spec_is_complex(char prec);
/* Element bytes of operand o of a call: the precision's, or its real type's for a real vector
 * (kind 'r': gebrd's d and e, half of c's and z's). */
int shoal_spec_operand_elem_bytes(const shoal_spec_call *c, int o);

/* The dispatch path of every spec routine: handle check, quick return, then a tuned kernel, the
 * vendor or the driver. Arguments are valid (the entry points checked them). */
shoal_status shoal_spec_run(shoal_handle handle, const shoal_spec_call *c);

/* Steps of drivers: the call served by a kernel of the routine (never the vendor or the driver;
 * the tuned rules among kernels, else the portable default), for sizes the kernels serve. */
shoal_status shoal_spec_run_kernel(struct shoal_context *ctx, const shoal_spec_call *c);

/* The routine's driver with the given leaf size, bypassing the tables: what the tuner times as
 * the driver candidate. */
shoal_status shoal_spec_run_driver(shoal_handle handle, const shoal_spec_call *c, int leaf);

/* Which kernel serves this call ("vendor", "driver:<leaf>" or a kernel name): for tests. */
const char *shoal_spec_served_by(shoal_handle handle, const shoal_spec_call *c);

/* Launch of a spec kernel of routine ri (runtime/spec_launch.c): block (dim_x, dim_y), grid.x
 * over groups of dim_y problems (at most 2^20, kernels loop), grid.y and the dynamic shared
 * memory from the design's launch rules (grid.y at most 65535, kernels loop). The tuner launches
 * through here too. */
cudaError_t shoal_spec_launch(const shoal_spec_routine *ri, const shoal_kernel_desc *kd, const shoal_spec_call *c,
                              cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
