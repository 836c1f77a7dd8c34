/* Verifying and timing one tuning task on the GPU. */
#ifndef SHOAL_TUNER_MEASURE_H
#define SHOAL_TUNER_MEASURE_H

#include <cublas_v2.h>
#include <cusolverDn.h>
#include "job.h"

typedef struct task_result {
    const char *status;   /* ok, wrong, launch_failed, compile_failed, pruned */
    char reason[256];
    double median_ms, min_ms, error;
    int regs, smem, resident_threads;
    int context_lost;     /* a sticky CUDA error: the process must end */
} task_result;

struct lapack_bufs;
struct blas2_bufs;
struct vgemm_bufs;
struct spec_bufs;
struct shoal_context;

typedef struct measure_env {
    cublasHandle_t cublas;
    cusolverDnHandle_t cusolver;
    int smem_optin;
    int sm_count;
    int timed_runs;
    /* operands of the current shape, reused by every candidate of that shape */
    char key[128];
    void *A, *B, *C, *R;
    void **Ap, **Bp, **Cp;
    long long verify_batch;
    struct lapack_bufs *lapack;   /* operands of the current factorization shape */
    struct blas2_bufs *blas2;     /* ... of the current gemv / trsv / gemv_vbatched shape */
    struct vgemm_bufs *vgemm;     /* ... of the current gemm_vbatched shape */
    struct spec_bufs *spec;       /* ... of the current spec routine's shape (measure_spec.c) */
    struct shoal_context *shoal;  /* a library handle: spec drivers run through the library */
} measure_env;

/* kernel is a cudaKernel_t cast to a pointer (NULL for the vendor task). */
void tuner_measure(measure_env *env, const tuner_task *t, const void *kernel, task_result *res);
void tuner_measure_release(measure_env *env);

#endif
