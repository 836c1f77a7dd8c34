/* Shared by the measuring code of each routine family (measure_gemm.c, measure_lapack.c). */
#ifndef SHOAL_TUNER_MEASURE_INTERNAL_H
#define SHOAL_TUNER_MEASURE_INTERNAL_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include "dispatch_table.h"
#include "host_transfer.h" /* tuner_upload, _download, _tile, _alloc (oracle/) */
#include "measure.h"

#define WARMUP_RUNS 2

/* Records a failed CUDA call: status, reason and whether the context is gone. */
void tuner_fail(task_result *res, const char *status, cudaError_t e, const char *what);

/* One timed run: `prepare` (may be NULL) runs untimed before each run, e.g. to restore inputs
 * that the routine overwrites; `run` is timed between its own pair of events. */
typedef cudaError_t (*tuner_step_fn)(void *ctx);
cudaError_t tuner_time_runs(int runs, tuner_step_fn prepare, tuner_step_fn run, void *ctx, task_result *res);

/* A seed from a shape's key (FNV-1a): fresh data per shape, the same data on a rerun. */
unsigned long long tuner_key_seed(const char *key);


/* The families: verify the candidate (kd, or the vendor when kd is NULL) then time it. */
void tuner_measure_gemm(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res);
void tuner_measure_lapack(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res);
void tuner_measure_blas2(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res);
void tuner_measure_vbatched(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res);
void tuner_release_gemm(measure_env *env);
void tuner_release_lapack(measure_env *env);
void tuner_release_blas2(measure_env *env);
void tuner_release_vbatched(measure_env *env);
/* Spec routines (spec/routines/): kd is a kernel, or NULL for the vendor or the driver. */
void tuner_measure_spec(measure_env *env, const tuner_task *t, const shoal_kernel_desc *kd, task_result *res);
/* The spec call's dims and options that task t of spec routine `routine` stands for; -1 where
 * the registry names a dim no task slot carries. */
int tuner_spec_task_args(const tuner_task *t, int routine, int dims[4], int opts[4]);
void tuner_release_spec(measure_env *env);

#endif
