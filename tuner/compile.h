/* Compiling candidate modules at run time with NVRTC, in parallel over host cores. */
#ifndef SHOAL_TUNER_COMPILE_H
#define SHOAL_TUNER_COMPILE_H

#include <stddef.h>
#include "job.h"

typedef struct compiled_module {
    int id;
    int ok;
    char *cubin;        /* NULL when !ok */
    size_t cubin_size;
    char log[2048];     /* first part of the NVRTC log when !ok */
} compiled_module;

/* Compiles every module of the job for sm_<cc_major><cc_minor> with `threads` workers. A cubin
 * is cached in job->cubin_dir under a hash of its source and options, so a tuner restarted after
 * a crash does not compile again. Returns an array of job->n_modules results. */
compiled_module *tuner_compile_all(const tuner_job *job, int cc_major, int cc_minor, int threads);
void tuner_compiled_free(compiled_module *mods, int n);

#endif
