/* The ways into GEMM's dispatch (runtime/gemm_api.c) and the variable-size GEMM's
 * (runtime/blas2_api.c), taken by the entry points that the generator emits from
 * spec/routines/{gemm,gemm_vbatched}.toml (abi = "gemm") into generated/gemm_entry.c after
 * checking the arguments and packing them. Free of CUDA headers, so the entry points build and
 * are tested on machines without the toolkit (tests/test_gemm_glue.py). */
#ifndef SHOAL_GEMM_RUN_H
#define SHOAL_GEMM_RUN_H

#include "shoal.h"
#include "blas2_abi.h"
#include "kernel_abi.h"

/* GEMM in precision prec ('s', 'd') on p, whose arguments are valid: a NULL handle ->
 * NOT_INITIALIZED; m, n or batch 0 -> SUCCESS; else the tuned kernel or cuBLAS (variant
 * 2 * ta + tb). */
shoal_status shoal_gemm_run(shoal_handle handle, char prec, shoal_operation ta, shoal_operation tb,
                            shoal_gemm_params *p);

/* The variable-size GEMM in precision prec and variant (2 * transa + transb) on p, whose
 * arguments are valid: a NULL handle -> NOT_INITIALIZED; max m, n or batch 0 -> SUCCESS; else
 * the tuned kernel. */
shoal_status shoal_gemm_vbatched_run(shoal_handle handle, char prec, int variant, shoal_gemm_vparams *p);

#endif
