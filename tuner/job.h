/* The tuner's job file (docs/internals.md, section 3): modules to compile, tasks to measure. */
#ifndef SHOAL_TUNER_JOB_H
#define SHOAL_TUNER_JOB_H

typedef struct tuner_module {
    int id;
    char src[1024];
} tuner_module;

typedef struct tuner_task {
    long long id;
    char routine[16];
    char prec;
    int array_mode;
    int variant;
    int m, n, k;
    long long batch;
    char kernel[256];
    int module;   /* -1: vendor */
    char design[16];
    int dim_x, dim_y;
    int p[5];
} tuner_task;

typedef struct tuner_job {
    int device;
    char include_dir[1024];
    char cubin_dir[1024];
    tuner_module *modules;
    int n_modules;
    tuner_task *tasks;
    int n_tasks;
} tuner_job;

/* Returns 0 on success; on a malformed line prints where and returns -1. */
int tuner_job_read(const char *path, tuner_job *job);
void tuner_job_free(tuner_job *job);

#endif
